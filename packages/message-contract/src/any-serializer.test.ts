import { SerializationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AnyDeserializer } from './any-deserializer.js'
import { AnySerializer } from './any-serializer.js'

let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 10 })
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
  await client.registerSchema(
    'orders-value',
    { type: 'record', name: 'O', fields: [{ name: 'id', type: 'int' }] },
    {
      artifactType: 'AVRO',
    },
  )
  await client.registerSchema(
    'notes-value',
    { type: 'object', properties: { text: { type: 'string' } } },
    {
      artifactType: 'JSON',
    },
  )
  await client.registerSchema('points-value', 'syntax = "proto3";\nmessage P { int32 x = 1; }\n', {
    artifactType: 'PROTOBUF',
  })
  await client.registerSchema('spec-value', '{"openapi":"3.0.0"}', { artifactType: 'OPENAPI' })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

describe('AnySerializer', () => {
  it("writes each topic in the format of the artifact TopicIdStrategy picks, as that format's serializer frames it", async () => {
    const writer = new AnySerializer(client)
    const reader = new AnyDeserializer(client)
    const orders = new SerializationContext('orders')
    const avro = await writer.serialize({ id: 7 }, orders)
    expect(Buffer.from(avro).toString('hex')).toBe('000000000a0e')
    expect(writer.formatOf(orders)).toBe('AVRO')
    for (const [topic, value] of [
      ['notes', { text: 'hi' }],
      ['points', { x: 3 }],
    ] as const) {
      const ctx = new SerializationContext(topic)
      expect(await reader.deserialize(await writer.serialize(value, ctx), ctx)).toEqual(value)
    }
    expect(writer.formatOf(new SerializationContext('points'))).toBe('PROTOBUF')
  })

  it('writes headers mode, and the sync methods once prepared (NOT_PREPARED before)', async () => {
    const writer = new AnySerializer(client, { wireFormat: WireFormat.MESSAGE_HEADERS })
    const ctx = new SerializationContext('orders')
    expect(() => writer.serializeMessageSync({ id: 1 }, ctx)).toThrow(
      expect.objectContaining({ code: 'NOT_PREPARED' }),
    )
    expect(writer.isPrepared(ctx)).toBe(false)
    await writer.prepare(ctx)
    expect(writer.isPrepared(ctx)).toBe(true)
    expect(writer.isPrepared(new SerializationContext('notes'))).toBe(false)
    const message = writer.serializeMessageSync({ id: 1 }, ctx)
    expect(Buffer.from(message.payload).toString('hex')).toBe('02')
    expect(Object.keys(message.headers)).toEqual(['apicurio.value.globalId', 'apicurio.value.encoding'])
    expect(await writer.serializeMessage({ id: 1 }, ctx)).toEqual(message)
  })

  it('refuses an artifact of a type no format here writes, and a client that is not one', async () => {
    await expect(new AnySerializer(client).serialize({}, new SerializationContext('spec'))).rejects.toThrow(
      new SerializationError(
        'Artifact spec-value is of type OPENAPI: AnySerializer writes AVRO, JSON and PROTOBUF',
      ),
    )
    expect(() => new AnySerializer({})).toThrow(TypeError)
    expect(() => new AnySerializer(client, { artifactId: 'x' } as never)).toThrow(TypeError)
  })
})
