import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SchemaSerializer } from './schema-serializer.js'
import { normalizeSerializerOptions } from './serializer-options.js'
import { ToyFormat } from './test-support/toy-format.js'

// A runtime without Node's markAsUntransferable: the serializer keeps no slab it could not protect.
vi.mock('./untransferable.js', () => ({ untransferableMarker: () => undefined }))

const ctx = new SerializationContext('toys')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

let registry: InMemoryRegistry
let client: RegistryClient
let header: string

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 400, firstContentId: 4 })
  client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0, maxRetries: 0 })
  const registered = await client.registerSchema(
    'toys-value',
    { fields: ['a', 'b'] },
    { artifactType: 'JSON' },
  )
  header = `00${Number(registered.globalId).toString(16).padStart(8, '0')}`
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

const frameOf = (a: string, b: string): string => header + Buffer.from(JSON.stringify([a, b])).toString('hex')

describe('a serializer where markAsUntransferable is missing', () => {
  it('copies every message into memory from Buffer.allocUnsafe, nested calls included, and never makes a slab', async () => {
    const { options } = normalizeSerializerOptions<unknown>('ToySerializer', 'toys-value', undefined, [])
    const serializer = new SchemaSerializer({
      owner: 'ToySerializer',
      client,
      format: new ToyFormat(),
      options,
      schemaToRegister: undefined,
    })
    await serializer.prepare(ctx)
    const slow = vi.spyOn(Buffer, 'allocUnsafeSlow')
    const fast = vi.spyOn(Buffer, 'allocUnsafe')
    let inner: Uint8Array | undefined
    const outer = serializer.serializeSync(
      {
        get a(): string {
          inner ??= serializer.serializeSync({ a: 'in', b: 'i' }, ctx)
          return 'out'
        },
        b: 'o',
      },
      ctx,
    )
    const big = serializer.serializeSync({ a: 'x'.repeat(20_000), b: 'y' }, ctx)
    const [slowCalls, fastCalls] = [[...slow.mock.calls], [...fast.mock.calls]]
    slow.mockRestore()
    fast.mockRestore()
    // Each returned Buffer is one Buffer.allocUnsafe made at its exact length.
    expect(fastCalls).toEqual([[inner!.length], [outer.length], [big.length]])
    // Scratch space only: the nested call's own, the serializer's, and its growth to the big message's size.
    expect(slowCalls).toEqual([[8192], [8192], [big.length]])
    expect([hex(inner!), hex(outer)]).toEqual([frameOf('in', 'i'), frameOf('out', 'o')])
    expect(hex(big)).toBe(frameOf('x'.repeat(20_000), 'y'))
  })
})
