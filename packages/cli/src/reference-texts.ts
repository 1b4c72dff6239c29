import { collectReferences } from '@x/serde-core'
import type { IdType, SchemaId } from '@x/wire-format'
import type { Connection } from './connection.js'

/**
 * The texts of the artifacts the schema with this id (a globalId unless `idType` says otherwise) references, by
 * reference name, with what those reference in turn: the `.proto` files it imports (by import path), or the Avro
 * named types defined elsewhere (by full name). Loaded by the serdes' own reference loader, so a reference resolves
 * here exactly as it does when a message is read (one that names no group is in the `default` group).
 */
export async function referenceTexts(
  connection: Pick<Connection, 'client'>,
  id: SchemaId,
  idType: IdType = 'globalId',
): Promise<Map<string, string>> {
  const client = connection.client
  const references =
    idType === 'globalId'
      ? await client.getReferencesByGlobalId(id)
      : await client.getReferencesByContentId(id)
  const texts = new Map<string, string>()
  if (references.length === 0) return texts
  for (const reference of await collectReferences(client, undefined, references)) {
    if (!texts.has(reference.name)) texts.set(reference.name, reference.schema)
  }
  return texts
}
