import { invalidConfigError } from '@x/errors'
import { MAX_RECORD_DEPTH, RecordTooDeepError, setData } from './record-data.js'
import { isRuleDouble } from './rule-double.js'

/**
 * The record a ruleset sees for a decoded value of any format: the JSON the registry's execute endpoint would be
 * sent for it, as `JSON.stringify` writes it, with integers kept exact. A `Date` becomes its RFC 3339 text
 * (`toISOString`; an invalid date `null`, as its `toJSON` gives it), a `Uint8Array` its base64 text, a `Map` an object, a `bigint` within ±(2^53 − 1) a `number` (beyond,
 * it stays a `bigint`: an exact CEL `int`), an object with `toJSON` (Protobuf well-known types, Long values) what
 * `toJSON` returns, a `RuleDouble` itself; `undefined`, functions and symbols are left out of objects, as JSON leaves them out, and a number
 * that is not finite becomes `null`. Only own fields are read, and the record is made of ordinary objects whose
 * fields are own data properties, as `JSON.parse` makes them: a field named `__proto__` or `constructor` is a field
 * like any other.
 *
 * With `fields` (what `RulesEngine#fieldsRead` answers for a ruleset), only those top-level fields are converted and
 * the others are left out: the record rules see is the same for each field they read, and a record of many fields
 * costs what its read fields cost.
 * @throws TypeError (code `INVALID_CONFIG`) when `value` is not an object (a record is a JSON object).
 * @throws RecordTooDeepError when it nests deeper than {@link MAX_RECORD_DEPTH} levels.
 */
export function toRuleRecord(value: unknown, fields?: readonly string[]): Record<string, unknown> {
  if (fields !== undefined && isPlainRecord(value)) return pick(value, fields)
  const record = toRuleValue(value, 0)
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    const kind = record === null ? 'null' : Array.isArray(record) ? 'an array' : typeof record
    throw invalidConfigError(`A record for rules must be an object, not ${kind}`)
  }
  return record as Record<string, unknown>
}

/** An object whose own enumerable fields are its JSON fields: not a list, map, date, bytes or `toJSON` holder. */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Map) &&
    !(value instanceof Date) &&
    !(value instanceof Uint8Array) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  )
}

/** The named fields of `value` converted as `toRuleObject` converts every field (own enumerable ones only). */
function pick(value: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const object: Record<string, unknown> = {}
  for (const key of fields) {
    if (!Object.prototype.propertyIsEnumerable.call(value, key)) continue
    const converted = toRuleValue(value[key], 1)
    if (converted !== undefined) setData(object, key, converted)
  }
  return object
}

/**
 * `value` converted; `depth` is how many objects and lists hold it. One small frame a level (the rare kinds are
 * converted out of line), so the walk to {@link MAX_RECORD_DEPTH} takes little of the stack.
 */
function toRuleValue(value: unknown, depth: number): unknown {
  if (typeof value !== 'object') return toRuleScalar(value)
  if (value === null) return null
  if (isRuleDouble(value)) return value
  if (++depth > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
  if (Array.isArray(value)) {
    const list: unknown[] = []
    for (let index = 0; index < value.length; index++) list.push(toRuleValue(value[index], depth) ?? null)
    return list
  }
  if (value instanceof Date || value instanceof Uint8Array || value instanceof Map)
    return toRuleSpecial(value, depth)
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return toRuleValue((value as { toJSON(): unknown }).toJSON(), depth)
  }
  const object: Record<string, unknown> = {}
  const keys = Object.keys(value)
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!
    const converted = toRuleValue((value as Record<string, unknown>)[key], depth)
    if (converted !== undefined) setData(object, key, converted)
  }
  return object
}

function toRuleScalar(value: unknown): unknown {
  switch (typeof value) {
    case 'bigint':
      return value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER ? Number(value) : value
    case 'number':
      return Number.isFinite(value) ? value : null
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined
    default:
      return value
  }
}

/** A date, bytes or a map, held at `depth` (counted already). */
function toRuleSpecial(value: Date | Uint8Array | Map<unknown, unknown>, depth: number): unknown {
  // an invalid date is null, as its toJSON gives it
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString()
  if (value instanceof Uint8Array) return base64(value)
  const object: Record<string, unknown> = {}
  for (const [key, item] of value) {
    const converted = toRuleValue(item, depth)
    if (converted !== undefined) setData(object, String(key), converted)
  }
  return object
}

function base64(bytes: Uint8Array): string {
  if (typeof Buffer !== 'undefined')
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}
