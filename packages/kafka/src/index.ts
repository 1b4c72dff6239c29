export type {
  AnyDeserializerOptions,
  AnySerializerOptions,
  ConsumedSchema,
  KeyHandling,
  KeyType,
  MessageDeserializer,
  MessageSchema,
  MessageSerializer,
  PreparedSerializer,
  ReadErrorKind,
  SchemaKind,
} from '@x/message-contract'
// The readers and writers of any format, the contract beneath the adapters: importable from here as before.
export {
  AnyDeserializer,
  AnySerializer,
  readErrorKind,
  schemaKindOf,
  schemaKindOfText,
} from '@x/message-contract'
export type {
  DeadLetter,
  DeadLetterOptions,
  DecodedMessage,
  DecodedMessagePayload,
  KafkaJsSerdeOptions,
} from './kafkajs-serde.js'
export { KafkaJsSerde } from './kafkajs-serde.js'
export type {
  ConsumedKafkaMessage,
  EachBatchPayload,
  EachMessagePayload,
  KafkaHeaders,
  KafkaProducer,
  OutgoingKafkaMessage,
} from './kafkajs-types.js'
export type {
  ApicurioSchemaRegistryOptions,
  PlatformaticDeadLetter,
  PlatformaticDeserializationErrorContext,
  PlatformaticHookCallback,
  PlatformaticMessageToConsume,
  PlatformaticMessageToProduce,
  PlatformaticProducer,
  PlatformaticRecord,
} from './platformatic-registry.js'
export { ApicurioSchemaRegistry } from './platformatic-registry.js'
