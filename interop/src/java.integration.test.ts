import { AvroDeserializer, AvroSerializer, TopicIdStrategy } from '@x/avro-serde'
import {
  decodeFrame,
  decodeIdHeader,
  encodeIdHeader,
  MessageField,
  SerializationContext,
  WireFormat,
} from '@x/wire-format'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { canonicalEvent, eventSchema, expectedEvents, uniqueName } from './fixtures.js'
import { buildJavaHarness, type JavaMode, javaConsume, javaProduce } from './java-harness.js'
import { consumeRaw, createTopic, produceRaw, type RawMessage } from './kafka-io.js'
import { registryClients } from './registry-clients.js'
import { latestVersion, versionReferences } from './registry-http.js'

// Apicurio Registry's own Java serde (io.apicurio:apicurio-registry-avro-serde-kafka 3.1.7, interop/java) and
// @x/avro-serde on one real Kafka broker and one real Apicurio Registry 3, both ways, in the three Java set-ups a
// user meets: the 3.x defaults (contentId in a 4-byte frame), use-id=globalId, and headers mode.

const COUNT = 4
const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')

const client = registryClients(registryUrl)

beforeAll(() => buildJavaHarness(), 600_000)

/** Java writes the fixture records to a fresh topic in `mode`; returns the topic and the raw messages. */
async function javaWrites(mode: JavaMode): Promise<{ topic: string; messages: RawMessage[] }> {
  const topic = uniqueName(`java-${mode}`)
  await createTopic(brokers, topic)
  await javaProduce(brokers, registryUrl, topic, mode, COUNT)
  return { topic, messages: await consumeRaw(brokers, topic, COUNT) }
}

const expectedJavaLines = (headers: (i: number) => Record<string, string>) =>
  expectedEvents(COUNT).map((event, i) => ({ offset: i, headers: headers(i), value: canonicalEvent(event) }))

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

describe('Java produces, @x/avro-serde consumes', () => {
  test('with the Java 3.x defaults each value is 0x00, the 4-byte contentId of <topic>-value, then Avro', async () => {
    const { topic, messages } = await javaWrites('default')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)

    expect(messages).toHaveLength(COUNT)
    for (const message of messages) {
      expect(message.headers).toEqual({})
      expect(message.value[0]).toBe(0x00)
      expect(message.value.readUInt32BE(1)).toBe(latest.contentId)
    }
  })

  test('Java 3.1.7 auto-registers the nested enum and record as artifacts of their own, referenced by full name', async () => {
    const { topic } = await javaWrites('default')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const references = await versionReferences(registryUrl, 'default', `${topic}-value`, latest.version)

    expect(references.map((r) => ({ name: r.name, artifactId: r.artifactId, groupId: r.groupId }))).toEqual([
      { name: 'x.serde.interop.Kind', artifactId: 'x.serde.interop.Kind', groupId: undefined },
      { name: 'x.serde.interop.Origin', artifactId: 'x.serde.interop.Origin', groupId: undefined },
    ])
  })

  test('AvroDeserializer with useId contentId reads the Java defaults back exactly, references and all', async () => {
    const { topic, messages } = await javaWrites('default')
    const deserializer = new AvroDeserializer(client(), { useId: 'contentId' })
    const ctx = new SerializationContext(topic, MessageField.VALUE)

    const values = []
    for (const message of messages) values.push(await deserializer.deserialize(message.value, ctx))

    expect(values).toEqual(expectedEvents(COUNT))
  })

  test("a client set to another group still finds Java's references, which live in the default group", async () => {
    const { topic, messages } = await javaWrites('default')
    const deserializer = new AvroDeserializer(client(uniqueName('interop-other-group')), {
      useId: 'contentId',
    })
    const ctx = new SerializationContext(topic, MessageField.VALUE)

    const values = []
    for (const message of messages) values.push(await deserializer.deserialize(message.value, ctx))

    expect(values).toEqual(expectedEvents(COUNT))
  })

  test('with use-id=globalId the frame carries the globalId, which AvroDeserializer with useId globalId reads', async () => {
    const { topic, messages } = await javaWrites('globalId')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const deserializer = new AvroDeserializer(client(), { useId: 'globalId' })
    const ctx = new SerializationContext(topic, MessageField.VALUE)

    const values = []
    for (const message of messages) {
      expect(decodeFrame(message.value).schemaId).toBe(latest.globalId)
      values.push(await deserializer.deserialize(message.value, ctx))
    }

    expect(values).toEqual(expectedEvents(COUNT))
  })

  test('in headers mode Java sends bare Avro with an 8-byte contentId header, which deserializeMessage follows', async () => {
    const { topic, messages } = await javaWrites('headers')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    // The default useId is globalId: the header's name, not the option, says which id it is.
    const deserializer = new AvroDeserializer(client())
    const ctx = new SerializationContext(topic, MessageField.VALUE)

    const values = []
    for (const message of messages) {
      expect(Object.keys(message.headers).sort()).toEqual([
        'apicurio.value.contentId',
        'apicurio.value.encoding',
      ])
      expect(hex(message.headers['apicurio.value.contentId']!)).toBe(hex(encodeIdHeader(latest.contentId)))
      expect(message.headers['apicurio.value.encoding']!.toString()).toBe('BINARY')
      values.push(
        await deserializer.deserializeMessage({ payload: message.value, headers: message.headers }, ctx),
      )
    }

    expect(values).toEqual(expectedEvents(COUNT))
  })
})

describe('@x/avro-serde produces, Java consumes', () => {
  function serializer(options: { useId: 'globalId' | 'contentId'; wireFormat?: WireFormat }) {
    return new AvroSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      autoRegister: true,
      schema: eventSchema,
      ...options,
    })
  }

  test('frames with useId contentId (auto-registered under TopicIdStrategy) are read by the Java defaults', async () => {
    const topic = uniqueName('ts-default')
    await createTopic(brokers, topic)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const avro = serializer({ useId: 'contentId' })

    const frames = []
    for (const event of expectedEvents(COUNT)) frames.push(await avro.serialize(event, ctx))
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    for (const frame of frames) {
      expect(Buffer.isBuffer(frame)).toBe(true)
      expect(decodeFrame(frame).schemaId).toBe(latest.contentId)
    }
    await produceRaw(
      brokers,
      topic,
      frames.map((frame) => ({ value: frame as Buffer })),
    )

    expect(await javaConsume(brokers, registryUrl, topic, 'default', COUNT)).toEqual(
      expectedJavaLines(() => ({})),
    )
  })

  test('frames with useId globalId are read by Java with use-id=globalId', async () => {
    const topic = uniqueName('ts-globalId')
    await createTopic(brokers, topic)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const avro = serializer({ useId: 'globalId' })

    const frames = []
    for (const event of expectedEvents(COUNT)) frames.push(await avro.serialize(event, ctx))
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    for (const frame of frames) expect(decodeFrame(frame).schemaId).toBe(latest.globalId)
    await produceRaw(
      brokers,
      topic,
      frames.map((frame) => ({ value: frame as Buffer })),
    )

    expect(await javaConsume(brokers, registryUrl, topic, 'globalId', COUNT)).toEqual(
      expectedJavaLines(() => ({})),
    )
  })

  test.each(['contentId', 'globalId'] as const)(
    'serializeMessage with useId %s is read by Java in headers mode (one id header and the BINARY encoding header, as Java writes)',
    async (useId) => {
      const topic = uniqueName(`ts-headers-${useId}`)
      await createTopic(brokers, topic)
      const ctx = new SerializationContext(topic, MessageField.VALUE)
      const avro = serializer({ useId, wireFormat: WireFormat.MESSAGE_HEADERS })

      const messages = []
      for (const event of expectedEvents(COUNT)) messages.push(await avro.serializeMessage(event, ctx))
      const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
      const headerName = `apicurio.value.${useId}`
      for (const message of messages) {
        expect(Object.keys(message.headers)).toEqual([headerName, 'apicurio.value.encoding'])
        expect(Buffer.from(message.headers['apicurio.value.encoding']!).toString()).toBe('BINARY')
        expect(decodeIdHeader(message.headers[headerName]!)).toBe(latest[useId])
      }
      await produceRaw(
        brokers,
        topic,
        messages.map((m) => ({ value: m.payload as Buffer, headers: m.headers as Record<string, Buffer> })),
      )

      const idHex = hex(encodeIdHeader(latest[useId]))
      expect(await javaConsume(brokers, registryUrl, topic, 'headers', COUNT)).toEqual(
        expectedJavaLines(() => ({
          [headerName]: idHex,
          'apicurio.value.encoding': hex(Buffer.from('BINARY')),
        })),
      )
    },
  )
})
