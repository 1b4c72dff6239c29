import type { StandardSchemaV1 } from '@standard-schema/spec'
import { invalidConfigError } from '@x/errors'
import {
  type ConsumedRecord,
  type DecodedRecord,
  deadLetterHeaders,
  decodeConsumed,
  decodeConsumedNow,
  type LocatedRecord,
  MessageContract,
  type MessageContractOptions,
  type PlainKey,
  recordConsumedFailure,
  routeDeadLetter,
} from '@x/message-contract'
import type { MessageHeaders } from '@x/serde-core'
import { eventHeaders, keyBytes, valueBytes } from './event-bytes.js'
import { eventRecords, type KafkaEvent, type KafkaEventRecord } from './kafka-event.js'
import { parseOutput } from './output-schema.js'

/** A record of a Kafka event decoded: the contract's shape, where it was read, and the record as the event gave it. */
export interface DecodedKafkaRecord<V, K> extends DecodedRecord<V, K, MessageHeaders> {
  topic: string
  partition: number
  offset: number
  timestamp: number
  timestampType: string
  /** The record as the event holds it (base64 key and value, headers as bytes). */
  original: KafkaEventRecord
}

/** A record that could not be decoded, handed to the `deadLetter` handler. */
export interface KafkaDeadLetter {
  topic: string
  partition: number
  offset: number
  /** The record as the event holds it: its key, value and headers untouched. */
  record: KafkaEventRecord
  /**
   * Why: a `DeserializationError` (a bad frame, bytes that do not match the schema, a value its output schema
   * refused), a `SchemaNotFoundError` or a `RuleViolationError`; `failedMessageOf(error)` names the record.
   */
  error: unknown
  /**
   * The `x-serde-*` headers every adapter adds to a dead letter: the error's code and message, `topic/partition/offset`,
   * and a refused record's rules and mode (`deadLetterHeaders` of `@x/message-contract`).
   */
  headers: Record<string, string>
}

/** Options of {@link KafkaEventDecoder}. */
export interface KafkaEventDecoderOptions<V, K>
  extends Omit<MessageContractOptions<V, K>, 'serializer' | 'preload'> {
  /**
   * Parses each decoded value (not a tombstone's `null`): any Standard Schema (Zod, Valibot, ArkType, …), whose
   * output is the record's `value`. A value it refuses is a `DeserializationError` (poison) carrying its `issues`.
   * @default none: the decoded value as it is
   */
  valueSchema?: StandardSchemaV1<unknown, V>
  /** Parses each decoded key (not a missing one), as `valueSchema` does values. @default none */
  keySchema?: StandardSchemaV1<unknown, K>
  /**
   * Where a record that will never decode goes (poison to `readErrorKind`: a `DeserializationError`, an unknown
   * schema id, a record a data-contract rule refused): the handler is given it, and the batch goes on without it.
   * An outage (`RegistryConnectionError`, `AuthenticationError`) is never dead-lettered: it is thrown, failing the
   * invocation so that the event source mapping retries the batch. A handler that throws fails the invocation too.
   * @default none: the error is thrown, failing the invocation
   */
  deadLetter?: (letter: KafkaDeadLetter) => Promise<void> | void
  /**
   * Load the format readers (avsc, ajv, protobufjs) in the background once constructed. Off by default here: a
   * Lambda invocation pays for each only when a record of its format first needs it.
   * @default false
   */
  preload?: boolean
}

/**
 * Decodes the records of an Amazon MSK or self-managed Kafka event in Lambda, on the message contract every adapter
 * reads with: values in any format (Avro, JSON Schema, Protobuf; an id in a frame, an Apicurio id header or a
 * Confluent 8 `__value_schema_id` header; Confluent frames through the ccompat API), keys by their key type or
 * serde, tombstones as `null`, output parsed by a Standard Schema when given. Make one per execution environment
 * (at module scope): its schemas stay cached across warm invocations.
 *
 * @typeParam V - The value type (the output of `valueSchema` when given).
 * @typeParam K - The key type when keys have a serde of their own (or a `keySchema`).
 */
export class KafkaEventDecoder<V = unknown, K = never> {
  readonly #contract: MessageContract<V, K>
  readonly #valueSchema: StandardSchemaV1 | undefined
  readonly #keySchema: StandardSchemaV1 | undefined
  readonly #deadLetter: ((letter: KafkaDeadLetter) => Promise<void> | void) | undefined

  /**
   * @param client - The registry client (`RegistryClient`, with a `snapshot` for a cold start without requests).
   * @throws TypeError (code `INVALID_CONFIG`) for options that are not what they should be, and what
   *   `MessageContract` throws for its own.
   */
  constructor(client: unknown, options: KafkaEventDecoderOptions<V, K> = {}) {
    for (const name of ['valueSchema', 'keySchema'] as const) {
      const schema = options[name] as { '~standard'?: { validate?: unknown } } | undefined
      if (schema !== undefined && typeof schema?.['~standard']?.validate !== 'function') {
        throw invalidConfigError(
          `KafkaEventDecoder: ${name} must be a Standard Schema (Zod, Valibot, ArkType, …)`,
        )
      }
    }
    if (options.deadLetter !== undefined && typeof options.deadLetter !== 'function') {
      throw invalidConfigError('KafkaEventDecoder: deadLetter must be a function')
    }
    try {
      this.#contract = new MessageContract<V, K>(client, { ...options, preload: options.preload ?? false })
    } catch (error) {
      if (error instanceof TypeError) error.message = `KafkaEventDecoder: ${error.message}`
      throw error
    }
    this.#valueSchema = options.valueSchema
    this.#keySchema = options.keySchema
    this.#deadLetter = options.deadLetter
  }

  /**
   * The records of an event decoded, in the event's order (group by group, each in offset order). A record that
   * cannot be decoded goes to `deadLetter` when it is poison and there is one (and is left out); otherwise its error
   * is thrown, failing the invocation.
   *
   * @throws (rejects) the error of the first record that cannot be decoded and is not dead-lettered, with the record
   *   recorded on it (`failedMessageOf`: its bytes, headers, topic, field, partition and offset); what `deadLetter`
   *   throws; TypeError (code `INVALID_DATA`) for an event that is not a Kafka event.
   */
  async decode(event: KafkaEvent): Promise<DecodedKafkaRecord<V, K>[]> {
    const decoded: DecodedKafkaRecord<V, K>[] = []
    for (const record of eventRecords(event)) {
      const consumed: ConsumedRecord<MessageHeaders> = {
        key: keyBytes(record),
        value: valueBytes(record),
        headers: eventHeaders(record),
        offset: String(record.offset),
        timestamp: String(record.timestamp),
      }
      let read: DecodedKafkaRecord<V, K>
      try {
        const located =
          decodeConsumedNow(this.#contract, record.topic, record.partition, consumed) ??
          (await decodeConsumed(this.#contract, record.topic, record.partition, consumed))
        // Without output schemas a record is built at once, with no Promise of its own.
        read =
          this.#keySchema === undefined && this.#valueSchema === undefined
            ? recordOf(located, record, located.key, located.value)
            : await this.#parsed(located, record, consumed)
      } catch (error) {
        await this.#failed(error, record)
        continue
      }
      decoded.push(read)
    }
    return decoded
  }

  /** The record's output: its fields parsed by their schemas, when given. */
  async #parsed(
    located: LocatedRecord<V, K, MessageHeaders>,
    record: KafkaEventRecord,
    consumed: ConsumedRecord<MessageHeaders>,
  ): Promise<DecodedKafkaRecord<V, K>> {
    let key = located.key
    let value = located.value
    try {
      if (this.#keySchema !== undefined && key !== null) {
        key = (await parseOutput(this.#keySchema, key, 'key')) as K | PlainKey
      }
    } catch (error) {
      throw failedAt(error, record, consumed, 'key')
    }
    try {
      if (this.#valueSchema !== undefined && value !== null) {
        value = (await parseOutput(this.#valueSchema, value, 'value')) as V
      }
    } catch (error) {
      throw failedAt(error, record, consumed, 'value')
    }
    return recordOf(located, record, key, value)
  }

  /** Routes a poison record to `deadLetter`, or throws its error. */
  async #failed(error: unknown, record: KafkaEventRecord): Promise<void> {
    const at = { topic: record.topic, partition: record.partition, offset: String(record.offset) }
    const handler = this.#deadLetter
    const routed = routeDeadLetter<KafkaDeadLetter, never>(
      error,
      handler,
      () => ({
        topic: record.topic,
        partition: record.partition,
        offset: record.offset,
        record,
        error,
        headers: deadLetterHeaders(error, at),
      }),
      at,
      () => Promise.resolve(),
    )
    if (routed === undefined) throw error
    await routed
  }
}

/** A decoded record: where it was read, its fields, and the record as the event gave it. */
function recordOf<V, K>(
  located: LocatedRecord<V, K, MessageHeaders>,
  record: KafkaEventRecord,
  key: K | PlainKey | null,
  value: V | null,
): DecodedKafkaRecord<V, K> {
  return {
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    timestamp: record.timestamp,
    timestampType: record.timestampType,
    key,
    value,
    headers: located.headers,
    schema: located.schema,
    original: record,
  }
}

function failedAt(
  error: unknown,
  record: KafkaEventRecord,
  consumed: ConsumedRecord<MessageHeaders>,
  field: 'key' | 'value',
): unknown {
  return recordConsumedFailure(error, {
    topic: record.topic,
    field,
    key: consumed.key,
    value: consumed.value,
    headers: consumed.headers,
    partition: record.partition,
    offset: record.offset,
  })
}
