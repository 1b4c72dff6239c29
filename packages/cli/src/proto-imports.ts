import type { Connection } from './connection.js'

/**
 * The texts of the artifacts an artifact version references, by reference name, recursively: the `.proto` files it
 * imports (by import path), or the Avro named types defined elsewhere (by full name).
 */
export async function fetchImports(
  connection: Pick<Connection, 'client'>,
  globalId: number | bigint,
  into: Map<string, string>,
): Promise<void> {
  for (const reference of await connection.client.getReferencesByGlobalId(globalId)) {
    if (into.has(reference.name)) continue
    const target = await connection.client.getSchemaVersion(
      reference.artifactId,
      reference.version ?? 'branch=latest',
      {
        ...(reference.groupId === undefined ? {} : { groupId: reference.groupId }),
      },
    )
    into.set(reference.name, target.schema)
    if (target.globalId !== undefined) await fetchImports(connection, target.globalId, into)
  }
}
