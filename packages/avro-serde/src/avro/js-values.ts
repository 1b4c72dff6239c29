/**
 * Predicates and accessors for the JavaScript values a user passes in to be written as Avro maps, records, bytes and
 * fixed (plain objects, `Map`s, byte arrays).
 */

/** The one key that a plain assignment (`obj[key] = v`) does not store as an own property. */
export const DANGEROUS_KEY = '__proto__'

/** A value a map or record writer takes: an object that is not an array, a byte array or a Date. */
export function isObjectValue(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !ArrayBuffer.isView(value) &&
    !(value instanceof Date)
  )
}

const objectProto = Object.prototype as unknown as Record<string, unknown>

/**
 * True for a name that a plain object inherits from `Object.prototype` (`constructor`, `toString`, `valueOf`,
 * `__proto__`, …): a record field of that name must not be read through the prototype chain blindly.
 */
export function isPrototypeName(name: string): boolean {
  return name in objectProto
}

/**
 * The value of record field `name` in `value`, never a member of `Object.prototype`: for a field named
 * `constructor` or `toString`, a plain object without that own property has no value (its default applies), while a
 * class's getter or method of that name (but `constructor`, the class itself) still counts. `__proto__` and
 * `constructor` fields only from own properties.
 */
export function fieldValue(value: Record<string, unknown>, name: string): unknown {
  if (!(name in objectProto)) return value[name]
  if (Object.hasOwn(value, name)) return value[name]
  // `__proto__` only as an own property; an inherited `constructor` is the object's class, never a field value.
  if (name === DANGEROUS_KEY || name === 'constructor') return undefined
  const found = value[name]
  return found === objectProto[name] ? undefined : found
}

/** A JavaScript `Map`, which an Avro map also takes (string keys only). */
export function isMap(value: unknown): value is Map<unknown, unknown> {
  return value instanceof Map
}

/** `value` as a `Buffer` (a view of the same memory for any `Uint8Array`), or undefined. */
export function asBuffer(value: unknown): Buffer | undefined {
  if (Buffer.isBuffer(value)) return value
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  return undefined
}

/** avsc's writers throw on a value that does not match; the codec then explains it with paths. */
export function invalid(value: unknown, type: { typeName: string }): TypeError {
  return new TypeError(`invalid ${type.typeName}: ${typeof value}`)
}
