import type { RegistryClient } from '@x/registry-client'
import type { Event } from './records.js'
import type { Format } from './types.js'

/**
 * Our serializer of the format for the artifact (Apicurio defaults: frame, 4-byte globalId; Protobuf with `Ref`),
 * its package loaded when asked for: a fresh process loads the serde of its row's format only, as an application
 * writing one format does.
 */
export async function loadOurSerializer(format: Format, client: RegistryClient, artifactId: string) {
  if (format === 'avro') {
    const { AvroSerializer } = await import('@x/avro-serde')
    return new AvroSerializer<Event>(client, artifactId)
  }
  if (format === 'json') {
    const { JsonSchemaSerializer } = await import('@x/jsonschema-serde')
    return new JsonSchemaSerializer<Event>(client, artifactId)
  }
  const { ProtobufSerializer } = await import('@x/protobuf-serde')
  return new ProtobufSerializer<Event>(client, artifactId)
}
