import { type SchemaId, toSchemaId } from '@x/wire-format'
import { LATEST } from './registry-requests.js'
import type { SchemaSnapshot, SnapshotVersion } from './schema-snapshot.js'
import type { ArtifactReference, RegisteredSchema } from './types.js'

/**
 * A snapshot's schemas by what the client looks them up by: globalId, contentId, artifact version (a literal one,
 * and `branch=latest` for the versions that were the latest), and the references of each id. Built once with the
 * client; answers are frozen and never evicted.
 */
export class SnapshotIndex {
  readonly #byGlobalId = new Map<string, RegisteredSchema>()
  readonly #byContentId = new Map<string, RegisteredSchema>()
  readonly #byVersion = new Map<string, RegisteredSchema>()
  readonly #referencesByGlobalId = new Map<string, readonly ArtifactReference[]>()
  readonly #referencesByContentId = new Map<string, readonly ArtifactReference[]>()

  /** @param versionKey - The key the client's version cache uses for a group, artifact and version. */
  constructor(
    snapshot: SchemaSnapshot,
    versionKey: (groupId: string, artifactId: string, version: string) => string,
  ) {
    for (const version of snapshot.versions) {
      const globalId = toSchemaId(version.globalId, 'globalId')
      const contentId = toSchemaId(version.contentId, 'contentId')
      const references = Object.freeze(version.references.map(referenceOf))
      const schema = registered(version, globalId, contentId)
      this.#byGlobalId.set(String(globalId), schema)
      this.#referencesByGlobalId.set(String(globalId), references)
      if (!this.#byContentId.has(String(contentId))) {
        this.#byContentId.set(
          String(contentId),
          Object.freeze({
            schema: version.schema,
            contentId,
            references: Object.freeze([...schema.references]) as ArtifactReference[],
          }),
        )
        this.#referencesByContentId.set(String(contentId), references)
      }
      this.#byVersion.set(versionKey(version.groupId, version.artifactId, version.version), schema)
      if (version.latest) this.#byVersion.set(versionKey(version.groupId, version.artifactId, LATEST), schema)
    }
  }

  byId(idType: 'globalId' | 'contentId', id: SchemaId): RegisteredSchema | undefined {
    return (idType === 'globalId' ? this.#byGlobalId : this.#byContentId).get(String(id))
  }

  referencesOf(idType: 'globalId' | 'contentId', id: SchemaId): readonly ArtifactReference[] | undefined {
    return (idType === 'globalId' ? this.#referencesByGlobalId : this.#referencesByContentId).get(String(id))
  }

  byVersion(key: string): RegisteredSchema | undefined {
    return this.#byVersion.get(key)
  }
}

/** A reference as the registry lists it: without a version when it follows the latest. */
function referenceOf(reference: SnapshotVersion['references'][number]): ArtifactReference {
  const out: ArtifactReference = {
    name: reference.name,
    groupId: reference.groupId,
    artifactId: reference.artifactId,
  }
  if (reference.version !== LATEST) out.version = reference.version
  return Object.freeze(out)
}

function registered(version: SnapshotVersion, globalId: SchemaId, contentId: SchemaId): RegisteredSchema {
  return Object.freeze({
    schema: version.schema,
    globalId,
    contentId,
    groupId: version.groupId,
    artifactId: version.artifactId,
    version: version.version,
    artifactType: version.artifactType,
    references: Object.freeze(version.references.map(referenceOf)) as ArtifactReference[],
  })
}
