import { DeserializationError } from '@x/errors'
import type { Tap } from './avsc-internals.js'
import { DecimalType } from './decimal.js'
import { BuiltinLogicalType, type LogicalSchema, notFor, type ValueKind } from './logical-base.js'
import { INT64_MAX, INT64_MIN, longProblem, readLongAuto, readLongBigint, writeLong } from './longs.js'

/**
 * The built-in logical types (see docs/type-mapping.md). Each checks its annotation in its constructor and throws
 * when the annotation is not valid for its underlying type: the schema parser then uses the underlying type alone,
 * as the Avro specification asks.
 */

/** Largest magnitude of a JavaScript `Date`, in milliseconds. */
const MAX_DATE_MS = 8.64e15
const OUTSIDE_DATE_RANGE =
  'outside the range of a JavaScript Date (±8.64e15 ms), so it could not be read back'
const DAY_MS = 86_400_000

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
    if (typeof value === 'number') {
      if (!Number.isSafeInteger(value)) return 'not a safe integer'
      // Read back, it would be a Date: a number no Date can hold would be written, then refused by every reader here.
      return value > MAX_DATE_MS || value < -MAX_DATE_MS ? OUTSIDE_DATE_RANGE : undefined
    }
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
    if (typeof value === 'number') {
      if (value !== (value | 0)) return 'not a 32-bit integer'
      return value * DAY_MS > MAX_DATE_MS || value * DAY_MS < -MAX_DATE_MS ? OUTSIDE_DATE_RANGE : undefined
    }
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
