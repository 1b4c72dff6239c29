/** Predicates and accessors for the JavaScript values written as Avro maps, records, bytes and fixed. */

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

/** The value of record field `name` in `value`; a `__proto__` field only from an own property. */
export function fieldValue(value: Record<string, unknown>, name: string): unknown {
  return name === DANGEROUS_KEY ? (Object.hasOwn(value, name) ? value[name] : undefined) : value[name]
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
