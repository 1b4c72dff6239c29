import { describeValue, invalidConfigError } from '@x/errors'
import type { ArtifactReference, IfExists } from './types.js'

/** The three `ifExists` values Apicurio knows (what a registration does when the artifact exists). */
export const IF_EXISTS: readonly IfExists[] = Object.freeze([
  'FAIL',
  'CREATE_VERSION',
  'FIND_OR_CREATE_VERSION',
])

/** @throws TypeError (code `INVALID_CONFIG`) unless `value` is a non-empty string. */
export function requireText(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw invalidConfigError(`${name} must be a non-empty string, got ${describeValue(value)}`)
  }
  return value
}

/** @throws TypeError (code `INVALID_CONFIG`) unless `value` is one of the `ifExists` values. */
export function requireIfExists(value: unknown): IfExists {
  if (!IF_EXISTS.includes(value as IfExists)) {
    throw invalidConfigError(`ifExists must be one of ${IF_EXISTS.join(', ')}, got ${describeValue(value)}`)
  }
  return value as IfExists
}

/** `true` only for `true`; `undefined` is `false`. @throws TypeError for anything but a boolean. */
export function optionalFlag(name: string, value: unknown): boolean {
  if (value !== undefined && typeof value !== 'boolean') {
    throw invalidConfigError(`${name} must be a boolean, got ${describeValue(value)}`)
  }
  return value === true
}

/** Copies and checks the references of a registration. @throws TypeError naming the wrong field. */
export function requireReferences(value: unknown): ArtifactReference[] {
  if (value === undefined) return []
  if (!Array.isArray(value))
    throw invalidConfigError(`references must be an array, got ${describeValue(value)}`)
  return value.map((item: unknown, index) => {
    const where = `references[${index}]`
    if (typeof item !== 'object' || item === null) {
      throw invalidConfigError(
        `${where} must be an object { artifactId, name, groupId?, version? }, got ${describeValue(item)}`,
      )
    }
    const { groupId, artifactId, version, name } = item as Record<string, unknown>
    const reference: ArtifactReference = {
      artifactId: requireText(`${where}.artifactId`, artifactId),
      name: requireText(`${where}.name`, name),
    }
    if (groupId !== undefined) reference.groupId = requireText(`${where}.groupId`, groupId)
    if (version !== undefined) reference.version = requireText(`${where}.version`, version)
    return Object.freeze(reference)
  })
}

/**
 * The text to register: a string verbatim, an object (or array: an Avro union) as compact `JSON.stringify`.
 * @throws TypeError for an empty string, another type, or an object that cannot be serialized.
 */
export function schemaText(schema: unknown): string {
  if (typeof schema === 'string') {
    if (schema.trim() === '') throw invalidConfigError('schema must not be empty')
    return schema
  }
  if (typeof schema === 'object' && schema !== null) {
    try {
      return JSON.stringify(schema)
    } catch (error) {
      throw invalidConfigError(`schema must be JSON-serializable: ${(error as Error).message}`)
    }
  }
  throw invalidConfigError(
    `schema must be a string or an object (a schema as JSON), got ${describeValue(schema)}`,
  )
}

/** The artifact types Apicurio Registry 3 knows. */
export const ARTIFACT_TYPES: readonly string[] = [
  'AVRO',
  'PROTOBUF',
  'JSON',
  'OPENAPI',
  'ASYNCAPI',
  'GRAPHQL',
  'KCONNECT',
  'WSDL',
  'XSD',
  'XML',
]

/** @throws TypeError (code `INVALID_CONFIG`) unless `value` is undefined (→ `AVRO`) or an artifact type. */
export function requireArtifactType(value: unknown): string {
  if (value === undefined) return 'AVRO'
  if (typeof value !== 'string' || !ARTIFACT_TYPES.includes(value)) {
    throw invalidConfigError(
      `artifactType must be one of ${ARTIFACT_TYPES.join(', ')}, got ${describeValue(value)}`,
    )
  }
  return value
}

/** The content type for a registration: the given one, else the artifact type's usual one. */
export function contentTypeFor(artifactType: string, value: unknown): string {
  if (value === undefined) return artifactType === 'PROTOBUF' ? 'application/x-protobuf' : 'application/json'
  return requireText('contentType', value)
}
