import { MAX_RECORD_DEPTH, RecordTooDeepError, setData } from './record-data.js'

/**
 * The JSON form (proto3's JSON mapping) of a Protobuf well-known type's value as the Protobuf deserializer gives it
 * (a plain object of its fields), for the record rules see: `google.protobuf.Timestamp` as RFC 3339 text with as
 * many fraction digits as needed (0, 3, 6 or 9), `Duration` as seconds text (`"3600s"`, `"0.500s"`), the wrappers
 * as their value, `Struct`/`Value`/`ListValue` as the JSON they hold, `FieldMask` as comma-separated paths, `Empty`
 * as `{}`. 64-bit integers stay numbers (or `bigint`s), not proto3 JSON's quoted text, so `count > 0` reads them.
 * Returns `undefined` for a type name that is not one of these. Only own fields are read; a `Struct` key named
 * `__proto__` is a key like any other.
 * @throws RecordTooDeepError when a `Struct`, `Value` or `ListValue` nests deeper than `MAX_RECORD_DEPTH` levels.
 */
export function protobufWellKnownJson(typeName: string, value: Record<string, unknown>): unknown {
  switch (typeName.replace(/^\./, '')) {
    case 'google.protobuf.Timestamp':
      return timestampText(toBigInt(value.seconds), Number(value.nanos ?? 0))
    case 'google.protobuf.Duration':
      return durationText(toBigInt(value.seconds), Number(value.nanos ?? 0))
    case 'google.protobuf.DoubleValue':
    case 'google.protobuf.FloatValue':
    case 'google.protobuf.Int64Value':
    case 'google.protobuf.UInt64Value':
    case 'google.protobuf.Int32Value':
    case 'google.protobuf.UInt32Value':
    case 'google.protobuf.BoolValue':
    case 'google.protobuf.StringValue':
    case 'google.protobuf.BytesValue':
      return value.value
    case 'google.protobuf.Struct':
      return structJson(value, 0)
    case 'google.protobuf.Value':
      return valueJson(value, 0)
    case 'google.protobuf.ListValue':
      return listJson(value, 0)
    case 'google.protobuf.FieldMask':
      return ((value.paths as string[] | undefined) ?? []).join(',')
    case 'google.protobuf.Empty':
      return {}
    default:
      return undefined
  }
}

function toBigInt(value: unknown): bigint {
  if (typeof value === 'bigint') return value
  if (typeof value === 'number') return BigInt(Math.trunc(value))
  if (typeof value === 'string') return BigInt(value)
  return 0n
}

function fraction(nanos: number): string {
  if (nanos === 0) return ''
  const digits = String(Math.abs(nanos)).padStart(9, '0')
  if (digits.endsWith('000000')) return `.${digits.slice(0, 3)}`
  if (digits.endsWith('000')) return `.${digits.slice(0, 6)}`
  return `.${digits}`
}

function timestampText(seconds: bigint, nanos: number): string {
  const iso = new Date(Number(seconds) * 1000).toISOString()
  return `${iso.slice(0, 19)}${fraction(nanos)}Z`
}

function durationText(seconds: bigint, nanos: number): string {
  const negative = seconds < 0n || nanos < 0
  const whole = seconds < 0n ? -seconds : seconds
  return `${negative ? '-' : ''}${whole}${fraction(Math.abs(nanos))}s`
}

/** The field of `value` named one of `names` that it holds itself (a oneof's member), or `undefined`. */
function ownField(value: Record<string, unknown>, snake: string, camel: string): unknown {
  if (Object.hasOwn(value, snake)) return value[snake]
  if (Object.hasOwn(value, camel)) return value[camel]
  return undefined
}

function structJson(value: Record<string, unknown>, depth: number): Record<string, unknown> {
  const inner = depth + 1
  if (inner > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
  const fields = (Object.hasOwn(value, 'fields') ? value.fields : undefined) as
    | Record<string, Record<string, unknown>>
    | Map<string, Record<string, unknown>>
    | undefined
  const json: Record<string, unknown> = {}
  if (fields === undefined || fields === null) return json
  const entries = fields instanceof Map ? [...fields] : Object.entries(fields)
  for (const [key, item] of entries) setData(json, key, valueJson(item, inner))
  return json
}

function listJson(value: Record<string, unknown>, depth: number): unknown[] {
  const inner = depth + 1
  if (inner > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
  const values = (Object.hasOwn(value, 'values') ? value.values : undefined) as
    | Record<string, unknown>[]
    | undefined
  return (values ?? []).map((item) => valueJson(item, inner))
}

/** A `google.protobuf.Value`'s JSON: the member of its `kind` oneof it holds (own fields only), else `null`. */
function valueJson(value: Record<string, unknown>, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return null
  const struct = ownField(value, 'struct_value', 'structValue')
  if (struct !== undefined) return structJson(struct as Record<string, unknown>, depth)
  const list = ownField(value, 'list_value', 'listValue')
  if (list !== undefined) return listJson(list as Record<string, unknown>, depth)
  const number = ownField(value, 'number_value', 'numberValue')
  if (number !== undefined) return number
  const text = ownField(value, 'string_value', 'stringValue')
  if (text !== undefined) return text
  const bool = ownField(value, 'bool_value', 'boolValue')
  if (bool !== undefined) return bool
  return null
}
