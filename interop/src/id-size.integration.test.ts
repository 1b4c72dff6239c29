import { AvroDeserializer, AvroSerializer, TopicIdStrategy } from '@x/avro-serde'
import { DeserializationError } from '@x/errors'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { decodeFrame, MessageField, SerializationContext } from '@x/wire-format'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { canonicalEvent, eventSchema, expectedEvents, uniqueName } from './fixtures.js'
import {
  buildJavaHarness,
  javaConsume,
  javaJsonConsume,
  javaJsonProduce,
  javaProduce,
  javaProtoConsume,
  javaProtoProduce,
} from './java-harness.js'
import { expectedOrder as expectedJsonOrder, expectedOrderText } from './json-fixtures.js'
import { consumeRaw, createTopic, produceRaw, type RawMessage } from './kafka-io.js'
import { expectedOrderJson, expectedOrder as expectedProtoOrder } from './proto-fixtures.js'
import { registryClients } from './registry-clients.js'
import { latestVersion } from './registry-http.js'

// 8-byte ids on real components: Apicurio's Java serdes 3.1.7 with apicurio.registry.id-handler =
// io.apicurio.registry.serde.Legacy8ByteIdHandler (use-id contentId, 3.x's default, and globalId, 2.x's), and with
// the OptimisticFallbackIdHandler that reads both widths, against our idSize 8 and 'auto' — both ways, on one real
// Kafka broker and one real Apicurio Registry 3.3.3.

const COUNT = 2
const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')
const client = registryClients(registryUrl)
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const id8 = (id: number) => `00${id.toString(16).padStart(16, '0')}`
const toKafka = (frames: Uint8Array[]): { value: Buffer }[] =>
  frames.map((frame) => ({ value: Buffer.from(frame) }))

/** The topics Java writes once, in parallel (each JVM costs seconds): Avro in both 8-byte set-ups, JSON, Protobuf. */
const written = {
  'id8-globalId': uniqueName('java-id-id8-globalId'),
  id8: uniqueName('java-id-id8'),
  json: uniqueName('java-json-id8'),
  proto: uniqueName('java-proto-id8'),
}

beforeAll(async () => {
  await buildJavaHarness()
  await Promise.all(Object.values(written).map((topic) => createTopic(brokers, topic)))
  await Promise.all([
    javaProduce(brokers, registryUrl, written['id8-globalId'], 'id8-globalId', COUNT),
    javaProduce(brokers, registryUrl, written.id8, 'id8', COUNT),
    javaJsonProduce(brokers, registryUrl, written.json, 'id8', COUNT),
    javaProtoProduce(brokers, registryUrl, written.proto, 'id8', COUNT),
  ])
}, 600_000)

const events = expectedEvents(COUNT)
const javaLines = (count: number) =>
  expectedEvents(count).map((event, i) => ({ offset: i, headers: {}, value: canonicalEvent(event) }))

describe('Avro: Java 3.1.7 with Legacy8ByteIdHandler', () => {
  test.each([
    ['id8-globalId', 'globalId'],
    ['id8', 'contentId'],
  ] as const)(
    'Java (%s) writes 0x00 + the 8-byte %s; idSize 8 and auto read it; our idSize 8 writes the same bytes',
    async (mode, useId) => {
      const topic = written[mode]
      const messages = await consumeRaw(brokers, topic, COUNT)
      const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
      const ctx = new SerializationContext(topic, MessageField.VALUE)
      const ours = new AvroSerializer(client(), `${topic}-value`, { useId, idSize: 8 })
      for (const [i, message] of messages.entries()) {
        expect(hex(message.value.subarray(0, 9))).toBe(id8(latest[useId]))
        expect(decodeFrame(message.value, { idSize: 8 }).schemaId).toBe(latest[useId])
        // Java's HashMap writes the map `attrs` in hash order (neg, then i): give ours the same order to compare bytes.
        const event = events[i]!
        const javaOrder = { ...event, attrs: { neg: event.attrs.neg, i: event.attrs.i } }
        expect(hex(await ours.serialize(javaOrder, ctx))).toBe(hex(message.value))
      }
      for (const idSize of [8, 'auto'] as const) {
        const reader = new AvroDeserializer(client(), { useId, idSize })
        const values = []
        for (const message of messages) values.push(await reader.deserialize(message.value, ctx))
        expect(values).toEqual(events)
      }
      // The 4-byte default sees id 0 in these bytes and says so, before asking the registry anything.
      const error = await new AvroDeserializer(client(), { useId })
        .deserialize(messages[0]!.value, ctx)
        .catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(DeserializationError)
      expect((error as Error).message).toContain("read this topic with idSize: 8, or idSize: 'auto'")
    },
  )

  test.each([
    ['id8-globalId', 'globalId'],
    ['id8', 'contentId'],
  ] as const)('our idSize 8 frames (%s) are read by Java with Legacy8ByteIdHandler', async (mode, useId) => {
    const topic = uniqueName(`ours-id-${mode}`)
    await createTopic(brokers, topic)
    const ours = new AvroSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      autoRegister: true,
      schema: eventSchema,
      useId,
      idSize: 8,
    })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const frames = []
    for (const event of events) frames.push(await ours.serialize(event, ctx))
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    for (const frame of frames) expect(hex(frame.subarray(0, 9))).toBe(id8(latest[useId]))
    await produceRaw(brokers, topic, toKafka(frames))
    expect(await javaConsume(brokers, registryUrl, topic, mode, COUNT)).toEqual(javaLines(COUNT))
  })

  test("a topic that holds both widths (Legacy8ByteIdHandler, then Java's defaults) reads with idSize 'auto', ours and Java's OptimisticFallbackIdHandler alike", async () => {
    const topic = written.id8
    await javaProduce(brokers, registryUrl, topic, 'default', COUNT)
    const messages: RawMessage[] = await consumeRaw(brokers, topic, 2 * COUNT)
    expect(messages.map((m) => m.value.subarray(1, 5).equals(Buffer.alloc(4)))).toEqual([
      true,
      true,
      false,
      false,
    ])
    const reader = new AvroDeserializer(client(), { useId: 'contentId', idSize: 'auto' })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const values = []
    for (const message of messages) values.push(await reader.deserialize(message.value, ctx))
    expect(values).toEqual([...events, ...events])
    const java = await javaConsume(brokers, registryUrl, topic, 'id-auto', 2 * COUNT)
    expect(java.map((line) => line.value)).toEqual([...events, ...events].map(canonicalEvent))
  })
})

describe('JSON Schema and Protobuf: Java 3.1.7 with Legacy8ByteIdHandler (contentId)', () => {
  test('JSON Schema: Java writes 8-byte contentIds we read and write byte for byte; Java reads ours', async () => {
    const topic = written.json
    const messages = await consumeRaw(brokers, topic, COUNT)
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const reader = new JsonSchemaDeserializer(client(), { useId: 'contentId', idSize: 8, validate: true })
    const ours = new JsonSchemaSerializer(client(), `${topic}-value`, { useId: 'contentId', idSize: 8 })
    const frames = []
    for (const [i, message] of messages.entries()) {
      expect(hex(message.value.subarray(0, 9))).toBe(id8(latest.contentId))
      expect(message.value.subarray(9).toString('utf8')).toBe(expectedOrderText(i))
      expect(await reader.deserialize(message.value, ctx)).toEqual(expectedJsonOrder(i))
      frames.push(await ours.serialize(expectedJsonOrder(i), ctx))
      expect(hex(frames[i]!)).toBe(hex(message.value))
    }
    const back = uniqueName('ours-json-id8')
    await createTopic(brokers, back)
    await produceRaw(brokers, back, toKafka(frames))
    const lines = await javaJsonConsume(brokers, registryUrl, back, 'id8', COUNT)
    expect(lines.map((line) => line.text)).toEqual(messages.map((_, i) => expectedOrderText(i)))
  })

  test('Protobuf: Java writes 0x00, the 8-byte contentId, the Ref, the message; we read and write the same; Java reads ours', async () => {
    const topic = written.proto
    const messages = await consumeRaw(brokers, topic, COUNT)
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const reader = new ProtobufDeserializer(client(), { useId: 'contentId', idSize: 8 })
    const ours = new ProtobufSerializer(client(), `${topic}-value`, { useId: 'contentId', idSize: 8 })
    const frames = []
    for (const [i, message] of messages.entries()) {
      expect(hex(message.value.subarray(0, 17))).toBe(
        `${id8(latest.contentId)}070a05${Buffer.from('Order').toString('hex')}`,
      )
      expect(await reader.deserialize(message.value, ctx)).toEqual(expectedProtoOrder(i))
      frames.push(await ours.serialize(expectedProtoOrder(i), ctx))
      expect(hex(frames[i]!)).toBe(hex(message.value))
    }
    const back = uniqueName('ours-proto-id8')
    await createTopic(brokers, back)
    await produceRaw(brokers, back, toKafka(frames))
    const lines = await javaProtoConsume(brokers, registryUrl, back, 'id8', COUNT)
    expect(lines.map((line) => [line.type, JSON.parse(line.json)])).toEqual(
      messages.map((_, i) => ['interop.shop.Order', expectedOrderJson(i)]),
    )
  })
})
