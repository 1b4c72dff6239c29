import {
  AvroDeserializer as ConfluentAvroDeserializer,
  AvroSerializer as ConfluentAvroSerializer,
  JsonDeserializer as ConfluentJsonDeserializer,
  JsonSerializer as ConfluentJsonSerializer,
  ProtobufDeserializer as ConfluentProtobufDeserializer,
  ProtobufSerializer as ConfluentProtobufSerializer,
  SchemaRegistryClient,
  SerdeType,
  SubjectNameStrategyType,
} from '@confluentinc/schemaregistry'
import { AvroDeserializer, AvroSerializer, TopicIdStrategy } from '@x/avro-serde'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { MessageField, SerializationContext } from '@x/wire-format'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { shopCases, shopProtoText, shopRegistry } from './ccompat-fixtures.js'
import { eventSchema, expectedEvents, uniqueName } from './fixtures.js'
import { orderSchema } from './json-fixtures.js'
import { registryClients } from './registry-clients.js'
import { latestVersion } from './registry-http.js'

// @confluentinc/schemaregistry (npm, pure JS) pointed at the real Apicurio 3.3.3's Confluent-compatible API
// (/apis/ccompat/v7, where a Confluent schema id is Apicurio's contentId), against our serdes on the same registry,
// for Avro, JSON Schema and Protobuf: Confluent writes, we read with useId 'contentId'; we write, Confluent reads.
// Bytes are bytes: no broker needed.

const registryUrl = inject('registryUrl')
const ccompatUrl = registryUrl.replace(/\/apis\/registry\/v3$/, '/apis/ccompat/v7')
const client = registryClients(registryUrl)
const confluentClients: SchemaRegistryClient[] = []
afterAll(() => {
  for (const c of confluentClients) c.close()
})

/**
 * A Confluent client of the ccompat API, every request of it bounded by a 10 s timeout: Apicurio 3.3.3 now and then
 * leaves a ccompat lookup unanswered (seen on the first `GET /schemas/ids/{id}` of a fresh registry, for content
 * registered through both APIs), and Confluent's client sets no timeout of its own, so such a request would wait for
 * ever; with the timeout, Confluent's client sends it again and the answer comes. `failing`: for a test of how
 * Confluent's serdes fail, with no retry either, so the test waits on no retry schedule of Confluent's client (3
 * retries with backoff up to 20 s by default, for the 500 Apicurio answers there).
 */
function confluentClient(failing = false): SchemaRegistryClient {
  const c = new SchemaRegistryClient({
    baseURLs: [ccompatUrl],
    createAxiosDefaults: { timeout: PEER_TIMEOUT_MS },
    ...(failing ? { maxRetries: 0 } : {}),
  })
  confluentClients.push(c)
  return c
}

/**
 * Confluent's serdes name the subject by the topic (`<topic>-value`), as Apicurio's ccompat API expects. Their default
 * first asks the registry for the topic's associations, an API Apicurio does not have; that request was seen to go
 * unanswered, so it is never sent.
 */
const TOPIC_NAMES = { subjectNameStrategyType: SubjectNameStrategyType.TOPIC }

/** How long a request of a test of a peer's failure may take: such a test passes or fails in seconds. */
const PEER_TIMEOUT_MS = 10_000

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

/** The interop events with `big` inside 2^53: Confluent's avsc long type refuses anything beyond. */
const safeEvents = () => expectedEvents(3).map((event, i) => ({ ...event, big: 1_000 + i }))

describe('Avro through the ccompat API', () => {
  test('Confluent registers via ccompat and frames 0x00 + contentId; we read every frame, and write the same bytes', async () => {
    const topic = uniqueName('cc-avro')
    const subject = `${topic}-value`
    const confluent = confluentClient()
    const id = await confluent.register(subject, { schemaType: 'AVRO', schema: JSON.stringify(eventSchema) })
    const latest = await latestVersion(registryUrl, 'default', subject)
    expect(id).toBe(latest.contentId)

    const writer = new ConfluentAvroSerializer(confluent, SerdeType.VALUE, {
      ...TOPIC_NAMES,
      useLatestVersion: true,
    })
    const reader = new AvroDeserializer(client(), { useId: 'contentId' })
    const ours = new AvroSerializer(client(), { artifactResolver: new TopicIdStrategy(), useId: 'contentId' })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    for (const event of safeEvents()) {
      const frame = await writer.serialize(topic, event)
      expect(frame.readUInt32BE(1)).toBe(latest.contentId)
      expect(await reader.deserialize(frame, ctx)).toEqual(event)
      expect(hex(await ours.serialize(event, ctx))).toBe(hex(frame))
    }
  })

  test('our frames (schema auto-registered through our client) are read by Confluent’s AvroDeserializer', async () => {
    const topic = uniqueName('cc-avro-ours')
    const ours = new AvroSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      useId: 'contentId',
      autoRegister: true,
      schema: eventSchema,
    })
    const reader = new ConfluentAvroDeserializer(confluentClient(), SerdeType.VALUE, { ...TOPIC_NAMES })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    for (const event of safeEvents()) {
      expect(await reader.deserialize(topic, (await ours.serialize(event, ctx)) as Buffer)).toEqual(event)
    }
  })

  test('a long beyond 2^53 we write is refused by Confluent’s reader (its avsc long type), not rounded', async () => {
    const topic = uniqueName('cc-avro-big')
    const ours = new AvroSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      useId: 'contentId',
      autoRegister: true,
      schema: eventSchema,
    })
    const frame = await ours.serialize(
      expectedEvents(1)[0]!,
      new SerializationContext(topic, MessageField.VALUE),
    )
    const reader = new ConfluentAvroDeserializer(confluentClient(), SerdeType.VALUE, { ...TOPIC_NAMES })
    await expect(reader.deserialize(topic, frame as Buffer)).rejects.toThrow(/precision/)
  })
})

describe('JSON Schema through the ccompat API', () => {
  const orders = () =>
    Array.from({ length: 3 }, (_, i) => ({
      id: 1_000 + i,
      sku: `SKU-${i}`,
      qty: i + 1,
      price: 12.5 + i,
      tags: [`t${i}`, 'x'],
      gift: i % 2 === 0,
      note: `é "quoted" ${i}`,
    }))

  test('Confluent writes 0x00 + contentId + JSON; we read every frame, and write the same bytes', async () => {
    const topic = uniqueName('cc-json')
    const subject = `${topic}-value`
    const confluent = confluentClient()
    const id = await confluent.register(subject, {
      schemaType: 'JSON',
      schema: JSON.stringify(orderSchema()),
    })
    expect(id).toBe((await latestVersion(registryUrl, 'default', subject)).contentId)

    const writer = new ConfluentJsonSerializer(confluent, SerdeType.VALUE, {
      ...TOPIC_NAMES,
      useLatestVersion: true,
    })
    const reader = new JsonSchemaDeserializer(client(), { useId: 'contentId' })
    const ours = new JsonSchemaSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      useId: 'contentId',
    })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    for (const order of orders()) {
      const frame = await writer.serialize(topic, order)
      expect(frame.readUInt32BE(1)).toBe(id)
      expect(await reader.deserialize(frame, ctx)).toEqual(order)
      expect(hex(await ours.serialize(order, ctx))).toBe(hex(frame))
    }
  })

  test('our frames are read by Confluent’s JsonDeserializer', async () => {
    const topic = uniqueName('cc-json-ours')
    const ours = new JsonSchemaSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      useId: 'contentId',
      autoRegister: true,
      schema: orderSchema(),
    })
    const reader = new ConfluentJsonDeserializer(confluentClient(), SerdeType.VALUE, { ...TOPIC_NAMES })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    for (const order of orders()) {
      expect(await reader.deserialize(topic, (await ours.serialize(order, ctx)) as Buffer)).toEqual(order)
    }
  })
  test('a long beyond 2^53 we write exactly reaches Confluent’s JsonDeserializer rounded (JSON.parse)', async () => {
    const topic = uniqueName('cc-json-big')
    const ours = new JsonSchemaSerializer(client(), {
      artifactResolver: new TopicIdStrategy(),
      useId: 'contentId',
      autoRegister: true,
      schema: orderSchema(),
    })
    const order = { ...orders()[0]!, id: 9007199254740993n }
    const frame = await ours.serialize(order, new SerializationContext(topic, MessageField.VALUE))
    expect(Buffer.from(frame).subarray(5).toString()).toContain('"id":9007199254740993,')
    const read = await new ConfluentJsonDeserializer(confluentClient(), SerdeType.VALUE, {
      ...TOPIC_NAMES,
    }).deserialize(topic, frame as Buffer)
    expect((read as { id: number }).id).toBe(9007199254740992)
  })
})

describe('Protobuf through the ccompat API', () => {
  test('Confluent writes message indexes ([0] as one byte, [1], nested [1,1,0]); we read each with framing confluent', async () => {
    const topic = uniqueName('cc-proto')
    const subject = `${topic}-value`
    const confluent = confluentClient()
    const id = await confluent.register(subject, { schemaType: 'PROTOBUF', schema: shopProtoText })
    expect(id).toBe((await latestVersion(registryUrl, 'default', subject)).contentId)
    const writer = new ConfluentProtobufSerializer(confluent, SerdeType.VALUE, {
      ...TOPIC_NAMES,
      useLatestVersion: true,
      registry: shopRegistry,
    } as never)
    const reader = new ProtobufDeserializer(client(), { useId: 'contentId', framing: 'confluent' })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    for (const c of shopCases()) {
      const frame = await writer.serialize(topic, c.bufbuild)
      expect(frame.readUInt32BE(1)).toBe(id)
      expect(hex(frame.subarray(5, 5 + c.indexes.length / 2))).toBe(c.indexes)
      expect(await reader.deserialize(frame, ctx)).toEqual(c.ours)
      const ours = new ProtobufSerializer(client(), {
        artifactResolver: new TopicIdStrategy(),
        useId: 'contentId',
        framing: 'confluent',
        messageType: c.typeName,
      })
      expect(hex(await ours.serialize(c.ours, ctx))).toBe(hex(frame))
    }
  })

  test('Confluent auto-registers the base64 of its FileDescriptorProto; we read every frame of it, indexes and all', async () => {
    const topic = uniqueName('cc-proto-auto')
    const subject = `${topic}-value`
    const writer = new ConfluentProtobufSerializer(confluentClient(), SerdeType.VALUE, {
      ...TOPIC_NAMES,
      autoRegisterSchemas: true,
      registry: shopRegistry,
    } as never)
    const reader = new ProtobufDeserializer(client(), { useId: 'contentId', framing: 'confluent' })
    const ctx = new SerializationContext(topic, MessageField.VALUE)
    for (const c of shopCases()) {
      const frame = await writer.serialize(topic, c.bufbuild)
      expect(hex(frame.subarray(5, 5 + c.indexes.length / 2))).toBe(c.indexes)
      expect(await reader.deserialize(frame, ctx)).toEqual(c.ours)
    }
    // What Apicurio stored: the text Confluent sent, base64, not .proto text.
    const stored = await fetch(`${ccompatUrl}/subjects/${subject}/versions/latest`).then((r) => r.json())
    expect((stored as { schema: string }).schema).toMatch(/^[A-Za-z0-9+/]+=*$/)
  })

  test('Confluent’s ProtobufDeserializer reads no frame through ccompat: ?format=serialized is not the base64 it needs', async () => {
    const topic = uniqueName('cc-proto-no-read')
    const confluent = confluentClient()
    const id = await confluent.register(`${topic}-value`, { schemaType: 'PROTOBUF', schema: shopProtoText })
    // Registered as .proto text, Apicurio answers the descriptor's raw bytes as a JSON string, not their base64.
    const serialized = await fetch(`${ccompatUrl}/schemas/ids/${id}?format=serialized`, {
      signal: AbortSignal.timeout(PEER_TIMEOUT_MS),
    }).then((r) => r.json())
    expect((serialized as { schema: string }).schema.charCodeAt(0)).toBe(0x0a)
    const writer = new ConfluentProtobufSerializer(confluent, SerdeType.VALUE, {
      ...TOPIC_NAMES,
      useLatestVersion: true,
      registry: shopRegistry,
    } as never)
    const frame = await writer.serialize(topic, shopCases()[1]!.bufbuild)
    const reader = new ConfluentProtobufDeserializer(confluentClient(true), SerdeType.VALUE, {
      ...TOPIC_NAMES,
    })
    await expect(reader.deserialize(topic, frame)).rejects.toThrow()

    // Registered by Confluent itself (base64), Apicurio cannot make the serialized form at all: 500.
    const auto = new ConfluentProtobufSerializer(confluent, SerdeType.VALUE, {
      ...TOPIC_NAMES,
      autoRegisterSchemas: true,
      registry: shopRegistry,
    } as never)
    const autoTopic = uniqueName('cc-proto-no-read-auto')
    const autoFrame = await auto.serialize(autoTopic, shopCases()[1]!.bufbuild)
    const answer = await fetch(`${ccompatUrl}/schemas/ids/${autoFrame.readUInt32BE(1)}?format=serialized`, {
      signal: AbortSignal.timeout(PEER_TIMEOUT_MS),
    })
    expect(answer.status).toBe(500)
    await expect(reader.deserialize(autoTopic, autoFrame)).rejects.toThrow(/Syntax error/)
  }, 60_000)
})
