import * as confluent from '@confluentinc/schemaregistry'
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry'
import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { RegistryClient } from '@x/registry-client'
import type { InMemoryRegistry } from '@x/registry-testing'
import { MessageField, SerializationContext } from '@x/wire-format'
import type { BenchEnv } from './cases.js'
import { EVENT_RECORD, EVENT_SCHEMA, GROUP_ID } from './fixtures.js'
import { median } from './median.js'
import { PEER_TOPIC } from './peer-cases.js'
import type { ConfluentStub } from './peers/confluent-registry.js'

/** One library's cold start: requests sent and the time until all concurrent calls resolved. */
export interface ColdResult {
  library: string
  requests: number[]
  ms: number[]
}

const CALLS = 1000

/**
 * 1000 concurrent deserializations of a frame whose id the library has never seen (a fresh client each time, a
 * newly registered schema each round): how many requests it sends, and how long until every call has resolved.
 * Rounds rotate the order of the libraries.
 */
export async function measureColdStarts(
  env: BenchEnv,
  registry: InMemoryRegistry,
  stub: ConfluentStub,
  rounds: number,
): Promise<ColdResult[]> {
  const ctx = new SerializationContext(PEER_TOPIC, MessageField.VALUE)
  const admin = new RegistryClient({ url: env.url, groupId: GROUP_ID })
  const results: ColdResult[] = [
    { library: 'ours (`AvroDeserializer#deserialize`)', requests: [], ms: [] },
    { library: '@kafkajs/confluent-schema-registry `decode`', requests: [], ms: [] },
    { library: '@confluentinc/schemaregistry `AvroDeserializer#deserialize`', requests: [], ms: [] },
  ]
  try {
    for (let round = 0; round < rounds; round++) {
      // A new artifact: a globalId none of the libraries has cached (the stub answers any id with bench.Event).
      const artifactId = `cold-${Date.now()}-${round}`
      await admin.registerSchema(artifactId, EVENT_SCHEMA)
      const serializer = new AvroSerializer(admin, artifactId)
      const frame = Buffer.from(await serializer.serialize(EVENT_RECORD, ctx))
      const runs = [
        async () => {
          const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
          const deserializer = new AvroDeserializer(client)
          const before = registry.requests.length
          const ms = await timeAll(() => deserializer.deserialize(frame, ctx))
          await client.close()
          return { requests: registry.requests.length - before, ms }
        },
        async () => {
          const kafkajs = new SchemaRegistry({ host: env.confluentUrl })
          const before = stub.requests
          const ms = await timeAll(() => kafkajs.decode(frame))
          return { requests: stub.requests - before, ms }
        },
        async () => {
          const client = new confluent.SchemaRegistryClient({ baseURLs: [env.confluentUrl] })
          const deserializer = new confluent.AvroDeserializer(client, confluent.SerdeType.VALUE, {})
          const before = stub.requests
          const ms = await timeAll(() => deserializer.deserialize(PEER_TOPIC, frame))
          return { requests: stub.requests - before, ms }
        },
      ]
      for (let i = 0; i < runs.length; i++) {
        const index = (i + round) % runs.length
        const { requests, ms } = await runs[index]!()
        results[index]!.requests.push(requests)
        results[index]!.ms.push(ms)
      }
    }
  } finally {
    await admin.close()
  }
  return results
}

async function timeAll(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now()
  await Promise.all(Array.from({ length: CALLS }, call))
  return performance.now() - started
}

export function renderCold(results: readonly ColdResult[]): string {
  const lines = [
    `### Cold start: ${CALLS} concurrent deserializations of an unseen schema id`,
    '',
    '| library | requests sent (each round) | time until all resolved, ms (median, min – max) |',
    '| --- | --- | --- |',
  ]
  for (const result of results) {
    lines.push(
      `| ${result.library} | ${result.requests.join(', ')} | ${median(result.ms).toFixed(1)} (${Math.min(...result.ms).toFixed(1)} – ${Math.max(...result.ms).toFixed(1)}) |`,
    )
  }
  return `${lines.join('\n')}\n`
}
