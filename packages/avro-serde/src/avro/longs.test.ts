import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { codecOf, encode, fromHex, hex, thrown } from './test-support/fixtures.js'

// Zigzag varints computed independently (Python: (v << 1) ^ (v >> 63), 7 bits per byte, little end first).
const BOUNDARIES: [string, bigint, string][] = [
  ['0', 0n, '00'],
  ['-1', -1n, '01'],
  ['2^53-1', 2n ** 53n - 1n, 'fe ff ff ff ff ff ff 1f'],
  ['-(2^53-1)', -(2n ** 53n - 1n), 'fd ff ff ff ff ff ff 1f'],
  ['2^53', 2n ** 53n, '80 80 80 80 80 80 80 20'],
  ['2^53+1', 2n ** 53n + 1n, '82 80 80 80 80 80 80 20'],
  ['-2^53', -(2n ** 53n), 'ff ff ff ff ff ff ff 1f'],
  ['2^63-1', 2n ** 63n - 1n, 'fe ff ff ff ff ff ff ff ff 01'],
  ['-2^63', -(2n ** 63n), 'ff ff ff ff ff ff ff ff ff 01'],
  ['-(2^52+1)', -(2n ** 52n + 1n), '81 80 80 80 80 80 80 10'],
  ['-9007199254740990', -9007199254740990n, 'fb ff ff ff ff ff ff 1f'],
]

const SAFE = (v: bigint) => v >= -(2n ** 53n - 1n) && v <= 2n ** 53n - 1n

describe.each(['auto', 'number', 'bigint'] as const)('longs: %s', (mode) => {
  const codec = codecOf('long', { longs: mode })

  test.each(BOUNDARIES)('%s is written as a bigint with the exact zigzag bytes', (_name, value, bytes) => {
    expect(hex(encode(codec, value))).toBe(bytes)
  })

  test.each(BOUNDARIES.filter(([, v]) => SAFE(v)))(
    '%s is written as a safe number with the same bytes',
    (_name, value, bytes) => {
      expect(hex(encode(codec, Number(value)))).toBe(bytes)
    },
  )

  test.each(BOUNDARIES)('%s is decoded exactly', (_name, value, bytes) => {
    if (mode === 'bigint') {
      expect(codec.decode(fromHex(bytes), 0)).toBe(value)
    } else if (SAFE(value)) {
      expect(codec.decode(fromHex(bytes), 0)).toBe(Number(value))
    } else if (mode === 'auto') {
      expect(codec.decode(fromHex(bytes), 0)).toBe(value)
    } else {
      const error = thrown(() => codec.decode(fromHex(bytes), 0))
      expect(error).toBeInstanceOf(RangeError)
      expect(error.code).toBe('INVALID_DATA')
      expect(error.message).toBe(
        `Avro long ${value} is outside the safe integer range of a JavaScript number (avro.longs is 'number'); ` +
          `use longs: 'auto' or 'bigint' to read it exactly`,
      )
    }
  })

  test('a number outside the safe range is refused on write: it may already have been rounded', () => {
    const error = thrown(() => codec.encodeInto(2 ** 53, Buffer.alloc(16), 0))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual([''])
    expect(error.message).toBe(
      'Value does not match the Avro schema long: (value): expected long (a safe integer number or a bigint), ' +
        'got number 9007199254740992 (an unsafe integer number, which may already have been rounded: pass a bigint)',
    )
  })

  test('a bigint outside the signed 64-bit range, a fraction and a string are refused', () => {
    expect(thrown(() => codec.encodeInto(2n ** 63n, Buffer.alloc(16), 0)).message).toContain(
      'got bigint 9223372036854775808n (outside the signed 64-bit range)',
    )
    expect(thrown(() => codec.encodeInto(1.5, Buffer.alloc(16), 0)).message).toContain(
      'got number 1.5 (not an integer)',
    )
    expect(thrown(() => codec.encodeInto('1', Buffer.alloc(16), 0)).message).toContain(
      'got string "1" (not a number or bigint)',
    )
  })
})

describe('longs elsewhere', () => {
  test('a varint longer than 10 bytes is refused', () => {
    const error = thrown(() => codecOf('long').decode(fromHex('ff ff ff ff ff ff ff ff ff ff 01'), 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toBe(
      'Invalid Avro data for schema long: Invalid Avro long: a varint longer than 10 bytes',
    )
  })

  test('a long field default is read in the mode', () => {
    const schema = { type: 'record', name: 'L', fields: [{ name: 'n', type: 'long', default: 7 }] }
    expect(codecOf(schema, { longs: 'bigint' }).decode(encode(codecOf(schema), {}), 0)).toEqual({ n: 7n })
  })

  test('an int written by the writer schema is read as a long of the mode', () => {
    const writer = codecOf('int')
    expect(codecOf('long', { longs: 'bigint' }).decode(fromHex('01'), 0, undefined, writer)).toBe(-1n)
    expect(codecOf('long').decode(fromHex('01'), 0, undefined, writer)).toBe(-1)
  })

  test('longs in arrays, maps and unions keep their exact values', () => {
    const codec = codecOf({
      type: 'record',
      name: 'M',
      fields: [
        { name: 'list', type: { type: 'array', items: 'long' } },
        { name: 'byKey', type: { type: 'map', values: 'long' } },
        { name: 'maybe', type: ['null', 'long'] },
      ],
    })
    const value = { list: [1, 2n ** 60n, -(2n ** 63n)], byKey: { a: 2n ** 63n - 1n }, maybe: 2n ** 53n }
    expect(codec.decode(encode(codec, value), 0)).toEqual(value)
  })
})

// The exact bigint reference the number-arithmetic readers and writers must agree with, byte for byte.
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

function referenceVarint(value: bigint): string {
  let z = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n))
  const out: number[] = []
  while (z >= 0x80n) {
    out.push(Number(z & 0x7fn) | 0x80)
    z >>= 7n
  }
  out.push(Number(z))
  return hex(Uint8Array.from(out))
}

function referenceRead(bytes: Uint8Array): bigint {
  let z = 0n
  bytes.forEach((b, i) => {
    z |= BigInt(b & 0x7f) << BigInt(7 * i)
  })
  z = BigInt.asUintN(64, z)
  return (z >> 1n) ^ -(z & 1n)
}

/** Any signed 64-bit value: uniform over the range, within ±2^k for a random k, or next to a power of two. */
const int64 = fc.oneof(
  fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
  fc
    .integer({ min: 0, max: 63 })
    .chain((k) => fc.bigInt({ min: -(2n ** BigInt(k)), max: 2n ** BigInt(k) - 1n })),
  fc
    .record({
      k: fc.integer({ min: 0, max: 63 }),
      delta: fc.integer({ min: -3, max: 3 }),
      negative: fc.boolean(),
    })
    .map(({ k, delta, negative }) => {
      const v = (negative ? -(2n ** BigInt(k)) : 2n ** BigInt(k)) + BigInt(delta)
      return v < INT64_MIN ? INT64_MIN : v > INT64_MAX ? INT64_MAX : v
    }),
  fc.constantFrom(INT64_MIN, INT64_MIN + 1n, INT64_MAX, INT64_MAX - 1n, 0n, -1n, 2n ** 52n, -(2n ** 52n)),
)

describe('property: exact longs agree with a bigint reference', () => {
  const codecs = {
    auto: codecOf('long', { longs: 'auto' }),
    number: codecOf('long', { longs: 'number' }),
    bigint: codecOf('long', { longs: 'bigint' }),
  }

  test('every signed 64-bit value is written with the reference bytes, as a bigint and as a safe number', () => {
    fc.assert(
      fc.property(int64, (value) => {
        const expected = referenceVarint(value)
        expect(hex(encode(codecs.auto, value))).toBe(expected)
        if (SAFE(value)) expect(hex(encode(codecs.auto, Number(value)))).toBe(expected)
      }),
      { numRuns: 5000 },
    )
  })

  test('every signed 64-bit value reads back as the reference value in each mode', () => {
    fc.assert(
      fc.property(int64, (value) => {
        const bytes = fromHex(referenceVarint(value))
        expect(codecs.bigint.decode(bytes, 0)).toBe(value)
        expect(codecs.auto.decode(bytes, 0)).toBe(SAFE(value) ? Number(value) : value)
        if (SAFE(value)) expect(codecs.number.decode(bytes, 0)).toBe(Number(value))
        else expect(thrown(() => codecs.number.decode(bytes, 0)).code).toBe('INVALID_DATA')
      }),
      { numRuns: 5000 },
    )
  })

  test('any varint of 1 to 10 bytes, padded or with bits beyond 64, reads as the reference value', () => {
    const varint = fc
      .array(fc.integer({ min: 0, max: 0x7f }), { minLength: 1, maxLength: 10 })
      .map((groups) => Uint8Array.from(groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g))))
    fc.assert(
      fc.property(varint, (bytes) => {
        const value = referenceRead(bytes)
        const buffer = Buffer.from(bytes)
        expect(codecs.bigint.decode(buffer, 0)).toBe(value)
        expect(codecs.auto.decode(buffer, 0)).toBe(SAFE(value) ? Number(value) : value)
      }),
      { numRuns: 5000 },
    )
  })
})
