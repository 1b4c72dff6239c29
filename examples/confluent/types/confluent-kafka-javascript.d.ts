// @confluentinc/kafka-javascript is not a dependency of this workspace: it is a native addon that npm builds from
// source here (minutes per Node version), so the integration stage builds it once into a cache and runs the example
// with NODE_PATH pointing there (scripts/integration/confluent-client.ts). These are the types of the part the example
// uses, as the package declares them (types/kafkajs.d.ts of 1.10.1), for tsconfig.json's `paths` to compile it.
import type { EachMessagePayload, OutgoingKafkaMessage } from '@x/serde/kafka'

interface KafkaJsConfig {
  brokers: string[]
  clientId?: string
  logLevel?: number
}

interface Producer {
  connect(): Promise<void>
  disconnect(): Promise<void>
  send(record: { topic: string; messages: OutgoingKafkaMessage[] }): Promise<unknown>
}

interface Consumer {
  connect(): Promise<void>
  disconnect(): Promise<void>
  subscribe(subscription: { topics: string[] }): Promise<void>
  run(config: { eachMessage?: (payload: EachMessagePayload) => Promise<void> }): Promise<void>
}

interface Admin {
  connect(): Promise<void>
  disconnect(): Promise<void>
  createTopics(options: { topics: { topic: string; numPartitions?: number }[] }): Promise<boolean>
}

export declare const KafkaJS: {
  Kafka: new (config: {
    kafkaJS: KafkaJsConfig
  }) => {
    producer(config?: { kafkaJS?: Record<string, unknown> }): Producer
    consumer(config: { kafkaJS: { groupId: string; fromBeginning?: boolean } }): Consumer
    admin(): Admin
  }
  logLevel: { NOTHING: number; ERROR: number; WARN: number; INFO: number; DEBUG: number }
}
