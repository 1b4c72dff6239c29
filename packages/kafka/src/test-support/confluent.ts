import { createRequire } from 'node:module'
import type { EachBatchPayload, EachMessagePayload, OutgoingKafkaMessage } from '../kafkajs-types.js'

// Confluent's `@confluentinc/kafka-javascript` (its KafkaJS API) as the integration tests use it. It is not a
// dependency of the workspace (a native build of 4 to 6 minutes): the integration stage builds it once into a cache
// (scripts/integration/confluent-client.ts) and hands over its directory; these are the parts of its types we call.

/** Confluent's `KafkaJS` namespace, the part the tests use. Its options go under `kafkaJS: {}`. */
export interface ConfluentKafkaJs {
  Kafka: new (config: {
    kafkaJS: { brokers: string[]; clientId?: string; logLevel?: number }
  }) => ConfluentKafka
  logLevel: { NOTHING: number; ERROR: number }
}

export interface ConfluentKafka {
  producer(config?: { kafkaJS?: Record<string, unknown> }): ConfluentProducer
  consumer(config: {
    kafkaJS: { groupId: string; fromBeginning?: boolean } & Record<string, unknown>
  }): ConfluentConsumer
  admin(): ConfluentAdmin
}

export interface ConfluentProducer {
  connect(): Promise<void>
  disconnect(): Promise<void>
  send(record: { topic: string; messages: OutgoingKafkaMessage[] }): Promise<unknown>
}

export interface ConfluentConsumer {
  connect(): Promise<void>
  disconnect(): Promise<void>
  subscribe(subscription: { topics: string[] }): Promise<void>
  run(config: {
    eachMessage?: (payload: EachMessagePayload) => Promise<void>
    eachBatch?: (payload: EachBatchPayload) => Promise<void>
  }): Promise<void>
}

export interface ConfluentAdmin {
  connect(): Promise<void>
  disconnect(): Promise<void>
  createTopics(options: { topics: { topic: string; numPartitions?: number }[] }): Promise<boolean>
}

/** Loads the client from the directory the integration stage built it in (`inject('confluentClient')`). */
export function loadConfluentKafkaJs(dir: string): ConfluentKafkaJs {
  return (createRequire(import.meta.url)(dir) as { KafkaJS: ConfluentKafkaJs }).KafkaJS
}
