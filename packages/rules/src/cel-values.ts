import { MAX_RECORD_DEPTH, RecordTooDeepError, setData } from './record-data.js'
import { isRuleDouble, ruleDouble } from './rule-double.js'

/**
 * Conversions between the JSON-shaped record the registry receives and the values CEL evaluates. A JSON integer
 * (a `number` with no fraction below 1e21, or a `bigint`) is a CEL `int`, as the registry's JSON reader makes it;
 * any other `number`, and a `RuleDouble` (an integral double, `5.0`), is a `double`. Only own fields are read; a map holding a key named `constructor` (which the
 * CEL engine would take for the object's class) is given as a `Map`, and `__proto__` is a key like any other.
 * `depth` is how many lists and maps hold `value`.
 * @throws RecordTooDeepError past {@link MAX_RECORD_DEPTH} levels.
 */
export function toCelValue(value: unknown, depth: number): unknown {
  if (typeof value !== 'object') {
    return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) < 1e21
      ? BigInt(value)
      : value
  }
  if (value === null || value instanceof Uint8Array) return value
  if (isRuleDouble(value)) return value.value
  if (++depth > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
  if (Array.isArray(value)) {
    const list: unknown[] = []
    for (let index = 0; index < value.length; index++) list.push(toCelValue(value[index], depth))
    return list
  }
  const keys = Object.keys(value)
  if (keys.includes('constructor')) return toCelMap(value as Record<string, unknown>, keys, depth)
  const converted: Record<string, unknown> = {}
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!
    setData(converted, key, toCelValue((value as Record<string, unknown>)[key], depth))
  }
  return converted
}

function toCelMap(
  value: Record<string, unknown>,
  keys: readonly string[],
  depth: number,
): Map<string, unknown> {
  const map = new Map<string, unknown>()
  for (const key of keys) map.set(key, toCelValue(value[key], depth))
  return map
}

/**
 * Converts a CEL result back to a JSON-shaped value of ordinary objects with own data fields: an `int` within 2^53
 * becomes a `number`, an integral `double` a `RuleDouble` (it stays a double for the rules after it), a `Map` an
 * object. `depth` is how many lists and maps hold `value`.
 * @throws RecordTooDeepError past {@link MAX_RECORD_DEPTH} levels.
 */
export function fromCelValue(value: unknown, depth: number): unknown {
  if (typeof value !== 'object') {
    if (typeof value === 'number') return ruleDouble(value)
    return typeof value === 'bigint' && value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER
      ? Number(value)
      : value
  }
  if (value === null || value instanceof Uint8Array) return value
  if (value instanceof Date) return value.toISOString()
  if (++depth > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
  if (Array.isArray(value)) {
    const list: unknown[] = []
    for (let index = 0; index < value.length; index++) list.push(fromCelValue(value[index], depth))
    return list
  }
  if (value instanceof Map) return fromCelMap(value, depth)
  const converted: Record<string, unknown> = {}
  const keys = Object.keys(value)
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!
    setData(converted, key, fromCelValue((value as Record<string, unknown>)[key], depth))
  }
  return converted
}

function fromCelMap(value: Map<unknown, unknown>, depth: number): Record<string, unknown> {
  const converted: Record<string, unknown> = {}
  for (const [key, item] of value) setData(converted, String(key), fromCelValue(item, depth))
  return converted
}

/** Whether a transform's result replaces the record: a map (a plain object), not a list or a scalar. */
export function isRecordObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
  )
}
