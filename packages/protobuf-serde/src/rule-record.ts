import { isObject, MAX_DEPTH, type RuleField, setOwn, shapeOf, tooDeep } from './rule-shape.js'
import type { FieldPlan, MessagePlan } from './values.js'

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
