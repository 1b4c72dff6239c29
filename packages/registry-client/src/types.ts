import type { SchemaId } from '@x/wire-format'

/**
 * A reference from one schema to a named type defined in another artifact (Apicurio `ArtifactReference`). For
 * Avro, `name` is the full name of the referenced type, e.g. `com.example.common.Address`.
 */
export interface ArtifactReference {
  /** The group of the referenced artifact; absent means the registry's `default` group. */
  groupId?: string
  artifactId: string
  /** A literal version; absent means the latest. */
  version?: string
  name: string
}

/** Where a schema id lives: the group, artifact and version of a version that has it. */
export interface ArtifactCoordinates {
  groupId: string
  artifactId: string
  version: string
}

/** A schema as the registry holds it, with every identifier the registry told. */
export interface RegisteredSchema {
  /** The schema text exactly as the registry returned it. */
  schema: string
  globalId?: SchemaId
  contentId?: SchemaId
  groupId?: string
  artifactId?: string
  version?: string
  /**
   * The artifact type: `AVRO`, `JSON` (JSON Schema), `PROTOBUF`, or another type the registry holds. Lookups by
   * globalId ask for it (Apicurio Registry 3.0.4 and newer tell it); registrations and version lookups read it from
   * the answer. Absent when the registry did not say, and from lookups by contentId (a content may be shared by
   * versions of several artifacts, so the registry names no type for it).
   */
  artifactType?: string
  /**
   * The artifact references of this version as far as the answers read tell them; always an array. A registration
   * fills it with the references it registered. Lookups read the content (and version metadata), which do not list
   * references, so theirs is empty unless the version was cached from a registration: an empty array means "none
   * known", and `getReferencesByGlobalId` / `getReferencesByContentId` tell them (one request per id).
   */
  references: ArtifactReference[]
}

/** Anything that hands out bearer tokens. `IdpAuth` from `@x/idp-auth` is one. */
export interface TokenProvider {
  getToken(signal?: AbortSignal): Promise<string>
  /** Drops the cached token (only if it is still `token`, when given) so that the next `getToken` fetches anew. */
  invalidate?(token?: string): void
}

/** What `registerSchema` does when the artifact already exists (Apicurio's `ifExists`). */
export type IfExists = 'FAIL' | 'CREATE_VERSION' | 'FIND_OR_CREATE_VERSION'

/** What an id lookup is made for, as the registry's usage telemetry records it (`X-Registry-Operation`). */
export type RegistryOperation = 'SERIALIZE' | 'DESERIALIZE'

/** Options every client call takes. */
export interface CallOptions {
  /** Aborts the call (and its retries); the promise rejects with the signal's reason. */
  signal?: AbortSignal
  /**
   * What the lookup is for, sent as `X-Registry-Operation` on the id lookup it makes when the client has a
   * `clientId` (serializers pass `SERIALIZE`, deserializers `DESERIALIZE`). Only the request that fetches an id's
   * content carries it; a cached id makes none. @default undefined (no `X-Registry-Operation` header)
   */
  operation?: RegistryOperation
}

/** Options of `getSchemaVersion`. */
export interface SchemaVersionOptions extends CallOptions {
  /** The group of the artifact (references may name another group than the client's). @default the client's groupId */
  groupId?: string
}

/** Options of `registerSchema`. */
export interface RegisterSchemaOptions extends CallOptions {
  /**
   * What the registry does when the artifact exists: `FAIL` (409 → `SchemaRegistrationError`), `CREATE_VERSION`
   * (always a new version), `FIND_OR_CREATE_VERSION` (the version with the same content and references, else a new
   * one). @default 'FIND_OR_CREATE_VERSION'
   */
  ifExists?: IfExists
  /** Types the schema takes from other artifacts. @default [] */
  references?: readonly ArtifactReference[]
  /** Compare canonical forms when looking for an existing version (`canonical=true`). @default false */
  canonical?: boolean
  /**
   * The Apicurio artifact type of the schema: `AVRO`, `JSON` (JSON Schema), `PROTOBUF`, or another type the registry
   * knows (`OPENAPI`, `ASYNCAPI`, `GRAPHQL`, `KCONNECT`, `WSDL`, `XSD`, `XML`).
   * @default 'AVRO'
   */
  artifactType?: string
  /**
   * The media type of the content: `application/json` for Avro and JSON Schema, `application/x-protobuf` for
   * Protobuf `.proto` text.
   * @default the type's usual one: 'application/x-protobuf' for PROTOBUF, 'application/json' otherwise
   */
  contentType?: string
}
