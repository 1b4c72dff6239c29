import type { ValueKind } from './logical-base.js'

/**
 * The kind of a JavaScript value, as `unions: 'auto'` tells union branches apart; `undefined` for none (e.g.
 * `undefined`, a function).
 */
export function valueKindOf(value: unknown): ValueKind | undefined {
  switch (typeof value) {
    case 'string':
      return 'string'
    case 'number':
      return 'number'
    case 'boolean':
      return 'boolean'
    case 'bigint':
      return 'bigint'
    case 'object':
      if (value === null) return 'null'
      if (Array.isArray(value)) return 'array'
      if (value instanceof Uint8Array) return 'bytes'
      if (value instanceof Date) return 'date'
      return 'object'
    default:
      return undefined
  }
}
