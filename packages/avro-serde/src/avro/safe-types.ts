import type { AvscType } from './avsc-internals.js'
import { createSafeCollection } from './safe-collections.js'
import { createSafePrimitive } from './safe-primitives.js'
import { createSafeRecord } from './safe-records.js'

/**
 * The types this library substitutes for avsc's (see safe-collections.ts, safe-records.ts and safe-primitives.ts):
 * safe on hostile input, keys such as `__proto__` or `toString` never matched against `Object.prototype`, any
 * `Uint8Array` taken for bytes, and a refused value described in bounded time.
 */
export function createSafeType(schema: { type?: unknown }, opts: unknown): AvscType | undefined {
  if (schema.type === 'record' || schema.type === 'error') return createSafeRecord(schema, opts)
  return createSafeCollection(schema, opts) ?? createSafePrimitive(schema, opts)
}
