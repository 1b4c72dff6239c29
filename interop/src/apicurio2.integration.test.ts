import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { type Io, run } from '@x/cli'
import { DeserializationError } from '@x/errors'
import { AnyDeserializer } from '@x/kafka'
import { encodeIdHeader, MessageField, SerializationContext, WireFormat } from '@x/wire-format'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { expectedEvents, uniqueName } from './fixtures.js'
import { buildJavaHarness, javaProduce } from './java-harness.js'
import { buildJava2Harness, java2Consume, java2Produce } from './java2-harness.js'
import { consumeRaw, createTopic, produceRaw } from './kafka-io.js'
import { registryClients } from './registry-clients.js'
import { latestVersion } from './registry-http.js'

// The 2.x → 3.x migration as it really happens: Apicurio Registry 2.6's own Java serde
// (io.apicurio:apicurio-registry-serdes-avro-serde 2.6.13.Final, interop/java2) writes through Apicurio 3.3.3's
// /apis/registry/v2 API, with its defaults (the 8-byte globalId, in a header when Kafka passes headers, which a real
// producer does) and with headers disabled (the 8-byte globalId in the frame); we read those topics with idSize 8 and
// 'auto', and 2.6 reads what we write with idSize 8.

const COUNT = 2
const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')
const client = registryClients(registryUrl)
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

/** `Legacy.record(i)` of interop/java2, as AvroDeserializer reads it (`n` lies beyond 2^53). */
const legacy = (i: number) => ({ id: `r${i}`, n: 9007199254740993n + BigInt(i) })
const legacies = Array.from({ length: COUNT }, (_, i) => legacy(i))

/** Topics 2.6 writes once, in parallel: with headers disabled (the frame), and with its defaults (headers). */
const framedTopic = uniqueName('java2-framed')
const headersTopic = uniqueName('java2-headers')

beforeAll(async () => {
  await buildJava2Harness()
  await buildJavaHarness()
  await Promise.all([createTopic(brokers, framedTopic), createTopic(brokers, headersTopic)])
  await Promise.all([
    java2Produce(brokers, registryUrl, framedTopic, 'framed', COUNT),
    java2Produce(brokers, registryUrl, headersTopic, 'headers', COUNT),
  ])
}, 600_000)

describe('Apicurio 2.6 writes, we read', () => {
  test('headers disabled: 0x00 + the 8-byte globalId (3.x reports the same globalId); idSize 8, auto and AnyDeserializer read it', async () => {
    const topic = framedTopic
    const messages = await consumeRaw(brokers, topic, COUNT)
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    for (const message of messages) {
      expect(message.headers).toEqual({})
      expect(hex(message.value.subarray(0, 9))).toBe(`00${latest.globalId.toString(16).padStart(16, '0')}`)
    }
    for (const reader of [
      new AvroDeserializer(client(), { idSize: 8 }),
      new AvroDeserializer(client(), { idSize: 'auto' }),
      new AnyDeserializer(client(), { idSize: 'auto' }),
    ]) {
      const values = []
      for (const message of messages) values.push(await reader.deserialize(message.value, ctx))
      expect(values).toEqual(legacies)
    }
    // x-serde inspect reads the frame with --id-size auto.
    let stdout = ''
    const io: Io = {
      stdout: (text) => {
        stdout += text
      },
      stderr: () => {},
      env: { REGISTRY_URL: registryUrl },
      cwd: process.cwd(),
      readStdin: async () => Buffer.alloc(0),
    }
    expect(await run(['inspect', hex(messages[0]!.value), '--id-size', 'auto', '--json'], io)).toBe(0)
    expect(JSON.parse(stdout.replace(/:(\d{16,})/g, ':"$1"'))).toMatchObject({
      framing: 'framed',
      idSize: 8,
      idType: 'globalId',
      id: latest.globalId,
      format: 'AVRO',
      value: { id: 'r0', n: '9007199254740993' },
    })
    // The 3.x default (4 bytes) refuses these frames by their id 0, naming idSize 8.
    await expect(new AvroDeserializer(client()).deserialize(messages[0]!.value, ctx)).rejects.toThrow(
      DeserializationError,
    )
  })

  test("2.x's defaults in a real producer: the bare payload, an 8-byte apicurio.value.globalId and apicurio.value.encoding headers", async () => {
    const topic = headersTopic
    const messages = await consumeRaw(brokers, topic, COUNT)
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    for (const message of messages) {
      expect(Object.keys(message.headers).sort()).toEqual([
        'apicurio.value.encoding',
        'apicurio.value.globalId',
      ])
      expect(hex(message.headers['apicurio.value.globalId']!)).toBe(hex(encodeIdHeader(latest.globalId)))
      expect(message.headers['apicurio.value.encoding']!.toString()).toBe('BINARY')
    }
    for (const idSize of [4, 8, 'auto'] as const) {
      const reader = new AvroDeserializer(client(), { idSize })
      const values = []
      for (const message of messages) {
        values.push(
          await reader.deserializeMessage({ payload: message.value, headers: message.headers }, ctx),
        )
      }
      expect(values).toEqual(legacies)
    }
  })

  test("a migrated topic (2.6's 8-byte globalIds, then 3.1.7's 4-byte globalIds) reads with idSize 'auto'", async () => {
    // 3.1.7 with use-id=globalId appends to the topic 2.6 wrote with headers disabled.
    const topic = framedTopic
    await javaProduce(brokers, registryUrl, topic, 'globalId', COUNT)
    const messages = await consumeRaw(brokers, topic, 2 * COUNT)
    expect(messages.map((m) => m.value.length > 9 && m.value.subarray(1, 5).equals(Buffer.alloc(4)))).toEqual(
      [true, true, false, false],
    )
    const reader = new AnyDeserializer(client(), { idSize: 'auto' })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const values = []
    for (const message of messages) values.push(await reader.deserialize(message.value, ctx))
    expect(values.slice(0, COUNT)).toEqual(legacies)
    expect(values.slice(COUNT)).toEqual(expectedEvents(COUNT))
  })
})

describe('we write, Apicurio 2.6 reads', () => {
  test('idSize 8 frames and headers-mode messages, on the artifact 2.6 registered, are read by its deserializer', async () => {
    // The artifact 2.6 registered for its headers-mode topic (the framed topic's has 3.1.7's schema on top by now).
    const source = headersTopic
    const topic = uniqueName('ours-to-java2')
    await createTopic(brokers, topic)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const framed = new AvroSerializer(client(), `${source}-value`, { idSize: 8 })
    const headers = new AvroSerializer(client(), `${source}-value`, {
      wireFormat: WireFormat.MESSAGE_HEADERS,
    })
    const out = []
    for (const value of legacies) out.push({ value: Buffer.from(await framed.serialize(value, ctx)) })
    for (const value of legacies) {
      const message = await headers.serializeMessage(value, ctx)
      out.push({
        value: Buffer.from(message.payload),
        headers: Object.fromEntries(Object.entries(message.headers).map(([k, v]) => [k, Buffer.from(v)])),
      })
    }
    await produceRaw(brokers, topic, out)
    const lines = await java2Consume(brokers, registryUrl, topic, 'headers', 2 * COUNT)
    expect(lines.map((line) => [line.id, line.n])).toEqual(
      [...legacies, ...legacies].map((value) => [value.id, String(value.n)]),
    )
  })
})
