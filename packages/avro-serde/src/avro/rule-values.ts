import { type AvscType, defineOwn } from './avsc-internals.js'
import { BuiltinLogicalType } from './logical-base.js'

/**
 * The record a data-contract transform gave back, as values this schema's writer takes. The rules see a record as
 * `toRuleRecord` of `@x/rules` makes it (JSON-shaped); this is its inverse, led by the schema: base64 text
 * becomes a `Buffer` for `bytes` and `fixed`, RFC 3339 text a `Date` for `timestamp-millis`,
 * `local-timestamp-millis` and `date`; a `bigint` (a long beyond 2^53) stays one, and integer text (as proto3's
 * JSON writes 64-bit integers) becomes the number or `bigint` it spells. A `number` beyond 2^53 is left for the
 * writer to refuse: it may have been rounded (JSONata reads a `bigint` as the nearest number). A value of a union
 * without wrapping goes to the first branch that takes it as it is, else the first that takes it converted; a
 * wrapped union's `{ "<branch>": value }` names its branch. Anything that fits none of these is left as it is,
 * for the writer to refuse with its path.
 */
export function fromRuleValue(type: AvscType, value: unknown): unknown {
  if (value === null || value === undefined) return value
  if (type instanceof BuiltinLogicalType) return logicalValue(type, value)
  switch (type.typeName) {
    case 'bytes':
    case 'fixed':
      return typeof value === 'string' ? Buffer.from(value, 'base64') : value
    case 'long':
    case 'abstract:long':
      return longValue(value)
    case 'record':
    case 'error':
      return recordValue(type, value)
    case 'array':
      return Array.isArray(value) ? value.map((item) => fromRuleValue(type.itemsType!, item)) : value
    case 'map':
      return mapValue(type, value)
    case 'union:unwrapped':
      return unwrappedUnionValue(type, value)
    case 'union:wrapped':
      return wrappedUnionValue(type, value)
    default:
      return value
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
  )
}

/** A long as the writer takes it: integer text becomes a number while safe, a bigint beyond. */
function longValue(value: unknown): unknown {
  if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) {
    const exact = BigInt(value)
    return exact >= Number.MIN_SAFE_INTEGER && exact <= Number.MAX_SAFE_INTEGER ? Number(exact) : exact
  }
  return value
}

/** A logical type's value: as it is when the type takes it, else the first conversion the type takes. */
function logicalValue(type: BuiltinLogicalType, value: unknown): unknown {
  if (type.problem(value) === undefined) return value
  const candidates: unknown[] = []
  if (typeof value === 'string' && type.kinds.includes('date')) candidates.push(new Date(value))
  if (type.kinds.includes('bigint')) candidates.push(longValue(value))
  const underlying = type.underlyingType
  if (underlying !== undefined) candidates.push(fromRuleValue(underlying, value))
  for (const candidate of candidates) if (type.problem(candidate) === undefined) return candidate
  return value
}

/** Sets an own data property: assigned, but defined for `__proto__` (whose assignment would set the prototype). */
function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') defineOwn(out, key, value)
  else out[key] = value
}

/** The record's own fields converted (a field named `__proto__` stays an own data field, as every key). */
function recordValue(type: AvscType, value: unknown): unknown {
  if (!isObject(value)) return value
  const out: Record<string, unknown> = { ...value }
  for (const field of type.fields!) {
    if (Object.hasOwn(value, field.name))
      setOwn(out, field.name, fromRuleValue(field.type, value[field.name]))
  }
  return out
}

/** The map's own keys, each an own data key of the result (`__proto__` and `constructor` included). */
function mapValue(type: AvscType, value: unknown): unknown {
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) setOwn(out, key, fromRuleValue(type.valuesType!, value[key]))
  return out
}

function unwrappedUnionValue(type: AvscType, value: unknown): unknown {
  const branches = type.types!
  for (const branch of branches) if (branch.isValid(value)) return value
  for (const branch of branches) {
    const converted = fromRuleValue(branch, value)
    if (branch.isValid(converted)) return converted
  }
  return value
}

function wrappedUnionValue(type: AvscType, value: unknown): unknown {
  if (!isObject(value)) return value
  const keys = Object.keys(value)
  if (keys.length !== 1) return value
  const name = keys[0]!
  const branch = type.types!.find((candidate) => candidate.branchName === name)
  return branch === undefined ? value : { [name]: fromRuleValue(branch, value[name]) }
}
