import { invalidConfigError } from '@x/errors'
import type { IdType } from '@x/wire-format'
import { type AvroOptions, type NormalizedAvroOptions, normalizeAvroOptions } from './avro/index.js'

/** @internal A short description of an option value for a message: its type and, for primitives, the value. */
export function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  switch (typeof value) {
    case 'string':
      return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
    case 'number':
    case 'boolean':
    case 'bigint':
      return `${typeof value} ${String(value)}`
    case 'object': {
      const name = (value as object).constructor?.name
      return name === undefined || name === 'Object' ? 'an object' : `a ${name}`
    }
    default:
      return typeof value
  }
}

/** @internal Refuses option names the class does not know (a typo such as `useID` would otherwise be ignored). */
export function checkKnownKeys(
  options: Record<string, unknown>,
  known: readonly string[],
  owner: string,
): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw invalidConfigError(`${owner}: unknown option '${key}'; the options are ${known.join(', ')}`)
    }
  }
}

/** @internal `value` when it is a boolean, `fallback` when undefined, else INVALID_CONFIG. */
export function checkBoolean(value: unknown, fallback: boolean, what: string): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean')
    throw invalidConfigError(`${what} must be a boolean, got ${describe(value)}`)
  return value
}

/** @internal A function or undefined, else INVALID_CONFIG. */
export function checkFunction(value: unknown, what: string): ((...args: never[]) => unknown) | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'function')
    throw invalidConfigError(`${what} must be a function, got ${describe(value)}`)
  return value as (...args: never[]) => unknown
}

/** @internal `'globalId'` (the default) or `'contentId'`, else INVALID_CONFIG. */
export function checkIdType(value: unknown, what: string): IdType {
  if (value === undefined) return 'globalId'
  if (value !== 'globalId' && value !== 'contentId') {
    throw invalidConfigError(`${what} must be 'globalId' or 'contentId', got ${describe(value)}`)
  }
  return value
}

/** @internal An Avro schema given as an object (a union as an array) or JSON text, else INVALID_CONFIG. */
export function checkSchemaOption(value: unknown, what: string): object | string | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string') {
    try {
      JSON.parse(value)
    } catch (error) {
      throw invalidConfigError(
        `${what} must be an Avro schema object or its JSON text, got text that is not JSON (${(error as Error).message})`,
      )
    }
    return value
  }
  if (typeof value !== 'object' || value === null) {
    throw invalidConfigError(`${what} must be an Avro schema object or its JSON text, got ${describe(value)}`)
  }
  return value
}

/** @internal The `avro` option, checked by the codec's own rules, with its defaults applied. */
export function checkAvroOption(value: unknown, what: string): NormalizedAvroOptions {
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw invalidConfigError(`${what} must be an object, got ${describe(value)}`)
  }
  return normalizeAvroOptions(value as AvroOptions | undefined)
}
