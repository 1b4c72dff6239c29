import type { RegisteredSchema } from '@x/registry-client'
import type { IdType, SchemaId } from '@x/wire-format'

/** The client's lookups of a schema by id. */
export interface SchemaByIdClient {
  getSchemaByGlobalId(id: SchemaId): Promise<RegisteredSchema>
  getSchemaByContentId(id: SchemaId): Promise<RegisteredSchema>
}

/** The schema of an id, by the client's lookup of its id type (one cached, single-flight request per id). */
export function schemaById(
  client: SchemaByIdClient,
  idType: IdType,
  id: SchemaId,
): Promise<RegisteredSchema> {
  return idType === 'globalId' ? client.getSchemaByGlobalId(id) : client.getSchemaByContentId(id)
}
