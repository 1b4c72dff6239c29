import { messageOf } from '@x/errors'
import type { ArtifactReference, RegisteredSchema } from '@x/registry-client'
import type { IdType, SchemaId } from '@x/wire-format'
import type { RegistryPort } from './registry-port.js'
import type { ResolvedReference, SchemaCodec, SchemaFormat } from './schema-format.js'

/** @internal Builds the error to throw when a registry schema cannot be used (Serialization- or DeserializationError). */
export type SchemaFailure = (message: string, cause: unknown) => Error

/** @internal What a registry schema is, for messages: `globalId 42`, `artifact 'orders-value'`. */
export interface SchemaOrigin {
  idType: IdType
  id: SchemaId
  /** How to name the schema in a message. */
  label: string
}

/**
 * @internal Parses a registry schema into a codec. A schema that parses on its own costs no request. One that
 * names types, `$ref`s or imports it does not hold (Apicurio artifact references, as the Java serdes register nested
 * records, referenced JSON Schemas and imported `.proto` files) is parsed again together with its references: the
 * reference list is fetched once by the schema's id (unless the registry already told it), then each referenced
 * artifact's content, recursively, depth first, each artifact version once (cycles end). Registry errors reach the
 * caller as they are; a schema that still does not parse, or whose references nest deeper than 128 levels, is `fail(…)`.
 */
export async function parseRegistered<C extends SchemaCodec>(
  client: RegistryPort,
  format: SchemaFormat<C>,
  registered: RegisteredSchema,
  origin: SchemaOrigin,
  fail: SchemaFailure,
): Promise<C> {
  try {
    return format.parse(registered.schema)
  } catch (error) {
    if (!format.needsReferences(error)) {
      throw fail(
        `The registry schema of ${origin.label} is not a valid ${format.name} schema: ${messageOf(error)}`,
        error,
      )
    }
  }
  const references =
    registered.references.length > 0
      ? registered.references
      : await (origin.idType === 'globalId'
          ? client.getReferencesByGlobalId(origin.id)
          : client.getReferencesByContentId(origin.id))
  let resolved: ResolvedReference[]
  try {
    resolved = await collectReferences(client, format, references)
  } catch (error) {
    if (!(error instanceof ReferenceDepthError)) throw error
    throw fail(
      `The registry schema of ${origin.label} is not a valid ${format.name} schema: ${error.message}`,
      error,
    )
  }
  try {
    return format.parse(registered.schema, resolved)
  } catch (error) {
    const detail =
      references.length === 0
        ? ' (it uses definitions it does not hold, and the registry lists no references)'
        : ''
    throw fail(
      `The registry schema of ${origin.label} is not a valid ${format.name} schema${detail}: ${messageOf(error)}`,
      error,
    )
  }
}

/** How deeply references may nest (a reference of a reference of …): a longer chain is refused. */
const MAX_REFERENCE_DEPTH = 128

/** Thrown by {@link collectReferences} for references nested deeper than {@link MAX_REFERENCE_DEPTH}. */
class ReferenceDepthError extends Error {
  override readonly name = 'ReferenceDepthError'
  constructor() {
    super(`its references nest deeper than ${MAX_REFERENCE_DEPTH} levels (a reference of a reference of …)`)
  }
}

/** The group Apicurio means when a reference names none. */
const DEFAULT_GROUP = 'default'

function referenceKey(reference: ArtifactReference): string {
  return `${reference.groupId ?? DEFAULT_GROUP}\u0000${reference.artifactId}\u0000${reference.version ?? ''}`
}

/**
 * The schemas that `references` name, with everything they reference in turn: dependencies before the schemas that
 * use them (depth first), each artifact version once (so cycles end). A reference that names no group is looked up in
 * the registry's `default` group, whatever the client's group is. What the serializers and deserializers load a
 * schema's references with, for a tool that needs the same texts (a `.proto`'s imports, Avro named types defined in
 * other artifacts).
 *
 * With a `format`, a referenced schema that parses on its own costs one request (its content) and one that needs
 * references of its own has them fetched (by its `globalId`) first. Without one (`undefined`), the references of every
 * referenced version are fetched: the whole graph the registry holds, as a format-neutral reader needs it.
 * References nested deeper than 128 levels (a reference of a reference of …) are refused before the next level is
 * fetched.
 *
 * @throws what the client's lookups throw (a `SchemaNotFoundError` for a reference to a version that does not exist),
 * and an `Error` whose message says so for references nested too deeply.
 */
export async function collectReferences(
  client: Pick<RegistryPort, 'getSchemaVersion' | 'getReferencesByGlobalId'>,
  format: SchemaFormat | undefined,
  references: readonly ArtifactReference[],
): Promise<ResolvedReference[]> {
  const ordered: ResolvedReference[] = []
  const seen = new Set<string>()
  const visit = async (reference: ArtifactReference, depth: number): Promise<void> => {
    const key = referenceKey(reference)
    if (seen.has(key)) return
    if (depth >= MAX_REFERENCE_DEPTH) throw new ReferenceDepthError()
    seen.add(key)
    const version = await client.getSchemaVersion(
      reference.artifactId,
      reference.version ?? 'branch=latest',
      // A reference without a group points into the registry's `default` group, whatever the client's group is.
      { groupId: reference.groupId ?? DEFAULT_GROUP },
    )
    let nested: readonly ArtifactReference[] = version.references
    if (nested.length === 0 && version.globalId !== undefined && !parsesAlone(format, version.schema)) {
      nested = await client.getReferencesByGlobalId(version.globalId)
    }
    for (const child of nested) await visit(child, depth + 1)
    ordered.push({
      name: reference.name,
      schema: version.schema,
      groupId: reference.groupId,
      artifactId: reference.artifactId,
      version: reference.version ?? version.version,
    })
  }
  for (const reference of references) await visit(reference, 0)
  return ordered
}

function parsesAlone(format: SchemaFormat | undefined, schema: string): boolean {
  if (format === undefined) return false
  try {
    format.parse(schema)
    return true
  } catch (error) {
    return !format.needsReferences(error)
  }
}
