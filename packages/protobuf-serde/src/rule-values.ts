import type { FieldPlan, MessagePlan } from './values.js'

/** The brand of `RuleDouble` of `@x/rules`, a registered symbol. */
const RULE_DOUBLE = Symbol.for('@x/rules.RuleDouble')

/** How deep messages, lists and `Struct`s may nest for the rules (as `MAX_RECORD_DEPTH` of `@x/rules`). */
const MAX_DEPTH = 1000

/** What the rules are told about one field of a message, found once per message type. */
interface RuleField {
  readonly field: FieldPlan
  /** Its proto3 JSON name: `json_name`, else the lowerCamelCase of its `.proto` name (`userId` for `user_id`). */
  readonly json: string
  /** Whether it has presence (a message, `optional`, a oneof member): then a default value is written too. */
  readonly presence: boolean
  /** The full name of its type when a well-known type (`google.protobuf.Timestamp`), else undefined. */
  readonly wellKnown: string | undefined
}

interface RuleShape {
  readonly fields: readonly RuleField[]
  /** The `.proto` and JSON names of the fields, and the names of the oneofs (protobufjs's virtual fields). */
  readonly names: ReadonlySet<string>
}

const shapes = new WeakMap<MessagePlan, RuleShape>()

function shapeOf(plan: MessagePlan): RuleShape {
  let shape = shapes.get(plan)
  if (shape === undefined) {
    const names = new Set<string>(Object.keys(plan.type.oneofs ?? {}))
    const fields = plan.fields.map((field): RuleField => {
      const declared = plan.type.fields[field.name] as
        | { jsonName?: string; hasPresence?: boolean; partOf?: unknown }
        | undefined
      const json = declared?.jsonName ?? camel(field.name)
      names.add(field.name)
      names.add(json)
      const fullName = field.message?.type.fullName
      return {
        field,
        json,
        presence:
          !field.repeated &&
          !field.map &&
          (field.message !== undefined ||
            field.oneof !== undefined ||
            declared?.partOf != null ||
            declared?.hasPresence === true),
        wellKnown: fullName?.startsWith('.google.protobuf.') ? fullName.slice(1) : undefined,
      }
    })
    shape = { fields, names }
    shapes.set(plan, shape)
  }
  return shape
}

/** Whether `key` names a field of `plan`'s message, by its JSON or `.proto` name, or one of its oneofs. */
export function declaresField(plan: MessagePlan, key: string): boolean {
  return shapeOf(plan).names.has(key)
}

/** protoc's JSON name of a field: each letter after an underscore upper-cased, the underscores dropped. */
function camel(name: string): string {
  return name.replace(/_([a-z0-9])?/g, (_all, next: string | undefined) => next?.toUpperCase() ?? '')
}

/** A tree of messages, lists or `Struct`s deeper than the rules read. */
function tooDeep(): Error {
  return new RangeError(
    `The record nests messages and lists deeper than ${MAX_DEPTH} levels, more than data-contract rules read`,
  )
}

/**
 * A message value as the record the registry is sent for it, proto3's canonical JSON mapping (as Java's
 * `JsonFormat` prints it, Java's serde having no record of its own for Protobuf): fields by their JSON names
 * (`userId` for `user_id`), default values of fields without presence left out (and empty lists and maps), a
 * `double` or `float` as a double (`double(5)` for an integral one, so that CEL types it `double` as it types the
 * `5.0` Java writes; `"NaN"`, `"Infinity"`, `"-Infinity"` as text), an enum by its name, a `Timestamp` as RFC 3339
 * text (`"2025-01-01T00:00:00Z"`, 0, 3, 6 or 9 fraction digits), a `Duration` as seconds text (`"1.5s"`), a
 * wrapper as its bare value, a `Struct`, `Value` or `ListValue` as the JSON it holds, a `FieldMask` as its paths
 * joined by commas, an `Empty` as `{}`. Unlike proto3 JSON, 64-bit integers stay numbers (`bigint`s beyond 2^53),
 * so that `count > 0` reads them; bytes stay bytes (the caller's JSON makes them base64). A field is taken by its
 * `.proto` name, else its JSON name; fields the schema does not declare are kept as they are. With `fields` (JSON
 * names), only those top-level fields are converted. Only own fields are read; a field named `__proto__` stays an
 * own data field.
 * @throws RangeError when messages, lists or `Struct`s nest deeper than the rules read.
 */
export function toRuleMessage(
  plan: MessagePlan,
  value: unknown,
  double: (value: number) => unknown,
  fields?: readonly string[],
): unknown {
  return messageJson(plan, value, double, fields, 0)
}

function messageJson(
  plan: MessagePlan,
  value: unknown,
  double: (value: number) => unknown,
  only: readonly string[] | undefined,
  depth: number,
): unknown {
  if (!isObject(value)) return value
  if (++depth > MAX_DEPTH) throw tooDeep()
  const shape = shapeOf(plan)
  const out: Record<string, unknown> = {}
  for (const rule of shape.fields) {
    if (only !== undefined && !only.includes(rule.json)) continue
    const { field } = rule
    const item = Object.hasOwn(value, field.name)
      ? value[field.name]
      : Object.hasOwn(value, rule.json)
        ? value[rule.json]
        : undefined
    if (item === undefined || item === null) continue
    let converted: unknown
    if (field.map) {
      const entries = item instanceof Map ? [...item] : isObject(item) ? Object.entries(item) : undefined
      if (entries === undefined) converted = item
      else if (entries.length === 0) continue
      else {
        const map: Record<string, unknown> = {}
        for (const [key, one] of entries) setOwn(map, String(key), singleJson(rule, one, double, depth))
        converted = map
      }
    } else if (field.repeated && Array.isArray(item)) {
      if (item.length === 0) continue
      converted = item.map((one) => singleJson(rule, one, double, depth))
    } else {
      if (!rule.presence && isDefault(field, item)) continue
      converted = singleJson(rule, item, double, depth)
    }
    setOwn(out, rule.json, converted)
  }
  for (const key of Object.keys(value)) {
    if (shape.names.has(key) || (only !== undefined && !only.includes(key))) continue
    setOwn(out, key, value[key])
  }
  return out
}

/** A default value, which proto3 JSON leaves out of a field without presence. */
function isDefault(field: FieldPlan, value: unknown): boolean {
  if (value === 0 || value === 0n || value === '' || value === false) return true
  if (value instanceof Uint8Array) return value.length === 0
  return field.enumType !== undefined && value === field.enumType.valuesById[0]
}

function singleJson(
  rule: RuleField,
  value: unknown,
  double: (value: number) => unknown,
  depth: number,
): unknown {
  const { field } = rule
  if (field.message !== undefined) {
    if (rule.wellKnown !== undefined) {
      return isObject(value) ? wellKnownJson(rule.wellKnown, value, double, depth) : value
    }
    return messageJson(field.message, value, double, undefined, depth)
  }
  if (field.enumType !== undefined) {
    return typeof value === 'number' ? (field.enumType.valuesById[value] ?? value) : value
  }
  return field.scalar === 'float' ? doubleJson(value, double) : value
}

function doubleJson(value: unknown, double: (value: number) => unknown): unknown {
  if (typeof value !== 'number') return value
  if (!Number.isFinite(value)) return String(value)
  return Number.isInteger(value) ? double(value) : value
}

/** A well-known type's JSON form (proto3's JSON mapping, 64-bit integers as numbers); other types as they are. */
function wellKnownJson(
  typeName: string,
  value: Record<string, unknown>,
  double: (value: number) => unknown,
  depth: number,
): unknown {
  switch (typeName) {
    case 'google.protobuf.Timestamp':
      return timestampText(toBigInt(value.seconds), Number(value.nanos ?? 0))
    case 'google.protobuf.Duration':
      return durationText(toBigInt(value.seconds), Number(value.nanos ?? 0))
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
      return structJson(value, depth)
    case 'google.protobuf.Value':
      return valueJson(value, depth)
    case 'google.protobuf.ListValue':
      return listJson(value, depth)
    case 'google.protobuf.FieldMask':
      return Array.isArray(value.paths) ? value.paths.join(',') : value
    case 'google.protobuf.Empty':
      return {}
    default:
      return value
  }
}

function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number' && Number.isFinite(value)) return BigInt(Math.trunc(value))
  if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) return BigInt(value)
  if (isObject(value) && typeof value.toString === 'function') {
    // a protobufjs Long
    const text = String(value)
    if (/^-?[0-9]+$/.test(text)) return BigInt(text)
  }
  return 0n
}

function fractionText(nanos: number): string {
  if (nanos === 0) return ''
  const digits = String(Math.abs(nanos)).padStart(9, '0')
  if (digits.endsWith('000000')) return `.${digits.slice(0, 3)}`
  if (digits.endsWith('000')) return `.${digits.slice(0, 6)}`
  return `.${digits}`
}

function timestampText(seconds: bigint, nanos: number): string {
  const date = new Date(Number(seconds) * 1000)
  if (Number.isNaN(date.getTime())) return `${seconds}s`
  return `${date.toISOString().slice(0, 19)}${fractionText(nanos)}Z`
}

function durationText(seconds: bigint, nanos: number): string {
  const negative = seconds < 0n || nanos < 0
  const whole = seconds < 0n ? -seconds : seconds
  return `${negative ? '-' : ''}${whole}${fractionText(Math.abs(nanos))}s`
}

/** The member of a oneof of `value` named `snake` (or its JSON name `camel`) that it holds itself. */
function member(value: Record<string, unknown>, snake: string, camelName: string): unknown {
  if (Object.hasOwn(value, snake)) return value[snake]
  if (Object.hasOwn(value, camelName)) return value[camelName]
  return undefined
}

function structJson(value: Record<string, unknown>, depth: number): Record<string, unknown> {
  if (++depth > MAX_DEPTH) throw tooDeep()
  const fields = Object.hasOwn(value, 'fields') ? value.fields : undefined
  const json: Record<string, unknown> = {}
  if (fields instanceof Map) {
    for (const [key, item] of fields) setOwn(json, String(key), valueJson(item, depth))
  } else if (isObject(fields)) {
    for (const key of Object.keys(fields)) setOwn(json, key, valueJson(fields[key], depth))
  }
  return json
}

function listJson(value: Record<string, unknown>, depth: number): unknown[] {
  if (++depth > MAX_DEPTH) throw tooDeep()
  const values = Object.hasOwn(value, 'values') ? value.values : undefined
  return Array.isArray(values) ? values.map((item) => valueJson(item, depth)) : []
}

/** A `google.protobuf.Value`'s JSON: the member of its `kind` oneof it holds, else `null`. */
function valueJson(value: unknown, depth: number): unknown {
  if (!isObject(value)) return null
  const struct = member(value, 'struct_value', 'structValue')
  if (isObject(struct)) return structJson(struct, depth)
  const list = member(value, 'list_value', 'listValue')
  if (isObject(list)) return listJson(list, depth)
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

/**
 * The record a data-contract transform gave back, as values the Protobuf writer takes: the inverse of
 * `toRuleMessage`, led by the message's fields. A field is read by its JSON name, else its `.proto` name, and
 * written by its `.proto` name: base64 text becomes a `Buffer` for `bytes`, integer text the number or `bigint` it
 * spells for a 64-bit field (a `bigint` stays one; a `number` beyond 2^53 is left for the writer to refuse, as it may
 * have been rounded), a double (`RuleDouble`) its number and `"NaN"`/`"Infinity"`/`"-Infinity"` theirs, RFC 3339
 * text (`"2026-01-02T03:04:05.5Z"`) or duration text (`"3600s"`) the `google.protobuf.Timestamp` or `Duration`
 * message it stands for, a bare value its wrapper message, JSON a `Struct`, `Value` or `ListValue`, text a
 * `FieldMask`. Anything that fits none of these is left as it is, for the writer to refuse with its path; fields
 * the schema does not declare are kept as they are. Only the record's own fields are read, and map keys and fields
 * named `__proto__` or `constructor` stay own data fields.
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

/** Sets an own data property: assigned, but defined for `__proto__` (whose assignment would set the prototype). */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  } else {
    out[key] = value
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    !isRuleDouble(value)
  )
}

function isRuleDouble(value: unknown): value is { value: number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [RULE_DOUBLE]?: unknown })[RULE_DOUBLE] === true
  )
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
      return typeof value === 'string' ? { paths: value === '' ? [] : value.split(',') } : undefined
    default:
      return undefined
  }
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

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i
const DURATION = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/

/** The fields of a Timestamp or Duration written as proto3 JSON text; undefined for other text. */
function timeValue(typeName: string, text: string): { seconds: number | bigint; nanos: number } | undefined {
  if (typeName === 'google.protobuf.Timestamp') {
    const parts = TIMESTAMP.exec(text)
    if (parts === null) return undefined
    const ms = Date.parse(`${parts[1]}${parts[3]}`)
    if (Number.isNaN(ms)) return undefined
    return { seconds: longValue(Math.floor(ms / 1000)) as number, nanos: nanosOf(parts[2]) }
  }
  const parts = DURATION.exec(text)
  if (parts === null) return undefined
  const sign = parts[1] === undefined ? 1 : -1
  const seconds = longValue(parts[2]) as number | bigint
  const nanos = nanosOf(parts[3])
  return {
    seconds: typeof seconds === 'bigint' ? BigInt(sign) * seconds : sign * seconds || 0,
    nanos: sign * nanos || 0,
  }
}

function nanosOf(fraction: string | undefined): number {
  return fraction === undefined ? 0 : Number(fraction.padEnd(9, '0'))
}
