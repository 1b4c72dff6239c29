import type { RegisteredSchema, RegistryOperation } from '@x/registry-client'
import type { IdType, SchemaId } from '@x/wire-format'

/** The client's lookups of a schema by id. */
export interface SchemaByIdClient {
  getSchemaByGlobalId(id: SchemaId, options?: { operation?: RegistryOperation }): Promise<RegisteredSchema>
  getSchemaByContentId(id: SchemaId, options?: { operation?: RegistryOperation }): Promise<RegisteredSchema>
}

const DESERIALIZING = Object.freeze({ operation: 'DESERIALIZE' as const })

/**
 * The schema of an id, by the client's lookup of its id type (one cached, single-flight request per id), for
 * reading a message: the lookup tells the registry's usage telemetry `DESERIALIZE` (when the client has a
 * `clientId`).
 */
export function schemaById(
  client: SchemaByIdClient,
  idType: IdType,
  id: SchemaId,
): Promise<RegisteredSchema> {
  return idType === 'globalId'
    ? client.getSchemaByGlobalId(id, DESERIALIZING)
    : client.getSchemaByContentId(id, DESERIALIZING)
}
