import { AvroSerializer, TopicIdStrategy } from '@x/avro-serde'
import { DeserializationError } from '@x/errors'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AnyDeserializer, ApicurioSchemaRegistry, KafkaJsSerde } from './index.js'

// idSize through the adapters: AnyDeserializer reads 8-byte frames of every format (and both widths with 'auto'),
// and KafkaJsSerde and ApicurioSchemaRegistry pass it through to the ids they report.

let registry: InMemoryRegistry
let client: RegistryClient
const ctx = new SerializationContext('widths', 'value')
const AVRO = { type: 'record', name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: 'long' }] }
const JSON_SCHEMA = { type: 'object', properties: { id: { type: 'integer' } } }
const PROTO = 'syntax = "proto3";\npackage shop;\nmessage Line { int64 id = 1; string sku = 2; }\n'

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

/** A frame of each format with the given id width, written by that format's serializer. */
async function frames(idSize: 4 | 8) {
  const writer = new RegistryClient({ url: registry.url, groupId: 'default' })
  try {
    return [
      await new AvroSerializer(writer, 'w-avro', { autoRegister: true, schema: AVRO, idSize }).serialize(
        { id: 7 },
        ctx,
      ),
      await new JsonSchemaSerializer(writer, 'w-json', {
        autoRegister: true,
        schema: JSON_SCHEMA,
        idSize,
      }).serialize({ id: 8 }, ctx),
      await new ProtobufSerializer(writer, 'w-proto', {
        autoRegister: true,
        schema: PROTO,
        idSize,
      }).serialize({ id: 9, sku: 's' }, ctx),
    ]
  } finally {
    await writer.close()
  }
}

const values = [{ id: 7 }, { id: 8 }, { id: 9, sku: 's' }]

describe('AnyDeserializer idSize', () => {
  it('idSize 8 reads 8-byte frames of Avro, JSON Schema and Protobuf, and says which format each id is', async () => {
    const eight = await frames(8)
    for (const frame of eight) expect(frame.subarray(0, 5)).toEqual(Buffer.alloc(5))
    const reader = new AnyDeserializer(client, { idSize: 8 })
    expect(reader.idSize).toBe(8)
    for (const [i, frame] of eight.entries()) expect(await reader.deserialize(frame, ctx)).toEqual(values[i])
    expect(eight.map((frame) => reader.formatOf(Buffer.from(frame).readUInt32BE(5)))).toEqual([
      'AVRO',
      'JSON',
      'PROTOBUF',
    ])
    for (const [i, frame] of eight.entries()) expect(reader.deserializeSync(frame, ctx)).toEqual(values[i])
  })

  it("'auto' reads a topic that holds both widths of every format", async () => {
    const reader = new AnyDeserializer(client, { idSize: 'auto' })
    const mixed = [...(await frames(4)), ...(await frames(8))]
    for (const [i, frame] of mixed.entries())
      expect(await reader.deserialize(frame, ctx)).toEqual(values[i % 3])
  })

  it('the default refuses an 8-byte frame naming idSize 8; a bad idSize is a TypeError', async () => {
    const [avro] = await frames(8)
    await expect(new AnyDeserializer(client).deserialize(avro!, ctx)).rejects.toThrow(DeserializationError)
    await expect(new AnyDeserializer(client).deserialize(avro!, ctx)).rejects.toThrow(/idSize: 8/)
    expect(() => new AnyDeserializer(client, { idSize: 2 as never })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message: "AnyDeserializer: idSize must be 4 or 8 or 'auto', got number 2",
      }),
    )
  })
})

describe('the adapters pass idSize through', () => {
  it('KafkaJsSerde decodes an 8-byte frame and reports its id with anyDeserializer idSize', async () => {
    const serde = new KafkaJsSerde(client, {
      serializer: new AvroSerializer(client, 'w-avro', { idSize: 8 }),
      anyDeserializer: { idSize: 'auto' },
    })
    const sent = await serde.encodeMessage('widths', { key: 'k', value: { id: 7 } })
    const value = sent.value as Buffer
    expect(value.subarray(0, 5)).toEqual(Buffer.alloc(5))
    const decoded = await serde.decodeMessage('widths', 0, {
      key: Buffer.from('k'),
      value,
      headers: {},
      offset: '0',
      timestamp: '0',
    })
    expect(decoded.value).toEqual({ id: 7 })
    expect(decoded.schema).toEqual({
      idType: 'globalId',
      id: value.readUInt32BE(5),
      framed: true,
      format: 'AVRO',
    })
  })

  it('ApicurioSchemaRegistry writes with its serializer idSize and reads and tells ids with anyDeserializer idSize', async () => {
    const reg = new ApicurioSchemaRegistry(client, {
      serializer: new AvroSerializer(client, {
        artifactResolver: new TopicIdStrategy(),
        autoRegister: true,
        schema: AVRO,
        idSize: 8,
      }),
      anyDeserializer: { idSize: 8 },
    })
    const message = { topic: 'widths', value: { id: 3 }, headers: new Map() }
    await new Promise<void>((resolve, reject) =>
      reg.getBeforeSerializationHook()(message.value, 'value', message as never, (error) =>
        error ? reject(error) : resolve(),
      ),
    )
    const value = reg.getSerializers().value(message.value, message.headers as never, message as never)!
    expect(value.subarray(0, 5)).toEqual(Buffer.alloc(5))
    const id = value.readUInt32BE(5)
    expect(reg.getSchemaId(value, 'value')).toBe(id)
    const raw = { topic: 'widths', partition: 0, key: null, value, headers: new Map() }
    await new Promise<void>((resolve, reject) =>
      reg.getBeforeDeserializationHook()(value, 'value', raw as never, (error) =>
        error ? reject(error) : resolve(),
      ),
    )
    const consumed: { topic: string; metadata?: Record<string, unknown> } = { topic: 'widths' }
    expect(reg.getDeserializers().value(value, new Map() as never, consumed as never)).toEqual({ id: 3 })
    expect(consumed.metadata?.schemas).toMatchObject({ value: { idType: 'globalId', id, framed: true } })
  })
})
