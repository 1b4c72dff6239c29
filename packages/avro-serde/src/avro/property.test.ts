import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { codecOf, encode, hex } from './test-support/fixtures.js'

let names = 0
const uniqueName = (prefix: string) => `${prefix}${names++}`

// Schemas without logical types or floats (a float is rounded to 32 bits on write, so it is checked on its own).
const { schema: schemaArbitrary } = fc.letrec<{
  schema: unknown
  primitive: string
  complex: unknown
}>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, tie('primitive'), tie('complex')),
  primitive: fc.constantFrom('null', 'boolean', 'int', 'long', 'double', 'bytes', 'string'),
  complex: fc.oneof(
    tie('schema').map((items) => ({ type: 'array', items })),
    tie('schema').map((values) => ({ type: 'map', values })),
    fc.array(tie('schema'), { maxLength: 4 }).map((types) => ({
      type: 'record',
      name: uniqueName('R'),
      fields: types.map((type, i) => ({ name: `f${i}`, type })),
    })),
    fc.uniqueArray(tie('primitive'), { minLength: 1, maxLength: 4 }),
    fc.integer({ min: 0, max: 8 }).map((size) => ({ type: 'fixed', name: uniqueName('F'), size })),
    fc.integer({ min: 1, max: 5 }).map((n) => ({
      type: 'enum',
      name: uniqueName('E'),
      symbols: Array.from({ length: n }, (_, i) => `S${i}`),
    })),
  ),
}))

describe('property: random values round trip', () => {
  test.each(['auto', 'wrapped'] as const)(
    'values from avsc type.random() decode equal (unions: %s)',
    (unions) => {
      fc.assert(
        fc.property(schemaArbitrary, (schema) => {
          const codec = codecOf(schema as object, { unions })
          const type = codec.type as { random(): unknown }
          for (let i = 0; i < 5; i++) {
            const value = type.random()
            const bytes = encode(codec, value)
            const decoded = codec.decode(bytes, 0)
            expect(decoded).toEqual(value)
            expect(hex(encode(codec, decoded))).toBe(hex(bytes))
          }
        }),
        { numRuns: 200 },
      )
    },
  )

  test('every 32-bit float round trips exactly', () => {
    const codec = codecOf('float')
    fc.assert(
      fc.property(fc.float({ noNaN: true }), (value) => {
        expect(codec.decode(encode(codec, value), 0)).toBe(value)
      }),
    )
  })
})

/** Avro's long encoding, written independently of the code under test. */
function referenceLong(value: bigint): string {
  let z = BigInt.asUintN(64, value * 2n) ^ (value < 0n ? 2n ** 64n - 1n : 0n)
  const out: number[] = []
  do {
    const low = Number(z % 128n)
    z /= 128n
    out.push(z > 0n ? low + 128 : low)
  } while (z > 0n)
  return hex(Buffer.from(out))
}

describe('property: longs', () => {
  const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
  const auto = codecOf('long')
  const big = codecOf('long', { longs: 'bigint' })

  test('every signed 64-bit value is written with the exact zigzag varint and read back exactly', () => {
    fc.assert(
      fc.property(int64, (value) => {
        const bytes = encode(auto, value)
        expect(hex(bytes)).toBe(referenceLong(value))
        expect(big.decode(bytes, 0)).toBe(value)
        const safe = value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
        expect(auto.decode(bytes, 0)).toBe(safe ? Number(value) : value)
      }),
      { numRuns: 2000 },
    )
  })

  test('every safe integer number is written like its bigint', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (value) => {
        expect(hex(encode(auto, value))).toBe(referenceLong(BigInt(value)))
      }),
      { numRuns: 2000 },
    )
  })
})

describe('property: decimals', () => {
  test('a decimal string with exactly `scale` fraction digits round trips unchanged', () => {
    const arbitrary = fc
      .record({
        scale: fc.integer({ min: 0, max: 12 }),
        intDigits: fc.stringMatching(/^[1-9][0-9]{0,15}$|^0$/),
        negative: fc.boolean(),
        fraction: fc.stringMatching(/^[0-9]{12}$/),
        fixed: fc.boolean(),
      })
      .filter(({ intDigits, fraction, scale }) => intDigits !== '0' || /[1-9]/.test(fraction.slice(0, scale)))
    fc.assert(
      fc.property(arbitrary, ({ scale, intDigits, negative, fraction, fixed }) => {
        const text = `${negative ? '-' : ''}${intDigits}${scale > 0 ? `.${fraction.slice(0, scale)}` : ''}`
        const precision = 28
        const schema = fixed
          ? { type: 'fixed', name: 'D', size: 12, logicalType: 'decimal', precision, scale }
          : { type: 'bytes', logicalType: 'decimal', precision, scale }
        const codec = codecOf(schema)
        expect(codec.decode(encode(codec, text), 0)).toBe(text)
      }),
      { numRuns: 1000 },
    )
  })
})
