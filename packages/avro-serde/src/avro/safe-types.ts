import type { AvscType } from './avsc-internals.js'
import { createSafeBytes } from './safe-bytes.js'
import { createSafeCollection } from './safe-collections.js'
import { createSafeEnum } from './safe-enum.js'
import { createSafePrimitive } from './safe-primitives.js'
import { createSafeRecord } from './safe-records.js'

/**
 * The types this library substitutes for avsc's (see safe-primitives.ts, safe-enum.ts, safe-bytes.ts,
 * safe-collections.ts and safe-records.ts): safe on hostile input, keys such as `__proto__` or `toString` never
 * matched against `Object.prototype`, any `Uint8Array` taken for bytes, and a refused value described in bounded
 * time.
 */
export function createSafeType(schema: { type?: unknown }, opts: unknown): AvscType | undefined {
  switch (schema.type) {
    case 'record':
    case 'error':
      return createSafeRecord(schema, opts)
    case 'enum':
      return createSafeEnum(schema, opts)
    case 'array':
    case 'map':
      return createSafeCollection(schema, opts)
    case 'bytes':
    case 'fixed':
      return createSafeBytes(schema, opts)
    default:
      return createSafePrimitive(schema)
  }
}
