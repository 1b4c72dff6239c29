import type { DataRangeError } from '@x/errors'
import { isObject, MAX_DEPTH, setOwn, tooDeep } from './rule-shape.js'

/**
 * The one mapping of Protobuf's well-known types into the record data-contract rules see: proto3's JSON mapping as
 * Java's `JsonFormat` prints it, except that 64-bit integers stay numbers (`bigint`s beyond 2^53) so that
 * `count > 0` reads them, and bytes stay bytes. A `Timestamp` is RFC 3339 text in UTC with 0, 3, 6 or 9 fraction
 * digits (`"2025-01-01T00:00:00.500Z"`), a `Duration` seconds text (`"-1.500s"`), a wrapper its bare value (its
 * default when unset; a `double` or `float` as the other doubles), a `Struct`, `Value` or `ListValue` the JSON it
 * holds (a number as a double, as Java writes `5.0`), a `FieldMask` its paths in lowerCamelCase joined by commas, an
 * `Empty` `{}`; any other type (`Any` among them) is left as it is. Only own fields are read; a `Struct` key named
 * `__proto__` is a key like any other.
 * @throws RangeError (code `INVALID_DATA`) for what proto3 JSON cannot write: a `Timestamp` outside
 *   0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z or with nanos outside 0..999999999, a `Duration` beyond
 *   ±315576000000 seconds, with nanos beyond ±999999999 or of the other sign, a `Value` number that is not finite.
 * @throws RangeError when `Struct`s and lists nest deeper than the rules read.
 */
export function wellKnownJson(
  typeName: string,
  value: Record<string, unknown>,
  double: (value: number) => unknown,
  depth: number,
): unknown {
  switch (typeName) {
    case 'google.protobuf.Timestamp':
      return timestampText(value)
    case 'google.protobuf.Duration':
      return durationText(value)
    case 'google.protobuf.DoubleValue':
    case 'google.protobuf.FloatValue':
      return doubleJson(value.value ?? 0, double)
    case 'google.protobuf.Int64Value':
    case 'google.protobuf.UInt64Value':
    case 'google.protobuf.Int32Value':
    case 'google.protobuf.UInt32Value':
      return value.value ?? 0
    case 'google.protobuf.BoolValue':
      return value.value ?? false
    case 'google.protobuf.StringValue':
      return value.value ?? ''
    case 'google.protobuf.BytesValue':
      return value.value ?? new Uint8Array()
    case 'google.protobuf.Struct':
      return structJson(value, double, depth)
    case 'google.protobuf.Value':
      return valueJson(value, double, depth)
    case 'google.protobuf.ListValue':
      return listJson(value, double, depth)
    case 'google.protobuf.FieldMask':
      return Array.isArray(value.paths) ? fieldMaskText(value.paths) : value
    case 'google.protobuf.Empty':
      return {}
    default:
      return value
  }
}

/** A `double` or `float` for the rules: integral ones through `double`, `"NaN"` and the infinities as text. */
export function doubleJson(value: unknown, double: (value: number) => unknown): unknown {
  if (typeof value !== 'number') return value
  if (!Number.isFinite(value)) return String(value)
  return Number.isInteger(value) ? double(value) : value
}

/** Seconds of 0001-01-01T00:00:00Z and of 9999-12-31T23:59:59Z, the range of a `Timestamp`. */
export const TIMESTAMP_MIN = -62_135_596_800n
export const TIMESTAMP_MAX = 253_402_300_799n
/** The most seconds a `Duration` holds, either way: about 10,000 years. */
export const DURATION_MAX = 315_576_000_000n
const NANOS_MAX = 999_999_999

function timestampText(value: Record<string, unknown>): string {
  const seconds = toBigInt(value.seconds)
  const nanos = Number(value.nanos ?? 0)
  if (
    seconds === undefined ||
    seconds < TIMESTAMP_MIN ||
    seconds > TIMESTAMP_MAX ||
    !(Number.isInteger(nanos) && nanos >= 0 && nanos <= NANOS_MAX)
  ) {
    throw cannotWrite(
      'google.protobuf.Timestamp',
      value,
      `seconds from ${TIMESTAMP_MIN} to ${TIMESTAMP_MAX} (0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z) and nanos from 0 to ${NANOS_MAX}`,
    )
  }
  return `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19)}${fractionText(nanos)}Z`
}

function durationText(value: Record<string, unknown>): string {
  const seconds = toBigInt(value.seconds)
  const nanos = Number(value.nanos ?? 0)
  if (
    seconds === undefined ||
    seconds < -DURATION_MAX ||
    seconds > DURATION_MAX ||
    !(Number.isInteger(nanos) && nanos >= -NANOS_MAX && nanos <= NANOS_MAX) ||
    (seconds > 0n && nanos < 0) ||
    (seconds < 0n && nanos > 0)
  ) {
    throw cannotWrite(
      'google.protobuf.Duration',
      value,
      `seconds from -${DURATION_MAX} to ${DURATION_MAX} and nanos from -${NANOS_MAX} to ${NANOS_MAX} of the same sign`,
    )
  }
  const negative = seconds < 0n || nanos < 0
  return `${negative ? '-' : ''}${negative ? -seconds : seconds}${fractionText(Math.abs(nanos))}s`
}

/** Integer seconds as a `bigint` (from a number, a `bigint`, integer text or a protobufjs `Long`), else undefined. */
function toBigInt(value: unknown): bigint | undefined {
  if (value === undefined || value === null) return 0n
  if (typeof value === 'bigint') return value
  if (typeof value === 'number') return Number.isSafeInteger(value) ? BigInt(value) : undefined
  const text = typeof value === 'string' ? value : isObject(value) ? String(value) : ''
  return /^-?[0-9]{1,20}$/.test(text) ? BigInt(text) : undefined
}

/** The fraction of a second as proto3 JSON writes it: none, or 3, 6 or 9 digits, the fewest that hold it. */
function fractionText(nanos: number): string {
  if (nanos === 0) return ''
  const digits = String(nanos).padStart(9, '0')
  if (digits.endsWith('000000')) return `.${digits.slice(0, 3)}`
  if (digits.endsWith('000')) return `.${digits.slice(0, 6)}`
  return `.${digits}`
}

function cannotWrite(typeName: string, value: Record<string, unknown>, expected: string): DataRangeError {
  return notJson(
    `A ${typeName} must have ${expected} to be given to data-contract rules as proto3 JSON, ` +
      `not seconds ${describe(value.seconds)} and nanos ${describe(value.nanos ?? 0)}`,
  )
}

/** The `RangeError` (code `INVALID_DATA`) of a value proto3 JSON cannot write. */
function notJson(message: string): DataRangeError {
  const error = new RangeError(message)
  Object.defineProperty(error, 'code', { value: 'INVALID_DATA', enumerable: true })
  return error as DataRangeError
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)
  if (typeof value === 'number' || typeof value === 'bigint' || value === undefined || value === null) {
    return String(value)
  }
  return isObject(value) && /^-?[0-9]{1,20}$/.test(String(value)) ? String(value) : typeof value
}

/** `FieldMaskUtil.toJsonString` of Java: each path in lowerCamelCase (`user_id.display_name` → `userId.displayName`). */
function fieldMaskText(paths: readonly unknown[]): string {
  const json: string[] = []
  for (const path of paths) {
    if (typeof path !== 'string' || path === '') continue
    json.push(path.toLowerCase().replace(/_([^_]?)/g, (_all, next: string) => next.toUpperCase()))
  }
  return json.join(',')
}

/** The member of a oneof of `value` named `snake` (or its JSON name `camel`) that it holds itself. */
function member(value: Record<string, unknown>, snake: string, camelName: string): unknown {
  if (Object.hasOwn(value, snake)) return value[snake]
  if (Object.hasOwn(value, camelName)) return value[camelName]
  return undefined
}

type Double = (value: number) => unknown

function structJson(value: Record<string, unknown>, double: Double, depth: number): Record<string, unknown> {
  if (++depth > MAX_DEPTH) throw tooDeep()
  const fields = Object.hasOwn(value, 'fields') ? value.fields : undefined
  const json: Record<string, unknown> = {}
  if (fields instanceof Map) {
    for (const [key, item] of fields) setOwn(json, String(key), valueJson(item, double, depth))
  } else if (isObject(fields)) {
    for (const key of Object.keys(fields)) setOwn(json, key, valueJson(fields[key], double, depth))
  }
  return json
}

function listJson(value: Record<string, unknown>, double: Double, depth: number): unknown[] {
  if (++depth > MAX_DEPTH) throw tooDeep()
  const values = Object.hasOwn(value, 'values') ? value.values : undefined
  return Array.isArray(values) ? values.map((item) => valueJson(item, double, depth)) : []
}

/** A `google.protobuf.Value`'s JSON: the member of its `kind` oneof it holds, else `null`. */
function valueJson(value: unknown, double: Double, depth: number): unknown {
  if (!isObject(value)) return null
  const struct = member(value, 'struct_value', 'structValue')
  if (isObject(struct)) return structJson(struct, double, depth)
  const list = member(value, 'list_value', 'listValue')
  if (isObject(list)) return listJson(list, double, depth)
  const number = member(value, 'number_value', 'numberValue')
  if (typeof number === 'number') {
    if (!Number.isFinite(number)) {
      throw notJson(
        `A google.protobuf.Value must hold a finite number to be given to data-contract rules as proto3 JSON, not ${number}`,
      )
    }
    return Number.isInteger(number) ? double(number) : number
  }
  for (const [snake, camelName] of VALUE_SCALARS) {
    const scalar = member(value, snake, camelName)
    if (scalar !== undefined && scalar !== null) return scalar
  }
  return null
}

const VALUE_SCALARS = [
  ['number_value', 'numberValue'],
  ['string_value', 'stringValue'],
  ['bool_value', 'boolValue'],
] as const
