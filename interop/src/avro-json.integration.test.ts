import { AvroDeserializer, AvroSerializer, TopicIdStrategy } from '@x/avro-serde'
import { encodeIdHeader, MessageField, SerializationContext, WireFormat } from '@x/wire-format'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { expectedJsonEvent, jsonEventSchema } from './avro-json-fixtures.js'
import { uniqueName } from './fixtures.js'
import { buildJavaHarness, javaAvroJsonConsume, javaAvroJsonProduce } from './java-harness.js'
import { consumeRaw, createTopic, produceRaw, type RawMessage } from './kafka-io.js'
import { registryClients } from './registry-clients.js'
import { latestVersion } from './registry-http.js'

// Avro's JSON encoding against Apicurio's Java serde 3.1.7 configured apicurio.registry.avro.encoding=JSON, on one
// real broker and one real Apicurio Registry 3, framed and in headers mode: Java writes, we read; we write, Java
// reads; and the bytes we write for the same records are Java's, byte for byte (Java is the authority on bytes).

const COUNT = 3 // one record per branch of the `choice` union: null, a long beyond 2^53, a named record
const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')
const client = registryClients(registryUrl)
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const events = Array.from({ length: COUNT }, (_, i) => expectedJsonEvent(i))

beforeAll(() => buildJavaHarness(), 600_000)

async function javaWrites(mode: 'json' | 'json-headers'): Promise<{ topic: string; messages: RawMessage[] }> {
  const topic = uniqueName(`java-avro-${mode}`)
  await createTopic(brokers, topic)
  await javaAvroJsonProduce(brokers, registryUrl, topic, mode, COUNT)
  return { topic, messages: await consumeRaw(brokers, topic, COUNT) }
}

const jsonSerializer = (wireFormat: WireFormat, autoRegister: boolean) =>
  new AvroSerializer(client(), {
    artifactResolver: new TopicIdStrategy(),
    useId: 'contentId',
    avro: { encoding: 'json' },
    wireFormat,
    ...(autoRegister ? { autoRegister, schema: jsonEventSchema } : {}),
  })

describe('Java writes Avro JSON, @x/avro-serde reads it and writes the same bytes', () => {
  test('framed: 0x00 + contentId + compact JSON; read with avro.encoding json; our frames equal Java’s', async () => {
    const { topic, messages } = await javaWrites('json')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const reader = new AvroDeserializer(client(), { useId: 'contentId', avro: { encoding: 'json' } })
    const writer = jsonSerializer(WireFormat.FRAMED_PAYLOAD, false)

    for (const [i, message] of messages.entries()) {
      expect(message.headers).toEqual({})
      expect(message.value[0]).toBe(0)
      expect(message.value.readUInt32BE(1)).toBe(latest.contentId)
      expect(message.value.subarray(5, 6).toString()).toBe('{')
      expect(await reader.deserialize(message.value, ctx)).toEqual(events[i])
      expect(hex(await writer.serialize(events[i], ctx))).toBe(hex(message.value))
    }
    // The long beyond 2^53 is written exactly, not rounded, in Java's text.
    expect(messages[0]!.value.toString('utf8')).toContain('"big":9007199254740993,')
  })

  test('headers mode: Java adds apicurio.value.encoding = JSON; a binary-configured reader follows it; our message equals Java’s', async () => {
    const { topic, messages } = await javaWrites('json-headers')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const reader = new AvroDeserializer(client()) // encoding 'binary' and useId 'globalId' by default: the headers win
    const writer = jsonSerializer(WireFormat.MESSAGE_HEADERS, false)

    for (const [i, message] of messages.entries()) {
      expect(Object.keys(message.headers).sort()).toEqual([
        'apicurio.value.contentId',
        'apicurio.value.encoding',
      ])
      expect(hex(message.headers['apicurio.value.contentId']!)).toBe(hex(encodeIdHeader(latest.contentId)))
      expect(message.headers['apicurio.value.encoding']!.toString()).toBe('JSON')
      expect(
        await reader.deserializeMessage({ payload: message.value, headers: message.headers }, ctx),
      ).toEqual(events[i])
      const ours = await writer.serializeMessage(events[i], ctx)
      expect(hex(ours.payload)).toBe(hex(message.value))
      expect(Object.fromEntries(Object.entries(ours.headers).map(([k, v]) => [k, hex(v)]))).toEqual(
        Object.fromEntries(Object.entries(message.headers).map(([k, v]) => [k, hex(v)])),
      )
    }
  })
})

describe('@x/avro-serde writes Avro JSON, Java reads it', () => {
  test('framed JSON frames are read by Java configured encoding=JSON, which decodes exactly our values', async () => {
    const topic = uniqueName('ts-avro-json')
    await createTopic(brokers, topic)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const writer = jsonSerializer(WireFormat.FRAMED_PAYLOAD, true)
    const frames: Buffer[] = []
    for (const event of events) frames.push((await writer.serialize(event, ctx)) as Buffer)
    await produceRaw(
      brokers,
      topic,
      frames.map((value) => ({ value })),
    )

    const read = await javaAvroJsonConsume(brokers, registryUrl, topic, 'json', COUNT)
    // Java wrote what it decoded back with its JsonEncoder: the same text as our payload.
    expect(read).toEqual(
      frames.map((frame, i) => ({ offset: i, headers: {}, json: frame.subarray(5).toString('utf8') })),
    )
  })

  test('headers-mode JSON is read by a Java consumer configured for BINARY: it follows our encoding header', async () => {
    const topic = uniqueName('ts-avro-json-headers')
    await createTopic(brokers, topic)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const writer = jsonSerializer(WireFormat.MESSAGE_HEADERS, true)
    const messages = []
    for (const event of events) messages.push(await writer.serializeMessage(event, ctx))
    await produceRaw(
      brokers,
      topic,
      messages.map((m) => ({ value: m.payload as Buffer, headers: m.headers as Record<string, Buffer> })),
    )

    const read = await javaAvroJsonConsume(brokers, registryUrl, topic, 'binary', COUNT)
    expect(read).toEqual(
      messages.map((m, i) => ({
        offset: i,
        headers: Object.fromEntries(Object.entries(m.headers).map(([k, v]) => [k, hex(v)])),
        json: Buffer.from(m.payload).toString('utf8'),
      })),
    )
  })
})

describe('a topic mixing both encodings in headers mode', () => {
  test('every message names its encoding (BINARY too, as Java writes it), so Java reads a topic mixing both; deserializeMessage reads each as it is', async () => {
    const topic = uniqueName('ts-avro-mixed')
    await createTopic(brokers, topic)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const json = await jsonSerializer(WireFormat.MESSAGE_HEADERS, true).serializeMessage(events[0], ctx)
    // Our binary serializer names its encoding, as Java's does: Java's deserializer keeps the last encoding header
    // it met, so a binary message after a JSON one needs it.
    const binarySerializer = new AvroSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      useId: 'contentId',
      wireFormat: WireFormat.MESSAGE_HEADERS,
    })
    const binary = await binarySerializer.serializeMessage(events[1], ctx)
    expect(Object.keys(binary.headers)).toEqual(['apicurio.value.contentId', 'apicurio.value.encoding'])
    const sent = [json, binary]
    await produceRaw(
      brokers,
      topic,
      sent.map((m) => ({ value: m.payload as Buffer, headers: m.headers as Record<string, Buffer> })),
    )

    const reader = new AvroDeserializer(client())
    const raw = await consumeRaw(brokers, topic, 2)
    const values = []
    for (const m of raw)
      values.push(await reader.deserializeMessage({ payload: m.value, headers: m.headers }, ctx))
    expect(values).toEqual([events[0], events[1]])

    // AvroKafkaDeserializer.deserialize sets its delegate's encoding from each message's header and keeps it: with
    // BINARY on the binary message, it reads offset 1 as binary after the JSON message at offset 0.
    const javaRead = await javaAvroJsonConsume(brokers, registryUrl, topic, 'binary', 2)
    expect(javaRead.map((record) => [record.offset, record.headers['apicurio.value.encoding']])).toEqual([
      [0, Buffer.from('JSON').toString('hex')],
      [1, Buffer.from('BINARY').toString('hex')],
    ])
  })
})
