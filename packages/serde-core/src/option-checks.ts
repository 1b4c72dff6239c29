import { describeValue, invalidConfigError } from '@x/errors'
import type { ArtifactReference } from '@x/registry-client'
import { type IdSize, type IdType, isIdType, type ReadIdSize } from '@x/wire-format'

/**
 * For format packages and adapters: an options argument, an object or undefined (→ `{}`), else INVALID_CONFIG
 * naming `what`.
 */
export function checkOptionsObject(value: unknown, what: string): Record<string, unknown> {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidConfigError(`${what} must be an object, got ${describeValue(value)}`)
  }
  return value as Record<string, unknown>
}

/**
 * For format packages and adapters: refuses option names the class does not know (a typo such as `useID` would
 * otherwise be ignored).
 */
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

/** For format packages: `value` when it is a boolean, `fallback` when undefined, else INVALID_CONFIG naming `what`. */
export function checkBoolean(value: unknown, fallback: boolean, what: string): boolean {
  if (value === undefined) return fallback
  if (typeof value !== 'boolean')
    throw invalidConfigError(`${what} must be a boolean, got ${describeValue(value)}`)
  return value
}

/** @internal A function or undefined, else INVALID_CONFIG. */
export function checkFunction(value: unknown, what: string): ((...args: never[]) => unknown) | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'function')
    throw invalidConfigError(`${what} must be a function, got ${describeValue(value)}`)
  return value as (...args: never[]) => unknown
}

/** @internal `'globalId'` (the default) or `'contentId'`, else INVALID_CONFIG. */
export function checkIdType(value: unknown, what: string): IdType {
  if (value === undefined) return 'globalId'
  if (!isIdType(value)) {
    throw invalidConfigError(`${what} must be 'globalId' or 'contentId', got ${describeValue(value)}`)
  }
  return value
}

/**
 * @internal The `idSize` option: `4` when undefined, `4` or `8` (and `'auto'` for a reader), else INVALID_CONFIG
 * naming `what`.
 */
export function checkIdSize(value: unknown, reader: true, what: string): ReadIdSize
export function checkIdSize(value: unknown, reader: false, what: string): IdSize
export function checkIdSize(value: unknown, reader: boolean, what: string): ReadIdSize {
  if (value === undefined) return 4
  if (value === 4 || value === 8 || (reader && value === 'auto')) return value
  throw invalidConfigError(
    `${what} must be 4 or 8${reader ? " or 'auto'" : value === 'auto' ? " ('auto' is for deserializers only: a writer must choose)" : ''}, got ${describeValue(value)}`,
  )
}

/** @internal A non-empty string or undefined, else INVALID_CONFIG. */
export function checkArtifactId(value: unknown, what: string): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || value === '')) {
    throw invalidConfigError(`${what} must be a non-empty string, got ${describeValue(value)}`)
  }
  return value
}

/** @internal Apicurio artifact references given with a schema to register, checked. */
export function checkReferences(value: unknown, owner: string): ArtifactReference[] | undefined {
  if (value === undefined) return undefined
  if (!Array.isArray(value)) {
    throw invalidConfigError(`${owner}: references must be an array, got ${describeValue(value)}`)
  }
  value.forEach((reference: unknown, index) => {
    const ref = reference as Partial<Record<keyof ArtifactReference, unknown>> | null
    const ok =
      typeof ref === 'object' &&
      ref !== null &&
      typeof ref.name === 'string' &&
      ref.name !== '' &&
      typeof ref.artifactId === 'string' &&
      ref.artifactId !== '' &&
      (ref.groupId === undefined || typeof ref.groupId === 'string') &&
      (ref.version === undefined || typeof ref.version === 'string')
    if (!ok) {
      throw invalidConfigError(
        `${owner}: references[${index}] must be { name, artifactId, groupId?, version? } with non-empty name and artifactId`,
      )
    }
  })
  return value as ArtifactReference[]
}
