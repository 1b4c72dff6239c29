import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AvroSerializer } from '@x/avro-serde'
import { takeSnapshot } from '@x/registry-client'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import {
  canonicalEvent,
  type EventRecord,
  eventSchema,
  eventSchemaText,
  expectedEvent,
  expectedEvents,
  uniqueName,
} from './fixtures.js'
import {
  buildJavaHarness,
  javaJsonProduce,
  javaProduce,
  javaProduceLongKeys,
  javaProtoProduce,
} from './java-harness.js'
import { expectedOrder as expectedJsonOrder } from './json-fixtures.js'
import { createTopic, produceRaw } from './kafka-io.js'
import { eventRecordsOf, invokeCold, type EventRecord as LambdaRecord, mskEvent } from './lambda-runtime.js'
import { expectedOrder as expectedProtoOrder } from './proto-fixtures.js'
import { registryClients } from './registry-clients.js'

// @x/lambda in a Lambda-like runtime: each invocation a fresh Node process that imports the function's index.mjs as
// Lambda's Node runtime does and calls its handler once with an Amazon MSK event, built from records Apicurio's Java
// serdes 3.x wrote on the real broker (Avro, JSON Schema, Protobuf; contentId and globalId frames, headers mode,
// Protobuf with Confluent's message indexes, Long keys). The same Avro records go through Powertools for AWS Lambda's
// kafkaConsumer (@aws-lambda-powertools/kafka, the schema inline). With a schema snapshot the cold invocation sends no
// request at all (the function's client counts them).

const COUNT = 3
const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')
const client = registryClients(registryUrl)
const topics = {
  avro: uniqueName('lambda-avro'),
  avroGlobalId: uniqueName('lambda-avro-gid'),
  avroHeaders: uniqueName('lambda-avro-hdr'),
  json: uniqueName('lambda-json'),
  jsonHeaders: uniqueName('lambda-json-hdr'),
  proto: uniqueName('lambda-proto'),
  protoHeaders: uniqueName('lambda-proto-hdr'),
  protoIndexes: uniqueName('lambda-proto-idx'),
  longKeys: uniqueName('lambda-long-keys'),
}
type Topic = keyof typeof topics
const records = {} as Record<Topic, LambdaRecord[]>

interface Decoded {
  topic: string
  partition: number
  offset: number
  key: unknown
  value: unknown
  schema: { idType: string; id: number; framed: boolean; format?: string } | null
}
interface Answer {
  requests: number
  records: Decoded[]
}

beforeAll(async () => {
  await buildJavaHarness()
  for (const topic of Object.values(topics)) await createTopic(brokers, topic)
  await javaProduce(brokers, registryUrl, topics.avro, 'default', COUNT)
  await javaProduce(brokers, registryUrl, topics.avroGlobalId, 'globalId', COUNT)
  await javaProduce(brokers, registryUrl, topics.avroHeaders, 'headers', COUNT)
  await javaJsonProduce(brokers, registryUrl, topics.json, 'default', COUNT)
  await javaJsonProduce(brokers, registryUrl, topics.jsonHeaders, 'headers', COUNT)
  await javaProtoProduce(brokers, registryUrl, topics.proto, 'default', COUNT)
  await javaProtoProduce(brokers, registryUrl, topics.protoHeaders, 'headers', COUNT)
  await javaProtoProduce(brokers, registryUrl, topics.protoIndexes, 'indexes', COUNT)
  await javaProduceLongKeys(brokers, registryUrl, topics.longKeys, 'default', COUNT)
  for (const [name, topic] of Object.entries(topics))
    records[name as Topic] = await eventRecordsOf(brokers, topic, COUNT)
}, 900_000)

/** Byte arrays as Buffers, everywhere in a value that came through the process boundary (structured clone). */
function buffers(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value)
  if (Array.isArray(value)) return value.map(buffers)
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, buffers(field)]))
  }
  return value
}

/** One cold invocation of our function, which must succeed. */
async function ours(event: ReturnType<typeof mskEvent>, env: Record<string, string> = {}): Promise<Answer> {
  const invocation = await invokeCold<Answer>('ours', event, { REGISTRY_URL: registryUrl, ...env })
  expect(invocation.error).toBeUndefined()
  return invocation.result!
}

const BY_CONTENT_ID: Topic[] = ['avro', 'avroHeaders', 'json', 'jsonHeaders', 'proto', 'protoHeaders']

/** What our function must decode from each topic's records, in order. */
function expectedValues(topic: Topic): unknown[] {
  return Array.from({ length: COUNT }, (_, i) =>
    topic.startsWith('avro') || topic === 'longKeys'
      ? canonicalEvent(expectedEvent(i))
      : topic.startsWith('json')
        ? expectedJsonOrder(i)
        : expectedProtoOrder(i),
  )
}

function valuesOf(answer: Answer, topic: Topic): unknown[] {
  return answer.records
    .filter((record) => record.topic === topics[topic])
    .map((record) =>
      topic.startsWith('avro') || topic === 'longKeys'
        ? canonicalEvent(buffers(record.value) as EventRecord)
        : buffers(record.value),
    )
}

describe('a cold invocation of a function on @x/lambda, Java-written records', () => {
  test('Avro, JSON Schema and Protobuf, framed with contentIds and in headers mode, in one MSK event', async () => {
    const event = mskEvent(BY_CONTENT_ID.flatMap((topic) => records[topic]))
    const answer = await ours(event, { USE_ID: 'contentId' })
    for (const topic of BY_CONTENT_ID) expect(valuesOf(answer, topic), topic).toEqual(expectedValues(topic))
    const formats = (topic: Topic) =>
      answer.records.filter((r) => r.topic === topics[topic]).map((r) => [r.schema?.format, r.schema?.framed])
    expect(formats('avro')).toEqual(Array(COUNT).fill(['AVRO', true]))
    expect(formats('jsonHeaders')).toEqual(Array(COUNT).fill(['JSON', false]))
    expect(formats('proto')).toEqual(Array(COUNT).fill(['PROTOBUF', true]))
    expect(answer.records.filter((r) => r.topic === topics.avro).map((r) => r.key)).toEqual([
      'k0',
      'k1',
      'k2',
    ])
    expect(answer.requests).toBeGreaterThan(0)
  })

  test('globalId frames, Confluent-style Protobuf message indexes, and Long keys', async () => {
    const globalIds = await ours(mskEvent(records.avroGlobalId), { USE_ID: 'globalId' })
    expect(valuesOf(globalIds, 'avroGlobalId')).toEqual(expectedValues('avroGlobalId'))
    expect(globalIds.records.map((r) => r.schema?.idType)).toEqual(Array(COUNT).fill('globalId'))
    const indexes = await ours(mskEvent(records.protoIndexes), {
      USE_ID: 'contentId',
      PROTO_FRAMING: 'confluent',
    })
    expect(indexes.records.map((r) => buffers(r.value))).toEqual(expectedValues('protoIndexes'))
    const keyed = await ours(mskEvent(records.longKeys), { USE_ID: 'contentId', KEYS: 'long' })
    expect(keyed.records.map((r) => r.key)).toEqual([42, 43, 44])
    expect(valuesOf(keyed, 'longKeys')).toEqual(expectedValues('longKeys'))
  })

  test('a record that cannot be read fails the invocation with its topic, partition and offset', async () => {
    const [first, second, third] = records.avro
    const cut = {
      ...second!,
      value: Buffer.from(second!.value!, 'base64').subarray(0, 12).toString('base64'),
    }
    const invocation = await invokeCold<Answer>('ours', mskEvent([first!, cut, third!]), {
      REGISTRY_URL: registryUrl,
      USE_ID: 'contentId',
    })
    expect(invocation.result).toBeUndefined()
    expect(invocation.error).toMatchObject({
      name: 'DeserializationError',
      code: 'DESERIALIZATION',
      failed: { topic: topics.avro, partition: second!.partition, offset: String(second!.offset) },
    })
  })
})

describe('a cold invocation with a schema snapshot', () => {
  test('decodes every format with zero registry requests, offline', async () => {
    const artifacts = [...BY_CONTENT_ID, 'protoIndexes' as const].map((topic) => ({
      artifactId: `${topics[topic]}-value`,
    }))
    const snapshot = await takeSnapshot(client(), artifacts)
    const file = join(mkdtempSync(join(tmpdir(), 'x-serde-lambda-')), 'schemas.snapshot.json')
    writeFileSync(file, JSON.stringify(snapshot))
    const event = mskEvent(BY_CONTENT_ID.flatMap((topic) => records[topic]))
    const answer = await ours(event, { USE_ID: 'contentId', SNAPSHOT: file, OFFLINE: '1' })
    expect(answer.requests).toBe(0)
    for (const topic of BY_CONTENT_ID) expect(valuesOf(answer, topic), topic).toEqual(expectedValues(topic))
  })
})

describe("the same Avro records through Powertools' kafkaConsumer (schema inline)", () => {
  // Powertools reads bare Avro (headers mode: it cannot read a frame) with the schema given inline, by avro-js, which
  // wraps the value of a union ({ string: … }); ours does so with `unions: 'wrapped'`.
  test("Java's records, whose long beyond 2^53 avro-js refuses: Powertools fails the invocation, ours reads them exactly", async () => {
    const event = mskEvent(records.avroHeaders)
    const powertools = await invokeCold('powertools', event, { AVRO_SCHEMA: eventSchemaText })
    expect(powertools.error).toMatchObject({
      name: 'KafkaConsumerDeserializationError',
      message: expect.stringMatching(/^Failed to deserialize Avro message: Error: potential precision loss/),
    })
    const answer = await ours(event)
    expect(answer.records.map((r) => canonicalEvent(buffers(r.value) as EventRecord))).toEqual(
      expectedEvents(COUNT).map(canonicalEvent),
    )
  })

  // avro-js reads longs within ±(2^53 - 2) only.
  test('records of the same schema within its range: the same values from both', async () => {
    const topic = uniqueName('lambda-avro-safe')
    await createTopic(brokers, topic)
    const registry = client()
    const serializer = new AvroSerializer(registry, {
      artifactId: `${topic}-value`,
      autoRegister: true,
      schema: eventSchema,
      wireFormat: WireFormat.MESSAGE_HEADERS,
    })
    const values = expectedEvents(COUNT).map((value, i) => ({
      ...value,
      big: 9_007_199_254_740_990n - BigInt(i),
    }))
    const messages = []
    for (const value of values) {
      const written = await serializer.serializeMessage(value, new SerializationContext(topic))
      const headers: Record<string, Buffer> = {}
      for (const [name, bytes] of Object.entries(written.headers)) headers[name] = Buffer.from(bytes)
      messages.push({ value: Buffer.from(written.payload), headers })
    }
    await produceRaw(brokers, topic, messages)
    const event = mskEvent(await eventRecordsOf(brokers, topic, COUNT))
    const powertools = await invokeCold<{ records: { value: unknown }[] }>('powertools', event, {
      AVRO_SCHEMA: eventSchemaText,
    })
    expect(powertools.error).toBeUndefined()
    const answer = await ours(event, { AVRO_UNIONS: 'wrapped' })
    const theirs = powertools.result!.records.map((r) => buffers(r.value))
    expect(answer.records.map((r) => buffers(r.value))).toEqual(theirs)
    expect(theirs.map((value) => (value as { big: unknown }).big)).toEqual(values.map((v) => Number(v.big)))
    expect(theirs.map((value) => (value as { note: unknown }).note)).toEqual([
      null,
      { string: 'note 1' },
      null,
    ])
  })
})
