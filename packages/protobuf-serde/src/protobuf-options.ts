import { describeValue, invalidConfigError } from '@x/errors'
import type { Framing } from './framing.js'
import type { ReadOptions } from './protobuf-codec.js'

/** @internal `'apicurio'` (the default) or `'confluent'`, else INVALID_CONFIG. */
export function checkFraming(value: unknown, owner: string): Framing {
  if (value === undefined) return 'apicurio'
  if (value !== 'apicurio' && value !== 'confluent') {
    throw invalidConfigError(
      `${owner}: framing must be 'apicurio' or 'confluent', got ${describeValue(value)}`,
    )
  }
  return value
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T, what: string): T {
  if (value === undefined) return fallback
  if (!allowed.includes(value as T)) {
    throw invalidConfigError(
      `${what} must be ${allowed.map((a) => `'${a}'`).join(' or ')}, got ${describeValue(value)}`,
    )
  }
  return value as T
}

/** @internal The read options (`longs`, `enums`, `defaults`, `unknownFields`), checked, with their defaults. */
export function checkReadOptions(raw: Record<string, unknown>, owner: string): ReadOptions {
  const defaults = raw.defaults ?? true
  if (typeof defaults !== 'boolean') {
    throw invalidConfigError(`${owner}: defaults must be a boolean, got ${describeValue(defaults)}`)
  }
  return {
    longs: oneOf(raw.longs, ['auto', 'number', 'bigint'], 'auto', `${owner}: longs`),
    enums: oneOf(raw.enums, ['name', 'number'], 'name', `${owner}: enums`),
    defaults,
    unknownFields: oneOf(raw.unknownFields, ['drop', 'keep'], 'drop', `${owner}: unknownFields`),
  }
}

/** @internal A `.proto` text given as `schema`, else INVALID_CONFIG. */
export function checkProtoText(value: unknown, owner: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalidConfigError(
      `${owner}: schema must be the .proto text to register, got ${describeValue(value)}`,
    )
  }
  return value
}
