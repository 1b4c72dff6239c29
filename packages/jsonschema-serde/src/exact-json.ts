/**
 * JavaScript values to JSON text without rounding 64-bit integers, and the bigint-free view a validator needs. Java
 * writes a `long` as plain integer text; a `bigint` is written here as its exact digits. Reading is
 * `parseExactJson` of `@x/registry-client/json` (one exact-JSON reader for the client and this serde).
 */

/** A marker no JSON producer writes: NUL, a per-process random tag, then the digits. */
const MARKER = `\u0000bigint-${Math.random().toString(36).slice(2)}:`
const MARKED = new RegExp(`"\\\\u0000bigint-${MARKER.slice(8, -1)}:(-?[0-9]+)"`, 'g')

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? MARKER + value.toString() : value
}

/**
 * `JSON.stringify(value)`, but a `bigint` anywhere is written as its exact integer digits (JSON.stringify refuses
 * bigints). Returns `undefined` where `JSON.stringify` does (a bare `undefined`, a function, a symbol).
 */
export function stringifyExact(value: unknown): string | undefined {
  try {
    return JSON.stringify(value)
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error
  }
  return stringifyWithBigInts(value)
}

/** `JSON.stringify(value)` for a value known to hold a `bigint`: each written as its exact integer digits. */
export function stringifyWithBigInts(value: unknown): string | undefined {
  return JSON.stringify(value, bigintReplacer)?.replace(MARKED, '$1')
}

/** True for a value that holds a `bigint` anywhere (own enumerable properties, arrays), cycles ignored. */
export function containsBigInt(value: unknown, seen: Set<object> = new Set()): boolean {
  if (typeof value === 'bigint') return true
  if (typeof value !== 'object' || value === null || seen.has(value)) return false
  seen.add(value)
  if (Array.isArray(value)) return value.some((item) => containsBigInt(item, seen))
  for (const key of Object.keys(value))
    if (containsBigInt((value as Record<string, unknown>)[key], seen)) return true
  return false
}

/**
 * A copy of `value` with every `bigint` as the nearest `number` (for a JSON Schema validator, which knows only
 * numbers; `type: integer`, `minimum` and the like then see the value's magnitude). Objects and arrays are copied
 * only along the paths that hold a bigint.
 */
export function bigintsAsNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value)
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item = bigintsAsNumbers(value[i])
      if (item !== value[i]) {
        copy ??= value.slice()
        copy[i] = item
      }
    }
    return copy ?? value
  }
  let copy: Record<string, unknown> | undefined
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    const item = bigintsAsNumbers(record[key])
    if (item !== record[key]) {
      copy ??= Object.assign(Object.create(Object.getPrototypeOf(record)), record)
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true })
    }
  }
  return copy ?? value
}
