import { randomUUID } from 'node:crypto'
import { AvroSerializer } from '@x/avro-serde'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type DecodedMessage, KafkaJsSerde, type MessageSerializer } from './index.js'
import type { ConsumedKafkaMessage, EachBatchPayload, EachMessagePayload } from './kafkajs-types.js'
import {
  type ConfluentConsumer,
  type ConfluentKafka,
  type ConfluentProducer,
  loadConfluentKafkaJs,
} from './test-support/confluent.js'

// Confluent's @confluentinc/kafka-javascript 1.10.1 (librdkafka 2.15.1; its KafkaJS API) with KafkaJsSerde on the
// real broker and Apicurio Registry of the integration stage: each format framed and in headers mode on one topic
// with a tombstone and a poison message, read by eachMessage (dead-lettering the poison message to a topic with its
// bytes and headers, and going on) and by eachBatch. Confluent hands every header value back as a Buffer and leaves
// `headers` undefined on a message without any.

const KafkaJS = loadConfluentKafkaJs(inject('confluentClient'))
const brokers = [inject('kafkaBrokers')]
const url = inject('registryUrl')
const group = `confluent-it-${randomUUID().slice(0, 8)}`
const kafka: ConfluentKafka = new KafkaJS.Kafka({
  kafkaJS: { brokers, clientId: 'x-serde-confluent-it', logLevel: KafkaJS.logLevel.NOTHING },
})
let client: RegistryClient
let producer: ConfluentProducer
const consumers: ConfluentConsumer[] = []

beforeAll(async () => {
  client = new RegistryClient({ url, groupId: group })
  producer = kafka.producer()
  await producer.connect()
})

afterAll(async () => {
  for (const consumer of consumers) await consumer.disconnect()
  await producer?.disconnect()
  await client?.close()
})

async function createTopics(...topics: string[]): Promise<void> {
  const admin = kafka.admin()
  await admin.connect()
  try {
    await admin.createTopics({ topics: topics.map((topic) => ({ topic, numPartitions: 1 })) })
  } finally {
    await admin.disconnect()
  }
}

/** Runs a new consumer group on `topic` from the beginning until `count` items were handed to `done`. */
async function consume<T>(
  topic: string,
  count: number,
  run: (done: (item: T) => void) => Parameters<ConfluentConsumer['run']>[0],
): Promise<T[]> {
  const consumer = kafka.consumer({ kafkaJS: { groupId: `${group}-${randomUUID()}`, fromBeginning: true } })
  consumers.push(consumer)
  await consumer.connect()
  await consumer.subscribe({ topics: [topic] })
  const items: T[] = []
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${topic}: ${items.length} of ${count} after 60 s`)),
      60_000,
    )
    consumer
      .run(
        run((item) => {
          items.push(item)
          if (items.length === count) {
            clearTimeout(timer)
            resolve()
          }
        }),
      )
      .catch(reject)
  })
  await consumer.disconnect()
  consumers.splice(consumers.indexOf(consumer), 1)
  return items
}

const AVRO = {
  type: 'record',
  name: 'Reading',
  namespace: 'it.confluent',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'label', type: 'string' },
  ],
}
const JSON_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'integer' }, label: { type: 'string' } },
  required: ['id', 'label'],
}
const PROTO =
  'syntax = "proto3";\npackage it.confluent;\nmessage Reading { int64 id = 1; string label = 2; }\n'

/** One serializer per format and mode, each on an artifact of its own. */
function serializers(): [string, MessageSerializer<unknown>][] {
  const out: [string, MessageSerializer<unknown>][] = []
  for (const wireFormat of ['FRAMED_PAYLOAD', 'MESSAGE_HEADERS'] as const) {
    const mode = wireFormat === 'FRAMED_PAYLOAD' ? 'framed' : 'headers'
    out.push([
      `AVRO ${mode}`,
      new AvroSerializer(client, `reading-avro-${mode}`, { autoRegister: true, schema: AVRO, wireFormat }),
    ])
    out.push([
      `JSON ${mode}`,
      new JsonSchemaSerializer(client, `reading-json-${mode}`, {
        autoRegister: true,
        schema: JSON_SCHEMA,
        wireFormat,
      }),
    ])
    out.push([
      `PROTOBUF ${mode}`,
      new ProtobufSerializer(client, `reading-proto-${mode}`, {
        autoRegister: true,
        schema: PROTO,
        wireFormat,
      }),
    ])
  }
  return out
}

describe("KafkaJsSerde with Confluent's @confluentinc/kafka-javascript (KafkaJS API) on a real broker", () => {
  const topic = `confluent-mixed-${randomUUID()}`
  const dlq = `${topic}.DLQ`
  /** What was sent: six values (each format × mode), a poison message at offset 6, a tombstone at offset 7. */
  const expected: [string, string, unknown, boolean][] = []

  beforeAll(async () => {
    await createTopics(topic, dlq)
    const messages = []
    for (const [index, [name, serializer]] of serializers().entries()) {
      const serde = new KafkaJsSerde(client, { serializer })
      const value = { id: index + 1, label: name }
      messages.push(await serde.encodeMessage(topic, { key: name, value, headers: { trace: `t${index}` } }))
      const [format, mode] = name.split(' ')
      expected.push([name, format as string, value, mode === 'framed'])
    }
    messages.push({
      key: 'bad',
      value: Buffer.from([0, 0, 0, 0x7f, 0xff, 1, 2]),
      headers: { trace: 'poison' },
    })
    messages.push({ key: 'gone', value: null })
    await producer.send({ topic, messages })
  })

  it('eachMessage reads each format, framed and in headers mode, equal to what was sent, passes the tombstone as null and dead-letters the poison message with its bytes and headers', async () => {
    const reader = new KafkaJsSerde(client)
    const read = await consume<DecodedMessage<unknown, string>>(topic, 7, (done) => ({
      eachMessage: reader.eachMessage(async ({ decoded }) => done(decoded), {
        deadLetter: { producer, topic: dlq },
      }),
    }))
    expect(read.slice(0, 6).map((m) => [m.key, m.schema?.format, m.value, m.schema?.framed])).toEqual(
      expected,
    )
    expect(read.map((m) => m.headers.trace?.toString())).toEqual([
      't0',
      't1',
      't2',
      't3',
      't4',
      't5',
      undefined,
    ])
    expect(read[6]).toMatchObject({ key: 'gone', value: null, schema: null, offset: '7' })

    const dead = await consume<ConsumedKafkaMessage>(dlq, 1, (done) => ({
      eachMessage: async ({ message }: EachMessagePayload) => done(message),
    }))
    expect(dead[0]?.key?.toString()).toBe('bad')
    expect(dead[0]?.value).toEqual(Buffer.from([0, 0, 0, 0x7f, 0xff, 1, 2]))
    const headers = Object.fromEntries(
      Object.entries(dead[0]?.headers ?? {}).map(([name, value]) => [name, String(value)]),
    )
    expect(headers).toMatchObject({
      trace: 'poison',
      'x-serde-error-code': 'SCHEMA_NOT_FOUND',
      'x-serde-source': `${topic}/0/6`,
    })
  })

  it('eachBatch decodes the same topic in order, the poison message handed to the dead-letter handler', async () => {
    const reader = new KafkaJsSerde(client)
    const dead: string[] = []
    const read = await consume<DecodedMessage<unknown, string>>(topic, 7, (done) => ({
      eachBatch: reader.eachBatch(
        async ({ decoded }: EachBatchPayload & { decoded: DecodedMessage<unknown, string>[] }) => {
          for (const message of decoded) done(message)
        },
        { deadLetter: ({ message, error }) => void dead.push(`${message.offset} ${(error as Error).name}`) },
      ),
    }))
    expect(read.slice(0, 6).map((m) => [m.key, m.schema?.format, m.value, m.schema?.framed])).toEqual(
      expected,
    )
    expect(read[6]?.value).toBeNull()
    expect(dead).toEqual(['6 SchemaNotFoundError'])
  })
})
