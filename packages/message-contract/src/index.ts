export type { AnyDeserializerOptions, DeserializedNow, MessageSchema } from './any-deserializer.js'
export { AnyDeserializer } from './any-deserializer.js'
export type { AnySerializerOptions } from './any-serializer.js'
export { AnySerializer } from './any-serializer.js'
export { contextFor } from './contexts.js'
export { applyIdHeaderRules, hasIdHeader } from './id-headers.js'
export type { KeyLongs, KeyOf, KeyType } from './key-types.js'
export { decodeKey, encodeKey, KEY_TYPES } from './key-types.js'
export type {
  DecodedRecord,
  FieldRead,
  KeyHandling,
  MessageContractOptions,
  MessageDeserializer,
  MessageSerializer,
  PlainKey,
  PreparedFrame,
} from './message-contract.js'
export { MessageContract } from './message-contract.js'
export type { ReadErrorKind } from './read-errors.js'
export { readErrorKind } from './read-errors.js'
export type { SchemaKind } from './schema-kind.js'
export { schemaKindOf, schemaKindOfText } from './schema-kind.js'
