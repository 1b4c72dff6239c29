import type { FieldPlan, MessagePlan } from './values.js'

/** The brand of `RuleDouble` of `@x/rules`, a registered symbol. */
const RULE_DOUBLE = Symbol.for('@x/rules.RuleDouble')

/**
 * A message value with each `double` and `float` field (at any depth of its own message types, in lists and maps)
 * as proto3's JSON mapping writes it and the registry's Jackson reads it back: a double, `double(5)` for an
 * integral one (so that CEL types it `double`, as it types the `5.0` Java's `JsonFormat` writes), the text `"NaN"`,
 * `"Infinity"`, `"-Infinity"` for the others. Every other value is left as it is (the caller then makes the
 * record's JSON of it); the well-known types are left whole. Only own fields are read; a field named `__proto__`
 * stays an own data field.
 */
export function markRuleDoubles(
  plan: MessagePlan,
  value: unknown,
  double: (value: number) => unknown,
): unknown {
  if (!isObject(value)) return value
  let out: Record<string, unknown> | undefined
  for (const field of plan.fields) {
    if (!Object.hasOwn(value, field.name)) continue
    const item = value[field.name]
    if (item === undefined || item === null) continue
    const converted = field.map
      ? markMap(field, item, double)
      : field.repeated && Array.isArray(item)
        ? item.map((one) => markSingle(field, one, double))
        : markSingle(field, item, double)
    if (converted === item) continue
    out ??= { ...value }
    setOwn(out, field.name, converted)
  }
  return out ?? value
}

function markMap(field: FieldPlan, value: unknown, double: (value: number) => unknown): unknown {
  if (value instanceof Map) {
    const out = new Map<unknown, unknown>()
    for (const [key, item] of value) out.set(key, markSingle(field, item, double))
    return out
  }
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) setOwn(out, key, markSingle(field, value[key], double))
  return out
}

function markSingle(field: FieldPlan, value: unknown, double: (value: number) => unknown): unknown {
  if (field.message !== undefined) {
    return field.message.type.fullName.startsWith('.google.protobuf.')
      ? value
      : markRuleDoubles(field.message, value, double)
  }
  if (field.scalar === 'float' && typeof value === 'number') {
    if (!Number.isFinite(value)) return String(value)
    return Number.isInteger(value) ? double(value) : value
  }
  return value
}

/**
 * The record a data-contract transform gave back, as values the Protobuf writer takes. The rules see a message as
 * `toRuleRecord` of `@x/rules` makes it (JSON-shaped); this is its inverse, led by the message's fields: base64
 * text becomes a `Buffer` for `bytes`, integer text (as proto3's JSON writes 64-bit integers) the number or
 * `bigint` it spells for a 64-bit field (a `bigint` stays one; a `number` beyond 2^53 is left for the writer to
 * refuse, as it may have been rounded), and RFC 3339 text (`"2026-01-02T03:04:05.5Z"`) or duration text
 * (`"3600s"`) the `google.protobuf.Timestamp` or `Duration` message it stands for. Anything that fits none of
 * these is left as it is, for the writer to refuse with its path. Only the record's own fields are read, and map
 * keys and fields named `__proto__` or `constructor` stay own data fields.
 */
export function fromRuleMessage(plan: MessagePlan, value: unknown): unknown {
  if (!isObject(value)) return value
  const out: Record<string, unknown> = { ...value }
  for (const field of plan.fields) {
    if (!Object.hasOwn(value, field.name)) continue
    const item = value[field.name]
    if (item === undefined || item === null) continue
    const converted = field.map
      ? mapValue(field, item)
      : field.repeated && Array.isArray(item)
        ? item.map((one) => singleValue(field, one))
        : singleValue(field, item)
    setOwn(out, field.name, converted)
  }
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
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
  )
}

function mapValue(field: FieldPlan, value: unknown): unknown {
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) setOwn(out, key, singleValue(field, value[key]))
  return out
}

const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Infinity, '-Infinity': -Infinity }

function singleValue(field: FieldPlan, value: unknown): unknown {
  if (
    typeof value === 'object' &&
    value !== null &&
    (value as { [RULE_DOUBLE]?: unknown })[RULE_DOUBLE] === true
  )
    return (value as { value: number }).value
  if (field.message !== undefined) {
    if (typeof value === 'string') return wellKnownValue(field.message.type.fullName, value) ?? value
    return fromRuleMessage(field.message, value)
  }
  switch (field.scalar) {
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

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/i
const DURATION = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/

/** The fields of a Timestamp or Duration written as proto3 JSON text; undefined for other text or types. */
function wellKnownValue(
  typeName: string,
  text: string,
): { seconds: number | bigint; nanos: number } | undefined {
  if (typeName === '.google.protobuf.Timestamp') {
    const parts = TIMESTAMP.exec(text)
    if (parts === null) return undefined
    const ms = Date.parse(`${parts[1]}${parts[3]}`)
    if (Number.isNaN(ms)) return undefined
    return { seconds: longValue(Math.floor(ms / 1000)) as number, nanos: nanosOf(parts[2]) }
  }
  if (typeName === '.google.protobuf.Duration') {
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
  return undefined
}

function nanosOf(fraction: string | undefined): number {
  return fraction === undefined ? 0 : Number(fraction.padEnd(9, '0'))
}
