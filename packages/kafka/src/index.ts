export type { AnyDeserializerOptions } from './any-deserializer.js'
export { AnyDeserializer } from './any-deserializer.js'
export type {
  DeadLetter,
  DeadLetterOptions,
  DecodedMessage,
  DecodedMessagePayload,
  KafkaJsSerdeOptions,
  KeyHandling,
  MessageDeserializer,
  MessageSerializer,
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
  ConsumedSchema,
  PlatformaticHookCallback,
  PlatformaticMessageToConsume,
  PlatformaticMessageToProduce,
  PreparedSerializer,
} from './platformatic-registry.js'
export { ApicurioSchemaRegistry } from './platformatic-registry.js'
export type { SchemaKind } from './schema-kind.js'
export { schemaKindOf, schemaKindOfText } from './schema-kind.js'
