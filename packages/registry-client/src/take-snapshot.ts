import type { RegistryClient } from './registry-client.js'
import { LATEST } from './registry-requests.js'
import { type SchemaSnapshot, SNAPSHOT_VERSION, type SnapshotVersion } from './schema-snapshot.js'
import type { CallOptions } from './types.js'

/** An artifact version to put in a snapshot. */
export interface SnapshotArtifact {
  /** @default the client's groupId */
  groupId?: string
  artifactId: string
  /** A literal version or a version expression. @default 'branch=latest' */
  version?: string
}

/** The group Apicurio means when a reference names none. */
const DEFAULT_GROUP = 'default'

/**
 * The schemas a deployment reads, as one snapshot (see `SchemaSnapshot`): each artifact version asked for, and every
 * version it references, recursively (each once; a reference without a group in `default`, without a version its
 * latest), with their globalId, contentId, type, text and references. A version asked for by `branch=latest` (or
 * without a version), or referenced without one, is marked `latest`. Versions are listed by group, artifact and
 * version, so that the same registry gives the same file.
 *
 * @throws what the client's lookups throw: `SchemaNotFoundError` for a version (or a reference) the registry does
 *   not hold, `RegistryConnectionError` for an outage.
 */
export async function takeSnapshot(
  client: RegistryClient,
  artifacts: readonly SnapshotArtifact[],
  options: CallOptions = {},
): Promise<SchemaSnapshot> {
  const taken = new Map<string, SnapshotVersion>()
  const add = async (groupId: string, artifactId: string, asked: string): Promise<void> => {
    const found = await client.getSchemaVersion(artifactId, asked, { groupId, ...options })
    const version = found.version ?? asked
    const key = `${groupId}\u0000${artifactId}\u0000${version}`
    const seen = taken.get(key)
    if (seen !== undefined) {
      if (asked === LATEST) seen.latest = true
      return
    }
    const references = await client.getReferencesByGlobalId(found.globalId!, options)
    const entry: SnapshotVersion = {
      groupId,
      artifactId,
      version,
      artifactType: found.artifactType ?? '',
      globalId: String(found.globalId),
      contentId: String(found.contentId),
      latest: asked === LATEST,
      references: references.map((reference) => ({
        name: reference.name,
        groupId: reference.groupId ?? DEFAULT_GROUP,
        artifactId: reference.artifactId,
        version: reference.version ?? LATEST,
      })),
      schema: found.schema,
    }
    taken.set(key, entry)
    for (const reference of entry.references) {
      await add(reference.groupId, reference.artifactId, reference.version)
    }
  }
  for (const artifact of artifacts) {
    await add(artifact.groupId ?? client.groupId, artifact.artifactId, artifact.version ?? LATEST)
  }
  const versions = [...taken.values()].sort((a, b) => order(a).localeCompare(order(b)))
  return { snapshotVersion: SNAPSHOT_VERSION, takenAt: new Date().toISOString(), versions }
}

function order(version: SnapshotVersion): string {
  return `${version.groupId}\u0000${version.artifactId}\u0000${version.version.padStart(12, '0')}`
}
