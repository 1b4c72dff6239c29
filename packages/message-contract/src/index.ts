export type { AnyDeserializerOptions, DeserializedNow, MessageSchema } from './any-deserializer.js'
export { AnyDeserializer } from './any-deserializer.js'
export type { AnySerializerOptions } from './any-serializer.js'
export { AnySerializer } from './any-serializer.js'
export type { ArtifactLookupClient, ArtifactLookupOptions } from './artifact-lookup.js'
export { ArtifactLookup } from './artifact-lookup.js'
export { BoundedCallbacks } from './bounded-callbacks.js'
export type { ConsumedFailure } from './consumed-failure.js'
export { recordConsumedFailure } from './consumed-failure.js'
export type { ConsumedRecord, LocatedRecord } from './consumed-messages.js'
export { decodeConsumed, decodeConsumedNow } from './consumed-messages.js'
export type { ConsumedSchema } from './consumed-schemas.js'
export { ConsumedSchemas } from './consumed-schemas.js'
export type { FailedMessageHandler } from './consumer-handlers.js'
export { eachBatchOf, eachMessageOf } from './consumer-handlers.js'
export { contextFor } from './contexts.js'
export type { ConsumedAt, DeadLetterTarget } from './dead-letter.js'
export { deadLetterHeaders, isDeadLetter, routeDeadLetter } from './dead-letter.js'
export { withDecoded } from './decoded-payload.js'
export { headerRecord } from './header-record.js'
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
  MessageToWrite,
  PlainKey,
  PreparedFrame,
  WrittenMessage,
} from './message-contract.js'
export { MessageContract } from './message-contract.js'
export { PoisonRecords } from './poison-records.js'
export { PreparedReads } from './prepared-reads.js'
export type { MessageToPrepare, PreparedSerializer } from './prepared-writes.js'
export { PreparedWrites } from './prepared-writes.js'
export type { ReadErrorKind } from './read-errors.js'
export { readErrorKind } from './read-errors.js'
export type { SchemaKind } from './schema-kind.js'
export { schemaKindOf, schemaKindOfText } from './schema-kind.js'
