import { type AvscType, defineOwn } from './avsc-internals.js'
import { BuiltinLogicalType } from './logical-base.js'

/** Makes the rule record's value of an integral double (`RuleDouble` of `@x/rules`), given by the serde core. */
export type RuleDoubleOf = (value: number) => unknown

/** The brand of `RuleDouble` of `@x/rules`, a registered symbol. */
const RULE_DOUBLE = Symbol.for('@x/rules.RuleDouble')

function isRuleDouble(value: unknown): value is { value: number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [RULE_DOUBLE]?: unknown })[RULE_DOUBLE] === true
  )
}

/**
 * The value data-contract rules see for an Avro value of `type`: what Apicurio's Java serde 3.3 hands its rules for
 * the same `GenericRecord` (the JSON of its `toString()`, read back by Jackson), which is also what the registry's
 * execute endpoint reads when sent that JSON. A record holds its declared fields in schema order; an `int` or a
 * `long` is an integer (a `bigint` beyond ±(2^53 − 1)); a `double` or a `float` a double (`double(5)` for an integral
 * one, so that CEL types it `double`; a `float` as the shortest decimal that reads back as the same float, as Java's
 * `Float.toString` writes it), `NaN` and the infinities as the text `"NaN"`, `"Infinity"`, `"-Infinity"`; `bytes` an
 * ISO-8859-1 string (one character a byte); a `fixed` a list of its bytes as signed integers (`-128` to `127`, as
 * Java's `GenericFixed#toString` writes it); an enum its symbol; a union the value of its branch; a logical type
 * its underlying value (`timestamp-millis` and `local-timestamp-millis` the epoch-millisecond long, `date` the
 * epoch-day int, `decimal` its bytes or fixed, `uuid` its text). A value the type does not take is left as it is.
 */
export function toRuleValue(type: AvscType, value: unknown, double: RuleDoubleOf): unknown {
  if (value === null || value === undefined) return value
  if (type instanceof BuiltinLogicalType) {
    let underlying: unknown
    try {
      underlying = type._toValue(value)
    } catch {
      return value
    }
    return toRuleValue(type.underlyingType, underlying, double)
  }
  switch (type.typeName) {
    case 'long':
    case 'abstract:long':
      return typeof value === 'bigint' && value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER
        ? Number(value)
        : value
    case 'double':
      return typeof value === 'number' ? doubleValue(value, double) : value
    case 'float':
      return typeof value === 'number' ? doubleValue(shortestFloat(value), double) : value
    case 'bytes':
      return value instanceof Uint8Array ? latin1(value) : value
    case 'fixed':
      return value instanceof Uint8Array ? signedBytes(value) : value
    case 'record':
    case 'error':
      return toRuleFields(type, value, undefined, double)
    case 'array':
      return Array.isArray(value) ? value.map((item) => toRuleValue(type.itemsType!, item, double)) : value
    case 'map':
      return toRuleMap(type, value, double)
    case 'union:unwrapped':
      return toRuleUnion(type, value, double)
    case 'union:wrapped':
      return toRuleWrapped(type, value, double)
    default:
      return value
  }
}

/**
 * The declared fields of a record value as the rules see them (see {@link toRuleValue}), in schema order; with
 * `fields`, only those of them (the ones the rules read). Only the value's own fields are read.
 */
export function toRuleFields(
  type: AvscType,
  value: unknown,
  fields: readonly string[] | undefined,
  double: RuleDoubleOf,
): unknown {
  if (!isObject(value)) return value
  const out: Record<string, unknown> = {}
  if (fields !== undefined) {
    const byName = fieldsByName(type)
    for (const name of fields) {
      const field = byName.get(name)
      const item = field === undefined || !Object.hasOwn(value, name) ? undefined : value[name]
      if (item !== undefined) setOwn(out, name, toRuleValue(field!.type, item, double))
    }
    return out
  }
  for (const field of type.fields!) {
    const item = Object.hasOwn(value, field.name) ? value[field.name] : undefined
    if (item !== undefined) setOwn(out, field.name, toRuleValue(field.type, item, double))
  }
  return out
}

/** A record type's fields by name, made once per type. */
const FIELDS_BY_NAME = new WeakMap<AvscType, Map<string, { readonly type: AvscType }>>()

function fieldsByName(type: AvscType): Map<string, { readonly type: AvscType }> {
  let byName = FIELDS_BY_NAME.get(type)
  if (byName === undefined) {
    byName = new Map(type.fields!.map((field) => [field.name, field]))
    FIELDS_BY_NAME.set(type, byName)
  }
  return byName
}

function doubleValue(value: number, double: RuleDoubleOf): unknown {
  if (!Number.isFinite(value)) return String(value)
  return Number.isInteger(value) ? double(value) : value
}

/** The shortest decimal that reads back as the same 32-bit float (`1.1` for the float nearest 1.1). */
function shortestFloat(value: number): number {
  if (!Number.isFinite(value) || Number.isInteger(value)) return value
  const single = Math.fround(value)
  for (let digits = 1; digits < 9; digits++) {
    const candidate = Number(single.toPrecision(digits))
    if (Math.fround(candidate) === single) return candidate
  }
  return single
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
}

function signedBytes(bytes: Uint8Array): number[] {
  const out: number[] = new Array(bytes.length)
  for (let index = 0; index < bytes.length; index++) out[index] = (bytes[index]! << 24) >> 24
  return out
}

function toRuleMap(type: AvscType, value: unknown, double: RuleDoubleOf): unknown {
  const out: Record<string, unknown> = {}
  if (value instanceof Map) {
    for (const [key, item] of value) setOwn(out, String(key), toRuleValue(type.valuesType!, item, double))
    return out
  }
  if (!isObject(value)) return value
  for (const key of Object.keys(value)) setOwn(out, key, toRuleValue(type.valuesType!, value[key], double))
  return out
}

function toRuleUnion(type: AvscType, value: unknown, double: RuleDoubleOf): unknown {
  for (const branch of type.types!) if (branch.isValid(value)) return toRuleValue(branch, value, double)
  return value
}

function toRuleWrapped(type: AvscType, value: unknown, double: RuleDoubleOf): unknown {
  if (!isObject(value)) return value
  const keys = Object.keys(value)
  if (keys.length !== 1) return value
  const branch = type.types!.find((candidate) => candidate.branchName === keys[0])
  return branch === undefined ? value : toRuleValue(branch, value[keys[0]!], double)
}

/**
 * The record a data-contract transform gave back, as values this schema's writer takes: the inverse of
 * {@link toRuleValue}, led by the schema. An ISO-8859-1 string (or a list of byte values) becomes a `Buffer` for
 * `bytes` and `fixed`; a double (`RuleDouble` included) or the text `"NaN"`, `"Infinity"`, `"-Infinity"` a
 * number for `double` and `float`; a logical type's underlying value (the epoch-millisecond long of a
 * `timestamp-millis`, the bytes of a `decimal`) the value the type's reader gives (a `Date`, decimal text), else a
 * value the type takes as it is (RFC 3339 text becomes a `Date`); a `bigint` (a long beyond 2^53) stays one, an
 * integral `number` beyond 2^53 (as JSONata computes a long, in doubles) becomes that `bigint`, and integer text (as
 * proto3's JSON writes 64-bit integers) the number or `bigint` it spells. A value of a union without wrapping goes
 * to the first branch that takes it as it is, else the first that takes it converted; a wrapped union's
 * `{ "<branch>": value }` names its branch. Anything that fits none of these is left as it is (a `RuleDouble` as its
 * number), for the writer to refuse with its path.
 */
export function fromRuleValue(type: AvscType, value: unknown): unknown {
  if (value === null || value === undefined) return value
  if (type instanceof BuiltinLogicalType) return logicalValue(type, value)
  switch (type.typeName) {
    case 'bytes':
    case 'fixed':
      return bytesValue(value)
    case 'double':
    case 'float':
      return doubleOf(value)
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
      return isRuleDouble(value) ? value.value : value
  }
}

/** Bytes from an ISO-8859-1 string (one character a byte) or a list of byte values (signed or not). */
function bytesValue(value: unknown): unknown {
  if (typeof value === 'string') return Buffer.from(value, 'latin1')
  if (Array.isArray(value) && value.every((item) => Number.isInteger(item) && item >= -128 && item <= 255))
    return Buffer.from(value.map((item: number) => item & 0xff))
  return value
}

const NON_FINITE: Record<string, number> = { NaN: Number.NaN, Infinity: Infinity, '-Infinity': -Infinity }

/** A double's number: a `RuleDouble`'s value, and the texts Java writes for `NaN` and the infinities. */
function doubleOf(value: unknown): unknown {
  if (isRuleDouble(value)) return value.value
  if (typeof value === 'string' && Object.hasOwn(NON_FINITE, value)) return NON_FINITE[value]
  return value
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
  )
}

/**
 * A long as the writer takes it: integer text becomes a number while safe, a bigint beyond; an integral number
 * beyond 2^53 becomes the bigint of its value (what JSONata, computing in doubles as the registry's does, gave).
 */
function longValue(value: unknown): unknown {
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value))
    return BigInt(value)
  if (typeof value === 'string' && /^-?[0-9]+$/.test(value)) {
    const exact = BigInt(value)
    return exact >= Number.MIN_SAFE_INTEGER && exact <= Number.MAX_SAFE_INTEGER ? Number(exact) : exact
  }
  return value
}

/**
 * A logical type's value: its underlying value (as the rules see it) read as the type's reader reads it; else as it
 * is when the type takes it; else the first conversion the type takes.
 */
function logicalValue(type: BuiltinLogicalType, value: unknown): unknown {
  const underlying = fromRuleValue(type.underlyingType, value)
  if (type.underlyingType.isValid(underlying)) {
    try {
      return type._fromValue(underlying)
    } catch {
      // not a value of the type after all: tried as it is below
    }
  }
  if (type.problem(value) === undefined) return value
  const candidates: unknown[] = []
  if (typeof value === 'string' && type.kinds.includes('date')) candidates.push(new Date(value))
  if (type.kinds.includes('bigint')) candidates.push(longValue(value))
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
