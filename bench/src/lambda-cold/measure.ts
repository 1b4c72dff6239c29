import { execFile } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { AvroSerializer } from '@x/avro-serde'
import { RegistryClient, takeSnapshot } from '@x/registry-client'
import type { InMemoryRegistry } from '@x/registry-testing'
import { MessageField, SerializationContext } from '@x/wire-format'
import type { BenchEnv } from '../cases.js'
import { EVENT_ARTIFACT, EVENT_RECORD, EVENT_SCHEMA, GROUP_ID } from '../fixtures.js'
import { median } from '../median.js'
import { PEER_TOPIC } from '../peer-cases.js'
import type { ConfluentStub } from '../peers/confluent-registry.js'
import type { LambdaColdSample } from './child.js'

const run = promisify(execFile)
const CHILD = new URL('./child.js', import.meta.url)

/** Records in the event of every cold invocation. */
const RECORDS = 10

const KINDS = [
  { library: 'ours', label: 'ours (`@x/lambda` `kafkaConsumer`), schema from the registry' },
  { library: 'ours:snapshot', label: 'ours, schema snapshot (`offline`)' },
  { library: 'powertools', label: "Powertools' `kafkaConsumer`, Avro schema inline" },
  { library: 'kafkajs', label: '@kafkajs/confluent-schema-registry `decode` per record' },
] as const

/** One kind of cold invocation and every run of it (`requests` as counted for it). */
export interface LambdaColdResult {
  library: string
  label: string
  samples: LambdaColdSample[]
}

/** An MSK event of `values` (base64) in one topic-partition. */
function mskEvent(values: readonly Uint8Array[]): string {
  const records = values.map((value, offset) => ({
    topic: PEER_TOPIC,
    partition: 0,
    offset,
    timestamp: 0,
    timestampType: 'CREATE_TIME',
    value: Buffer.from(value).toString('base64'),
    headers: [],
  }))
  return JSON.stringify({ eventSource: 'aws:kafka', records: { [`${PEER_TOPIC}-0`]: records } })
}

/**
 * Cold Lambda invocations, each a fresh `node` that imports a handler and decodes one MSK event of 10 Avro records
 * (`EVENT_RECORD`): ours from the registry and from a schema snapshot, Powertools with the schema inline (bare Avro:
 * it reads no frame), kafkajs-SR on the Confluent-API stub serving the same id. Runs rotate the order of the kinds.
 */
export async function measureLambdaCold(
  env: Pick<BenchEnv, 'url' | 'confluentUrl'>,
  stub: ConfluentStub,
  registry: Pick<InMemoryRegistry, 'requests'>,
  runs: number,
): Promise<LambdaColdResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'x-serde-lambda-cold-'))
  const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
  try {
    const serializer = new AvroSerializer(client, EVENT_ARTIFACT)
    const frame = await serializer.serialize(
      EVENT_RECORD,
      new SerializationContext(PEER_TOPIC, MessageField.VALUE),
    )
    const frames = Array.from({ length: RECORDS }, () => frame)
    writeFileSync(join(dir, 'framed.json'), mskEvent(frames))
    writeFileSync(join(dir, 'bare.json'), mskEvent(frames.map((f) => f.subarray(5))))
    writeFileSync(join(dir, 'schema.avsc'), JSON.stringify(EVENT_SCHEMA))
    writeFileSync(
      join(dir, 'snapshot.json'),
      JSON.stringify(await takeSnapshot(client, [{ artifactId: EVENT_ARTIFACT }])),
    )
  } finally {
    await client.close()
  }
  const argsOf = (library: string): string[] => {
    const url = library === 'kafkajs' ? env.confluentUrl : env.url
    const event = join(dir, library === 'powertools' ? 'bare.json' : 'framed.json')
    const extra = library === 'powertools' ? join(dir, 'schema.avsc') : join(dir, 'snapshot.json')
    return [CHILD.pathname, library, url, GROUP_ID, event, extra]
  }
  const results: LambdaColdResult[] = KINDS.map((kind) => ({ ...kind, samples: [] }))
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < results.length; i++) {
      const result = results[(i + round) % results.length]!
      const counted = () => (result.library === 'kafkajs' ? stub.requests : registry.requests.length)
      const before = counted()
      const { stdout } = await run(process.execPath, argsOf(result.library), { timeout: 60_000 })
      const sample = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as LambdaColdSample
      if (sample.decoded !== RECORDS || sample.firstId !== EVENT_RECORD.id) {
        throw new Error(
          `cold invocation of ${result.library} decoded ${sample.decoded} records, first id ${sample.firstId}`,
        )
      }
      if (sample.requests === -1) sample.requests = counted() - before
      result.samples.push(sample)
    }
  }
  return results
}

/** The cold-invocation table: medians, CPU and wall time also as ratios to Powertools. */
export function renderLambdaCold(results: readonly LambdaColdResult[], load: string): string {
  const of = (library: string) => results.find((result) => result.library === library)!
  const med = (result: LambdaColdResult, pick: (sample: LambdaColdSample) => number) =>
    median(result.samples.map(pick))
  const base = of('powertools')
  const lines = [
    `### Cold Lambda invocation: a fresh process imports a handler and decodes one MSK event of ${RECORDS} Avro records`,
    '',
    `Each a fresh \`node\`, ${base.samples.length} runs, medians; CPU is user + system of the whole process, wall ` +
      'from its start to the handler’s answer, RSS its peak (`process.resourceUsage()`); requests to the registry. ' +
      `Load average ${load}.`,
    '',
    '| handler | CPU, ms | × Powertools | wall, ms | × Powertools | peak RSS, MiB | requests |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ]
  for (const kind of KINDS) {
    const result = of(kind.library)
    const cpu = med(result, (s) => s.cpuMs)
    const wall = med(result, (s) => s.wallMs)
    lines.push(
      `| ${kind.label} | ${cpu.toFixed(0)} | ${(cpu / med(base, (s) => s.cpuMs)).toFixed(2)}× | ${wall.toFixed(0)} | ` +
        `${(wall / med(base, (s) => s.wallMs)).toFixed(2)}× | ${(med(result, (s) => s.maxRssKb) / 1024).toFixed(1)} | ` +
        `${med(result, (s) => s.requests)} |`,
    )
  }
  return `${lines.join('\n')}\n`
}
