import type { IdType } from '@x/wire-format'
import type { Connection } from './connection.js'

/**
 * The texts of the artifacts the schema with this id (a globalId unless `idType` says otherwise) references, by
 * reference name, recursively: the `.proto` files it imports (by import path), or the Avro named types defined
 * elsewhere (by full name).
 */
export async function fetchImports(
  connection: Pick<Connection, 'client'>,
  id: number | bigint,
  into: Map<string, string>,
  idType: IdType = 'globalId',
): Promise<void> {
  const references =
    idType === 'globalId'
      ? await connection.client.getReferencesByGlobalId(id)
      : await connection.client.getReferencesByContentId(id)
  for (const reference of references) {
    if (into.has(reference.name)) continue
    // A reference that names no group (as Java's auto-registration writes them) is in the default group, whichever
    // group the client is set to: the serdes resolve it there too.
    const target = await connection.client.getSchemaVersion(
      reference.artifactId,
      reference.version ?? 'branch=latest',
      { groupId: reference.groupId ?? 'default' },
    )
    into.set(reference.name, target.schema)
    if (target.globalId !== undefined) await fetchImports(connection, target.globalId, into)
  }
}
