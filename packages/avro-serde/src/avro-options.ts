import { describeValue, invalidConfigError } from '@x/errors'
import { type AvroOptions, type NormalizedAvroOptions, normalizeAvroOptions } from './avro/index.js'

/** @internal An Avro schema given as an object (a union as an array) or JSON text, else INVALID_CONFIG. */
export function checkSchemaOption(value: unknown, what: string): object | string | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'string') {
    try {
      JSON.parse(value)
    } catch (error) {
      throw invalidConfigError(
        `${what} must be an Avro schema object or its JSON text, got text that is not JSON (${(error as Error).message})`,
        error,
      )
    }
    return value
  }
  if (typeof value !== 'object' || value === null) {
    throw invalidConfigError(
      `${what} must be an Avro schema object or its JSON text, got ${describeValue(value)}`,
    )
  }
  return value
}

/** @internal The `avro` option, checked by the codec's own rules, with its defaults applied. */
export function checkAvroOption(value: unknown, what: string): NormalizedAvroOptions {
  if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    throw invalidConfigError(`${what} must be an object, got ${describeValue(value)}`)
  }
  return normalizeAvroOptions(value as AvroOptions | undefined)
}
