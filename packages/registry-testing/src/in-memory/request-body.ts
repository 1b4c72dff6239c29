import { AvroSchemaError, parseAvro } from '@x/compatibility/avro'
import { parseExactJson, parseJsonTree } from '@x/registry-client/json'
import { ruleRecordOfJson } from '@x/rules'
import type { StoredReference } from './content.js'
import { rawGroupId } from './params.js'
import { badRequest, missingParameter, RegistryProblem } from './problems.js'
import type { EditableMetaData } from './storage.js'

// Reading the JSON bodies of `createArtifact` and `createArtifactVersion` as Apicurio 3.3 reads them.

/** A `CreateVersion` body (or `CreateArtifact.firstVersion`), checked. */
export interface VersionRequest extends EditableMetaData {
  /** The requested version; absent means the registry names it. */
  readonly version?: string | undefined
  readonly content: string
  readonly contentType: string
  readonly references: readonly StoredReference[]
}

/** A `CreateArtifact` body, checked. */
export interface ArtifactRequest extends EditableMetaData {
  /** Absent (or empty) means the registry generates a UUID. */
  readonly artifactId?: string | undefined
  readonly artifactType?: string | undefined
  readonly firstVersion?: VersionRequest | undefined
}

/** The artifact types Apicurio 3.3.3 knows (`GET /admin/config/artifactTypes`). */
export const ARTIFACT_TYPES: readonly string[] = [
  'PROTOBUF',
  'OPENAPI',
  'ASYNCAPI',
  'JSON',
  'AVRO',
  'GRAPHQL',
  'KCONNECT',
  'WSDL',
  'XSD',
  'XML',
  'AGENT_CARD',
  'MCP_TOOL',
  'ICEBERG_TABLE',
  'ICEBERG_VIEW',
  'OPENRPC',
  'MODEL_SCHEMA',
  'PROMPT_TEMPLATE',
  'ODCS_CONTRACT',
  'THRIFT',
]

/** A JSON object of a request body. */
export type Json = Record<string, unknown>

/**
 * Parses a JSON request body. Malformed JSON is Apicurio's bare-text 400 (`Not able to deserialize data
 * provided.`), which the router writes as is; an empty body is a missing `body`. With `exact`, integers beyond
 * 2^53 are read as `bigint`s (`parseExactJson`), as the registry's Jackson reads them into longs.
 */
export function parseBody(text: string, exact = false): Json {
  if (text.trim() === '') throw missingParameter('body')
  let value: unknown
  try {
    value = exact ? parseExactJson(text).value : JSON.parse(text)
  } catch {
    throw new RegistryProblem(400, 'BadRequestException', 'Not able to deserialize data provided.', {
      plain: true,
    })
  }
  if (!isObject(value)) throw badRequest('BadRequestException', 'Not able to deserialize data provided.')
  return value
}

/**
 * Parses the JSON body of the contract execute and migrate endpoints as the registry's Jackson reads it: integers
 * exact (beyond 2^53 as `bigint`s) and a number written with a fraction or an exponent (`5.0`) a double, a
 * `RuleDouble` of `@x/rules` when integral, so that CEL binds it as a `double` (see `ruleRecordOfJson`). A body
 * that repeats a name is read as `parseBody` reads it (the last one wins, as in Jackson).
 */
export function parseRecordBody(text: string): Json {
  if (text.trim() === '') throw missingParameter('body')
  let value: unknown
  try {
    value = ruleRecordOfJson(parseJsonTree(text))
  } catch {
    return parseBody(text, true)
  }
  if (!isObject(value)) throw badRequest('BadRequestException', 'Not able to deserialize data provided.')
  return value
}

export function readArtifactRequest(body: Json): ArtifactRequest {
  const firstVersion = isObject(body.firstVersion)
    ? readVersionRequest(body.firstVersion, 'body.firstVersion')
    : undefined
  return {
    artifactId: text(body.artifactId),
    artifactType: text(body.artifactType),
    name: text(body.name),
    description: text(body.description),
    labels: labels(body.labels),
    firstVersion,
  }
}

export function readVersionRequest(body: Json, path: string): VersionRequest {
  if (!isObject(body.content)) throw missingParameter(`${path}.content`)
  const content = text(body.content.content)
  if (content === undefined) throw missingParameter(`${path}.content.content`)
  const contentType = text(body.content.contentType)
  if (contentType === undefined) throw missingParameter(`${path}.content.contentType`)
  if (content === '') throw badRequest('BadRequestException', 'Empty content is not allowed.')
  const decoded =
    body.content.encoding === 'base64' ? Buffer.from(content, 'base64').toString('utf8') : content
  return {
    version: text(body.version),
    content: decoded,
    contentType,
    references: references(body.content.references, `${path}.content.references`),
    name: text(body.name),
    description: text(body.description),
    labels: labels(body.labels),
  }
}

/**
 * The references of a version. Apicurio 3.3 fails a reference without `artifactId`, `version` or `name` only when it
 * stores it (a 500 `Invalid reference`); InMemoryRegistry refuses it up front with a 400 naming the field.
 */
function references(value: unknown, path: string): StoredReference[] {
  if (!Array.isArray(value)) return []
  return value.filter(isObject).map((r, i) => {
    const groupId = text(r.groupId)
    const reference = {
      groupId: groupId === undefined ? null : rawGroupId(groupId),
      artifactId: text(r.artifactId),
      version: text(r.version),
      name: text(r.name),
    }
    for (const field of ['artifactId', 'version', 'name'] as const) {
      if (reference[field] === undefined) throw missingParameter(`${path}[${i}].${field}`)
    }
    return reference as StoredReference
  })
}

/**
 * The artifact type of a request: the given one, else one discovered from the content (InMemoryRegistry discovers
 * AVRO, JSON, OPENAPI, ASYNCAPI and PROTOBUF), else 400. A type the registry does not know is a 400
 * `InvalidArtifactTypeException` naming the known ones (Apicurio 3.3 answers it with a 500 `No such artifact type
 * provider`; a malformed request is never a 500 here).
 */
export function artifactTypeOf(request: ArtifactRequest): string {
  if (request.artifactType !== undefined && request.artifactType !== '') {
    if (!ARTIFACT_TYPES.includes(request.artifactType)) {
      throw badRequest(
        'InvalidArtifactTypeException',
        `Unknown artifact type '${request.artifactType}': expected one of ${ARTIFACT_TYPES.join(', ')}.`,
      )
    }
    return request.artifactType
  }
  if (request.firstVersion === undefined) throw missingParameter('body.artifactType')
  const discovered = discoverType(request.firstVersion.content)
  if (discovered === undefined) {
    throw badRequest('InvalidArtifactTypeException', 'Failed to discover artifact type from content.')
  }
  return discovered
}

function discoverType(content: string): string | undefined {
  let json: unknown
  try {
    json = JSON.parse(content)
  } catch {
    return /^\s*(syntax|package|message|import)\b/m.test(content) ? 'PROTOBUF' : undefined
  }
  if (isObject(json) && ('openapi' in json || 'swagger' in json)) return 'OPENAPI'
  if (isObject(json) && 'asyncapi' in json) return 'ASYNCAPI'
  try {
    parseAvro(content)
    return 'AVRO'
  } catch (error) {
    if (error instanceof AvroSchemaError && error.exception === 'AvroTypeException') return 'AVRO'
  }
  if (isObject(json) && ('$schema' in json || 'properties' in json || json.type === 'object')) return 'JSON'
  return undefined
}

/** A string member; Jackson also turns a number or boolean into its text. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return undefined
}

function labels(value: unknown): Record<string, string> | undefined {
  if (!isObject(value) || Object.keys(value).length === 0) return undefined
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, String(v)]))
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
