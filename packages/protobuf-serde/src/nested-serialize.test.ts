import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProtobufSerializer } from './protobuf-serializer.js'

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const ctx = new SerializationContext('orders')

let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 1, firstContentId: 1 })
  client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0 })
  await client.registerSchema(
    'Order',
    `syntax = "proto3";
message Order { string id = 1; Line line = 2; }
message Line { string sku = 1; int32 count = 2; }
`,
    { artifactType: 'PROTOBUF' },
  )
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

describe('a ProtobufSerializer called from a getter of the value it writes', () => {
  it('returns every inner message and the outer one intact, the getter read inside a nested message', async () => {
    const serializer = new ProtobufSerializer(client, 'Order')
    const alone = new ProtobufSerializer(client, 'Order')
    await Promise.all([serializer.prepare(ctx), alone.prepare(ctx)])
    serializer.serializeSync({ id: 'first', line: { sku: 'a', count: 1 } }, ctx)
    // Each read of `sku` (the check, then the encoder inside the Line it is writing) serializes again.
    const inner: Uint8Array[] = []
    const outer = serializer.serializeSync(
      {
        id: 'outer',
        line: {
          get sku(): string {
            inner.push(serializer.serializeSync({ id: 'inner', line: { sku: 'in', count: 9 } }, ctx))
            return 'out'
          },
          count: 3,
        },
      },
      ctx,
    )
    const expected = hex(alone.serializeSync({ id: 'inner', line: { sku: 'in', count: 9 } }, ctx))
    expect(inner.length).toBeGreaterThanOrEqual(2)
    expect(inner.map(hex)).toEqual(inner.map(() => expected))
    expect(hex(outer)).toBe(hex(alone.serializeSync({ id: 'outer', line: { sku: 'out', count: 3 } }, ctx)))
  })
})
