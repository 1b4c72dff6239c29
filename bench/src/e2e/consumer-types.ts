import type { Format } from './types.js'

/** The formats the consumer rounds read (the ones every peer reads back from the same frames). */
export const CONSUMER_FORMATS: readonly Format[] = ['avro', 'json']

/** How a consumer process starts: straight on the timed topic, or after reading the warm-up topic. */
export type Start = 'cold' | 'warm'

export const STARTS: readonly Start[] = ['cold', 'warm']

/** One way of consuming: a client and its loop, with ours or the client's own registry support. */
export interface ConsumerRow {
  name: string
  /** The pair it belongs to: ours and theirs of one client and loop, compared with each other. */
  pair: 'platformatic' | 'kafkajs-each-message' | 'kafkajs-each-batch'
  support: 'ours' | 'theirs'
  label: string
}

/** Ours then theirs for each pair. */
export const CONSUMER_ROWS: readonly ConsumerRow[] = [
  {
    name: 'platformatic+ours',
    pair: 'platformatic',
    support: 'ours',
    label: '@platformatic/kafka + `ApicurioSchemaRegistry`',
  },
  {
    name: 'platformatic+confluent',
    pair: 'platformatic',
    support: 'theirs',
    label: '@platformatic/kafka + its `ConfluentSchemaRegistry`',
  },
  {
    name: 'kafkajs+ours',
    pair: 'kafkajs-each-message',
    support: 'ours',
    label: 'KafkaJS `eachMessage` + `KafkaJsSerde.eachMessage`',
  },
  {
    name: 'kafkajs+kafkajs-sr',
    pair: 'kafkajs-each-message',
    support: 'theirs',
    label: 'KafkaJS `eachMessage` + kafkajs-SR `decode`',
  },
  {
    name: 'kafkajs-batch+ours',
    pair: 'kafkajs-each-batch',
    support: 'ours',
    label: 'KafkaJS `eachBatch` + `KafkaJsSerde.eachBatch`',
  },
  {
    name: 'kafkajs-batch+kafkajs-sr',
    pair: 'kafkajs-each-batch',
    support: 'theirs',
    label: 'KafkaJS `eachBatch` + a kafkajs-SR `decode` loop',
  },
]

/** What the parent hands a consumer process. */
export interface ConsumerSetup {
  row: string
  format: Format
  start: Start
  brokers: string
  registryUrl: string
  ccompatUrl: string
  groupId: string
  /** The topic every row reads (the same frames: `00`, the 4-byte contentId, the payload), and its message count. */
  topic: string
  messages: number
  /** Read first when `start` is `'warm'` (the same frames, `warmup` of them), not timed. */
  warmTopic: string
  warmup: number
  /** The consumer group's id prefix (one fresh group per topic read). */
  consumerGroup: string
}

/** One consumer process's timed read: wall seconds and CPU from its first message to its last. */
export interface ConsumerResult {
  row: string
  format: Format
  start: Start
  round: number
  messages: number
  seconds: number
  cpuMicros: number
  /** Wall milliseconds from the clock's start to the first message handled (its lookups and first-use costs). */
  firstMs: number
  /** The `seq` of the last value read (N − 1), proving it was decoded. */
  lastSeq: number
}
