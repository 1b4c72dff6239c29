import { MessageChannel, type MessagePort } from 'node:worker_threads'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SchemaSerializer } from './schema-serializer.js'
import { normalizeSerializerOptions } from './serializer-options.js'
import { ToyCodec, ToyFormat } from './test-support/toy-format.js'

// What a Buffer returned by a serializer shares with the others it returned: the slab its small messages are views
// of. Proven with the toy format (one JSON array of strings per value), so only the core's memory is under test.

const ctx = new SerializationContext('toys')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

let registry: InMemoryRegistry
let client: RegistryClient
/** The 5-byte frame header of the registered toy schema. */
let header: string

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 300, firstContentId: 3 })
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

async function prepared(): Promise<SchemaSerializer> {
  const { options } = normalizeSerializerOptions<unknown>('ToySerializer', 'toys-value', undefined, [])
  const serializer = new SchemaSerializer({
    owner: 'ToySerializer',
    client,
    format: new ToyFormat(),
    options,
    schemaToRegister: undefined,
  })
  await serializer.prepare(ctx)
  return serializer
}

/** The frame the toy format writes for `{ a, b }`, in hex. */
const frameOf = (a: string, b: string): string => header + Buffer.from(JSON.stringify([a, b])).toString('hex')

/** Posts `bytes` with its ArrayBuffer in the transfer list: what arrives, or the error `postMessage` threw. */
async function transfer(bytes: Uint8Array): Promise<{ received?: string; threw?: string }> {
  const { port1, port2 } = new MessageChannel()
  try {
    const arrived = new Promise<Uint8Array>((resolve) => (port2 as MessagePort).once('message', resolve))
    try {
      port1.postMessage(bytes, [bytes.buffer as ArrayBuffer])
    } catch (error) {
      return { threw: (error as Error).name }
    }
    return { received: hex(await arrived) }
  } finally {
    port1.close()
    port2.close()
  }
}

describe('a Buffer a serializer returned, posted to a MessagePort with its ArrayBuffer in the transfer list', () => {
  it('is treated as one from Buffer.allocUnsafe: the shared slab is never detached, the messages beside it stay', async () => {
    const serializer = await prepared()
    const messages = [0, 1, 2].map((i) => serializer.serializeSync({ a: `m${i}`, b: 'x' }, ctx))
    expect(messages[0]!.buffer).toBe(messages[2]!.buffer)
    const pooled = Buffer.allocUnsafe(8)
    expect(pooled.buffer.byteLength).toBeGreaterThan(8)
    // Node 20 copies an untransferable ArrayBuffer; Node 22 and later throw a DataCloneError. Either way as its pool.
    const expected = await transfer(pooled)
    const outcome = await transfer(messages[1]!)
    expect(Object.keys(outcome)).toEqual(Object.keys(expected))
    if (outcome.threw !== undefined) expect(outcome.threw).toBe(expected.threw)
    else expect(outcome.received).toBe(frameOf('m1', 'x'))
    expect(messages.map(hex)).toEqual([frameOf('m0', 'x'), frameOf('m1', 'x'), frameOf('m2', 'x')])
    expect(messages[1]!.buffer.byteLength).toBe(8192)
    // The serializer goes on writing into the same slab.
    const next = serializer.serializeSync({ a: 'm3', b: 'x' }, ctx)
    expect(next.buffer).toBe(messages[0]!.buffer)
    expect(hex(next)).toBe(frameOf('m3', 'x'))
  })

  it('can be sent once copied into memory of its own (Uint8Array.from), which is then transferred', async () => {
    const serializer = await prepared()
    const message = serializer.serializeSync({ a: 'own', b: 'y' }, ctx)
    const own = Uint8Array.from(message)
    expect(await transfer(own)).toEqual({ received: frameOf('own', 'y') })
    expect(own.buffer.byteLength).toBe(0)
    expect(hex(message)).toBe(frameOf('own', 'y'))
  })
})

describe('serialize called while the same serializer is serializing (a getter, toJSON, a logical type)', () => {
  it('gives the inner call a message of its own: neither the inner nor the outer message is written over', async () => {
    const serializer = await prepared()
    let inner: Uint8Array | undefined
    const value = {
      get a(): string {
        inner ??= serializer.serializeSync({ a: 'inner', b: 'in' }, ctx)
        return 'outer'
      },
      b: 'out',
    }
    const outer = serializer.serializeSync(value, ctx)
    expect(hex(inner!)).toBe(frameOf('inner', 'in'))
    expect(hex(outer)).toBe(frameOf('outer', 'out'))
    // Later messages go on in the slab, past the outer one.
    const after = serializer.serializeSync({ a: 'after', b: 'z' }, ctx)
    expect([hex(inner!), hex(outer), hex(after)]).toEqual([
      frameOf('inner', 'in'),
      frameOf('outer', 'out'),
      frameOf('after', 'z'),
    ])
  })

  it('keeps each message of calls nested three deep, through serialize, serializeMessage and the Sync forms', async () => {
    const serializer = await prepared()
    const got: Uint8Array[] = []
    const nested = (depth: number): Record<string, string> => {
      let called = depth === 3
      return {
        get a(): string {
          if (!called) {
            called = true
            got.push(serializer.serializeMessageSync(nested(depth + 1), ctx).payload)
          }
          return `d${depth}`
        },
        b: 'n',
      }
    }
    const outer = await serializer.serialize(nested(0), ctx)
    // The innermost call returns first.
    expect(got.map(hex)).toEqual([frameOf('d3', 'n'), frameOf('d2', 'n'), frameOf('d1', 'n')])
    expect(hex(outer)).toBe(frameOf('d0', 'n'))
  })

  it('recovers when the outer call throws: the next calls share the slab again', async () => {
    const serializer = await prepared()
    const first = serializer.serializeSync({ a: '1', b: '1' }, ctx)
    expect(() =>
      serializer.serializeSync(
        {
          get a(): string {
            throw new Error('getter failed')
          },
          b: 'x',
        },
        ctx,
      ),
    ).toThrow('getter failed')
    const second = serializer.serializeSync({ a: '2', b: '2' }, ctx)
    expect(second.buffer).toBe(first.buffer)
    expect([hex(first), hex(second)]).toEqual([frameOf('1', '1'), frameOf('2', '2')])
  })
})

describe('messages that fill a slab', () => {
  it('encodes a message about as long as the last one in a new slab at once when it would not fit what is left, each message once', async () => {
    const serializer = await prepared()
    const encodes = vi.spyOn(ToyCodec.prototype, 'encodeInto')
    try {
      // Each frame is 1 013 bytes, 1 016 with the alignment: 8 fill an 8 KiB slab, the 9th and the 17th start new ones.
      const frames = Array.from({ length: 20 }, (_, i) =>
        serializer.serializeSync({ a: 'x'.repeat(1000), b: String(i % 10) }, ctx),
      )
      expect(encodes).toHaveBeenCalledTimes(20)
      expect(frames.map(hex)).toEqual(frames.map((_, i) => frameOf('x'.repeat(1000), String(i % 10))))
      const slabs = [...new Set(frames.map((frame) => frame.buffer))]
      expect(slabs).toHaveLength(3)
      expect(frames.map((frame) => slabs.indexOf(frame.buffer))).toEqual([
        ...Array(8).fill(0),
        ...Array(8).fill(1),
        ...Array(4).fill(2),
      ])
    } finally {
      encodes.mockRestore()
    }
  })
})
