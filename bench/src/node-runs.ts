import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { Row } from './report.js'

/**
 * The figures of a full run on each Node line, kept in bench/results/node-<major>.json so that BENCHMARKS.md can
 * show Node 20, 22 and 24 side by side: a full run rewrites its own line's file and renders every file there.
 */
export interface NodeRun {
  node: string
  when: string
  versions: string
  rows: { name: string; opsPerSec: number; ratio: number | null }[]
}

const RESULTS = new URL('../results/', import.meta.url)

export function saveRun(run: NodeRun): void {
  mkdirSync(RESULTS, { recursive: true })
  const major = run.node.replace(/^v/, '').split('.')[0]
  writeFileSync(new URL(`node-${major}.json`, RESULTS), `${JSON.stringify(run, null, 2)}\n`)
}

export function runOf(node: string, when: string, versions: string, rows: readonly Row[]): NodeRun {
  return {
    node,
    when,
    versions,
    rows: rows.map((row) => ({ name: row.def.name, opsPerSec: row.opsPerSec, ratio: row.ratio ?? null })),
  }
}

/** Every saved run, oldest Node line first. */
export function loadRuns(): NodeRun[] {
  let files: string[]
  try {
    files = readdirSync(RESULTS).filter((name) => /^node-\d+\.json$/.test(name))
  } catch {
    return []
  }
  const major = (name: string) => Number(/\d+/.exec(name)?.[0])
  return files
    .sort((a, b) => major(a) - major(b))
    .map((name) => JSON.parse(readFileSync(new URL(name, RESULTS), 'utf8')) as NodeRun)
}

/** What each column shows: a ratio to a ceiling (`of` absent) or ours ÷ a peer, from one run's rows. */
const METRICS: readonly { label: string; ours: string; of?: string; ops?: true }[] = [
  { label: 'Avro `serializeSync` ÷ avsc ceiling', ours: 'ours.serializeSync' },
  { label: 'Avro `deserializeSync` ÷ avsc ceiling', ours: 'ours.deserializeSync' },
  {
    label: 'avsc ceiling (encode) in a process that made no HTTP request ÷ the ceiling',
    ours: 'avsc.encode-prealloc-copy-no-http',
  },
  {
    label: 'avsc ceiling (decode) in a process that made no HTTP request ÷ the ceiling',
    ours: 'avsc.decode-framed-no-http',
  },
  { label: 'Avro `serializeSync`, ops/s', ours: 'ours.serializeSync', ops: true },
  { label: 'Avro `deserializeSync`, ops/s', ours: 'ours.deserializeSync', ops: true },
  { label: 'Avro awaited encode ÷ kafkajs-SR 3.9.0', ours: 'ours.serialize', of: 'kafkajs.serialize' },
  { label: 'Avro awaited decode ÷ kafkajs-SR 3.9.0', ours: 'ours.deserialize', of: 'kafkajs.deserialize' },
  { label: 'Avro awaited encode ÷ kafkajs-SR 4.x', ours: 'ours.serialize', of: 'kafkajs4.serialize' },
  { label: 'Avro awaited decode ÷ kafkajs-SR 4.x', ours: 'ours.deserialize', of: 'kafkajs4.deserialize' },
  { label: 'Avro awaited encode ÷ Confluent', ours: 'ours.serialize', of: 'confluent.serialize' },
  { label: 'Avro awaited decode ÷ Confluent', ours: 'ours.deserialize', of: 'confluent.deserialize' },
  { label: 'JSON Schema `serializeSync` ÷ ceiling', ours: 'ours.json.serializeSync' },
  { label: 'JSON Schema `deserializeSync` ÷ ceiling', ours: 'ours.json.deserializeSync' },
  {
    label: 'JSON Schema awaited encode ÷ kafkajs-SR 3.9.0',
    ours: 'ours.json.serialize',
    of: 'kafkajs.json.serialize',
  },
  {
    label: 'JSON Schema awaited decode ÷ kafkajs-SR 3.9.0',
    ours: 'ours.json.deserialize',
    of: 'kafkajs.json.deserialize',
  },
  {
    label: 'JSON Schema awaited encode ÷ kafkajs-SR 4.x',
    ours: 'ours.json.serialize',
    of: 'kafkajs4.json.serialize',
  },
  {
    label: 'JSON Schema awaited decode ÷ kafkajs-SR 4.x',
    ours: 'ours.json.deserialize',
    of: 'kafkajs4.json.deserialize',
  },
  { label: 'Protobuf `serializeSync` ÷ protobufjs by hand', ours: 'ours.proto.serializeSync' },
  { label: 'Protobuf `deserializeSync` ÷ protobufjs by hand', ours: 'ours.proto.deserializeSync' },
  {
    label: 'Protobuf awaited encode ÷ Confluent',
    ours: 'ours.proto.serialize',
    of: 'confluent.proto.serialize',
  },
  {
    label: 'Protobuf awaited decode ÷ Confluent',
    ours: 'ours.proto.deserialize',
    of: 'confluent.proto.deserialize',
  },
  {
    label: 'Avro encode in Platformatic ÷ its ConfluentSchemaRegistry',
    ours: 'ours.platformatic.serialize',
    of: 'platformatic.serialize',
  },
  {
    label: 'Avro decode in Platformatic ÷ its ConfluentSchemaRegistry',
    ours: 'ours.platformatic.deserialize',
    of: 'platformatic.deserialize',
  },
  {
    label: 'JSON Schema encode in Platformatic ÷ its ConfluentSchemaRegistry',
    ours: 'ours.platformatic.json.serialize',
    of: 'platformatic.json.serialize',
  },
  {
    label: 'JSON Schema decode in Platformatic ÷ its ConfluentSchemaRegistry',
    ours: 'ours.platformatic.json.deserialize',
    of: 'platformatic.json.deserialize',
  },
]

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

function cell(run: NodeRun, metric: (typeof METRICS)[number]): string {
  const row = (name: string) => run.rows.find((r) => r.name === name)
  const ours = row(metric.ours)
  if (ours === undefined) return '–'
  if (metric.ops) return integer.format(ours.opsPerSec)
  if (metric.of === undefined) return ours.ratio === null ? '–' : ours.ratio.toFixed(2)
  const peer = row(metric.of)
  return peer === undefined ? 'n/a' : `${(ours.opsPerSec / peer.opsPerSec).toFixed(2)}×`
}

/** The side-by-side table of the saved runs (medians of each run; `n/a`: the peer does not run on that Node). */
export function renderNodeTable(runs: readonly NodeRun[]): string {
  if (runs.length === 0) return ''
  const head = `| | ${runs.map((run) => `Node ${run.node}`).join(' | ')} |`
  const rule = `| --- | ${runs.map(() => '---:').join(' | ')} |`
  const lines = METRICS.map(
    (metric) => `| ${metric.label} | ${runs.map((run) => cell(run, metric)).join(' | ')} |`,
  )
  const when = runs.map((run) => `- Node ${run.node}: ${run.when}; ${run.versions}.`)
  return [head, rule, ...lines, '', ...when].join('\n')
}
