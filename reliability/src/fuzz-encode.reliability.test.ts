import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { Random } from './support/random.js'
import { count, describeError, isLibraryError, recordFigures } from './support/scale.js'
import { RICH_SCHEMA, richValue } from './support/schemas.js'

// Encoding wrong-shaped values: every field of the rich record replaced, one or several at a time, by values of any
// shape (fast-check's `anything`, plus hostile ones: Proxies whose traps throw, getters that throw, enum symbols
// named like Object.prototype members, deep DAGs, unsafe numbers). Each must be written (and then read back) or be
// refused with the library's INVALID_DATA, fast; Object.prototype must stay as it was.

const ctx = new SerializationContext('fuzz-encode')
let registry: InMemoryRegistry
let client: RegistryClient
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort()

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

function dag(depth: number): unknown {
  let node: unknown = { leaf: true }
  for (let i = 0; i < depth; i++) node = { a: node, b: node }
  return node
}

const throwing = new Proxy(
  {},
  {
    get() {
      throw new Error('trap get')
    },
    ownKeys() {
      throw new Error('trap ownKeys')
    },
    getPrototypeOf() {
      throw new Error('trap getPrototypeOf')
    },
  },
)

const HOSTILE: unknown[] = [
  undefined,
  null,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53 + 2,
  -(2 ** 63),
  2n ** 64n,
  'toString',
  '__proto__',
  'constructor',
  Symbol('s'),
  () => 1,
  new Date(Number.NaN),
  Buffer.alloc(3),
  new Map([[1, 2]]),
  new Map([['__proto__', 1]]),
  throwing,
  Object.defineProperty({}, 'id', {
    enumerable: true,
    get() {
      throw new Error('getter')
    },
  }),
  dag(30),
  Object.create(null),
  [throwing],
  '1e400',
  '12345.678',
  '-0.00',
]

it('writes or refuses with INVALID_DATA every wrong-shaped record, each in bounded time', async () => {
  const serializer = new AvroSerializer(client, 'fuzz-encode', { autoRegister: true, schema: RICH_SCHEMA })
  const strict = new AvroSerializer(client, 'fuzz-encode', {
    autoRegister: true,
    schema: RICH_SCHEMA,
    strict: true,
  })
  await serializer.prepare(ctx)
  await strict.prepare(ctx)
  const deserializer = new AvroDeserializer(client)
  const n = count('fuzzEncode')
  const random = new Random(29)
  const anything = fc.sample(
    fc.anything({
      withBigInt: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withNullPrototype: true,
      maxDepth: 3,
    }),
    { numRuns: n, seed: random.seed },
  )
  const fields = RICH_SCHEMA.fields.map((field) => field.name)
  let written = 0
  let refused = 0
  let slowest = 0
  const unexpected: string[] = []
  for (let i = 0; i < n; i++) {
    const value: Record<string, unknown> = richValue(i)
    for (let k = 1 + random.below(3); k > 0; k--) {
      const field = random.pick(fields)
      value[field] = random.below(3) === 0 ? random.pick(HOSTILE) : anything[i]
    }
    const input = random.below(20) === 0 ? random.pick(HOSTILE) : value
    const started = performance.now()
    try {
      const bytes = (i % 2 === 0 ? serializer : strict).serializeSync(input, ctx)
      written += 1
      // What was written must read back (a value the schema takes was given after all).
      await deserializer.deserialize(bytes, ctx)
    } catch (error) {
      refused += 1
      if (!isLibraryError(error) && unexpected.length < 5) unexpected.push(describeError(error))
      if (
        isLibraryError(error) &&
        (error as { code?: string }).code !== 'INVALID_DATA' &&
        unexpected.length < 5
      ) {
        unexpected.push(`not INVALID_DATA: ${describeError(error)}`)
      }
    }
    slowest = Math.max(slowest, performance.now() - started)
  }
  expect(unexpected, `seed ${random.seed}`).toEqual([])
  expect(slowest).toBeLessThan(250)
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore)
  recordFigures('fuzz-encode', {
    'wrong-shaped records tried': n,
    'written (and read back) / refused with INVALID_DATA': `${written} / ${refused}`,
    'slowest record (ms)': Number(slowest.toFixed(2)),
  })
})
