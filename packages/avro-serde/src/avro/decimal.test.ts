import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { maxFixedPrecision, smallUnscaled, toUnscaled } from './decimal.js'
import { codecOf, encode, fromHex, hex, thrown } from './test-support/fixtures.js'

// Independent bigint references for the number fast paths of decimal.ts: the exact bytes and strings they must give.

/** Big-endian two's complement of `n` in `size` bytes, or in the fewest bytes (0 is one zero byte). */
function referenceTwos(n: bigint, size?: number): string {
  let length = size ?? 1
  if (size === undefined) {
    while (n < -(2n ** BigInt(8 * length - 1)) || n >= 2n ** BigInt(8 * length - 1)) length++
  }
  const digits = BigInt.asUintN(8 * length, n)
    .toString(16)
    .padStart(2 * length, '0')
  return hex(Buffer.from(digits, 'hex'))
}

/** The Avro bytes of a `decimal` whose unscaled value is `n`: zigzag length + bytes, or exactly `size` bytes. */
function referenceEncoding(n: bigint, size: number | undefined): string {
  const body = referenceTwos(n, size)
  if (size !== undefined) return body
  const length = body.split(' ').length
  return `${hex(Uint8Array.of(length * 2))} ${body}`
}

/** The decimal string of two's complement `bytes` at `scale`, by string arithmetic on the bigint. */
function referenceString(bytes: Uint8Array, scale: number): string {
  let n = bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`)
  if (bytes.length > 0 && bytes[0]! & 0x80) n -= 2n ** BigInt(8 * bytes.length)
  const digits = (n < 0n ? -n : n).toString().padStart(scale + 1, '0')
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
  return n < 0n ? `-${text}` : text
}

/** The smallest fixed size that holds `precision` digits. */
function fixedSizeFor(precision: number): number {
  let size = 1
  while (maxFixedPrecision(size) < precision) size++
  return size
}

interface Case {
  precision: number
  scale: number
  /** undefined for bytes */
  size: number | undefined
}

const decimalCase: fc.Arbitrary<Case> = fc
  .record({
    precision: fc.integer({ min: 1, max: 40 }),
    scaleShare: fc.double({ min: 0, max: 1, noNaN: true }),
    fixed: fc.boolean(),
    extra: fc.integer({ min: 0, max: 3 }),
  })
  .map(({ precision, scaleShare, fixed, extra }) => ({
    precision,
    scale: Math.min(precision, Math.floor(scaleShare * (precision + 1))),
    size: fixed ? fixedSizeFor(precision) + extra : undefined,
  }))

/** Two's complement length boundaries (±2^(8k−1), one either side) and the 2^47 edge of the number fast path. */
const EDGES = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((k) => {
  const b = 2n ** BigInt(8 * k - 1)
  return [b - 1n, b, b + 1n, -b - 1n, -b, -b + 1n]
})

/** An unscaled value within the precision: often small (the fast path), sometimes at an edge, sometimes zero. */
const unscaledFor = ({ precision }: Case): fc.Arbitrary<bigint> => {
  const max = 10n ** BigInt(precision) - 1n
  const small = max < 2n ** 47n ? max : 2n ** 47n
  return fc.oneof(
    fc.bigInt({ min: -small, max: small }),
    fc.bigInt({ min: -max, max }),
    fc.constantFrom(0n, max, -max, ...EDGES.filter((n) => n >= -max && n <= max)),
  )
}

/** Ways of writing the unscaled value `n` at `scale` as a string that `toUnscaled` reads back as `n`. */
function spellings(n: bigint, scale: number): fc.Arbitrary<string> {
  const negative = n < 0n
  const digits = (negative ? -n : n).toString().padStart(scale + 1, '0')
  const int = scale === 0 ? digits : digits.slice(0, -scale)
  const frac = scale === 0 ? '' : digits.slice(-scale)
  return fc
    .record({
      dropZeros: fc.boolean(),
      extraZeros: fc.integer({ min: 0, max: 3 }),
      leadingZeros: fc.integer({ min: 0, max: 2 }),
      bareDot: fc.boolean(),
      minusZero: fc.boolean(),
    })
    .map(({ dropZeros, extraZeros, leadingZeros, bareDot, minusZero }) => {
      let f = dropZeros ? frac.replace(/0+$/, '') : frac
      f += '0'.repeat(extraZeros)
      const sign = negative || (n === 0n && minusZero) ? '-' : ''
      const point = f === '' ? (bareDot ? '.' : '') : `.${f}`
      return `${sign}${'0'.repeat(leadingZeros)}${int}${point}`
    })
}

describe('property: the decimal fast paths agree with the exact path', () => {
  test('smallUnscaled is undefined or exactly what toUnscaled gives, for any short string of decimal characters', () => {
    const text = fc.oneof(
      fc.stringMatching(/^-?[0-9]{0,17}(\.[0-9]{0,17})?$/),
      fc.string({ unit: fc.constantFrom('-', '+', '.', 'e', '0', '1', '5', '9', ' '), maxLength: 20 }),
    )
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 40 }), fc.nat(40), (value, precision, rawScale) => {
        const scale = rawScale % (precision + 1)
        const fast = smallUnscaled(value, scale, precision)
        const exact = toUnscaled(value, scale, precision)
        if (fast !== undefined) {
          expect(typeof exact).toBe('bigint')
          expect(Object.is(fast, -0)).toBe(false)
          expect(BigInt(fast)).toBe(exact)
          expect(Math.abs(fast)).toBeLessThan(2 ** 47)
        }
      }),
      { numRuns: 20000 },
    )
  })

  test('every spelling of a decimal is written with the reference bytes, in bytes and in fixed', () => {
    const arbitrary = decimalCase.chain((c) =>
      unscaledFor(c).chain((n) => spellings(n, c.scale).map((text) => ({ ...c, n, text }))),
    )
    fc.assert(
      fc.property(arbitrary, ({ precision, scale, size, n, text }) => {
        const codec = codecOf(
          size === undefined
            ? { type: 'bytes', logicalType: 'decimal', precision, scale }
            : { type: 'fixed', name: 'D', size, logicalType: 'decimal', precision, scale },
        )
        const expected = referenceEncoding(n, size)
        expect(hex(encode(codec, text))).toBe(expected)
        // The same value as a bigint takes the exact path: same bytes.
        if (scale === 0) expect(hex(encode(codec, n))).toBe(expected)
        // Into a buffer one byte short nothing fits: the codec asks for more, then fills an exact one.
        const length = expected.split(' ').length
        expect(codec.encodeInto(text, Buffer.alloc(length - 1), 0)).toBeLessThan(0)
        const exact = Buffer.alloc(length)
        expect(codec.encodeInto(text, exact, 0)).toBe(length)
        expect(hex(exact)).toBe(expected)
      }),
      { numRuns: 5000 },
    )
  })

  test('any bytes decode to the reference string, in bytes and in fixed', () => {
    const arbitrary = decimalCase.chain((c) =>
      fc
        .uint8Array({ minLength: c.size ?? 0, maxLength: c.size ?? 20 })
        .map((bytes) => ({ ...c, bytes, offset: 0 })),
    )
    fc.assert(
      fc.property(arbitrary, fc.nat(3), ({ scale, size, precision, bytes }, offset) => {
        const codec = codecOf(
          size === undefined
            ? { type: 'bytes', logicalType: 'decimal', precision, scale }
            : { type: 'fixed', name: 'D', size, logicalType: 'decimal', precision, scale },
        )
        const body = size === undefined ? [bytes.length * 2, ...bytes] : [...bytes]
        const framed = Buffer.from([...Array<number>(offset).fill(0xee), ...body])
        expect(codec.decode(framed, offset)).toBe(referenceString(bytes, scale))
      }),
      { numRuns: 5000 },
    )
  })
})

describe('decimals on hostile input', () => {
  const bytesCodec = codecOf({ type: 'bytes', logicalType: 'decimal', precision: 12, scale: 2 })
  const fixedCodec = codecOf({
    type: 'fixed',
    name: 'D',
    size: 4,
    logicalType: 'decimal',
    precision: 9,
    scale: 2,
  })

  test('a length beyond the data fails as a deserialization error and reads no byte past the end', () => {
    const error = thrown(() => bytesCodec.decode(fromHex('06 12 d6'), 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toMatch(
      /^Invalid Avro data for schema .*: truncated \(the 3 bytes end inside a value\)$/,
    )
  })

  test('a decimal cut short inside a record is reported as truncated, not as a crash of the next field', () => {
    const record = codecOf({
      type: 'record',
      name: 'R',
      fields: [
        { name: 'd', type: { type: 'bytes', logicalType: 'decimal', precision: 12, scale: 2 } },
        { name: 's', type: 'string' },
      ],
    })
    const error = thrown(() => record.decode(fromHex('0a 12 d6'), 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toMatch(/: truncated \(the 3 bytes end inside a value\)$/)
  })

  test('a negative length fails as a deserialization error', () => {
    const error = thrown(() => bytesCodec.decode(fromHex('01 12'), 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toMatch(/: negative length -1 of a decimal's bytes$/)
  })

  test('a fixed cut short fails as a deserialization error', () => {
    const error = thrown(() => fixedCodec.decode(fromHex('00 00 30'), 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toMatch(/: truncated \(the 3 bytes end inside a value\)$/)
  })
})
