import { DeserializationError } from '@x/errors'
import { type AvscType, builtins, type Resolver, type ResolverOptions, type Tap } from './avsc-internals.js'
import {
  formatDecimal,
  fromTwosComplement,
  maxFixedPrecision,
  toFixedTwosComplement,
  toTwosComplement,
  toUnscaled,
} from './decimal.js'
import { INT64_MAX, INT64_MIN, longProblem, readLongAuto, readLongBigint, writeLong } from './longs.js'

/**
 * The built-in logical types (see docs/type-mapping.md). Each checks its annotation in its constructor and throws
 * when the annotation is not valid for its underlying type: the schema parser then uses the underlying type alone,
 * as the Avro specification asks.
 */

/** What JavaScript values a type takes on write, for deciding whether a union needs wrapping. */
export type ValueKind =
  | 'null'
  | 'boolean'
  | 'number'
  | 'bigint'
  | 'string'
  | 'bytes'
  | 'array'
  | 'object'
  | 'date'

interface LogicalSchema {
  type?: unknown
  logicalType?: unknown
  precision?: unknown
  scale?: unknown
  size?: unknown
}

interface LogicalTypeBase extends AvscType {
  readonly underlyingType: AvscType
}

const LogicalType = builtins.LogicalType as unknown as new (schema: unknown, opts: unknown) => LogicalTypeBase

/** Largest magnitude of a JavaScript `Date`, in milliseconds. */
const MAX_DATE_MS = 8.64e15
const DAY_MS = 86_400_000

/** Base of the built-in logical types: resolution rules and the descriptions used in error messages. */
export abstract class BuiltinLogicalType extends LogicalType {
  /** The JavaScript values this type takes on write. */
  abstract readonly kinds: readonly ValueKind[]
  /** What this type takes on write, for messages: `timestamp-millis (a Date or ...)`. */
  abstract readonly expected: string
  /** Why `value` cannot be written, or undefined when it can. */
  abstract problem(value: unknown): string | undefined
  abstract _fromValue(value: unknown): unknown
  abstract override _toValue(value: unknown): unknown

  /** True when data written with `writer` (a logical type) reads as this type without conversion. */
  protected sameAs(writer: AvscType): boolean {
    return writer.constructor === this.constructor && writer.typeName === this.typeName
  }

  /**
   * Resolution: a writer of the same logical type, or of a plain type the underlying type can read (with Avro's
   * promotions), is read and converted; a writer of another logical type is refused (reading timestamp-millis as
   * timestamp-micros would silently scale the value by 1000).
   */
  override _update(resolver: Resolver, writer: AvscType, opts: ResolverOptions): void {
    let plain = writer
    if (writer.typeName.startsWith('logical:')) {
      if (!this.sameAs(writer) || writer.underlyingType === undefined) return
      plain = writer.underlyingType
    }
    let under: Resolver
    try {
      under = this.underlyingType.createResolver(plain, opts)
    } catch {
      return
    }
    if (sameWireFormat(this.underlyingType, plain)) {
      resolver._read = (tap: Tap) => this._read(tap)
    } else {
      const read = under._read!
      resolver._read = (tap: Tap) => this._fromValue(read(tap))
    }
  }

  _resolve(): undefined {
    return undefined
  }
}

function baseName(type: AvscType): string {
  return type.typeName === 'abstract:long' ? 'long' : type.typeName
}

function sameWireFormat(reader: AvscType, writer: AvscType): boolean {
  const r = baseName(reader)
  const w = baseName(writer)
  return r === w || ((r === 'string' || r === 'bytes') && (w === 'string' || w === 'bytes'))
}

function notFor(schema: LogicalSchema, expected: string): TypeError {
  return new TypeError(`logical type ${String(schema.logicalType)} needs ${expected}`)
}

function dateProblem(value: Date): string | undefined {
  return Number.isNaN(value.getTime()) ? 'an invalid Date' : undefined
}

function rangeError(what: string, value: number | bigint): DeserializationError {
  return new DeserializationError(`${what} value ${value} is outside the range of a JavaScript Date`)
}

/** `timestamp-millis`, `local-timestamp-millis`: a `Date` (the local variant holds the wall-clock time in UTC). */
export class MillisTimestampType extends BuiltinLogicalType {
  readonly kinds: readonly ValueKind[] = ['date', 'number']
  readonly expected: string

  constructor(schema: LogicalSchema, opts: unknown) {
    if (schema.type !== 'long') throw notFor(schema, 'a long')
    super(schema, opts)
    this.expected = `${String(schema.logicalType)} (a Date or a safe integer number of milliseconds)`
  }

  override _read(tap: Tap): Date {
    return this._fromValue(readLongAuto(tap))
  }

  override _write(tap: Tap, value: unknown): void {
    writeLong(tap, this._toValue(value))
  }

  _fromValue(value: unknown): Date {
    const ms = value as number | bigint
    if (typeof ms === 'bigint' || ms > MAX_DATE_MS || ms < -MAX_DATE_MS) throw rangeError(this.typeName, ms)
    return new Date(ms)
  }

  _toValue(value: unknown): number {
    const problem = this.problem(value)
    if (problem !== undefined) throw new TypeError(problem)
    return value instanceof Date ? value.getTime() : (value as number)
  }

  problem(value: unknown): string | undefined {
    if (value instanceof Date) return dateProblem(value)
    if (typeof value === 'number') return Number.isSafeInteger(value) ? undefined : 'not a safe integer'
    return 'not a Date or number'
  }
}

const PER_MILLISECOND: Record<string, bigint> = {
  'timestamp-micros': 1000n,
  'local-timestamp-micros': 1000n,
  'timestamp-nanos': 1_000_000n,
  'local-timestamp-nanos': 1_000_000n,
}

/**
 * `timestamp-micros`, `local-timestamp-micros`, `timestamp-nanos`, `local-timestamp-nanos`, `time-micros`: a
 * `bigint` (a `Date` would lose the sub-millisecond part). Takes a bigint, a safe integer number, or (except
 * `time-micros`) a `Date`.
 */
export class BigIntLongType extends BuiltinLogicalType {
  readonly kinds: readonly ValueKind[]
  readonly expected: string
  readonly #perMillisecond: bigint | undefined

  constructor(schema: LogicalSchema, opts: unknown) {
    if (schema.type !== 'long') throw notFor(schema, 'a long')
    super(schema, opts)
    const name = String(schema.logicalType)
    this.#perMillisecond = PER_MILLISECOND[name]
    const unit = name.endsWith('nanos') ? 'nanoseconds' : 'microseconds'
    this.kinds = this.#perMillisecond === undefined ? ['bigint', 'number'] : ['bigint', 'number', 'date']
    this.expected =
      this.#perMillisecond === undefined
        ? `${name} (a bigint or a safe integer number of ${unit})`
        : `${name} (a bigint or a safe integer number of ${unit}, or a Date)`
  }

  override _read(tap: Tap): bigint {
    return readLongBigint(tap)
  }

  override _write(tap: Tap, value: unknown): void {
    writeLong(tap, this._toValue(value))
  }

  _fromValue(value: unknown): bigint {
    return BigInt(value as number | bigint)
  }

  _toValue(value: unknown): number | bigint {
    const problem = this.problem(value)
    if (problem !== undefined) throw new TypeError(problem)
    if (value instanceof Date) return BigInt(value.getTime()) * this.#perMillisecond!
    return value as number | bigint
  }

  problem(value: unknown): string | undefined {
    if (value instanceof Date && this.#perMillisecond !== undefined) {
      const invalid = dateProblem(value)
      if (invalid !== undefined) return invalid
      const scaled = BigInt(value.getTime()) * this.#perMillisecond
      return scaled >= INT64_MIN && scaled <= INT64_MAX ? undefined : 'outside the signed 64-bit range'
    }
    if (typeof value === 'number' || typeof value === 'bigint') return longProblem(value)
    return this.#perMillisecond === undefined ? 'not a bigint or number' : 'not a bigint, number or Date'
  }
}

/** `date`: a `Date` at UTC midnight. Takes such a `Date` or an integer number of days since 1970-01-01. */
export class DateType extends BuiltinLogicalType {
  readonly kinds: readonly ValueKind[] = ['date', 'number']
  readonly expected = 'date (a Date at UTC midnight or an integer number of days)'

  constructor(schema: LogicalSchema, opts: unknown) {
    if (schema.type !== 'int') throw notFor(schema, 'an int')
    super(schema, opts)
  }

  override _read(tap: Tap): Date {
    return this._fromValue(tap.readInt())
  }

  override _write(tap: Tap, value: unknown): void {
    this.underlyingType._write(tap, this._toValue(value))
  }

  _fromValue(value: unknown): Date {
    const ms = (value as number) * DAY_MS
    if (ms > MAX_DATE_MS || ms < -MAX_DATE_MS) throw rangeError('date', value as number)
    return new Date(ms)
  }

  _toValue(value: unknown): number {
    const problem = this.problem(value)
    if (problem !== undefined) throw new TypeError(problem)
    return value instanceof Date ? value.getTime() / DAY_MS : (value as number)
  }

  problem(value: unknown): string | undefined {
    if (value instanceof Date) {
      const invalid = dateProblem(value)
      if (invalid !== undefined) return invalid
      return value.getTime() % DAY_MS === 0 ? undefined : 'not at UTC midnight: dates are never rounded'
    }
    if (typeof value === 'number') return value === (value | 0) ? undefined : 'not a 32-bit integer'
    return 'not a Date or number'
  }
}

const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/

/** `uuid` on a string (the text as written) or on a 16-byte fixed (read as lowercase text). */
export class UuidType extends BuiltinLogicalType {
  readonly kinds: readonly ValueKind[] = ['string']
  readonly expected = 'uuid (a string such as "123e4567-e89b-12d3-a456-426614174000")'
  readonly #fixed: boolean

  constructor(schema: LogicalSchema, opts: unknown) {
    if (schema.type !== 'string' && !(schema.type === 'fixed' && schema.size === 16)) {
      throw notFor(schema, 'a string or a fixed of 16 bytes')
    }
    super(schema, opts)
    this.#fixed = schema.type === 'fixed'
  }

  _fromValue(value: unknown): string {
    if (!this.#fixed) return value as string
    const hex = (value as Buffer).toString('hex')
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
  }

  _toValue(value: unknown): unknown {
    const problem = this.problem(value)
    if (problem !== undefined) throw new TypeError(problem)
    return this.#fixed ? Buffer.from((value as string).replace(/-/g, ''), 'hex') : value
  }

  problem(value: unknown): string | undefined {
    if (typeof value !== 'string') return 'not a string'
    return UUID_PATTERN.test(value) ? undefined : 'not in the 8-4-4-4-12 hexadecimal form'
  }
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
    const where = this.#size === undefined ? '' : ` in ${this.#size} bytes`
    this.expected = `decimal(${precision},${scale}) (a decimal string, number or bigint with at most ${scale} fraction digits and ${precision} digits${where})`
  }

  protected override sameAs(writer: AvscType): boolean {
    return super.sameAs(writer) && (writer as unknown as DecimalType).scale === this.scale
  }

  _fromValue(value: unknown): string {
    return formatDecimal(fromTwosComplement(value as Buffer), this.scale)
  }

  _toValue(value: unknown): Buffer {
    const unscaled = this.#unscaled(value)
    if (typeof unscaled === 'string') throw new TypeError(unscaled)
    return this.#size === undefined ? toTwosComplement(unscaled) : toFixedTwosComplement(unscaled, this.#size)
  }

  problem(value: unknown): string | undefined {
    const unscaled = this.#unscaled(value)
    return typeof unscaled === 'string' ? unscaled : undefined
  }

  /** The precision was checked against the fixed size: every value within the precision fits. */
  #unscaled(value: unknown): bigint | string {
    return toUnscaled(value, this.scale, this.precision)
  }

  _export(schema: Record<string, unknown>): void {
    schema.precision = this.precision
    schema.scale = this.scale
  }
}

/** The built-in logical types by name. `time-millis` needs none: it is an int, read and written as a number. */
export const BUILTIN_LOGICAL_TYPES: Readonly<
  Record<string, new (schema: any, opts: any) => BuiltinLogicalType>
> = Object.freeze({
  'timestamp-millis': MillisTimestampType,
  'local-timestamp-millis': MillisTimestampType,
  'timestamp-micros': BigIntLongType,
  'local-timestamp-micros': BigIntLongType,
  'timestamp-nanos': BigIntLongType,
  'local-timestamp-nanos': BigIntLongType,
  'time-micros': BigIntLongType,
  date: DateType,
  uuid: UuidType,
  decimal: DecimalType,
})
