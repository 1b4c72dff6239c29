import { DeserializationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ProtobufDeserializer } from './protobuf-deserializer.js'
import { ProtobufSerializer } from './protobuf-serializer.js'

// idSize through the Protobuf classes: the Ref (or message indexes) follows the id whatever its width; 8-byte
// frames written and read, both widths read with 'auto', and the 4-byte default refusing an 8-byte frame.

const ctx = new SerializationContext('widths')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const schema = 'syntax = "proto3";\n\nmessage Ping {\n  int32 n = 1;\n}\n'
const value = { n: 5 }
/** Apicurio's Ref naming `Ping`, then the message `n = 5`. */
const body = '060a0450696e67' + '0805'
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

it('idSize 8 writes 0x00 + the id as 8 bytes big-endian, then the Ref or the message indexes', async () => {
  const eight = new ProtobufSerializer(client, 'widths-value', { autoRegister: true, schema, idSize: 8 })
  expect(eight.idSize).toBe(8)
  expect(hex(await eight.serialize(value, ctx))).toBe(`00000000000000012c${body}`)
  const indexes = new ProtobufSerializer(client, 'widths-value', {
    idSize: 8,
    useId: 'contentId',
    framing: 'confluent',
  })
  expect(hex(await indexes.serialize(value, ctx))).toBe('000000000000000014' + '00' + '0805')
})

it("idSize 8 and 'auto' read the 8-byte frame; 'auto' reads the 4-byte frame too; the default names idSize 8", async () => {
  const frame8 = Buffer.from(`00000000000000012c${body}`, 'hex')
  const frame4 = Buffer.from(`000000012c${body}`, 'hex')
  expect(await new ProtobufDeserializer(client, { idSize: 8 }).deserialize(frame8, ctx)).toEqual(value)
  const auto = new ProtobufDeserializer(client, { idSize: 'auto' })
  expect(await auto.deserialize(frame8, ctx)).toEqual(value)
  expect(auto.deserializeSync(frame4, ctx)).toEqual(value)
  registry.clearRequests()
  const error = await new ProtobufDeserializer(client).deserialize(frame8, ctx).then(
    () => undefined,
    (caught: unknown) => caught as Error,
  )
  expect(error).toBeInstanceOf(DeserializationError)
  expect(error?.message).toContain("read this topic with idSize: 8, or idSize: 'auto'")
  expect(registry.requests).toHaveLength(0)
  expect(() => new ProtobufDeserializer(client, { idSize: '4' as never })).toThrow(
    'ProtobufDeserializer: idSize must be 4 or 8 or \'auto\', got string "4"',
  )
})
