import { isObject, isRuleDouble, MAX_DEPTH, type RuleField, setOwn, shapeOf, tooDeep } from './rule-shape.js'
import { DURATION_MAX, TIMESTAMP_MAX, TIMESTAMP_MIN } from './rule-well-known.js'
import type { FieldPlan, MessagePlan } from './values.js'

/**
 * The record a data-contract transform gave back, as values the Protobuf writer takes: the inverse of
 * `toRuleMessage`, led by the message's fields. A field is read by its JSON name, else its `.proto` name, and
 * written by its `.proto` name: base64 text becomes a `Buffer` for `bytes`, integer text the number or `bigint` it
 * spells for a 64-bit field (a `bigint` stays one; a `number` beyond 2^53 is left for the writer to refuse, as it may
 * have been rounded), a double (`RuleDouble`) its number and `"NaN"`/`"Infinity"`/`"-Infinity"` theirs, RFC 3339
 * text (`"2026-01-02T03:04:05.5Z"`) or duration text (`"3600s"`) the `google.protobuf.Timestamp` or `Duration`
 * message it stands for, a bare value its wrapper message, JSON a `Struct`, `Value` or `ListValue`, text a
 * `FieldMask` (its lowerCamelCase paths back in snake_case). Anything that fits none of these is left as it is, for
 * the writer to refuse with its path; fields the schema does not declare are kept as they are. Only the record's
 * own fields are read, and map keys and fields named `__proto__` or `constructor` stay own data fields.
 */
export function fromRuleMessage(plan: MessagePlan, value: unknown): unknown {
  return messageValue(plan, value, 0)
}

function messageValue(plan: MessagePlan, value: unknown, depth: number): unknown {
  if (!isObject(value)) return value
  if (++depth > MAX_DEPTH) throw tooDeep()
  const shape = shapeOf(plan)
  const out: Record<string, unknown> = {}
  for (const rule of shape.fields) {
    const { field } = rule
    const key = Object.hasOwn(value, rule.json)
      ? rule.json
      : Object.hasOwn(value, field.name)
        ? field.name
        : undefined
    if (key === undefined) continue
    const item = value[key]
    if (item === undefined || item === null) {
      setOwn(out, field.name, item)
      continue
    }
    const converted = field.map
      ? mapValue(rule, item, depth)
      : field.repeated && Array.isArray(item)
        ? item.map((one) => singleValue(rule, one, depth))
        : singleValue(rule, item, depth)
    setOwn(out, field.name, converted)
  }
  for (const key of Object.keys(value)) if (!shape.names.has(key)) setOwn(out, key, value[key])
  return out
}

function mapValue(rule: RuleField, value: unknown, depth: number): unknown {
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) setOwn(out, key, singleValue(rule, value[key], depth))
  return out
}

const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Infinity, '-Infinity': -Infinity }

function singleValue(rule: RuleField, value: unknown, depth: number): unknown {
  const { field } = rule
  if (field.message !== undefined) {
    if (rule.wellKnown !== undefined) return wellKnownValue(rule.wellKnown, value, depth) ?? value
    return messageValue(field.message, value, depth)
  }
  return scalarValue(field.scalar, value)
}

function scalarValue(scalar: FieldPlan['scalar'], value: unknown): unknown {
  if (isRuleDouble(value)) return value.value
  switch (scalar) {
    case 'bytes':
      return typeof value === 'string' ? Buffer.from(value, 'base64') : value
    case 'int64':
    case 'uint64':
      return longValue(value)
    case 'float':
      return typeof value === 'string' && Object.hasOwn(NON_FINITE, value) ? NON_FINITE[value] : value
    default:
      return value
  }
}

/** A 64-bit integer as the writer takes it: integer text becomes a number while safe, a bigint beyond. */
function longValue(value: unknown): unknown {
  if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) {
    const exact = BigInt(value)
    return exact >= Number.MIN_SAFE_INTEGER && exact <= Number.MAX_SAFE_INTEGER ? Number(exact) : exact
  }
  return value
}

const WRAPPED: Readonly<Record<string, FieldPlan['scalar']>> = {
  'google.protobuf.DoubleValue': 'float',
  'google.protobuf.FloatValue': 'float',
  'google.protobuf.Int64Value': 'int64',
  'google.protobuf.UInt64Value': 'uint64',
  'google.protobuf.Int32Value': 'int32',
  'google.protobuf.UInt32Value': 'uint32',
  'google.protobuf.BoolValue': 'bool',
  'google.protobuf.StringValue': 'string',
  'google.protobuf.BytesValue': 'bytes',
}

/** The message a well-known type's JSON form stands for; undefined when `value` is not such a form. */
function wellKnownValue(typeName: string, value: unknown, depth: number): unknown {
  if (Object.hasOwn(WRAPPED, typeName)) {
    return isObject(value) ? undefined : { value: scalarValue(WRAPPED[typeName], value) }
  }
  switch (typeName) {
    case 'google.protobuf.Timestamp':
    case 'google.protobuf.Duration':
      return typeof value === 'string' ? timeValue(typeName, value) : undefined
    case 'google.protobuf.Struct':
      return isObject(value) ? structValue(value, depth) : undefined
    case 'google.protobuf.Value':
      return jsonValue(value, depth)
    case 'google.protobuf.ListValue':
      return Array.isArray(value) ? listValue(value, depth) : undefined
    case 'google.protobuf.FieldMask':
      return typeof value === 'string' ? { paths: fieldMaskPaths(value) } : undefined
    default:
      return undefined
  }
}

/** `FieldMaskUtil.fromJsonString` of Java: each lowerCamelCase path in snake_case (`userId` → `user_id`). */
function fieldMaskPaths(text: string): string[] {
  const paths: string[] = []
  for (const path of text.split(',')) {
    if (path !== '') paths.push(path.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`))
  }
  return paths
}

function structValue(value: Record<string, unknown>, depth: number): { fields: Record<string, unknown> } {
  if (++depth > MAX_DEPTH) throw tooDeep()
  const fields: Record<string, unknown> = {}
  for (const key of Object.keys(value)) setOwn(fields, key, jsonValue(value[key], depth))
  return { fields }
}

function listValue(value: readonly unknown[], depth: number): { values: unknown[] } {
  if (++depth > MAX_DEPTH) throw tooDeep()
  return { values: value.map((item) => jsonValue(item, depth)) }
}

/** A JSON value as a `google.protobuf.Value` message. */
function jsonValue(value: unknown, depth: number): unknown {
  if (value === null || value === undefined) return { null_value: 0 }
  if (isRuleDouble(value)) return { number_value: value.value }
  switch (typeof value) {
    case 'number':
      return { number_value: value }
    case 'bigint':
      return { number_value: Number(value) }
    case 'string':
      return { string_value: value }
    case 'boolean':
      return { bool_value: value }
    default:
      if (Array.isArray(value)) return { list_value: listValue(value, depth) }
      return isObject(value) ? { struct_value: structValue(value, depth) } : value
  }
}

const TIMESTAMP_MIN_SECONDS = Number(TIMESTAMP_MIN)
const TIMESTAMP_MAX_SECONDS = Number(TIMESTAMP_MAX)
const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i
const DURATION = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/

/**
 * The fields of a Timestamp or Duration written as proto3 JSON text; undefined for other text, and for a time
 * outside the type's range (0001-01-01T00:00:00Z..9999-12-31T23:59:59.999999999Z, ±315576000000 seconds), which
 * proto3 JSON does not parse and rules reading the record refuse.
 */
function timeValue(typeName: string, text: string): { seconds: number | bigint; nanos: number } | undefined {
  if (typeName === 'google.protobuf.Timestamp') {
    const parts = TIMESTAMP.exec(text)
    if (parts === null) return undefined
    const ms = Date.parse(`${parts[1]}${parts[3]}`)
    if (Number.isNaN(ms)) return undefined
    const seconds = Math.floor(ms / 1000)
    if (seconds < TIMESTAMP_MIN_SECONDS || seconds > TIMESTAMP_MAX_SECONDS) return undefined
    return { seconds, nanos: nanosOf(parts[2]) }
  }
  const parts = DURATION.exec(text)
  if (parts === null) return undefined
  const sign = parts[1] === undefined ? 1 : -1
  const seconds = longValue(parts[2]) as number | bigint
  if (BigInt(seconds) > DURATION_MAX) return undefined
  const nanos = nanosOf(parts[3])
  return {
    seconds: typeof seconds === 'bigint' ? BigInt(sign) * seconds : sign * seconds || 0,
    nanos: sign * nanos || 0,
  }
}

function nanosOf(fraction: string | undefined): number {
  return fraction === undefined ? 0 : Number(fraction.padEnd(9, '0'))
}
