import { ProtobufDeserializer, ProtobufSerializer, TopicIdStrategy } from '@x/protobuf-serde'
import { decodeFrame, encodeIdHeader, MessageField, SerializationContext, WireFormat } from '@x/wire-format'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { uniqueName } from './fixtures.js'
import { buildJavaHarness, type JavaProtoMode, javaProtoConsume, javaProtoProduce } from './java-harness.js'
import { consumeRaw, createTopic, produceRaw, type RawMessage } from './kafka-io.js'
import { expectedOrder, expectedOrderJson, protoText } from './proto-fixtures.js'
import { registryClients } from './registry-clients.js'
import { latestVersion, versionReferences } from './registry-http.js'

// Apicurio Registry's own Java Protobuf serde (io.apicurio:apicurio-registry-protobuf-serde-kafka 3.1.7, protoc
// classes of interop/fixtures/proto, interop/java ProtoMain) and @x/protobuf-serde on one real Kafka broker and one
// real Apicurio Registry 3, both ways: Java's default framing (a Ref), send-indexes (Confluent's message indexes) and
// headers mode, with a message that imports another artifact and uses a well-known type.

const COUNT = 2
const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')

const client = registryClients(registryUrl)

beforeAll(() => buildJavaHarness(), 600_000)

async function javaWrites(mode: JavaProtoMode): Promise<{ topic: string; messages: RawMessage[] }> {
  const topic = uniqueName(`java-proto-${mode}`)
  await createTopic(brokers, topic)
  await javaProtoProduce(brokers, registryUrl, topic, mode, COUNT)
  return { topic, messages: await consumeRaw(brokers, topic, COUNT) }
}

const orders = Array.from({ length: COUNT }, (_, i) => expectedOrder(i))
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

describe('Java produces, @x/protobuf-serde consumes', () => {
  test('the Java 3.x defaults write 0x00, the contentId, a Ref naming Order, then the message: what we write too', async () => {
    const { topic, messages } = await javaWrites('default')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const deserializer = new ProtobufDeserializer(client(), { useId: 'contentId' })
    const ours = new ProtobufSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      useId: 'contentId',
    })
    for (const [i, message] of messages.entries()) {
      expect(message.headers).toEqual({})
      expect(decodeFrame(message.value).schemaId).toBe(latest.contentId)
      // The Ref: its length 7, then field 1 (0a) of 5 bytes, "Order".
      expect(hex(message.value.subarray(5, 13))).toBe(`070a05${Buffer.from('Order').toString('hex')}`)
      expect(await deserializer.deserialize(message.value, ctx)).toEqual(orders[i])
      expect(hex(await ours.serialize(orders[i], ctx))).toBe(hex(message.value))
    }
  })

  test('Java registers the Wire-reformatted .proto with its imports as references; we read the maps it rewrites', async () => {
    const { topic } = await javaWrites('default')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const references = await versionReferences(registryUrl, 'default', `${topic}-value`, latest.version)
    expect(references.map((r) => r.name).sort()).toEqual([
      'common/address.proto',
      'google/protobuf/timestamp.proto',
    ])
    const content = await fetch(`${registryUrl}/ids/contentIds/${latest.contentId}`).then((r) => r.text())
    expect(content).toContain('CountsEntry')
  })

  test('with send-indexes Java writes the message indexes (02 00 for the first message), read with framing confluent', async () => {
    const { topic, messages } = await javaWrites('indexes')
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const deserializer = new ProtobufDeserializer(client(), { useId: 'contentId', framing: 'confluent' })
    const values = []
    for (const message of messages) {
      expect(hex(message.value.subarray(5, 7))).toBe('0200')
      values.push(await deserializer.deserialize(message.value, ctx))
    }
    expect(values).toEqual(orders)
    // Read as a Ref frame, the same bytes are refused with a pointer to the right framing.
    await expect(
      new ProtobufDeserializer(client(), { useId: 'contentId' }).deserialize(messages[0]!.value, ctx),
    ).rejects.toThrow("framing: 'confluent'")
  })

  test('in headers mode Java sends the Ref and message with an 8-byte contentId header and type headers we ignore', async () => {
    const { topic, messages } = await javaWrites('headers')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const deserializer = new ProtobufDeserializer(client())
    const values = []
    for (const message of messages) {
      expect(hex(message.headers['apicurio.value.contentId']!)).toBe(hex(encodeIdHeader(latest.contentId)))
      values.push(
        await deserializer.deserializeMessage({ payload: message.value, headers: message.headers }, ctx),
      )
    }
    expect(values).toEqual(orders)
  })
})

describe('@x/protobuf-serde produces, Java consumes', () => {
  async function weWrite(
    mode: JavaProtoMode,
    options: { framing?: 'apicurio' | 'confluent'; wireFormat?: WireFormat },
  ) {
    const topic = uniqueName(`ours-proto-${mode}`)
    await createTopic(brokers, topic)
    const registry = client()
    const address = await registry.registerSchema(`${topic}-address`, protoText('common/address.proto'), {
      artifactType: 'PROTOBUF',
    })
    const serializer = new ProtobufSerializer(registry, {
      artifactResolver: new TopicIdStrategy(),
      autoRegister: true,
      schema: protoText('order.proto'),
      references: [
        { name: 'common/address.proto', artifactId: `${topic}-address`, version: address.version! },
      ],
      useId: 'contentId',
      ...options,
    })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const messages = await Promise.all(
      orders.map(async (order) => {
        const { payload, headers } = await serializer.serializeMessage(order, ctx)
        return {
          value: Buffer.from(payload),
          headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)])),
        }
      }),
    )
    await produceRaw(brokers, topic, messages)
    return javaProtoConsume(brokers, registryUrl, topic, mode, COUNT)
  }

  test.each([
    ['default', {}],
    ['indexes', { framing: 'confluent' as const }],
    ['headers', { wireFormat: WireFormat.MESSAGE_HEADERS }],
  ] as const)('Java in its %s set-up reads what we write, exactly', async (mode, options) => {
    const lines = await weWrite(mode, options)
    expect(lines.map((line) => line.type)).toEqual(orders.map(() => 'interop.shop.Order'))
    expect(lines.map((line) => JSON.parse(line.json))).toEqual(orders.map((_, i) => expectedOrderJson(i)))
  })
})
