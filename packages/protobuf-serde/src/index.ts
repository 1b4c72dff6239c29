export type {
  ArtifactResolver,
  IncomingMessage,
  MessageHeaders,
  MessageHeaderValue,
  RegistryPort,
  SerializedMessage,
} from '@x/serde-core'
export { SimpleTopicIdStrategy, TopicIdStrategy } from '@x/serde-core'
export type { Framing } from './framing.js'
export type {
  LoadedProto,
  LoadProtoOptions,
  ProtoImportFile,
  ProtoImportReader,
} from './proto-loader.js'
export { importsOfProto, loadProto, MissingImportError, ProtoSyntaxError } from './proto-loader.js'
export type { ProtobufDeserializerOptions } from './protobuf-deserializer.js'
export { ProtobufDeserializer } from './protobuf-deserializer.js'
export type {
  ProtobufSerializerArtifactOptions,
  ProtobufSerializerOptions,
} from './protobuf-serializer.js'
export { ProtobufSerializer } from './protobuf-serializer.js'
export { QualifiedRecordIdStrategy, TopicRecordIdStrategy } from './protobuf-strategies.js'
export type { LongMode } from './values.js'
