import { JsonSchemaDeserializer, JsonSchemaSerializer, TopicIdStrategy } from '@x/jsonschema-serde'
import { decodeFrame, encodeIdHeader, MessageField, SerializationContext, WireFormat } from '@x/wire-format'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { uniqueName } from './fixtures.js'
import { buildJavaHarness, type JavaMode, javaJsonConsume, javaJsonProduce } from './java-harness.js'
import { expectedOrder, expectedOrderText, orderSchema } from './json-fixtures.js'
import { consumeRaw, createTopic, produceRaw, type RawMessage } from './kafka-io.js'
import { registryClients } from './registry-clients.js'
import { latestVersion } from './registry-http.js'

// Apicurio Registry's own Java JSON Schema serde (io.apicurio:apicurio-registry-jsonschema-serde-kafka 3.1.7,
// interop/java JsonMain) and @x/jsonschema-serde on one real Kafka broker and one real Apicurio Registry 3, both
// ways, in the 3.x defaults (contentId in a 4-byte frame), use-id=globalId and headers mode. Every order carries a
// long beyond 2^53: Java is the authority on the bytes.

const COUNT = 3
const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')

const client = registryClients(registryUrl)

beforeAll(() => buildJavaHarness(), 600_000)

async function javaWrites(mode: JavaMode): Promise<{ topic: string; messages: RawMessage[] }> {
  const topic = uniqueName(`java-json-${mode}`)
  await createTopic(brokers, topic)
  await javaJsonProduce(brokers, registryUrl, topic, mode, COUNT)
  return { topic, messages: await consumeRaw(brokers, topic, COUNT) }
}

const orders = Array.from({ length: COUNT }, (_, i) => expectedOrder(i))
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

describe('Java produces, @x/jsonschema-serde consumes', () => {
  test('the Java 3.x defaults write 0x00, the 4-byte contentId, then compact JSON: byte for byte what we write', async () => {
    const { topic, messages } = await javaWrites('default')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const deserializer = new JsonSchemaDeserializer(client(), { useId: 'contentId', validate: true })
    const ours = new JsonSchemaSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      useId: 'contentId',
    })
    for (const [i, message] of messages.entries()) {
      expect(message.headers).toEqual({})
      expect(decodeFrame(message.value).schemaId).toBe(latest.contentId)
      expect(message.value.subarray(5).toString('utf8')).toBe(expectedOrderText(i))
      // The long beyond 2^53 comes back exact.
      expect(await deserializer.deserialize(message.value, ctx)).toEqual(orders[i])
      // Our serializer, on the same artifact, writes the same bytes.
      expect(hex(await ours.serialize(orders[i], ctx))).toBe(hex(message.value))
    }
  })

  test('with use-id=globalId the frame carries the globalId, read with useId globalId', async () => {
    const { topic, messages } = await javaWrites('globalId')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const deserializer = new JsonSchemaDeserializer(client(), { useId: 'globalId' })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const values = []
    for (const message of messages) {
      expect(decodeFrame(message.value).schemaId).toBe(latest.globalId)
      values.push(await deserializer.deserialize(message.value, ctx))
    }
    expect(values).toEqual(orders)
  })

  test('in headers mode Java sends bare JSON with the contentId header and a msgType header, which we ignore', async () => {
    const { topic, messages } = await javaWrites('headers')
    const latest = await latestVersion(registryUrl, 'default', `${topic}-value`)
    const deserializer = new JsonSchemaDeserializer(client(), { validate: true })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    const values = []
    for (const [i, message] of messages.entries()) {
      expect(Object.keys(message.headers).sort()).toEqual([
        'apicurio.value.contentId',
        'apicurio.value.msgType',
      ])
      expect(hex(message.headers['apicurio.value.contentId']!)).toBe(hex(encodeIdHeader(latest.contentId)))
      expect(message.value.toString('utf8')).toBe(expectedOrderText(i))
      values.push(
        await deserializer.deserializeMessage({ payload: message.value, headers: message.headers }, ctx),
      )
    }
    expect(values).toEqual(orders)
  })
})

describe('@x/jsonschema-serde produces, Java consumes (and validates)', () => {
  function serializer(useId: 'globalId' | 'contentId', wireFormat?: WireFormat) {
    return new JsonSchemaSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      autoRegister: true,
      schema: orderSchema(),
      useId,
      ...(wireFormat === undefined ? {} : { wireFormat }),
    })
  }

  async function weWrite(mode: JavaMode, write: (topic: string) => Promise<RawMessage[]>) {
    const topic = uniqueName(`ours-json-${mode}`)
    await createTopic(brokers, topic)
    await produceRaw(brokers, topic, await write(topic))
    return javaJsonConsume(brokers, registryUrl, topic, mode, COUNT)
  }

  test.each([
    ['default', 'contentId'],
    ['globalId', 'globalId'],
  ] as const)(
    'frames with useId %s are read by Java in its %s set-up, the long exact',
    async (mode, useId) => {
      const lines = await weWrite(mode, async (topic) => {
        const s = serializer(useId)
        const ctx = new SerializationContext(topic, MessageField.VALUE)
        return Promise.all(
          orders.map(async (order) => ({ value: Buffer.from(await s.serialize(order, ctx)), headers: {} })),
        )
      })
      expect(lines.map((line) => line.text)).toEqual(orders.map((_, i) => expectedOrderText(i)))
    },
  )

  test('serializeMessage with useId contentId is read by Java in headers mode', async () => {
    const lines = await weWrite('headers', async (topic) => {
      const s = serializer('contentId', WireFormat.MESSAGE_HEADERS)
      const ctx = new SerializationContext(topic, MessageField.VALUE)
      return Promise.all(
        orders.map(async (order) => {
          const { payload, headers } = await s.serializeMessage(order, ctx)
          return {
            value: Buffer.from(payload),
            headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Buffer.from(v)])),
          }
        }),
      )
    })
    expect(lines.map((line) => line.text)).toEqual(orders.map((_, i) => expectedOrderText(i)))
  })
})
