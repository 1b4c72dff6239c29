import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from './index.js'

// What the serializer refuses to write, with or without a bigint in the value: a cycle, nesting deeper than its
// reader reads, numbers JSON cannot hold. Each is the same INVALID_DATA error, sync and async.

const ctx = new SerializationContext('anything')
const SCHEMA = { $schema: 'http://json-schema.org/draft-07/schema#', title: 'Anything' }

let registry: InMemoryRegistry
let client: RegistryClient
let serializer: JsonSchemaSerializer
let deserializer: JsonSchemaDeserializer

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 1, firstContentId: 1 })
  client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0 })
  serializer = new JsonSchemaSerializer(client, 'anything-value', { autoRegister: true, schema: SCHEMA })
  await serializer.prepare(ctx)
  deserializer = new JsonSchemaDeserializer(client)
  await deserializer.prepare(1)
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

function deepObject(depth: number): unknown {
  let node: unknown = 1
  for (let i = 0; i < depth; i++) node = { a: node }
  return node
}

function deepArray(depth: number): unknown {
  let node: unknown = 1
  for (let i = 0; i < depth; i++) node = [node]
  return node
}

type Refusal = Error & { code?: string; paths?: readonly string[]; cause?: unknown }

/** The error of serializeSync, after checking serialize rejects with the same. */
async function refusal(value: unknown): Promise<Refusal> {
  let error: Refusal | undefined
  try {
    serializer.serializeSync(value, ctx)
  } catch (caught) {
    error = caught as Refusal
  }
  expect(error, 'serializeSync throws').toBeDefined()
  await expect(serializer.serialize(value, ctx)).rejects.toMatchObject({
    name: error!.name,
    code: error!.code,
    message: error!.message,
  })
  return error!
}

const text = (bytes: Uint8Array): string => Buffer.from(bytes).subarray(5).toString()
const BIG = 2n ** 64n

describe('a cycle', () => {
  it.each([
    ['without', {}],
    ['with', { big: BIG }],
  ])('is refused %s a bigint in the value: INVALID_DATA naming where it closes', async (_, extra) => {
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    const error = await refusal({ ...extra, c: cyclic })
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual(['c.self'])
    expect(error.message).toBe(
      'Value cannot be written as JSON: c.self: expected JSON, got an object (a cycle: it holds itself)',
    )
  })
})

describe('nesting', () => {
  it.each([
    ['objects', deepObject],
    ['arrays', deepArray],
  ])(
    'of %s 1000 deep, the most the reader reads, is written and read back, with and without a bigint',
    (_, deep) => {
      for (const value of [deep(1000), [BIG, deep(999)]]) {
        const bytes = serializer.serializeSync(value, ctx)
        expect(deserializer.deserializeSync(bytes, ctx)).toEqual(value)
      }
    },
  )

  it.each([
    ['objects', 1001],
    ['objects', 100_000],
    ['arrays', 1001],
    ['arrays', 100_000],
  ])(
    'of %s %i deep is refused with INVALID_DATA naming the limit, with and without a bigint',
    async (kind, depth) => {
      const deep = kind === 'objects' ? deepObject : deepArray
      for (const value of [deep(depth), { big: BIG, o: deep(depth) }]) {
        const error = await refusal(value)
        expect(error).toBeInstanceOf(TypeError)
        expect(error.code).toBe('INVALID_DATA')
        expect(error.message).toMatch(
          /^Value cannot be written as JSON: .*expected JSON nested at most 1000 arrays and objects deep \(the most its reader reads\)/,
        )
        expect(error.message).toContain('(nested deeper than 1000)')
        expect(error.paths).toHaveLength(1)
      }
    },
  )
})

describe('numbers', () => {
  it.each([
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NEGATIVE_INFINITY, '-Infinity'],
  ])(
    'refuses %s, which JSON cannot hold, with INVALID_DATA naming its path, with and without a bigint',
    async (n, shown) => {
      for (const value of [{ a: [1, n] }, { big: BIG, a: [1, n] }]) {
        const error = await refusal(value)
        expect(error).toMatchObject({ name: 'TypeError', code: 'INVALID_DATA', paths: ['a[1]'] })
        expect(error.message).toBe(
          `Value cannot be written as JSON: a[1]: expected a finite number, got number ${shown} (JSON has no NaN or Infinity)`,
        )
      }
    },
  )

  it('writes −0 as 0, which JSON Schema holds equal to it, and a null as null', () => {
    expect(text(serializer.serializeSync({ c: -0, n: null, s: 'null' }, ctx))).toBe(
      '{"c":0,"n":null,"s":"null"}',
    )
    expect(text(serializer.serializeSync({ c: -0, big: BIG }, ctx))).toBe(
      '{"c":0,"big":18446744073709551616}',
    )
  })

  it('reads 1e400 as Infinity, which is then refused when written back', () => {
    const bytes = Buffer.concat([
      Buffer.from(serializer.serializeSync(null, ctx)).subarray(0, 5),
      Buffer.from('[1e400]'),
    ])
    const read = deserializer.deserializeSync(bytes, ctx)
    expect(read).toEqual([Number.POSITIVE_INFINITY])
    expect(() => serializer.serializeSync(read, ctx)).toThrow(
      expect.objectContaining({ code: 'INVALID_DATA', paths: ['[0]'] }),
    )
  })
})

describe('strings', () => {
  it('writes a lone surrogate as a JSON escape, which reads back exactly, in a value and in a key', () => {
    const value = { s: '\uD800', 'k\uDFFF': 'a\uDE00b', big: BIG }
    const bytes = serializer.serializeSync(value, ctx)
    expect(text(bytes)).toBe('{"s":"\\ud800","k\\udfff":"a\\ude00b","big":18446744073709551616}')
    expect(deserializer.deserializeSync(bytes, ctx)).toEqual(value)
    const plain = serializer.serializeSync('x\uDBFF', ctx)
    expect(text(plain)).toBe('"x\\udbff"')
    expect(deserializer.deserializeSync(plain, ctx)).toBe('x\uDBFF')
  })
})
