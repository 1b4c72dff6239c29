export type { AvroOptions, AvroTypeHook, LogicalTypeConstructor, LongMode, UnionMode } from './avro/index.js'
export { AvroDeserializer } from './avro-deserializer.js'
export { AvroSerializer } from './avro-serializer.js'
export type { AvroDeserializerOptions } from './deserializer-options.js'
export type {
  IncomingMessage,
  MessageHeaders,
  MessageHeaderValue,
  SerializedMessage,
} from './message-headers.js'
export type { AvroSerializerArtifactOptions, AvroSerializerOptions } from './serializer-options.js'
export type { ArtifactResolver } from './strategies.js'
export {
  QualifiedRecordIdStrategy,
  SimpleTopicIdStrategy,
  TopicIdStrategy,
  TopicRecordIdStrategy,
} from './strategies.js'
