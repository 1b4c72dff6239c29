import { AvroSerializer } from '@x/avro-serde'
import { DeserializationError, failedMessageOf, SchemaNotFoundError, SerdeError } from '@x/errors'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AnyDeserializer } from './index.js'

let registry: InMemoryRegistry
let client: RegistryClient
const ctx = new SerializationContext('mixed', 'value')
const keyCtx = new SerializationContext('mixed', 'key')

const AVRO = { type: 'record', name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: 'long' }] }
const JSON_SCHEMA = { type: 'object', properties: { id: { type: 'integer' } } }
const PROTO = 'syntax = "proto3";\npackage shop;\nmessage Line { int64 id = 1; string sku = 2; }\n'

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
})

afterAll(async () => {
  await registry.close()
})

beforeEach(() => {
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
})

/** A frame of each format, written by that format's serializer (the writer client is not the reader's). */
async function frames(options: { useId?: 'globalId' | 'contentId' } = {}) {
  const writer = new RegistryClient({ url: registry.url, groupId: 'default' })
  try {
    return {
      avro: await new AvroSerializer(writer, 'orders-avro', {
        autoRegister: true,
        schema: AVRO,
        ...options,
      }).serialize({ id: 7 }, ctx),
      json: await new JsonSchemaSerializer(writer, 'orders-json', {
        autoRegister: true,
        schema: JSON_SCHEMA,
        ...options,
      }).serialize({ id: 8 }, ctx),
      proto: await new ProtobufSerializer(writer, 'lines-proto', {
        autoRegister: true,
        schema: PROTO,
        ...options,
      }).serialize({ id: 9, sku: 's' }, ctx),
    }
  } finally {
    await writer.close()
  }
}

/** The 4-byte id of a frame. */
const idOf = (frame: Uint8Array): number => Buffer.from(frame).readUInt32BE(1)

const idLookups = () => registry.requests.filter((r) => r.method === 'GET' && r.path.includes('/ids/'))

describe('AnyDeserializer', () => {
  it('reads Avro, JSON Schema and Protobuf frames of one topic, each schema id looked up once', async () => {
    const { avro, json, proto } = await frames()
    const reader = new AnyDeserializer(client)
    const before = idLookups().length
    expect(await reader.deserialize(avro, ctx)).toEqual({ id: 7 })
    expect(await reader.deserialize(json, ctx)).toEqual({ id: 8 })
    expect(await reader.deserialize(proto, ctx)).toEqual({ id: 9, sku: 's' })
    for (let i = 0; i < 3; i++) {
      await reader.deserialize(avro, ctx)
      await reader.deserialize(json, ctx)
      await reader.deserialize(proto, ctx)
    }
    expect(idLookups().length - before).toBe(3)
    expect([avro, json, proto].map((frame) => reader.formatOf(idOf(frame)))).toEqual([
      'AVRO',
      'JSON',
      'PROTOBUF',
    ])
  })

  it('shares one lookup between concurrent first messages of an id', async () => {
    const { avro } = await frames()
    const reader = new AnyDeserializer(client)
    const before = idLookups().length
    const values = await Promise.all(Array.from({ length: 20 }, () => reader.deserialize(avro, ctx)))
    expect(values).toEqual(Array.from({ length: 20 }, () => ({ id: 7 })))
    expect(idLookups().length - before).toBe(1)
  })

  it('reads headers mode, the id from the header of the field read, and frames beside them', async () => {
    const writer = new RegistryClient({ url: registry.url, groupId: 'default' })
    const valueSerde = new JsonSchemaSerializer(writer, 'orders-json', {
      autoRegister: true,
      schema: JSON_SCHEMA,
      wireFormat: 'MESSAGE_HEADERS',
    })
    const keySerde = new AvroSerializer(writer, 'orders-key', {
      autoRegister: true,
      schema: '"string"',
      wireFormat: 'MESSAGE_HEADERS',
      useId: 'contentId',
    })
    const value = await valueSerde.serializeMessage({ id: 3 }, ctx)
    const key = await keySerde.serializeMessage('k-1', keyCtx)
    await writer.close()
    const headers = { ...value.headers, ...key.headers }
    const reader = new AnyDeserializer(client)
    expect(await reader.deserializeMessage({ payload: value.payload, headers }, ctx)).toEqual({ id: 3 })
    expect(await reader.deserializeMessage({ payload: key.payload, headers }, keyCtx)).toBe('k-1')
    const { proto } = await frames()
    expect(await reader.deserializeMessage({ payload: proto, headers: {} }, ctx)).toEqual({ id: 9, sku: 's' })
  })

  it('tells the format of a contentId from the schema text, and refuses a text that reads as Avro and JSON Schema alike', async () => {
    const { avro, json, proto } = await frames({ useId: 'contentId' })
    const reader = new AnyDeserializer(client, { useId: 'contentId' })
    expect(await reader.deserialize(avro, ctx)).toEqual({ id: 7 })
    expect(await reader.deserialize(json, ctx)).toEqual({ id: 8 })
    expect(await reader.deserialize(proto, ctx)).toEqual({ id: 9, sku: 's' })
    const writer = new RegistryClient({ url: registry.url, groupId: 'default' })
    const plain = new JsonSchemaSerializer(writer, 'notes-json', {
      autoRegister: true,
      schema: { type: 'string' },
      useId: 'contentId',
    })
    const note = await plain.serialize('hi', ctx)
    await writer.close()
    const error = await reader.deserialize(note, ctx).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DeserializationError)
    expect((error as Error).message).toBe(
      `Cannot tell the format of contentId ${idOf(note)}: the registry does not name it and its text reads as Avro and as JSON Schema alike (or as neither); read this topic with useId 'globalId', or with the format's own deserializer`,
    )
    expect(failedMessageOf(error)?.payload).toBe(note)
  })

  it('preloads the format readers without a request, and a message then waits for its id lookup only', async () => {
    const { avro } = await frames()
    const reader = new AnyDeserializer(client)
    expect([reader.isLoaded('AVRO'), reader.isLoaded('JSON'), reader.isLoaded('PROTOBUF')]).toEqual([
      false,
      false,
      false,
    ])
    const before = registry.requests.length
    await reader.preload(['AVRO'])
    expect([reader.isLoaded('AVRO'), reader.isLoaded('JSON'), reader.isLoaded('PROTOBUF')]).toEqual([
      true,
      false,
      false,
    ])
    await reader.preload()
    expect([reader.isLoaded('AVRO'), reader.isLoaded('JSON'), reader.isLoaded('PROTOBUF')]).toEqual([
      true,
      true,
      true,
    ])
    expect(registry.requests.length).toBe(before)
    expect(await reader.deserialize(avro, ctx)).toEqual({ id: 7 })
    expect(registry.requests.length - before).toBe(1)
  })

  it('stops preloading before the next format once its signal is aborted', async () => {
    const reader = new AnyDeserializer(client)
    const controller = new AbortController()
    const loading = reader.preload(['AVRO', 'JSON'], { signal: controller.signal })
    controller.abort()
    await expect(loading).rejects.toMatchObject({ name: 'AbortError' })
    expect([reader.isLoaded('AVRO'), reader.isLoaded('JSON')]).toEqual([true, false])
    await expect(reader.preload(['PROTOBUF'], { signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    })
    expect(reader.isLoaded('PROTOBUF')).toBe(false)
  })

  it('refuses to preload a format it does not read', async () => {
    const reader = new AnyDeserializer(client)
    const error = await reader.preload(['AVRO', 'OPENAPI' as never]).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(error).toMatchObject({ code: 'INVALID_CONFIG' })
    expect((error as Error).message).toBe(
      "AnyDeserializer.preload: formats must be 'AVRO', 'JSON' or 'PROTOBUF', got string \"OPENAPI\"",
    )
    expect(reader.isLoaded('AVRO')).toBe(false)
  })

  it('decodes without a Promise once prepared, and says what to prepare before', async () => {
    const { avro, proto } = await frames()
    const reader = new AnyDeserializer(client)
    const id = idOf(avro)
    const unprepared = (() => {
      try {
        return reader.deserializeSync(avro, ctx)
      } catch (error) {
        return error
      }
    })()
    expect(unprepared).toBeInstanceOf(SerdeError)
    expect(unprepared).toMatchObject({ code: 'NOT_PREPARED' })
    expect((unprepared as Error).message).toBe(
      `The format of globalId ${id} is not known yet: await deserializer.prepare(${id}) (or one deserialize call) before deserializeSync`,
    )
    expect(reader.isPrepared(id)).toBe(false)
    await reader.prepare(id)
    expect(reader.isPrepared(id)).toBe(true)
    expect(reader.isPrepared(id, ctx, 'contentId')).toBe(false)
    expect(reader.isPrepared(idOf(proto))).toBe(false)
    expect(reader.deserializeSync(avro, ctx)).toEqual({ id: 7 })
    await reader.deserialize(proto, ctx)
    expect(reader.isPrepared(idOf(proto))).toBe(true)
    expect(reader.deserializeMessageSync({ payload: proto }, ctx)).toEqual({ id: 9, sku: 's' })
  })

  it('hands each format its own options, and fromDict every value', async () => {
    const { avro, proto } = await frames()
    const reader = new AnyDeserializer(client, {
      avro: { longs: 'bigint' },
      longs: 'bigint',
      fromDict: (value) => ({ read: value }),
    })
    expect(await reader.deserialize(avro, ctx)).toEqual({ read: { id: 7n } })
    expect(await reader.deserialize(proto, ctx)).toEqual({ read: { id: 9n, sku: 's' } })
  })

  it('refuses a bad frame before any request, and names an unknown id, both with the message for a dead letter', async () => {
    const reader = new AnyDeserializer(client)
    const before = registry.requests.length
    const bad = Buffer.from([1, 0, 0, 0, 1, 2])
    const badError = await reader.deserialize(bad, ctx).catch((e: unknown) => e)
    expect(badError).toBeInstanceOf(DeserializationError)
    expect(failedMessageOf(badError)?.payload).toBe(bad)
    expect(registry.requests.length).toBe(before)
    const unknown = Buffer.from([0, 0, 0x0f, 0x42, 0x3f, 1])
    const unknownError = await reader.deserialize(unknown, ctx).catch((e: unknown) => e)
    expect(unknownError).toBeInstanceOf(SchemaNotFoundError)
    expect(failedMessageOf(unknownError)).toMatchObject({
      payload: unknown,
      schemaId: 999999,
      idType: 'globalId',
    })
  })

  it('names an artifact type no format here reads', async () => {
    const openapi = await client.registerSchema(
      'api',
      { openapi: '3.0.2', info: { title: 't', version: '1' }, paths: {} },
      { artifactType: 'OPENAPI' },
    )
    const frame = Buffer.from([0, 0, 0, 0, Number(openapi.globalId), 1])
    const error = await new AnyDeserializer(client).deserialize(frame, ctx).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DeserializationError)
    expect((error as Error).message).toBe(
      `globalId ${openapi.globalId} is a schema of type OPENAPI: AnyDeserializer reads AVRO, JSON and PROTOBUF`,
    )
  })

  it('refuses a client that is not one, unknown options and a bad useId (INVALID_CONFIG)', () => {
    expect(() => new AnyDeserializer({})).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }),
    )
    expect(() => new AnyDeserializer(client, { useID: 'globalId' } as never)).toThrow(/useID/)
    expect(() => new AnyDeserializer(client, { useId: 'id' as never })).toThrow(
      "AnyDeserializer: useId must be 'globalId' or 'contentId', got id",
    )
  })
})
