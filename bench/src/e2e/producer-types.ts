import type { Start } from './consumer-types.js'
import { type Format, ROWS, type Row } from './types.js'

/** The formats the producer rounds write (the ones the comparison and the consumer rounds cover). */
export const PRODUCER_FORMATS: readonly Format[] = ['avro', 'json']

/** Ours then theirs of each client: the rows of the end-to-end table, paired by client. */
export const PRODUCER_PAIRS: readonly (readonly [Row, Row])[] = (['platformatic', 'kafkajs'] as const).map(
  (client) => {
    const ours = ROWS.find((row) => row.client === client && row.support === 'ours')
    const theirs = ROWS.find((row) => row.client === client && row.support === 'theirs')
    if (ours === undefined || theirs === undefined)
      throw new TypeError(`the client ${client} has no pair of rows`)
    return [ours, theirs] as const
  },
)

/** What the parent hands a producer process. */
export interface ProducerSetup {
  row: string
  format: Format
  start: Start
  brokers: string
  registryUrl: string
  ccompatUrl: string
  /** The registry group and artifact of the format's schema, and its ids (globalId for ours, contentId for ccompat). */
  groupId: string
  artifactId: string
  globalId: number
  contentId: number
  /** The topic the timed messages go to, and how many. */
  topic: string
  messages: number
  /** Written first when `start` is `'warm'` (`warmup` messages, not timed). */
  warmTopic: string
  warmup: number
}

/** One producer process's timed produce loop: wall seconds and CPU (user + system, the whole process). */
export interface ProducerResult {
  row: string
  format: Format
  start: Start
  round: number
  messages: number
  seconds: number
  cpuMicros: number
}
