export type {
  ArtifactResolver,
  IncomingMessage,
  MessageHeaders,
  MessageHeaderValue,
  RegistryPort,
  SerializedMessage,
} from '@x/serde-core'
export { SimpleTopicIdStrategy, TopicIdStrategy } from '@x/serde-core'
export type {
  AvroEncoding,
  AvroOptions,
  AvroTypeHook,
  LogicalTypeConstructor,
  LongMode,
  UnionMode,
} from './avro/index.js'
export type { AvroDeserializerOptions } from './avro-deserializer.js'
export { AvroDeserializer } from './avro-deserializer.js'
export type { AvroSerializerArtifactOptions, AvroSerializerOptions } from './avro-serializer.js'
export { AvroSerializer } from './avro-serializer.js'
export { QualifiedRecordIdStrategy, TopicRecordIdStrategy } from './avro-strategies.js'
