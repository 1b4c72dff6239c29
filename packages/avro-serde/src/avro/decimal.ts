import type { AvscType } from './avsc-internals.js'
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
  let digits = (negative ? -unscaled : unscaled).toString()
  if (scale > 0) {
    digits = digits.padStart(scale + 1, '0')
    digits = `${digits.slice(0, -scale)}.${digits.slice(-scale)}`
  }
  return negative ? `-${digits}` : digits
}

/** The minimal big-endian two's complement bytes of `n` (Java's `BigInteger#toByteArray`): 0 is one zero byte. */
export function toTwosComplement(n: bigint): Buffer {
  let length = 1
  while (n < -(1n << BigInt(8 * length - 1)) || n >= 1n << BigInt(8 * length - 1)) length++
  return toFixedTwosComplement(n, length)
}

/** `n` as `size` big-endian two's complement bytes (the caller knows it fits: the precision bounds it). */
export function toFixedTwosComplement(n: bigint, size: number): Buffer {
  const out = Buffer.alloc(size)
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
