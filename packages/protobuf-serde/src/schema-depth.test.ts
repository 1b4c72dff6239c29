import { SerializationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProtobufSerializer } from './protobuf-serializer.js'

// A .proto nested far deeper than a stack holds is refused as an invalid schema, never with a RangeError; a long
// chain of message types (each holding the next) is planned without recursion.

let registry: InMemoryRegistry
let client: RegistryClient
const ctx = new SerializationContext('t')

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0 })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

const register = (artifactId: string, schema: string) =>
  client.registerSchema(artifactId, schema, { artifactType: 'PROTOBUF' })

describe('Protobuf schemas', () => {
  it('nested 100 000 messages deep are refused with a SerializationError', async () => {
    const depth = 100_000
    const registered = await register(
      'deep',
      `syntax = "proto3";\n${'message M { '.repeat(depth)}${'}'.repeat(depth)}`,
    )
    const error = await new ProtobufSerializer(client, 'deep').serialize({}, ctx).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SerializationError)
    expect((error as Error).message).toBe(
      `The registry schema of artifact 'deep' (globalId ${registered.globalId}) is not a valid Protobuf schema: the schema: max depth exceeded`,
    )
  })

  it('of 10 000 message types, each holding the next, encode values', async () => {
    const count = 10_000
    const schema = `syntax = "proto3";\n${Array.from(
      { length: count },
      (_, i) => `message M${i} { ${i + 1 < count ? `M${i + 1} next = 1;` : ''} }`,
    ).join('\n')}`
    await register('chain', schema)
    const serializer = new ProtobufSerializer(client, 'chain', { messageType: 'M0' })
    const bytes = await serializer.serialize({ next: { next: {} } }, ctx)
    // M0 { next: M1 { next: M2 {} } }: field 1, length 2, (field 1, length 0)
    expect(Buffer.from(bytes).subarray(-4).toString('hex')).toBe('0a020a00')
  })
})
