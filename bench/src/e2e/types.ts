/** The three formats the end-to-end bench sends, each the 10-field `bench.Event`. */
export type Format = 'avro' | 'json' | 'protobuf'

export const FORMATS: readonly Format[] = ['avro', 'json', 'protobuf']

export const FORMAT_TITLES: Record<Format, string> = {
  avro: 'Avro',
  json: 'JSON Schema',
  protobuf: 'Protobuf',
}

/** A client with a registry support: ours, or the one the client's users pick without us. */
export interface Row {
  name: string
  client: 'platformatic' | 'kafkajs'
  support: 'ours' | 'theirs'
  label: string
}

/** Ours then theirs for each client, so that the ratio of each pair sits under it. */
export const ROWS: readonly Row[] = [
  {
    name: 'platformatic+ours',
    client: 'platformatic',
    support: 'ours',
    label: '@platformatic/kafka + ours (`ApicurioSchemaRegistry`, v3 API)',
  },
  {
    name: 'platformatic+confluent',
    client: 'platformatic',
    support: 'theirs',
    label: '@platformatic/kafka + its `ConfluentSchemaRegistry` (ccompat API)',
  },
  {
    name: 'kafkajs+ours',
    client: 'kafkajs',
    support: 'ours',
    label: 'KafkaJS + ours (`KafkaJsSerde`, v3 API)',
  },
  {
    name: 'kafkajs+kafkajs-sr',
    client: 'kafkajs',
    support: 'theirs',
    label: 'KafkaJS + @kafkajs/confluent-schema-registry (ccompat API)',
  },
]

/** What the parent hands a worker. */
export interface WorkerSetup {
  row: string
  format: Format
  brokers: string
  registryUrl: string
  ccompatUrl: string
  /** The registry group and artifact of the format's schema, and its ids (globalId for ours, contentId for ccompat). */
  groupId: string
  artifactId: string
  globalId: number
  contentId: number
  /** Messages produced then consumed (timed), and the warm-up before (same process, its own topic). */
  messages: number
  warmup: number
  topic: string
  warmTopic: string
}

/** Wall seconds and CPU microseconds (user + system, the whole process) over `messages` messages. */
export interface Phase {
  messages: number
  seconds: number
  cpuMicros: number
}

/** A consume phase, and the milliseconds spent inside the registry support's deserializers and hooks. */
export interface ConsumePhase extends Phase {
  serdeMs: number
}

export type RowResult =
  | {
      row: string
      format: Format
      produce: Phase
      consume: ConsumePhase
      /** The same topic consumed by the same client without decoding (new group): the baseline. */
      raw: Phase
      /** Ours rows only: the same topic read by the same client with the engine by hand, no registry (formats.ts). */
      hand?: Phase
      /** What the consumer checked of the last value (a field read back), proving it was decoded. */
      lastSeq: number
    }
  | { row: string; format: Format; unsupported: string }
