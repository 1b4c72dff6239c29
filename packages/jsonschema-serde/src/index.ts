export type {
  ArtifactResolver,
  IncomingMessage,
  MessageHeaders,
  MessageHeaderValue,
  RegistryPort,
  SerializedMessage,
} from '@x/serde-core'
export { SimpleTopicIdStrategy, TopicIdStrategy } from '@x/serde-core'
export type { JsonSchemaDeserializerOptions } from './json-schema-deserializer.js'
export { JsonSchemaDeserializer } from './json-schema-deserializer.js'
export type {
  JsonSchemaSerializerArtifactOptions,
  JsonSchemaSerializerOptions,
} from './json-schema-serializer.js'
export { JsonSchemaSerializer } from './json-schema-serializer.js'
export { QualifiedRecordIdStrategy, TopicRecordIdStrategy } from './json-schema-strategies.js'
export { warmUpValidators } from './validator-warm-up.js'
