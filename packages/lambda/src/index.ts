export type {
  KeyHandling,
  KeyType,
  MessageDeserializer,
  MessageSchema,
  ReadErrorKind,
} from '@x/message-contract'
export { readErrorKind } from '@x/message-contract'
export type { DecodedKafkaEvent, KafkaConsumerConfig } from './kafka-consumer.js'
export { decodeKafkaEvent, kafkaConsumer } from './kafka-consumer.js'
export type { KafkaEvent, KafkaEventRecord } from './kafka-event.js'
export type { DecodedKafkaRecord, KafkaDeadLetter, KafkaEventDecoderOptions } from './kafka-event-decoder.js'
export { KafkaEventDecoder } from './kafka-event-decoder.js'
export type { OutputSchemaError } from './output-schema.js'
