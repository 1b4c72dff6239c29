import { SerdeError } from './serde-error.js'

/** Which kind of registry identifier a lookup used. */
export type IdKind = 'globalId' | 'contentId'

/** What a 404 from the registry was about: an artifact (by group and id) or a schema identifier. */
export interface SchemaNotFoundInit {
  groupId?: string
  artifactId?: string
  /** The version expression that was asked for, when not the latest. */
  version?: string
  idType?: IdKind
  idValue?: number | bigint
  /** The registry base URL (without credentials). */
  url?: string
  status?: number
  cause?: unknown
  message?: string
}

function describeNotFound(init: SchemaNotFoundInit): string {
  if (init.idType !== undefined) return `Schema not found: ${init.idType} ${String(init.idValue)}`
  const version = init.version === undefined ? '' : ` version '${init.version}'`
  return `Schema not found: artifact '${init.artifactId ?? ''}'${version} in group '${init.groupId ?? ''}'`
}

/**
 * The registry has no such artifact or schema identifier (HTTP 404). Artifact lookups set `groupId` and
 * `artifactId`; identifier lookups set `idType` and `idValue`. Common causes: a misspelled or wrongly cased
 * artifact id, another group than the client's, a schema never registered, or producer and consumer disagreeing
 * on `useId`.
 */
export class SchemaNotFoundError extends SerdeError {
  override name = 'SchemaNotFoundError'
  declare readonly groupId?: string
  declare readonly artifactId?: string
  declare readonly version?: string
  declare readonly idType?: IdKind
  declare readonly idValue?: number | bigint
  declare readonly url?: string
  declare readonly status?: number

  constructor(init: SchemaNotFoundInit) {
    super('SCHEMA_NOT_FOUND', init.message ?? describeNotFound(init), { cause: init.cause })
    if (init.groupId !== undefined) this.groupId = init.groupId
    if (init.artifactId !== undefined) this.artifactId = init.artifactId
    if (init.version !== undefined) this.version = init.version
    if (init.idType !== undefined) this.idType = init.idType
    if (init.idValue !== undefined) this.idValue = init.idValue
    if (init.url !== undefined) this.url = init.url
    this.status = init.status ?? 404
  }
}

/** Where a registry request failed and why. */
export interface RegistryConnectionInit {
  /** The registry base URL (without credentials). */
  url: string
  /** The HTTP status, when the registry answered (a non-retried error status, or the last retried one). */
  status?: number
  cause?: unknown
  message?: string
}

/**
 * The registry could not be used: a transport failure (refused, reset, timed out), retries used up on 429, 502,
 * 503 or 504, another error status on a lookup (`status` set), or a 200 answer that cannot be used. `cause` holds
 * the underlying error. Retrying is built into the client: do not add another retry loop around it.
 */
export class RegistryConnectionError extends SerdeError {
  override name = 'RegistryConnectionError'
  readonly url: string
  declare readonly status?: number

  constructor(init: RegistryConnectionInit) {
    super('REGISTRY_CONNECTION', init.message ?? `Unable to use the registry at ${init.url}`, {
      cause: init.cause,
    })
    this.url = init.url
    if (init.status !== undefined) this.status = init.status
  }
}

/** What a failed registration was for. */
export interface SchemaRegistrationInit {
  artifactId: string
  groupId?: string
  url?: string
  status?: number
  cause?: unknown
  message?: string
}

/**
 * A registration was refused (4xx other than 401/403, or 5xx) or answered without the identifiers. Typical:
 * `ifExists: 'FAIL'` and the artifact exists (409), or the schema content or a rule was rejected (400/409/422).
 */
export class SchemaRegistrationError extends SerdeError {
  override name = 'SchemaRegistrationError'
  readonly artifactId: string
  declare readonly groupId?: string
  declare readonly url?: string
  declare readonly status?: number

  constructor(init: SchemaRegistrationInit) {
    super(
      'SCHEMA_REGISTRATION',
      init.message ?? `Failed to register schema for artifact '${init.artifactId}'`,
      { cause: init.cause },
    )
    this.artifactId = init.artifactId
    if (init.groupId !== undefined) this.groupId = init.groupId
    if (init.url !== undefined) this.url = init.url
    if (init.status !== undefined) this.status = init.status
  }
}

/** Options of the errors that carry only a message and a cause. */
export interface CauseOptions {
  cause?: unknown
}

/** The `toDict` hook threw (its error is the `cause`), or the registry schema could not be used for writing. */
export class SerializationError extends SerdeError {
  override name = 'SerializationError'
  constructor(message: string, options?: CauseOptions) {
    super('SERIALIZATION', message, options)
  }
}

/** An artifact resolver threw (its error is the `cause`) or returned something other than a non-empty string. */
export class ResolverError extends SerdeError {
  override name = 'ResolverError'
  constructor(message: string, options?: CauseOptions) {
    super('RESOLVER', message, options)
  }
}

/** Options of `DeserializationError`. */
export interface DeserializationErrorOptions extends CauseOptions {
  /** The schema identifier read from the message, when one was read. */
  schemaId?: number | bigint
}

/**
 * Bytes that cannot be decoded: too short, a wrong magic byte, a malformed id header, an Avro payload that does not
 * match its writer schema (or trailing bytes after it), incompatible writer and reader schemas, or a throwing
 * `fromDict`. `cause` holds the underlying error where there is one.
 */
export class DeserializationError extends SerdeError {
  override name = 'DeserializationError'
  declare readonly schemaId?: number | bigint
  constructor(message: string, options?: DeserializationErrorOptions) {
    super('DESERIALIZATION', message, options)
    if (options?.schemaId !== undefined) this.schemaId = options.schemaId
  }
}

/** Options of `AuthenticationError`. */
export interface AuthenticationErrorOptions extends CauseOptions {
  /** The token endpoint or registry URL, without credentials. */
  url?: string
  status?: number
}

/**
 * A token could not be had (endpoint unreachable, non-200, unusable body), or the registry refused the credentials
 * (401/403) even after one fresh token. Its message never holds a secret, a token or a response body.
 */
export class AuthenticationError extends SerdeError {
  override name = 'AuthenticationError'
  declare readonly url?: string
  declare readonly status?: number
  constructor(message: string, options?: AuthenticationErrorOptions) {
    super('AUTHENTICATION', message, options)
    if (options?.url !== undefined) this.url = options.url
    if (options?.status !== undefined) this.status = options.status
  }
}

/** A method was called on a registry client after `close()`. The message contains `closed`. */
export class ClientClosedError extends SerdeError {
  override name = 'ClientClosedError'
  constructor(message = 'The registry client is closed') {
    super('CLIENT_CLOSED', message)
  }
}
