import type { AvscType, Tap } from './avsc-internals.js'
import { BuiltinLogicalType, type LogicalSchema, notFor, type ValueKind } from './logical-base.js'

/**
 * The Avro `decimal` logical type and its exact arithmetic: the value is an unscaled integer (two's complement,
 * big-endian) and a scale from the schema. Nothing here goes through a floating-point number, and nothing is ever
 * rounded: a value that does not fit is refused.
 */

const DECIMAL_PATTERN = /^([+-])?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/

/**
 * The unscaled integer of `value` at `scale`, or a string saying why there is none. `value` is a decimal string
 * (`"123.45"`, `"-0.5"`, `"1e3"`), a finite number (read through its shortest decimal form, so `0.1` is 0.1; an
 * integer beyond the safe range is refused, it may already have been rounded) or a bigint (an integer).
 */
export function toUnscaled(value: unknown, scale: number, precision: number): bigint | string {
  let text: string
  if (typeof value === 'bigint') {
    text = value.toString()
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'not a finite number'
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      return 'an unsafe integer number, which may already have been rounded: pass a string or a bigint'
    }
    text = String(value)
  } else if (typeof value === 'string') {
    text = value
  } else {
    return 'not a decimal string, number or bigint'
  }
  const match = DECIMAL_PATTERN.exec(text)
  const intPart = match?.[2] ?? ''
  const fracPart = match?.[3] ?? ''
  if (match === null || (intPart === '' && fracPart === '')) return 'not a decimal number'
  const negative = match[1] === '-'
  const exponent = match[4] === undefined ? 0 : Number(match[4])
  if (!Number.isSafeInteger(exponent)) return 'an exponent out of range'
  // value = digits × 10^power, with the digits stripped of leading and trailing zeros.
  let digits = (intPart + fracPart).replace(/^0+/, '')
  let power = exponent - fracPart.length
  const trimmed = digits.replace(/0+$/, '')
  power += digits.length - trimmed.length
  digits = trimmed
  if (digits === '') return 0n
  const shift = power + scale
  if (shift < 0) return `more than ${scale} fraction digit${scale === 1 ? '' : 's'}`
  if (digits.length + shift > precision) return `more than ${precision} digit${precision === 1 ? '' : 's'}`
  const unscaled = BigInt(digits) * 10n ** BigInt(shift)
  return negative ? -unscaled : unscaled
}

/** The decimal string of `unscaled` × 10^−scale, with exactly `scale` fraction digits (`"-0.50"`, `"12"`). */
export function formatDecimal(unscaled: bigint, scale: number): string {
  const negative = unscaled < 0n
  return formatDigits((negative ? -unscaled : unscaled).toString(), negative, scale)
}

/** `formatDecimal` of a safe integer `unscaled`, in number arithmetic. */
export function formatSmallDecimal(unscaled: number, scale: number): string {
  const negative = unscaled < 0
  return formatDigits(String(negative ? -unscaled : unscaled), negative, scale)
}

function formatDigits(digits: string, negative: boolean, scale: number): string {
  let text = digits
  if (scale > 0) {
    text = text.padStart(scale + 1, '0')
    text = `${text.slice(0, -scale)}.${text.slice(-scale)}`
  }
  return negative ? `-${text}` : text
}

/** Exact powers of ten as numbers, 10^0 to 10^15. */
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15] as const
/** Below this magnitude an unscaled value takes the number fast paths (at most 6 bytes of two's complement). */
const SMALL_LIMIT = 2 ** 47

/**
 * `toUnscaled(text, scale, precision)` as a number for the common plain strings (`"-12345.67"`: an optional `-`, at
 * least one integer digit, an optional `.` and at most `scale` fraction digits, 15 digits in all) whose unscaled
 * value is below 2^47 in magnitude and within the precision; undefined for anything else, which the exact `bigint`
 * path then handles (exponents, `+`, longer strings, invalid values and their messages).
 */
export function smallUnscaled(text: string, scale: number, precision: number): number | undefined {
  const length = text.length
  let i = 0
  const negative = length > 0 && text.charCodeAt(0) === 45
  if (negative) i = 1
  const intStart = i
  let m = 0
  for (; i < length; i++) {
    const digit = text.charCodeAt(i) - 48
    if (digit < 0 || digit > 9) break
    m = m * 10 + digit
  }
  const intDigits = i - intStart
  if (intDigits === 0) return undefined
  let fracDigits = 0
  if (i < length) {
    if (text.charCodeAt(i) !== 46) return undefined
    const fracStart = ++i
    for (; i < length; i++) {
      const digit = text.charCodeAt(i) - 48
      if (digit < 0 || digit > 9) return undefined
      m = m * 10 + digit
    }
    fracDigits = i - fracStart
  }
  if (intDigits + fracDigits > 15 || fracDigits > scale || scale - fracDigits > 15) return undefined
  const unscaled = m * POW10[scale - fracDigits]!
  if (!(unscaled < SMALL_LIMIT) || (precision <= 15 && unscaled >= POW10[precision]!)) return undefined
  return negative && unscaled !== 0 ? -unscaled : unscaled
}

/** The length of the minimal two's complement of `n` (|n| < 2^47), as `toTwosComplement` gives it. */
function smallLength(n: number): number {
  if (n >= 0) {
    return n < 0x80 ? 1 : n < 0x8000 ? 2 : n < 0x800000 ? 3 : n < 0x80000000 ? 4 : n < 0x8000000000 ? 5 : 6
  }
  return n >= -0x80
    ? 1
    : n >= -0x8000
      ? 2
      : n >= -0x800000
        ? 3
        : n >= -0x80000000
          ? 4
          : n >= -0x8000000000
            ? 5
            : 6
}

/** The minimal big-endian two's complement bytes of `n` (Java's `BigInteger#toByteArray`): 0 is one zero byte. */
export function toTwosComplement(n: bigint): Buffer {
  let length = 1
  while (n < -(1n << BigInt(8 * length - 1)) || n >= 1n << BigInt(8 * length - 1)) length++
  return toFixedTwosComplement(n, length)
}

/** `n` as `size` big-endian two's complement bytes (the caller knows it fits: the precision bounds it). */
export function toFixedTwosComplement(n: bigint, size: number): Buffer {
  const out = Buffer.allocUnsafe(size)
  let rest = BigInt.asUintN(size * 8, n)
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(rest & 0xffn)
    rest >>= 8n
  }
  return out
}

/** The integer of big-endian two's complement `bytes` (no bytes: 0). */
export function fromTwosComplement(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n
  const unsigned = BigInt(
    `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`,
  )
  return bytes[0]! & 0x80 ? unsigned - (1n << BigInt(bytes.length * 8)) : unsigned
}

/** The largest precision a `fixed` of `size` bytes can hold: floor(log10(2^(8·size − 1) − 1)). */
export function maxFixedPrecision(size: number): number {
  if (size < 1) return 0
  return ((1n << BigInt(size * 8 - 1)) - 1n).toString().length - 1
}

/**
 * `decimal` on bytes or fixed: the exact decimal string with exactly `scale` fraction digits (`"123.45"`). Takes
 * a decimal string, a finite number or a bigint; never rounds.
 */
export class DecimalType extends BuiltinLogicalType {
  readonly kinds: readonly ValueKind[] = ['string', 'number', 'bigint']
  readonly expected: string
  readonly precision: number
  readonly scale: number
  readonly #size: number | undefined

  constructor(schema: LogicalSchema, opts: unknown) {
    const { precision, scale = 0, type, size } = schema
    if (type !== 'bytes' && type !== 'fixed') throw notFor(schema, 'bytes or a fixed')
    if (typeof precision !== 'number' || !Number.isSafeInteger(precision) || precision < 1) {
      throw new TypeError('decimal precision must be a positive integer')
    }
    if (typeof scale !== 'number' || !Number.isSafeInteger(scale) || scale < 0 || scale > precision) {
      throw new TypeError('decimal scale must be an integer from 0 to the precision')
    }
    if (type === 'fixed' && (typeof size !== 'number' || precision > maxFixedPrecision(size))) {
      throw new TypeError('decimal precision too large for the fixed size')
    }
    super(schema, opts)
    this.precision = precision
    this.scale = scale
    this.#size = type === 'fixed' ? (size as number) : undefined
    const where = this.#size === undefined ? '' : ` in ${this.#size} byte${this.#size === 1 ? '' : 's'}`
    this.expected = `decimal(${precision},${scale}) (a decimal string, number or bigint with at most ${scale} fraction digits and ${precision} digits${where})`
  }

  protected override sameAs(writer: AvscType): boolean {
    return super.sameAs(writer) && (writer as unknown as DecimalType).scale === this.scale
  }

  /**
   * Reads the bytes in place (no copy). Up to 6 bytes are decoded and formatted with number arithmetic; longer
   * values take the exact `bigint` path. Data that ends early (or a negative length) goes through avsc's own reader,
   * so it fails exactly as it always has.
   */
  override _read(tap: Tap): unknown {
    const size = this.#size ?? tap.readLong()
    const buf = tap.buf
    const pos = tap.pos
    const end = pos + size
    if (size < 0) throw new Error(`negative length ${size} of a decimal's bytes`)
    if (end > buf.length) {
      // Past the end: leave the tap there, as avsc's own readers do, and the codec reports the value as truncated.
      tap.pos = end
      return undefined
    }
    tap.pos = end
    if (size <= 6) return formatSmallDecimal(size === 0 ? 0 : buf.readIntBE(pos, size), this.scale)
    return formatDecimal(fromTwosComplement(buf.subarray(pos, end)), this.scale)
  }

  /**
   * Writes a plain decimal string whose unscaled value is below 2^47 straight into the tap (`smallUnscaled`);
   * anything else goes through `_toValue` and the underlying type, exactly.
   */
  override _write(tap: Tap, value: unknown): void {
    const unscaled = typeof value === 'string' ? smallUnscaled(value, this.scale, this.precision) : undefined
    if (unscaled === undefined) {
      super._write(tap, value)
      return
    }
    let size = this.#size
    if (size === undefined) {
      size = smallLength(unscaled)
      tap.writeLong(size)
    }
    const pos = tap.pos
    tap.pos = pos + size
    // Like avsc's `writeFixed`: past the end of the buffer nothing is written (the caller grows it and retries).
    if (tap.pos > tap.buf.length) return
    if (size <= 6) {
      tap.buf.writeIntBE(unscaled, pos, size)
    } else {
      tap.buf.fill(unscaled < 0 ? 0xff : 0, pos, pos + size - 6)
      tap.buf.writeIntBE(unscaled, pos + size - 6, 6)
    }
  }

  _fromValue(value: unknown): string {
    return formatDecimal(fromTwosComplement(value as Buffer), this.scale)
  }

  // The precision was checked against the fixed size: every value within the precision fits it.
  _toValue(value: unknown): Buffer {
    const unscaled = toUnscaled(value, this.scale, this.precision)
    if (typeof unscaled === 'string') throw new TypeError(unscaled)
    return this.#size === undefined ? toTwosComplement(unscaled) : toFixedTwosComplement(unscaled, this.#size)
  }

  problem(value: unknown): string | undefined {
    const unscaled = toUnscaled(value, this.scale, this.precision)
    return typeof unscaled === 'string' ? unscaled : undefined
  }

  _export(schema: Record<string, unknown>): void {
    schema.precision = this.precision
    schema.scale = this.scale
  }
}
