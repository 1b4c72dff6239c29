import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProtobufDeserializer } from './protobuf-deserializer.js'
import { ProtobufSerializer } from './protobuf-serializer.js'

// Values the writer must refuse rather than write bytes no reader takes back: strings UTF-8 cannot hold, and messages
// nested deeper than Protobuf readers read (protobufjs's recursion limit, 100, as protoc's and Java's).

const ctx = new SerializationContext('edges')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const EDGE = `syntax = "proto3";
message Edge {
  int64 id = 1;
  map<string, int64> counts = 3;
  string card = 4;
  Edge child = 5;
  repeated Edge children = 6;
}
`

let registry: InMemoryRegistry
let client: RegistryClient
let serializer: ProtobufSerializer
let deserializer: ProtobufDeserializer

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 1, firstContentId: 1 })
  client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0 })
  serializer = new ProtobufSerializer(client, 'edges-value', { autoRegister: true, schema: EDGE })
  await serializer.prepare(ctx)
  deserializer = new ProtobufDeserializer(client)
  await deserializer.prepare(1)
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

/** An Edge `depth` messages below the top one, through `child`. */
function nested(depth: number): Record<string, unknown> {
  let node: Record<string, unknown> = { id: 1 }
  for (let i = 0; i < depth; i++) node = { child: node }
  return node
}

function thrown(call: () => unknown): Error & { code?: string; paths?: readonly string[] } {
  try {
    call()
  } catch (error) {
    return error as Error & { code?: string; paths?: readonly string[] }
  }
  throw new Error('expected a throw')
}

describe('strings that are not well-formed Unicode', () => {
  it('refuses a lone surrogate in a string field or a map key with INVALID_DATA naming its path, instead of writing bytes its own reader refuses', async () => {
    const error = thrown(() =>
      serializer.serializeSync(
        { card: '\uD800', counts: { ok: 1, 'k\uDFFF': 2 }, child: { card: 'a\uDE00' } },
        ctx,
      ),
    )
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual(['counts["k\\udfff"]', 'card', 'child.card'])
    expect(error.message).toContain(
      'card: expected string, got string "\\ud800" (not well-formed Unicode: a lone surrogate U+D800 at index 0, which UTF-8 cannot hold)',
    )
    await expect(serializer.serialize({ card: 'x\uDBFFy' }, ctx)).rejects.toMatchObject({
      code: 'INVALID_DATA',
      paths: ['card'],
    })
  })

  it('writes well-formed text beyond ASCII, a surrogate pair included, and reads it back', () => {
    const bytes = serializer.serializeSync({ card: 'é😀', counts: { '€': 1 } }, ctx)
    expect(hex(bytes.subarray(5))).toBe('060a0445646765' + '1a070a03e282ac1001' + '2206c3a9f09f9880')
    expect(deserializer.deserializeSync(bytes, ctx)).toMatchObject({ card: 'é😀', counts: { '€': 1 } })
  })
})

describe('messages nested deeper than Protobuf readers read', () => {
  it('writes and reads back a message 100 messages deep, the most protobufjs (like protoc and Java) reads', () => {
    const bytes = serializer.serializeSync(nested(100), ctx)
    expect(deserializer.deserializeSync(bytes, ctx)).toMatchObject(nested(100))
  })

  it.each([101, 1_000, 100_000])('refuses one %i deep with INVALID_DATA naming the depth', async (depth) => {
    const error = thrown(() => serializer.serializeSync(nested(depth), ctx))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual([Array(101).fill('child').join('.')])
    expect(error.message).toContain('nested deeper than 100 messages, or a cycle')
    await expect(serializer.serialize(nested(depth), ctx)).rejects.toMatchObject({ code: 'INVALID_DATA' })
  })

  it('refuses a cycle, and one nested in a list, with INVALID_DATA', () => {
    const cyclic: Record<string, unknown> = { id: 1 }
    cyclic.child = cyclic
    expect(thrown(() => serializer.serializeSync(cyclic, ctx))).toMatchObject({
      code: 'INVALID_DATA',
      message: expect.stringContaining('nested deeper than 100 messages, or a cycle'),
    })
    const listed: Record<string, unknown> = { id: 1 }
    listed.children = [{ id: 2 }, listed]
    expect(thrown(() => serializer.serializeSync(listed, ctx))).toMatchObject({ code: 'INVALID_DATA' })
  })

  it('reads bytes nested deeper than that as a DeserializationError, sync and async', async () => {
    // the header and the Ref of an empty Edge, then the deepest Edge the writer writes inside one Edge more
    const head = Buffer.from(serializer.serializeSync({}, ctx))
    const deepest = Buffer.from(serializer.serializeSync(nested(100), ctx).subarray(head.length))
    const bytes = Buffer.concat([head, Buffer.from([0x2a]), varint(deepest.length), deepest])
    expect(deserializer.deserializeSync(Buffer.concat([head, deepest]), ctx)).toMatchObject(nested(100))
    expect(() => deserializer.deserializeSync(bytes, ctx)).toThrow(
      expect.objectContaining({
        name: 'DeserializationError',
        message: expect.stringContaining('max depth'),
      }),
    )
    await expect(deserializer.deserialize(bytes, ctx)).rejects.toMatchObject({ name: 'DeserializationError' })
  })
})

function varint(n: number): Buffer {
  const out: number[] = []
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80)
    n >>>= 7
  }
  out.push(n)
  return Buffer.from(out)
}
