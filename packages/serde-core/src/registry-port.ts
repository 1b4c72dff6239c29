import { invalidConfigError } from '@x/errors'
import type { ArtifactReference, IfExists, RegisteredSchema, RegistryOperation } from '@x/registry-client'
import type { IdType, SchemaId } from '@x/wire-format'

/**
 * What a serializer or deserializer needs of a registry client: `RegistryClient` of `@x/registry-client` is one.
 * Written out so that the serdes depend on behaviour, not on the class (a wrapper, a test double or another copy of
 * the client package fits), and so that the check at construction can say which method is missing.
 */
export interface RegistryPort {
  /** The latest version of an artifact in the client's group. */
  getSchema(artifactId: string, options?: LookupOptions): Promise<RegisteredSchema>
  getSchemaByGlobalId(id: SchemaId, options?: LookupOptions): Promise<RegisteredSchema>
  getSchemaByContentId(id: SchemaId, options?: LookupOptions): Promise<RegisteredSchema>
  getReferencesByGlobalId(id: SchemaId): Promise<readonly ArtifactReference[]>
  getReferencesByContentId(id: SchemaId): Promise<readonly ArtifactReference[]>
  /** A version (or version expression such as `branch=latest`) of an artifact, in `groupId` or the client's group. */
  getSchemaVersion(
    artifactId: string,
    version: string,
    options?: { groupId?: string },
  ): Promise<RegisteredSchema>
  registerSchema(
    artifactId: string,
    schema: string | object,
    options?: {
      ifExists?: IfExists
      references?: readonly ArtifactReference[]
      artifactType?: string
      contentType?: string
    },
  ): Promise<RegisteredSchema>
  /** The lifetime of latest-version entries, when the client has one (the serdes' own caches follow it). */
  readonly cacheTtlMs?: number | undefined
  /** The bound of the client's caches (the serdes' own caches follow it). */
  readonly cacheMaxSize?: number | undefined
}

/**
 * What a lookup is for: serializers pass `SERIALIZE`, deserializers `DESERIALIZE`, which `RegistryClient` sends as
 * Apicurio's usage-telemetry header when it has a `clientId`. A client that does not know it ignores it.
 */
export interface LookupOptions {
  operation?: RegistryOperation
}

/** The options of a serializer's lookups. */
export const SERIALIZING: LookupOptions = Object.freeze({ operation: 'SERIALIZE' })
/** The options of a deserializer's lookups. */
export const DESERIALIZING: LookupOptions = Object.freeze({ operation: 'DESERIALIZE' })

const REQUIRED = ['getSchema', 'getSchemaByGlobalId', 'getSchemaByContentId'] as const

/** @internal Checks that the first constructor argument is a registry client. */
export function checkClient(client: unknown, owner: string): RegistryPort {
  if (typeof client !== 'object' || client === null) {
    throw invalidConfigError(
      `${owner}: the first argument must be a RegistryClient, got ${client === null ? 'null' : typeof client}`,
    )
  }
  for (const method of REQUIRED) {
    if (typeof (client as Record<string, unknown>)[method] !== 'function') {
      throw invalidConfigError(
        `${owner}: the first argument must be a RegistryClient (it has no ${method}() method)`,
      )
    }
  }
  return client as RegistryPort
}

/**
 * @internal The bound of the serde's own caches: the client's `cacheMaxSize` where the client tells it, else 1000
 * (the client's default).
 */
export function cacheBoundOf(client: RegistryPort): number {
  const size = client.cacheMaxSize
  return typeof size === 'number' && Number.isFinite(size) && size >= 1 ? size : 1000
}

/** @internal The client's `cacheTtlMs` when it is a positive finite number. */
export function cacheTtlOf(client: RegistryPort): number | undefined {
  const ttl = client.cacheTtlMs
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : undefined
}

/**
 * Fetches the schema with the given id by its type: `getSchemaByGlobalId` or `getSchemaByContentId`. Shared with the
 * family through `@x/serde-core/internal`, not part of the public API.
 */
export function fetchById(
  client: Pick<RegistryPort, 'getSchemaByGlobalId' | 'getSchemaByContentId'>,
  idType: IdType,
  id: SchemaId,
  options?: LookupOptions,
): Promise<RegisteredSchema> {
  return idType === 'globalId'
    ? client.getSchemaByGlobalId(id, options)
    : client.getSchemaByContentId(id, options)
}
