export type { DeserializerOptions, NormalizedDeserializerOptions } from './deserializer-options.js'
export { DESERIALIZER_OPTION_NAMES, normalizeDeserializerOptions } from './deserializer-options.js'
export type {
  IncomingMessage,
  MessageHeaders,
  MessageHeaderValue,
  SerializedMessage,
} from './message-headers.js'
export type { MessageSchemaId } from './message-schema-id.js'
export { messageSchemaId } from './message-schema-id.js'
export { checkBoolean, checkKnownKeys, checkOptionsObject } from './option-checks.js'
export { withOtherIdHint } from './other-id-hint.js'
export type { RegistryPort } from './registry-port.js'
export type { NormalizedRulesOptions, RulesOptions } from './rules-options.js'
export { normalizeRulesOptions } from './rules-options.js'
export type { DeserializerSetup, FramedDecoder } from './schema-deserializer.js'
export { SchemaDeserializer } from './schema-deserializer.js'
export type { ResolvedReference, RuleValueKit, SchemaCodec, SchemaFormat } from './schema-format.js'
export { collectReferences } from './schema-loader.js'
export type { SerializerSetup } from './schema-serializer.js'
export { SchemaSerializer } from './schema-serializer.js'
export { checkSchemaToRegister } from './schema-to-register.js'
export type { NormalizedSerializerOptions, SerializerOptions } from './serializer-options.js'
export { normalizeSerializerOptions, SERIALIZER_OPTION_NAMES } from './serializer-options.js'
export type { ArtifactResolver, RecordNameReader, ResolveFunction } from './strategies.js'
export {
  QualifiedRecordIdStrategy,
  SimpleTopicIdStrategy,
  TopicIdStrategy,
  TopicRecordIdStrategy,
} from './strategies.js'
