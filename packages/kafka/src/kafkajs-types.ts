/**
 * The shapes of KafkaJS (and of Confluent's `@confluentinc/kafka-javascript` KafkaJS API) that the helpers read and
 * write: declared here, so that neither client is a dependency. Header values are bytes or strings (a repeated
 * header an array of them), as those clients hand them over.
 */

/** Record headers as KafkaJS carries them. */
export type KafkaHeaders = Record<string, Buffer | string | (Buffer | string)[] | undefined>

/** A message to send: what `producer.send({ topic, messages })` takes. */
export interface OutgoingKafkaMessage {
  key?: Buffer | string | null
  value: Buffer | string | null
  headers?: KafkaHeaders
  partition?: number
  timestamp?: string
}

/** A consumed message: what `eachMessage` and `eachBatch` hand over. */
export interface ConsumedKafkaMessage {
  key: Buffer | null
  value: Buffer | null
  headers?: KafkaHeaders
  offset: string
  timestamp: string
}

/** The payload of KafkaJS's `eachMessage`. */
export interface EachMessagePayload {
  topic: string
  partition: number
  message: ConsumedKafkaMessage
  heartbeat?(): Promise<void>
  pause?(): () => void
}

/** The payload of KafkaJS's `eachBatch`, as far as the wrapper uses it. */
export interface EachBatchPayload {
  batch: { topic: string; partition: number; messages: ConsumedKafkaMessage[] }
  resolveOffset(offset: string): void
  heartbeat(): Promise<void>
  isRunning(): boolean
  isStale(): boolean
}

/** What a dead-letter topic is sent through: a KafkaJS producer. */
export interface KafkaProducer {
  send(record: { topic: string; messages: OutgoingKafkaMessage[] }): Promise<unknown>
}
