import { DeserializationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { AvroDeserializer } from './avro-deserializer.js'
import { AvroSerializer } from './avro-serializer.js'

// idSize through the Avro classes: 8-byte frames written and read, both widths read with 'auto', and the 4-byte
// default refusing an 8-byte frame (it sees id 0) with an error naming idSize 8, before any request.

const ctx = new SerializationContext('widths')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const schema = {
  type: 'record',
  name: 'Width',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'n', type: 'long' },
  ],
}
const value = { id: 'ab', n: 9 }
let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 300, firstContentId: 20 })
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

it('idSize 8 writes 0x00 + the id as 8 bytes big-endian, as Apicurio 2.x wrote (globalId 300 = 0x12c)', async () => {
  const eight = new AvroSerializer(client, 'widths-value', { autoRegister: true, schema, idSize: 8 })
  expect(eight.idSize).toBe(8)
  expect(hex(await eight.serialize(value, ctx))).toBe('00000000000000012c' + '04616212')
  const byContent = new AvroSerializer(client, 'widths-value', { idSize: 8, useId: 'contentId' })
  expect(hex(await byContent.serialize(value, ctx))).toBe('000000000000000014' + '04616212')
  expect(hex(await new AvroSerializer(client, 'widths-value').serialize(value, ctx))).toBe(
    '000000012c04616212',
  )
})

it("idSize 8 and 'auto' read the 8-byte frame; 'auto' reads the 4-byte frame too", async () => {
  const frame8 = Buffer.from('00000000000000012c04616212', 'hex')
  const frame4 = Buffer.from('000000012c04616212', 'hex')
  const eight = new AvroDeserializer(client, { idSize: 8 })
  expect(await eight.deserialize(frame8, ctx)).toEqual(value)
  const auto = new AvroDeserializer(client, { idSize: 'auto' })
  expect(auto.idSize).toBe('auto')
  expect(await auto.deserialize(frame8, ctx)).toEqual(value)
  expect(auto.deserializeSync(frame4, ctx)).toEqual(value)
})

it('the default (4) refuses an 8-byte frame before any request, naming idSize 8; a bad idSize is a TypeError', async () => {
  registry.clearRequests()
  const error = await new AvroDeserializer(client)
    .deserialize(Buffer.from('00000000000000012c04616212', 'hex'), ctx)
    .then(
      () => undefined,
      (caught: unknown) => caught as Error,
    )
  expect(error).toBeInstanceOf(DeserializationError)
  expect(error?.message).toContain("read this topic with idSize: 8, or idSize: 'auto'")
  expect(registry.requests).toHaveLength(0)
  expect(() => new AvroDeserializer(client, { idSize: 5 as never })).toThrow(
    "AvroDeserializer: idSize must be 4 or 8 or 'auto', got number 5",
  )
  expect(() => new AvroSerializer(client, 'widths-value', { idSize: 'auto' as never })).toThrow(TypeError)
})
