import { writeFile } from 'node:fs/promises'
import { relative, resolve } from 'node:path'
import { type SnapshotArtifact, takeSnapshot } from '@x/registry-client'
import type { Connection } from '../connection.js'
import type { Io } from '../io.js'

/**
 * `x-serde pull --snapshot FILE`: writes the artifact versions asked for, and every version they reference, with
 * their ids, types, texts and references, into one snapshot file (`takeSnapshot` of `@x/registry-client`), which a
 * client's `snapshot` option serves with no request. Writes nothing else.
 */
export async function pullSnapshot(
  connection: Connection,
  wanted: readonly SnapshotArtifact[],
  file: string,
  io: Io,
): Promise<void> {
  const snapshot = await takeSnapshot(connection.client, wanted)
  const target = resolve(io.cwd, file)
  await writeFile(target, `${JSON.stringify(snapshot, null, 2)}\n`)
  for (const version of snapshot.versions) {
    io.stdout(
      `${version.groupId}/${version.artifactId} version ${version.version} (globalId ${version.globalId}, contentId ${version.contentId})\n`,
    )
  }
  io.stdout(`wrote ${relative(io.cwd, target)} (${snapshot.versions.length} artifact versions)\n`)
}
