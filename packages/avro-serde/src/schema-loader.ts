import type { ArtifactReference, RegisteredSchema } from '@x/registry-client'
import type { IdType, SchemaId } from '@x/wire-format'
import { type AvroCodec, createCodec, isMissingNamedType, type NormalizedAvroOptions } from './avro/index.js'
import type { RegistryPort } from './registry-port.js'

/** @internal Builds the error to throw when a registry schema cannot be used (Serialization- or DeserializationError). */
export type SchemaFailure = (message: string, cause: unknown) => Error

/** @internal What a registry schema is, for messages: `globalId 42`, `artifact 'orders-value'`. */
export interface SchemaOrigin {
  idType: IdType
  id: SchemaId
  /** How to name the schema in a message. */
  label: string
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * @internal Parses a registry schema into a codec. A schema that parses on its own costs no request. One that
 * names types it does not define (Apicurio artifact references, as the Java serde registers nested records) is
 * parsed again together with its references: the reference list is fetched once by the schema's id (unless the
 * registry already told it), then each referenced artifact's content, recursively, depth first, each artifact once
 * (cycles end). Registry errors reach the caller as they are; a schema that still does not parse is `fail(…)`.
 */
export async function parseRegistered(
  client: RegistryPort,
  registered: RegisteredSchema,
  origin: SchemaOrigin,
  avro: NormalizedAvroOptions,
  fail: SchemaFailure,
): Promise<AvroCodec> {
  try {
    return createCodec(registered.schema, avro)
  } catch (error) {
    if (!isMissingNamedType(error)) {
      throw fail(
        `The registry schema of ${origin.label} is not a valid Avro schema: ${messageOf(error)}`,
        error,
      )
    }
  }
  const references =
    registered.references !== undefined && registered.references.length > 0
      ? registered.references
      : await (origin.idType === 'globalId'
          ? client.getReferencesByGlobalId(origin.id)
          : client.getReferencesByContentId(origin.id))
  const schemas = await collectReferences(client, references, avro)
  try {
    return createCodec(registered.schema, avro, schemas)
  } catch (error) {
    const detail =
      references.length === 0
        ? ' (it uses named types it does not define, and the registry lists no references)'
        : ''
    throw fail(
      `The registry schema of ${origin.label} is not a valid Avro schema${detail}: ${messageOf(error)}`,
      error,
    )
  }
}

/** The group Apicurio means when a reference names none. */
const DEFAULT_GROUP = 'default'

function referenceKey(reference: ArtifactReference): string {
  return `${reference.groupId ?? DEFAULT_GROUP}\u0000${reference.artifactId}\u0000${reference.version ?? ''}`
}

/**
 * @internal The texts of the referenced schemas, dependencies before the schemas that use them (depth first), each
 * artifact version once (so cycles end). A referenced schema that parses on its own costs one request (its
 * content); one that names types it does not define has its own references fetched (by its `globalId`) first.
 */
export async function collectReferences(
  client: RegistryPort,
  references: readonly ArtifactReference[],
  avro: NormalizedAvroOptions,
): Promise<string[]> {
  const ordered: string[] = []
  const seen = new Set<string>()
  const visit = async (reference: ArtifactReference): Promise<void> => {
    const key = referenceKey(reference)
    if (seen.has(key)) return
    seen.add(key)
    const version = await client.getSchemaVersion(
      reference.artifactId,
      reference.version ?? 'branch=latest',
      // A reference without a group points into the registry's `default` group, whatever the client's group is.
      { groupId: reference.groupId ?? DEFAULT_GROUP },
    )
    let nested: readonly ArtifactReference[] | undefined = version.references
    if (
      (nested === undefined || nested.length === 0) &&
      version.globalId !== undefined &&
      !parsesAlone(version.schema, avro)
    ) {
      nested = await client.getReferencesByGlobalId(version.globalId)
    }
    for (const child of nested ?? []) await visit(child)
    ordered.push(version.schema)
  }
  for (const reference of references) await visit(reference)
  return ordered
}

function parsesAlone(schema: string, avro: NormalizedAvroOptions): boolean {
  try {
    createCodec(schema, avro)
    return true
  } catch (error) {
    return !isMissingNamedType(error)
  }
}
