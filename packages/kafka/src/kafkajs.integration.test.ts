import { randomUUID } from 'node:crypto'
import { AvroSerializer } from '@x/avro-serde'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { type Consumer, Kafka, logLevel, type Producer } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type DecodedMessage, KafkaJsSerde } from './index.js'

// KafkaJS with the adapters on the real broker and the real Apicurio Registry the integration stage starts: one
// topic holding all three formats, framed and in headers mode, a tombstone and a poison message, read by one
// consumer that dead-letters the poison message to a topic with its bytes and headers and goes on.

const brokers = [inject('kafkaBrokers')]
const url = inject('registryUrl')
const group = `kafka-it-${randomUUID().slice(0, 8)}`
const kafka = new Kafka({ clientId: 'x-serde-kafka-it', brokers, logLevel: logLevel.NOTHING })
let client: RegistryClient
let producer: Producer
const consumers: Consumer[] = []

beforeAll(async () => {
  client = new RegistryClient({ url, groupId: group })
  producer = kafka.producer({ allowAutoTopicCreation: true })
  await producer.connect()
})

afterAll(async () => {
  for (const consumer of consumers) await consumer.disconnect()
  await producer.disconnect()
  await client.close()
})

/** Reads `count` messages of `topic` from the beginning through `each`, then stops. */
async function consume<T>(
  topic: string,
  count: number,
  run: (done: (item: T) => void) => Parameters<Consumer['run']>[0],
): Promise<T[]> {
  const consumer = kafka.consumer({ groupId: `${group}-${randomUUID()}` })
  consumers.push(consumer)
  await consumer.connect()
  await consumer.subscribe({ topic, fromBeginning: true })
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
  await consumer.stop()
  return items
}

describe('KafkaJsSerde with KafkaJS on a real broker', () => {
  it('one consumer reads Avro, JSON Schema and Protobuf, framed and headers mode, a tombstone, and dead-letters a poison message', async () => {
    const topic = `mixed-${randomUUID()}`
    const dlq = `${topic}.DLQ`
    const avro = new KafkaJsSerde(client, {
      serializer: new AvroSerializer(client, 'order-avro', {
        autoRegister: true,
        schema: { type: 'record', name: 'Order', namespace: 'it', fields: [{ name: 'id', type: 'long' }] },
      }),
    })
    const json = new KafkaJsSerde(client, {
      serializer: new JsonSchemaSerializer(client, 'order-json', {
        autoRegister: true,
        schema: { type: 'object', properties: { id: { type: 'integer' } } },
        wireFormat: 'MESSAGE_HEADERS',
      }),
    })
    const proto = new KafkaJsSerde(client, {
      serializer: new ProtobufSerializer(client, 'order-proto', {
        autoRegister: true,
        schema: 'syntax = "proto3";\npackage it;\nmessage Order { int64 id = 1; }\n',
      }),
    })
    await producer.send({
      topic,
      messages: [
        await avro.encodeMessage(topic, { key: 'a', value: { id: 1 } }),
        await json.encodeMessage(topic, { key: 'j', value: { id: 2 }, headers: { trace: 't' } }),
        await proto.encodeMessage(topic, { key: 'p', value: { id: 3 } }),
        { key: 'bad', value: Buffer.from([0xff, 1, 2]), headers: { trace: 'poison' } },
        await avro.encodeMessage(topic, { key: 'a', value: null }),
      ],
    })
    const reader = new KafkaJsSerde(client)
    const read = await consume<DecodedMessage<unknown, string>>(topic, 4, (done) => ({
      eachMessage: reader.eachMessage(async ({ decoded }) => done(decoded), {
        deadLetter: { producer, topic: dlq },
      }),
    }))
    expect(read.map((m) => [m.key, m.value, m.schema?.format ?? null, m.schema?.framed ?? null])).toEqual([
      ['a', { id: 1 }, 'AVRO', true],
      ['j', { id: 2 }, 'JSON', false],
      ['p', { id: 3 }, 'PROTOBUF', true],
      ['a', null, null, null],
    ])
    expect(read[1]?.headers.trace?.toString()).toBe('t')
    const dead = await consume<{ key: string; value: Buffer; headers: Record<string, string> }>(
      dlq,
      1,
      (done) => ({
        eachMessage: async ({ message }) =>
          done({
            key: String(message.key),
            value: message.value as Buffer,
            headers: Object.fromEntries(
              Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]),
            ),
          }),
      }),
    )
    expect(dead[0]?.key).toBe('bad')
    expect(dead[0]?.value).toEqual(Buffer.from([0xff, 1, 2]))
    expect(dead[0]?.headers).toMatchObject({
      trace: 'poison',
      'x-serde-error-code': 'DESERIALIZATION',
      'x-serde-source': `${topic}/0/3`,
    })
  })
})
