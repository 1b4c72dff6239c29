import { randomBytes } from 'node:crypto'
import type { AvroEncoding } from '@x/avro-serde'
import { failedMessageOf, messageOf } from '@x/errors'
import type { ConsumedKafkaMessage } from '@x/kafka'
import {
  ArtifactLookup,
  type FieldRead,
  KEY_TYPES,
  type KeyType,
  MessageContract,
  readErrorKind,
} from '@x/message-contract'
import type { IdType, ReadIdSize, SchemaId } from '@x/wire-format'
import { type Batch, type Consumer, Kafka, logLevel } from 'kafkajs'
import { LRUCache } from 'lru-cache'
import { avroOutputOfId } from '../avro-json-output.js'
import type { Config } from '../config.js'
import { type Connection, type ConnectionFlags, connect } from '../connection.js'
import {
  type ConsumedLine,
  ConsumeSummary,
  type HeaderValue,
  headerValue,
  jsonLine,
  readableLine,
  utf8Text,
  type ValueSchema,
} from '../consume-lines.js'
import { encodingOf } from '../encoding-option.js'
import { inCliWords } from '../flag-hints.js'
import type { Io } from '../io.js'
import { brokerError, type KafkaFlags, kafkaConfig } from '../kafka-connection.js'
import { CheckFailed, UsageError } from '../usage-error.js'

export interface ConsumeFlags extends Omit<ConnectionFlags, 'group'>, KafkaFlags {
  /** The consumer group (not the registry's group: ids name their artifacts wherever they are). */
  group?: string
  offset?: string
  fromTimestamp?: string
  follow?: boolean
  max?: string
  partition?: string[]
  json?: boolean
  useId?: string
  idSize?: string
  keyType?: string
  encoding?: string
}

/** How long a run that is not following waits for a message before it gives up on the end offsets. */
export const IDLE_LIMIT_MS = 30_000

/** Where a run starts and stops reading, parsed from the flags before anything is connected. */
export interface ConsumePlan {
  start:
    | { kind: 'beginning' }
    | { kind: 'end' }
    | { kind: 'offset'; offset: bigint }
    | { kind: 'timestamp'; ms: number }
  follow: boolean
  max: number | undefined
  partitions: number[] | undefined
  group: string | undefined
  useId: IdType
  /** How a frame's id is read (`--id-size`). */
  idSize: ReadIdSize
  /** How keys are read (`--key-type`). */
  keyType: CliKeyType
  /** How an Avro payload without an encoding header is read (`--encoding`). */
  encoding: AvroEncoding
}

/** The flags of `consume` checked (exit 2 before connecting to anything). */
export function consumePlan(flags: ConsumeFlags): ConsumePlan {
  if (flags.offset !== undefined && flags.fromTimestamp !== undefined) {
    throw new UsageError('Give --offset or --from-timestamp, not both')
  }
  let start: ConsumePlan['start'] = flags.follow ? { kind: 'end' } : { kind: 'beginning' }
  if (flags.offset !== undefined) {
    if (!/^\d+$/.test(flags.offset)) {
      throw new UsageError(`--offset takes an offset (an integer from 0), got ${flags.offset}`)
    }
    start = { kind: 'offset', offset: BigInt(flags.offset) }
  }
  if (flags.fromTimestamp !== undefined) {
    const text = flags.fromTimestamp
    const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text)
    if (!Number.isSafeInteger(ms) || ms < 0 || !/^\d+$|^\d{4}-\d{2}-\d{2}/.test(text)) {
      throw new UsageError(
        `--from-timestamp takes an ISO date (2026-11-25T18:00:00Z) or epoch milliseconds, got ${text}`,
      )
    }
    start = { kind: 'timestamp', ms }
  }
  let max: number | undefined
  if (flags.max !== undefined) {
    if (!/^\d+$/.test(flags.max) || !Number.isSafeInteger(Number(flags.max))) {
      throw new UsageError(`--max takes a number of messages, got ${flags.max}`)
    }
    max = Number(flags.max)
  }
  let partitions: number[] | undefined
  if (flags.partition !== undefined) {
    partitions = []
    for (const part of flags.partition.flatMap((item) => item.split(','))) {
      if (!/^\d+$/.test(part.trim())) throw new UsageError(`--partition takes partition numbers, got ${part}`)
      partitions.push(Number(part.trim()))
    }
  }
  const useId = flags.useId ?? 'globalId'
  if (useId !== 'globalId' && useId !== 'contentId') {
    throw new UsageError(`--use-id must be globalId or contentId, got ${useId}`)
  }
  const size = flags.idSize ?? '4'
  if (size !== '4' && size !== '8' && size !== 'auto') {
    throw new UsageError(`--id-size must be 4, 8 or auto, got ${size}`)
  }
  const idSize: ReadIdSize = size === 'auto' ? 'auto' : size === '8' ? 8 : 4
  if (flags.group === '') throw new UsageError('--group takes a consumer group id')
  const keyType = (flags.keyType ?? 'bytes') as CliKeyType
  if (!CLI_KEY_TYPES.includes(keyType)) {
    throw new UsageError(`--key-type must be one of ${CLI_KEY_TYPES.join(', ')}, got ${flags.keyType}`)
  }
  const encoding = encodingOf(flags.encoding)
  return {
    start,
    follow: flags.follow ?? false,
    max,
    partitions,
    group: flags.group,
    useId,
    idSize,
    keyType,
    encoding,
  }
}

/**
 * `x-serde consume TOPIC`: reads a topic with KafkaJS and prints each message decoded, whatever its format (Avro,
 * JSON Schema, Protobuf) and mode (framed or headers), through the message contract every adapter reads with. Without `--follow`
 * it reads up to the end offsets the partitions had when it started (or `--max` messages) and stops. Without
 * `--group` it reads under a throw-away group id and commits nothing; with one it starts where that group stopped
 * (unless told where) and commits what it printed. A message that does not decode is printed as an error with its
 * raw bytes and the run goes on; it then exits 1.
 */
export async function consume(topic: string, flags: ConsumeFlags, config: Config, io: Io): Promise<void> {
  const plan = consumePlan(flags)
  const kafkaSettings = kafkaConfig(flags, io, 'x-serde-consume')
  await using connection = connect({ ...flags, group: undefined }, config, io)
  const kafka = new Kafka({ ...kafkaSettings, logLevel: logLevel.NOTHING })
  const brokers = kafkaSettings.brokers as string[]
  const summary = new ConsumeSummary()
  const reader = new MessageReader(connection, plan.useId, plan.idSize, plan.keyType, plan.encoding)
  const print = (line: ConsumedLine) => {
    summary.add(line)
    io.stdout(flags.json ? jsonLine(line) : readableLine(line))
  }
  let reading = false
  try {
    const { ranges, existing } = await partitionRanges(kafka, topic, plan)
    reading = true
    const open = new Map([...ranges].filter(([, range]) => plan.follow || range.start < range.end))
    if (open.size > 0 && plan.max !== 0) {
      await readRanges(kafka, { topic, plan, ranges, open, existing }, reader, print, io)
    }
  } catch (error) {
    throw brokerError(error, brokers)
  } finally {
    // What was printed, even when the run ends on an error (an outage midway).
    if (reading) io.stderr(`${summary}\n`)
  }
  if (summary.errors > 0) {
    throw new CheckFailed(
      `${summary.errors} message${summary.errors === 1 ? '' : 's'} of ${topic} did not decode (printed as errors)`,
    )
  }
}

interface Range {
  start: bigint
  /** The end offset (high watermark) when the run started. */
  end: bigint
}

/** Each partition read: from where (as the plan says) to the end offset it has now. */
async function partitionRanges(
  kafka: Kafka,
  topic: string,
  plan: ConsumePlan,
): Promise<{ ranges: Map<number, Range>; existing: number[] }> {
  const admin = kafka.admin()
  await admin.connect()
  try {
    const metadata = await admin.fetchTopicMetadata({ topics: [topic] }).catch((error: unknown) => {
      if ((error as { type?: unknown })?.type === 'UNKNOWN_TOPIC_OR_PARTITION') {
        throw new UsageError(`No topic ${topic} on the brokers`)
      }
      throw error
    })
    const existing = metadata.topics[0]!.partitions.map((p) => p.partitionId).sort((a, b) => a - b)
    const chosen = plan.partitions ?? existing
    const missing = chosen.filter((p) => !existing.includes(p))
    if (missing.length > 0) {
      throw new UsageError(`${topic} has partitions ${existing.join(', ')}; no ${missing.join(', ')}`)
    }
    const offsets = await admin.fetchTopicOffsets(topic)
    const byTime =
      plan.start.kind === 'timestamp' ? await admin.fetchTopicOffsetsByTimestamp(topic, plan.start.ms) : []
    const committed =
      plan.group !== undefined && (plan.start.kind === 'beginning' || plan.start.kind === 'end')
        ? ((await admin.fetchOffsets({ groupId: plan.group, topics: [topic] }))[0]?.partitions ?? [])
        : []
    const ranges = new Map<number, Range>()
    for (const partition of chosen) {
      const found = offsets.find((o) => o.partition === partition)!
      const low = BigInt(found.low)
      const end = BigInt(found.high)
      let start: bigint
      const resumed = committed.find((c) => c.partition === partition)?.offset
      if (resumed !== undefined && resumed !== '-1') start = BigInt(resumed)
      else if (plan.start.kind === 'beginning') start = low
      else if (plan.start.kind === 'end') start = end
      else if (plan.start.kind === 'offset') start = plan.start.offset
      else {
        const at = byTime.find((o) => o.partition === partition)?.offset
        start = at === undefined || at === '-1' ? end : BigInt(at)
      }
      if (start < low) start = low
      if (start > end) start = end
      ranges.set(partition, { start, end })
    }
    return { ranges, existing }
  } finally {
    await admin.disconnect()
  }
}

interface Reading {
  topic: string
  plan: ConsumePlan
  ranges: Map<number, Range>
  /** The partitions not read to their end yet. */
  open: Map<number, Range>
  /** Every partition of the topic (those not chosen are paused). */
  existing: number[]
}

async function readRanges(
  kafka: Kafka,
  { topic, plan, ranges, open, existing }: Reading,
  reader: MessageReader,
  print: (line: ConsumedLine) => void,
  io: Io,
): Promise<void> {
  const groupId = plan.group ?? `x-serde-consume-${randomBytes(6).toString('hex')}`
  const consumer: Consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 250, retry: { retries: 3 } })
  // The next offset to print in each partition: a message before it (a fetch made before a seek took hold, a
  // redelivery) is skipped.
  const next = new Map([...ranges].map(([partition, range]) => [partition, range.start]))
  let printed = 0
  let stopping = false
  let stop: (reason?: unknown) => void = () => {}
  const stopped = new Promise<void>((done, fail) => {
    stop = (reason?: unknown) => {
      stopping = true
      if (reason === undefined) done()
      else fail(reason)
    }
  })
  let idle: NodeJS.Timeout | undefined
  const touch = () => {
    if (plan.follow) return
    clearTimeout(idle)
    idle = setTimeout(() => {
      io.stderr(
        `x-serde: nothing arrived for ${IDLE_LIMIT_MS / 1000} s before the end offsets of ${[...open.keys()].map((p) => `partition ${p}`).join(', ')}; stopping\n`,
      )
      stop()
    }, IDLE_LIMIT_MS)
  }
  const finish = (partition: number) => {
    open.delete(partition)
    if (open.size === 0 && !plan.follow) stop()
  }
  const onSignal = () => stop()
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    await consumer.connect()
    consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
      // Batches of control records only (transactions) or of compacted-away offsets end here too.
      const range = open.get(payload.partition)
      if (!plan.follow && range !== undefined && BigInt(payload.lastOffset) + 1n >= range.end) {
        finish(payload.partition)
      }
    })
    consumer.on(consumer.events.CRASH, ({ payload }) => {
      if (!payload.restart) stop(payload.error)
    })
    await consumer.subscribe({ topic, fromBeginning: plan.start.kind !== 'end' })
    touch()
    await consumer.run({
      autoCommit: plan.group !== undefined,
      eachBatchAutoResolve: false,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        for (const message of (batch as Batch).messages) {
          if (stopping || !isRunning() || isStale()) return
          const partition = batch.partition
          const range = open.get(partition)
          const offset = BigInt(message.offset)
          if (range === undefined || (!plan.follow && offset >= range.end)) return
          if (offset < next.get(partition)!) continue
          touch()
          let line: ConsumedLine
          try {
            line = await reader.read(topic, partition, message as ConsumedKafkaMessage)
          } catch (error) {
            // An outage (the registry unreachable), not a bad message: the run ends with it (exit 3) rather than
            // KafkaJS retrying the batch for ever.
            stop(error)
            return
          }
          print(line)
          next.set(partition, offset + 1n)
          resolveOffset(message.offset)
          printed++
          if (plan.max !== undefined && printed >= plan.max) {
            stop()
            return
          }
          if (!plan.follow && offset + 1n >= range.end) finish(partition)
          await heartbeat()
        }
      },
    })
    for (const [partition, range] of ranges) {
      if (open.has(partition)) consumer.seek({ topic, partition, offset: range.start.toString() })
    }
    const others = existing.filter((p) => !ranges.has(p))
    if (others.length > 0) consumer.pause([{ topic, partitions: others }])
    await stopped
  } finally {
    clearTimeout(idle)
    process.removeListener('SIGINT', onSignal)
    process.removeListener('SIGTERM', onSignal)
    await consumer.disconnect()
  }
}

/**
 * What `--key-type` takes: a key type of Kafka's standard serializers, read byte for byte as Java's (`bytes`, the
 * default, prints a key as its UTF-8 text, or `{ base64 }` when it is not UTF-8), or `schema`: keys written with a
 * schema of any format (framed, or named by an `apicurio.key.*` header), the adapters' `keys: {}`.
 */
export type CliKeyType = KeyType | 'schema'

/** The values of `--key-type`. */
export const CLI_KEY_TYPES: readonly CliKeyType[] = [...KEY_TYPES, 'schema'] as CliKeyType[]

/**
 * Turns consumed messages into printed lines through the message contract every adapter calls: the value in any
 * format, the key by `--key-type` (read with a schema only when an `apicurio.key.*` header says so, or with
 * `schema`), the artifact behind each id found once (`findVersionOfId`). A message that will never decode (poison,
 * as `readErrorKind` says) becomes an error line; an outage is thrown.
 */
export class MessageReader {
  readonly #connection: Connection
  readonly #contract: MessageContract<unknown, unknown>
  /** Where each id lives, looked up once per id (the adapters' lookup). */
  readonly #artifacts: ArtifactLookup
  /** How each Avro schema id's values print (`avroOutput`), loaded once per id. */
  readonly #avroOutputs = new LRUCache<string, Promise<(value: unknown) => unknown>>({ max: 1000 })

  constructor(
    connection: Connection,
    useId: IdType,
    idSize: ReadIdSize = 4,
    keyType: CliKeyType = 'bytes',
    encoding: AvroEncoding = 'binary',
  ) {
    this.#connection = connection
    this.#artifacts = new ArtifactLookup(connection.client)
    this.#contract = new MessageContract(connection.client, {
      anyDeserializer: { useId, idSize, avro: { encoding } },
      keys: keyType === 'schema' ? {} : keyType,
    })
  }

  async read(topic: string, partition: number, message: ConsumedKafkaMessage): Promise<ConsumedLine> {
    const headers = headersOf(message.headers ?? {})
    const base = { topic, partition, offset: message.offset, timestamp: message.timestamp, headers }
    let key: unknown = null
    try {
      const keyRead = await this.#contract.read(topic, 'key', message.key, message.headers ?? {})
      // A key without a schema is bytes or a key type's value; one written with a schema prints as a value does.
      key = keyRead.schema === null ? printedKey(keyRead.value) : await this.#printed(keyRead)
      const decoded = await this.#contract.read(topic, 'value', message.value, message.headers ?? {})
      if (decoded.schema === null) return { ...base, key, schema: null, value: null }
      const { idType, id, framed, format } = decoded.schema
      return {
        ...base,
        key,
        schema: {
          format: format ?? null,
          idType,
          id,
          mode: framed ? 'framed' : 'headers',
          ...(await this.#artifactOf(idType, id)),
        },
        value: await this.#printed(decoded),
      }
    } catch (error) {
      if (readErrorKind(error) !== 'poison') throw error
      const name = (error as Error).name
      const code = (error as { code?: unknown }).code
      // The message the error names: a key that failed prints its own bytes, as a dead letter would carry them.
      const field = failedMessageOf(error)?.context?.field === 'key' ? 'key' : 'value'
      return {
        ...base,
        key: key ?? rawKey(message.key),
        error: {
          name,
          code: typeof code === 'string' ? code : undefined,
          field,
          message: inCliWords(messageOf(error)),
        },
        raw: field === 'key' ? message.key : message.value,
      }
    }
  }

  /**
   * A key or value read with a schema, as it prints: an Avro one through `avroOutput` of its schema (a union whose
   * bare values would print alike wrapped by branch), any other as it was read.
   */
  async #printed(read: FieldRead<unknown>): Promise<unknown> {
    const schema = read.schema
    if (schema === null || schema.format !== 'AVRO') return read.value
    return (await this.#avroOutputOf(schema.idType, schema.id))(read.value)
  }

  /**
   * How the values of the Avro schema with this id print: `avroOutput` of its text and the artifacts it references.
   * A failed load is not kept, so that the next message asks again.
   */
  #avroOutputOf(idType: IdType, id: SchemaId): Promise<(value: unknown) => unknown> {
    const key = `${idType}:${String(id)}`
    let output = this.#avroOutputs.get(key)
    if (output === undefined) {
      output = avroOutputOfId(this.#connection, idType, id)
      this.#avroOutputs.set(key, output)
      output.catch(() => this.#avroOutputs.delete(key))
    }
    return output
  }

  /** The artifact version an id names: the contract's artifact lookup (one search per id, cached and bounded). */
  async #artifactOf(
    idType: IdType,
    id: SchemaId,
  ): Promise<Pick<ValueSchema, 'groupId' | 'artifactId' | 'version'>> {
    const version = await this.#artifacts.find(idType, id)
    return version === undefined || version === null
      ? { groupId: null, artifactId: null, version: null }
      : { groupId: version.groupId, artifactId: version.artifactId, version: version.version }
  }
}

/** A key as printed: bytes as their UTF-8 text or `{ base64 }`; anything else as the contract read it. */
function printedKey(key: unknown): unknown {
  return Buffer.isBuffer(key) ? rawKey(key) : key
}

/** A key that is not written with a schema: its text when it is UTF-8, else `{ base64 }`. */
function rawKey(key: Buffer | null): unknown {
  if (key === null || key === undefined) return null
  return utf8Text(key) ?? { base64: key.toString('base64') }
}

function headersOf(
  headers: NonNullable<ConsumedKafkaMessage['headers']>,
): Record<string, HeaderValue | HeaderValue[]> {
  const out: Record<string, HeaderValue | HeaderValue[]> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    out[name] = Array.isArray(value) ? value.map((item) => headerValue(item)) : headerValue(value)
  }
  return out
}
