import { invalidConfigError } from '@x/errors'
import {
  type DecodedRecord,
  decodeConsumed,
  decodeConsumedNow,
  eachBatchOf,
  eachMessageOf,
  MessageContract,
  type MessageContractOptions,
  type MessageSerializer,
  type PlainKey,
  routeDeadLetter,
} from '@x/message-contract'
import type {
  ConsumedKafkaMessage,
  EachBatchPayload,
  EachMessagePayload,
  KafkaHeaders,
  KafkaProducer,
  OutgoingKafkaMessage,
} from './kafkajs-types.js'

/**
 * Options of {@link KafkaJsSerde}: the message contract's (values read by any format unless `deserializer` is given,
 * keys by `keys`, `rules`, `preload`), and the serializer of values.
 */
export interface KafkaJsSerdeOptions<V, K> extends MessageContractOptions<V, K> {
  /** Writes values (`encodeMessage`): a serializer of any format (`AnySerializer` writes each topic's own). */
  serializer?: MessageSerializer<V>
}

/** What `decodeMessage` gives for a consumed message: the contract's decoded shape, and where it was consumed. */
export interface DecodedMessage<V, K> extends DecodedRecord<V, K, KafkaHeaders> {
  topic: string
  partition: number
  offset: string
  timestamp: string
}

/** A message the wrappers could not decode, handed to the dead-letter handler with its original bytes and headers. */
export interface DeadLetter {
  topic: string
  partition: number
  /** The message as consumed: its key, value and headers untouched. */
  message: ConsumedKafkaMessage
  /**
   * Why: a `DeserializationError`, a `SchemaNotFoundError` or a `RuleViolationError` (see `failedMessageOf` in
   * `@x/errors`).
   */
  error: unknown
}

/** Options of the `eachMessage` and `eachBatch` wrappers. */
export interface DeadLetterOptions {
  /**
   * Where a message that cannot be decoded goes (a poison message, as `readErrorKind` says: a
   * `DeserializationError`, an unknown schema id, a record a data-contract rule refused): a function, or a topic sent
   * to with `producer` (the original key, value and headers, plus the `x-serde-*` headers of `deadLetterHeaders` in
   * `@x/message-contract`: the error's code and message, `topic/partition/offset`, and a refused record's rules and
   * mode). An outage (`RegistryConnectionError`, `AuthenticationError`) is never dead-lettered: it is thrown for the
   * client to retry the message. A handler that throws stops the wrapper there, so that nothing is committed past it.
   * @default none: the error is thrown, as any other
   */
  deadLetter?: ((dead: DeadLetter) => Promise<void> | void) | { producer: KafkaProducer; topic: string }
}

/** A decoded message, with what KafkaJS's `eachMessage` payload carries besides. */
export type DecodedMessagePayload<V, K> = Omit<EachMessagePayload, 'message'> & {
  message: ConsumedKafkaMessage
  decoded: DecodedMessage<V, K>
}

/**
 * The serdes of this family inside KafkaJS and Confluent's KafkaJS API: `encodeMessage` turns a value (and key and
 * headers) into the message `producer.send` takes; `decodeMessage` turns a consumed message back into its key, value,
 * headers and the schema that wrote it; `eachMessage` and `eachBatch` wrap a handler to decode every message, pass
 * tombstones through as `null`, and route messages that cannot be decoded to a dead-letter handler or topic while an
 * outage is thrown for the client to retry.
 *
 * @typeParam V - The value type (what the serializer writes, the deserializer returns).
 * @typeParam K - The key type when keys have a serde of their own.
 */
export class KafkaJsSerde<V = unknown, K = string> {
  readonly #contract: MessageContract<V, K>
  readonly #writes: boolean

  /**
   * @param client - The registry client (`RegistryClient`) of the default `AnyDeserializer`.
   * @throws TypeError (code `INVALID_CONFIG`) for keys that are neither a key type nor a serde.
   */
  constructor(client: unknown, options: KafkaJsSerdeOptions<V, K> = {}) {
    try {
      this.#contract = new MessageContract<V, K>(client, options)
    } catch (error) {
      if (error instanceof TypeError) error.message = `KafkaJsSerde: ${error.message}`
      throw error
    }
    this.#writes = options.serializer !== undefined
  }

  /**
   * The message to send for `value` (and `key`, `headers`) to `topic`: the value written by the serializer (a frame,
   * or the bare payload with its id header added to `headers` in headers mode); `null` stays a tombstone.
   *
   * @throws (rejects) the serializer's errors (a value of the wrong shape: TypeError, code `INVALID_DATA`, with the
   * failing paths), each with a non-enumerable `context` `{ topic, field }` saying what was being written; TypeError
   * (code `INVALID_CONFIG`) without a serializer.
   */
  encodeMessage(
    topic: string,
    message: {
      key?: K | PlainKey | null
      value: V | null
      headers?: KafkaHeaders
      partition?: number
      timestamp?: string
    },
  ): Promise<OutgoingKafkaMessage> {
    if (!this.#writes)
      return Promise.reject(invalidConfigError('KafkaJsSerde: encodeMessage needs a serializer'))
    // The record's own fields; the contract writes its key, value and headers.
    const out: Omit<OutgoingKafkaMessage, 'value'> = {}
    if (message.partition !== undefined) out.partition = message.partition
    if (message.timestamp !== undefined) out.timestamp = message.timestamp
    return this.#contract.encodeMessage(topic, message, out)
  }

  /**
   * A consumed message decoded: its key, its value (any format, framed or headers mode as the deserializer reads),
   * its headers and the schema that wrote the value. A tombstone's value is `null`.
   *
   * @throws (rejects) the deserializer's errors, the failed message recorded on them (`failedMessageOf`): its bytes,
   * headers, topic and field, and the `partition` and `offset` it was consumed at.
   */
  decodeMessage(
    topic: string,
    partition: number,
    message: ConsumedKafkaMessage,
  ): Promise<DecodedMessage<V, K>> {
    // The warm path: a message whose ids are cached is decoded at once, with no Promise until the one returned;
    // anything needing a lookup takes the asynchronous path.
    try {
      const now = decodeConsumedNow(this.#contract, topic, partition, message)
      if (now !== undefined) return Promise.resolve(now)
    } catch (error) {
      return Promise.reject(error)
    }
    return decodeConsumed(this.#contract, topic, partition, message)
  }

  /**
   * A KafkaJS `eachMessage` handler that decodes each message and calls `handler` with it (as `decoded`, beside
   * KafkaJS's own payload); a message that cannot be decoded goes to `deadLetter` (see {@link DeadLetterOptions}).
   * For a message decoded at once (its schema ids cached) it returns the handler's own Promise (a handler that
   * throws gives a rejected one); for one that waits for a lookup or goes to `deadLetter`, a Promise of its own.
   */
  eachMessage(
    handler: (payload: DecodedMessagePayload<V, K>) => Promise<void>,
    options: DeadLetterOptions = {},
  ): (payload: EachMessagePayload) => Promise<void> {
    this.#contract.preloadReaders()
    return eachMessageOf<V, K, KafkaHeaders, ConsumedKafkaMessage, EachMessagePayload>(
      this.#contract,
      handler,
      (error, topic, partition, message) => deadLetterOrThrow(error, topic, partition, message, options),
    )
  }

  /**
   * A KafkaJS `eachBatch` handler that decodes the batch's messages in order and calls `handler` once with those it
   * decoded (tombstones included, their value `null`); a message that cannot be decoded goes to `deadLetter`. An
   * outage, a poison message without `deadLetter`, or a dead-letter handler or send that throws stops decoding at its
   * message: `handler` gets the messages before it, then the error is thrown for the client to retry the batch from
   * the first offset not resolved. Offsets are the handler's to resolve (or KafkaJS's
   * `eachBatchAutoResolve`, which resolves the whole batch only when nothing was thrown): resolve what you handled
   * so that a retry starts after it.
   */
  eachBatch(
    handler: (payload: EachBatchPayload & { decoded: DecodedMessage<V, K>[] }) => Promise<void>,
    options: DeadLetterOptions = {},
  ): (payload: EachBatchPayload) => Promise<void> {
    this.#contract.preloadReaders()
    return eachBatchOf<V, K, KafkaHeaders, ConsumedKafkaMessage, EachBatchPayload>(
      this.#contract,
      handler,
      (error, topic, partition, message) => deadLetterOrThrow(error, topic, partition, message, options),
    )
  }
}

async function deadLetterOrThrow(
  error: unknown,
  topic: string,
  partition: number,
  message: ConsumedKafkaMessage,
  options: DeadLetterOptions,
): Promise<void> {
  const routed = routeDeadLetter(
    error,
    options.deadLetter,
    () => ({ topic, partition, message, error }),
    { topic, partition, offset: message.offset },
    (producer, to, added) =>
      producer.send({
        topic: to,
        messages: [
          { key: message.key, value: message.value, headers: { ...(message.headers ?? {}), ...added } },
        ],
      }),
  )
  if (routed === undefined) throw error
  await routed
}
