import { SerdeError, type SerdeErrorOptions } from './serde-error.js'

/**
 * Which registry identifier a message or lookup uses: the version's `globalId` or its `contentId`. Defined here, the
 * package everything depends on, so that errors and framing (`@x/wire-format` re-exports it) share one type.
 */
export type IdType = 'globalId' | 'contentId'

/**
 * Every error class of the library takes `(message?, options?)`: the message (a default is built from the options
 * where the class has one) and one options object holding `cause` and the error's context fields. This is the
 * options object of `SchemaNotFoundError`: what a 404 from the registry was about, an artifact (by group and id) or
 * a schema identifier.
 */
export interface SchemaNotFoundErrorOptions extends SerdeErrorOptions {
  groupId?: string | undefined
  artifactId?: string | undefined
  /** The version expression that was asked for, when not the latest. */
  version?: string | undefined
  idType?: IdType | undefined
  idValue?: number | bigint | undefined
  /** The registry base URL (without credentials). */
  url?: string | undefined
  status?: number | undefined
}

function describeNotFound(options: SchemaNotFoundErrorOptions): string {
  if (options.idType !== undefined) return `Schema not found: ${options.idType} ${String(options.idValue)}`
  const version = options.version === undefined ? '' : ` version '${options.version}'`
  return `Schema not found: artifact '${options.artifactId ?? ''}'${version} in group '${options.groupId ?? ''}'`
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
  declare readonly idType?: IdType
  declare readonly idValue?: number | bigint
  declare readonly url?: string
  declare readonly status?: number

  /** @param message - Default: `Schema not found: …` built from the options. */
  constructor(message?: string, options: SchemaNotFoundErrorOptions = {}) {
    super('SCHEMA_NOT_FOUND', message ?? describeNotFound(options), options)
    if (options.groupId !== undefined) this.groupId = options.groupId
    if (options.artifactId !== undefined) this.artifactId = options.artifactId
    if (options.version !== undefined) this.version = options.version
    if (options.idType !== undefined) this.idType = options.idType
    if (options.idValue !== undefined) this.idValue = options.idValue
    if (options.url !== undefined) this.url = options.url
    this.status = options.status ?? 404
  }
}

/** Options of `RegistryConnectionError`: where a registry request failed. */
export interface RegistryConnectionErrorOptions extends SerdeErrorOptions {
  /** The registry base URL (without credentials). */
  url: string
  /** The HTTP status, when the registry answered (a non-retried error status, or the last retried one). */
  status?: number | undefined
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

  /** @param message - Default: `Unable to use the registry at <url>`. */
  constructor(message: string | undefined, options: RegistryConnectionErrorOptions) {
    super('REGISTRY_CONNECTION', message ?? `Unable to use the registry at ${options.url}`, options)
    this.url = options.url
    if (options.status !== undefined) this.status = options.status
  }
}

/** Options of `SchemaRegistrationError`: what a failed registration was for. */
export interface SchemaRegistrationErrorOptions extends SerdeErrorOptions {
  artifactId: string
  groupId?: string | undefined
  url?: string | undefined
  status?: number | undefined
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

  /** @param message - Default: `Failed to register schema for artifact '<artifactId>'`. */
  constructor(message: string | undefined, options: SchemaRegistrationErrorOptions) {
    super(
      'SCHEMA_REGISTRATION',
      message ?? `Failed to register schema for artifact '${options.artifactId}'`,
      options,
    )
    this.artifactId = options.artifactId
    if (options.groupId !== undefined) this.groupId = options.groupId
    if (options.url !== undefined) this.url = options.url
    if (options.status !== undefined) this.status = options.status
  }
}

/** The `toDict` hook threw (its error is the `cause`), or the registry schema could not be used for writing. */
export class SerializationError extends SerdeError {
  override name = 'SerializationError'
  constructor(message: string, options?: SerdeErrorOptions) {
    super('SERIALIZATION', message, options)
  }
}

/** An artifact resolver threw (its error is the `cause`) or returned something other than a non-empty string. */
export class ResolverError extends SerdeError {
  override name = 'ResolverError'
  constructor(message: string, options?: SerdeErrorOptions) {
    super('RESOLVER', message, options)
  }
}

/** Options of `DeserializationError`. */
export interface DeserializationErrorOptions extends SerdeErrorOptions {
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
  /** The schema identifier read from the message (non-enumerable; `toJSON()` shows it). */
  declare readonly schemaId?: number | bigint
  /** How `schemaId` was read, when it was (non-enumerable). */
  declare readonly idType?: IdType
  constructor(message: string, options?: DeserializationErrorOptions) {
    super('DESERIALIZATION', message, options)
    if (options?.schemaId !== undefined) {
      Object.defineProperty(this, 'schemaId', {
        value: options.schemaId,
        enumerable: false,
        configurable: true,
      })
    }
  }
}

/** Options of `AuthenticationError`. */
export interface AuthenticationErrorOptions extends SerdeErrorOptions {
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
  constructor(message = 'The registry client is closed', options?: SerdeErrorOptions) {
    super('CLIENT_CLOSED', message, options)
  }
}
