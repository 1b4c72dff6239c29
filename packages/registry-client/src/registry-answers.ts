import { type IdType, parseIdText, type SchemaId } from '@x/wire-format'
import { type ExactJson, isJsonObject, parseExactJson } from './exact-json.js'
import type { ArtifactCoordinates, ArtifactReference } from './types.js'

/** A 200 answer the client cannot use. Internal: mapped to the caller-facing error by the client. */
export class UnusableAnswer extends Error {
  override name = 'UnusableAnswer'
}

/** Identifiers and coordinates of a version, as `VersionMetaData` (or a registration's `version`) tells them. */
export interface VersionFacts {
  globalId: SchemaId
  contentId: SchemaId
  groupId?: string
  artifactId?: string
  version?: string
  /** The artifact type (`AVRO`, `JSON`, `PROTOBUF`, …), when the answer tells it. */
  artifactType?: string
}

function parseJson(text: string, what: string): ExactJson {
  try {
    return parseExactJson(text).value
  } catch (error) {
    throw new UnusableAnswer(`${what} is not JSON (${(error as Error).message})`)
  }
}

/**
 * An identifier from a JSON value, exact: a safe integer `number` or a `bigint` (from an integer literal beyond the
 * safe range). Outside signed 64-bit → RangeError naming the field.
 */
function idFromJson(value: ExactJson | undefined, field: IdType): SchemaId | undefined {
  if (typeof value === 'bigint') return parseIdText(value.toString(), field)
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value
  if (typeof value === 'number' && Number.isFinite(value) && Math.abs(value) >= 2 ** 63) {
    return parseIdText(BigInt(value).toString(), field)
  }
  return undefined
}

/** An identifier from a response header (`globalId` / `X-Registry-GlobalId`, likewise for `contentId`). */
export function idFromHeaders(headers: Pick<Headers, 'get'>, field: IdType): SchemaId | undefined {
  const suffix = field === 'globalId' ? 'GlobalId' : 'ContentId'
  const text = headers.get(field) ?? headers.get(`X-Registry-${suffix}`)
  // A header that is not a decimal integer tells nothing; one out of signed 64-bit is a RangeError.
  return text === null || !/^-?\d+$/.test(text.trim()) ? undefined : parseIdText(text.trim(), field)
}

function optionalString(value: ExactJson | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined
}

function versionFacts(
  object: { [key: string]: ExactJson },
  headers: Pick<Headers, 'get'> | undefined,
  what: string,
): VersionFacts {
  const globalId = idFromJson(object.globalId, 'globalId') ?? (headers && idFromHeaders(headers, 'globalId'))
  const contentId =
    idFromJson(object.contentId, 'contentId') ?? (headers && idFromHeaders(headers, 'contentId'))
  if (globalId === undefined || contentId === undefined) {
    const missing = [globalId === undefined ? 'globalId' : '', contentId === undefined ? 'contentId' : '']
    throw new UnusableAnswer(`${what} has no integer ${missing.filter(Boolean).join(' and ')}`)
  }
  const facts: VersionFacts = { globalId, contentId }
  const groupId = optionalString(object.groupId)
  const artifactId = optionalString(object.artifactId)
  const version = optionalString(object.version)
  if (groupId !== undefined) facts.groupId = groupId
  if (artifactId !== undefined) facts.artifactId = artifactId
  if (version !== undefined) facts.version = version
  const artifactType = optionalString(object.artifactType)
  if (artifactType !== undefined) facts.artifactType = artifactType
  return facts
}

/** Reads `VersionMetaData` (`GET …/versions/{expression}`). */
export function parseVersionMetadata(text: string): VersionFacts {
  const body = parseJson(text, 'The version metadata')
  if (!isJsonObject(body)) throw new UnusableAnswer('The version metadata is not a JSON object')
  return versionFacts(body, undefined, 'The version metadata')
}

/**
 * Reads a `CreateArtifactResponse` (`{ artifact, version }`). Identifiers come from `version` in the body; the
 * `globalId` / `contentId` response headers are used only for what the body lacks (the body wins).
 */
export function parseRegistrationAnswer(text: string, headers: Pick<Headers, 'get'>): VersionFacts {
  const body = parseJson(text, 'The registration answer')
  if (!isJsonObject(body)) throw new UnusableAnswer('The registration answer is not a JSON object')
  const version = isJsonObject(body.version) ? body.version : Object.create(null)
  return versionFacts(version, headers, 'The registration answer')
}

/** Reads an `ArtifactReference[]` (`GET /ids/…/{id}/references`). */
export function parseReferences(text: string): ArtifactReference[] {
  const body = parseJson(text, 'The references answer')
  if (!Array.isArray(body)) throw new UnusableAnswer('The references answer is not a JSON array')
  return body.map((item, index) => {
    if (!isJsonObject(item) || typeof item.artifactId !== 'string' || typeof item.name !== 'string') {
      throw new UnusableAnswer(
        `Reference ${index} of the references answer lacks a string artifactId or name`,
      )
    }
    const reference: ArtifactReference = { artifactId: item.artifactId, name: item.name }
    const groupId = optionalString(item.groupId)
    const version = optionalString(item.version)
    if (groupId !== undefined) reference.groupId = groupId
    if (version !== undefined) reference.version = version
    return Object.freeze(reference)
  })
}

/** Reads one page of `ArtifactSearchResults`: the total `count` and the artifact ids of the page. */
export function parseArtifactPage(text: string): { count: number; artifactIds: string[] } {
  const body = parseJson(text, 'The artifact list')
  if (!isJsonObject(body) || !Array.isArray(body.artifacts) || typeof body.count !== 'number') {
    throw new UnusableAnswer('The artifact list lacks a numeric count or an artifacts array')
  }
  const artifactIds = body.artifacts.map((item, index) => {
    if (!isJsonObject(item) || typeof item.artifactId !== 'string') {
      throw new UnusableAnswer(`Artifact ${index} of the artifact list lacks a string artifactId`)
    }
    return item.artifactId
  })
  return { count: body.count, artifactIds }
}

/**
 * Reads the first version of a `VersionSearchResults` (`GET /search/versions`) as its coordinates; `undefined` when
 * the search found none. A version without a `groupId` is in the `default` group.
 */
export function parseFirstVersion(text: string): ArtifactCoordinates | undefined {
  const body = parseJson(text, 'The version search answer')
  if (!isJsonObject(body) || !Array.isArray(body.versions)) {
    throw new UnusableAnswer('The version search answer lacks a versions array')
  }
  const first = body.versions[0]
  if (first === undefined) return undefined
  if (!isJsonObject(first) || typeof first.artifactId !== 'string' || typeof first.version !== 'string') {
    throw new UnusableAnswer(
      'The first version of the version search answer lacks a string artifactId or version',
    )
  }
  return Object.freeze({
    groupId: optionalString(first.groupId) ?? 'default',
    artifactId: first.artifactId,
    version: first.version,
  })
}
