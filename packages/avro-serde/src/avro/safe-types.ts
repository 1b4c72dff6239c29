import type { AvscType } from './avsc-internals.js'
import { createSafeCollection } from './safe-collections.js'
import { createSafeRecord } from './safe-records.js'

/**
 * The types this library substitutes for avsc's array, map, record, bytes and fixed types (see safe-collections.ts
 * and safe-records.ts): safe on hostile input, `__proto__` kept as an own property, any `Uint8Array` taken for
 * bytes.
 */
export function createSafeType(schema: { type?: unknown }, opts: unknown): AvscType | undefined {
  if (schema.type === 'record' || schema.type === 'error') return createSafeRecord(schema, opts)
  return createSafeCollection(schema, opts)
}
