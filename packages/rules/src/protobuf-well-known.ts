/**
 * The JSON form (proto3's JSON mapping) of a Protobuf well-known type's value as the Protobuf deserializer gives it
 * (a plain object of its fields), for the record rules see: `google.protobuf.Timestamp` as RFC 3339 text with as
 * many fraction digits as needed (0, 3, 6 or 9), `Duration` as seconds text (`"3600s"`, `"0.500s"`), the wrappers
 * as their value, `Struct`/`Value`/`ListValue` as the JSON they hold, `FieldMask` as comma-separated paths, `Empty`
 * as `{}`. 64-bit integers stay numbers (or `bigint`s), not proto3 JSON's quoted text, so `count > 0` reads them.
 * Returns `undefined` for a type name that is not one of these.
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
      return structJson(value)
    case 'google.protobuf.Value':
      return valueJson(value)
    case 'google.protobuf.ListValue':
      return listJson(value)
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

function structJson(value: Record<string, unknown>): Record<string, unknown> {
  const fields = (value.fields ?? {}) as
    | Record<string, Record<string, unknown>>
    | Map<string, Record<string, unknown>>
  const entries = fields instanceof Map ? [...fields] : Object.entries(fields)
  const json: Record<string, unknown> = {}
  for (const [key, item] of entries) json[key] = valueJson(item)
  return json
}

function listJson(value: Record<string, unknown>): unknown[] {
  return ((value.values as Record<string, unknown>[] | undefined) ?? []).map(valueJson)
}

function valueJson(value: Record<string, unknown>): unknown {
  if ('struct_value' in value || 'structValue' in value) {
    return structJson((value.struct_value ?? value.structValue) as Record<string, unknown>)
  }
  if ('list_value' in value || 'listValue' in value) {
    return listJson((value.list_value ?? value.listValue) as Record<string, unknown>)
  }
  if ('number_value' in value || 'numberValue' in value) return value.number_value ?? value.numberValue
  if ('string_value' in value || 'stringValue' in value) return value.string_value ?? value.stringValue
  if ('bool_value' in value || 'boolValue' in value) return value.bool_value ?? value.boolValue
  return null
}
