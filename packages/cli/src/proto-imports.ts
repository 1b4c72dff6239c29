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
