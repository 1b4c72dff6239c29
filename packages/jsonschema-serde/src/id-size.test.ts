import { DeserializationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { JsonSchemaDeserializer } from './json-schema-deserializer.js'
import { JsonSchemaSerializer } from './json-schema-serializer.js'

// idSize through the JSON Schema classes: 8-byte frames written and read, both widths read with 'auto', and the
// 4-byte default refusing an 8-byte frame (it sees id 0) with an error naming idSize 8, before any request.

const ctx = new SerializationContext('widths')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const schema = { title: 'Width', type: 'object', properties: { n: { type: 'integer' } } }
const value = { n: 1 }
const body = Buffer.from('{"n":1}').toString('hex')
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

it('idSize 8 writes 0x00 + the id as 8 bytes big-endian (globalId 300 = 0x12c, contentId 20 = 0x14)', async () => {
  const eight = new JsonSchemaSerializer(client, 'widths-value', { autoRegister: true, schema, idSize: 8 })
  expect(eight.idSize).toBe(8)
  expect(hex(await eight.serialize(value, ctx))).toBe(`00000000000000012c${body}`)
  const byContent = new JsonSchemaSerializer(client, 'widths-value', { idSize: 8, useId: 'contentId' })
  expect(hex(await byContent.serialize(value, ctx))).toBe(`000000000000000014${body}`)
})

it("idSize 8 and 'auto' read the 8-byte frame; 'auto' reads the 4-byte frame too; the default names idSize 8", async () => {
  const frame8 = Buffer.from(`00000000000000012c${body}`, 'hex')
  const frame4 = Buffer.from(`000000012c${body}`, 'hex')
  expect(
    await new JsonSchemaDeserializer(client, { idSize: 8, validate: true }).deserialize(frame8, ctx),
  ).toEqual(value)
  const auto = new JsonSchemaDeserializer(client, { idSize: 'auto' })
  expect(await auto.deserialize(frame8, ctx)).toEqual(value)
  expect(auto.deserializeSync(frame4, ctx)).toEqual(value)
  registry.clearRequests()
  const error = await new JsonSchemaDeserializer(client).deserialize(frame8, ctx).then(
    () => undefined,
    (caught: unknown) => caught as Error,
  )
  expect(error).toBeInstanceOf(DeserializationError)
  expect(error?.message).toContain("read this topic with idSize: 8, or idSize: 'auto'")
  expect(registry.requests).toHaveLength(0)
  expect(() => new JsonSchemaSerializer(client, 'widths-value', { idSize: 16 as never })).toThrow(
    'JsonSchemaSerializer: idSize must be 4 or 8, got number 16',
  )
})
