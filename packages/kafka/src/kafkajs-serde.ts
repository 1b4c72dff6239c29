import {
  DeserializationError,
  invalidConfigError,
  isSerdeError,
  messageOf,
  recordFailedMessage,
} from '@x/errors'
import { type IncomingMessage, type MessageHeaders, messageSchemaId } from '@x/serde-core'
import type { IdType, ReadIdSize, SchemaId, SerializationContext } from '@x/wire-format'
import {
  AnyDeserializer,
  type AnyDeserializerOptions,
  type ReadNow,
  readMessageNow,
} from './any-deserializer.js'
import { contextFor } from './contexts.js'
import type {
  ConsumedKafkaMessage,
  EachBatchPayload,
  EachMessagePayload,
  KafkaHeaders,
  KafkaProducer,
  OutgoingKafkaMessage,
} from './kafkajs-types.js'
import type { SchemaKind } from './schema-kind.js'

/** A serializer of any format, as the helpers use it (`AvroSerializer`, `JsonSchemaSerializer`, `ProtobufSerializer`). */
export interface MessageSerializer<V> {
  serializeMessage(
    value: V,
    ctx: SerializationContext,
  ): Promise<{ payload: Uint8Array; headers: Record<string, Uint8Array> }>
}

/** A deserializer of any format, as the helpers use it (`AnyDeserializer`, or a format's own). */
export interface MessageDeserializer<V> {
  deserializeMessage(message: IncomingMessage, ctx: SerializationContext): Promise<V>
  readonly useId?: IdType
  /** How its frames' ids are read (every deserializer of this family says it); 4 when left out. */
  readonly idSize?: ReadIdSize
}

/** How keys are written and read: UTF-8 text, the bytes as they are, or a serde of their own. */
export type KeyHandling<K> =
  | 'string'
  | 'bytes'
  | { serializer?: MessageSerializer<K>; deserializer?: MessageDeserializer<K> }

/** Options of {@link KafkaJsSerde}. */
export interface KafkaJsSerdeOptions<V, K> {
  /** Writes values (`encodeMessage`): a serializer of any format, framed or in headers mode as it is set. */
  serializer?: MessageSerializer<V>
  /**
   * Reads values (`decodeMessage` and the wrappers).
   * @default an `AnyDeserializer` on the client with `anyDeserializer`'s options: any format, framed or headers mode
   */
  deserializer?: MessageDeserializer<V>
  /**
   * Options of the default `AnyDeserializer` (ignored when `deserializer` is given): `idSize: 8` for a topic of
   * Apicurio 2.x frames, `'auto'` for one that holds both widths.
   * @default {}
   */
  anyDeserializer?: AnyDeserializerOptions<V>
  /**
   * Keys: `'string'` (written as UTF-8, read as a string), `'bytes'` (a `Buffer` as it is), or `{ serializer,
   * deserializer }` for keys written with a schema.
   * @default 'string'
   */
  keys?: KeyHandling<K>
}

/** What `decodeMessage` gives for a consumed message. */
export interface DecodedMessage<V, K> {
  topic: string
  partition: number
  offset: string
  timestamp: string
  /** The key as `keys` reads it; `null` when the message has none. */
  key: K | string | Buffer | null
  /** The value; `null` for a tombstone (a message without a value: a deletion in a compacted topic). */
  value: V | null
  headers: KafkaHeaders
  /** Which schema wrote the value, and where its id was read; `null` for a tombstone. */
  schema: { idType: IdType; id: SchemaId; framed: boolean; format: SchemaKind | undefined } | null
}

/** A message the wrappers could not decode, handed to the dead-letter handler with its original bytes and headers. */
export interface DeadLetter {
  topic: string
  partition: number
  /** The message as consumed: its key, value and headers untouched. */
  message: ConsumedKafkaMessage
  /** Why: a `DeserializationError` or `SchemaNotFoundError` (see `failedMessageOf` in `@x/errors`). */
  error: unknown
}

/** Options of the `eachMessage` and `eachBatch` wrappers. */
export interface DeadLetterOptions {
  /**
   * Where a message that cannot be decoded goes (a `DeserializationError`, an unknown schema id): a function, or a
   * topic sent to with `producer` (the original key, value and headers, plus `x-serde-error-code`,
   * `x-serde-error-message` and `x-serde-source` = `topic/partition/offset`). An outage (`RegistryConnectionError`,
   * `AuthenticationError`) is never dead-lettered: it is thrown for the client to retry the message. A handler that
   * throws stops the wrapper there, so that nothing is committed past the message.
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
  readonly #serializer: MessageSerializer<V> | undefined
  readonly #deserializer: MessageDeserializer<V>
  readonly #keys: KeyHandling<K>

  /**
   * @param client - The registry client (`RegistryClient`) of the default `AnyDeserializer`.
   * @throws TypeError (code `INVALID_CONFIG`) for keys that are neither `'string'`, `'bytes'` nor a serde.
   */
  constructor(client: unknown, options: KafkaJsSerdeOptions<V, K> = {}) {
    const keys = options.keys ?? 'string'
    if (keys !== 'string' && keys !== 'bytes' && (typeof keys !== 'object' || keys === null)) {
      throw invalidConfigError(
        `KafkaJsSerde: keys must be 'string', 'bytes' or { serializer, deserializer }, got ${String(keys)}`,
      )
    }
    this.#keys = keys
    this.#serializer = options.serializer
    this.#deserializer = options.deserializer ?? new AnyDeserializer<V>(client, options.anyDeserializer ?? {})
  }

  /**
   * The message to send for `value` (and `key`, `headers`) to `topic`: the value written by the serializer (a frame,
   * or the bare payload with its id header added to `headers` in headers mode); `null` stays a tombstone.
   *
   * @throws (rejects) the serializer's errors (a value of the wrong shape: TypeError, code `INVALID_DATA`, with the
   * failing paths), each with a non-enumerable `context` `{ topic, field }` saying what was being written; TypeError
   * (code `INVALID_CONFIG`) without a serializer.
   */
  async encodeMessage(
    topic: string,
    message: {
      key?: K | string | Buffer | null
      value: V | null
      headers?: KafkaHeaders
      partition?: number
      timestamp?: string
    },
  ): Promise<OutgoingKafkaMessage> {
    const serializer = this.#serializer
    if (serializer === undefined) throw invalidConfigError('KafkaJsSerde: encodeMessage needs a serializer')
    const headers: KafkaHeaders = { ...(message.headers ?? {}) }
    const out: OutgoingKafkaMessage = { value: null, headers }
    if (message.partition !== undefined) out.partition = message.partition
    if (message.timestamp !== undefined) out.timestamp = message.timestamp
    if (message.key !== undefined && message.key !== null) {
      const key = message.key
      out.key = await this.#encodeKey(topic, key, headers).catch((error: unknown) => {
        throw withContext(error, topic, 'key')
      })
    } else if (message.key === null) out.key = null
    if (message.value !== null) {
      const written = await serializer
        .serializeMessage(message.value, contextFor(topic, 'value'))
        .catch((error: unknown) => {
          throw withContext(error, topic, 'value')
        })
      Object.assign(headers, toBuffers(written.headers))
      out.value = toBuffer(written.payload)
    }
    return out
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
    // The warm path: a string or bytes key and a value whose id is cached are decoded at once, with no Promise
    // until the one returned; anything needing a lookup takes the asynchronous path below.
    try {
      const decoded = this.#decodeNow(topic, partition, message)
      if (decoded !== undefined) return Promise.resolve(decoded)
    } catch (error) {
      return Promise.reject(error)
    }
    return this.#decodeLater(topic, partition, message)
  }

  #decodeNow(
    topic: string,
    partition: number,
    message: ConsumedKafkaMessage,
  ): DecodedMessage<V, K> | undefined {
    const deserializer = this.#deserializer
    if (!(deserializer instanceof AnyDeserializer)) return undefined
    const keys = this.#keys
    if (keys !== 'string' && keys !== 'bytes' && message.key !== null && message.key !== undefined)
      return undefined
    const headers = message.headers ?? {}
    let key: K | string | Buffer | null
    try {
      key = this.#plainKey(topic, message.key, headers)
    } catch (error) {
      throw located(error, topic, partition, message, 'key')
    }
    const decoded = decodedShell<V, K>(topic, partition, message, key, headers)
    if (message.value === null) return decoded
    let read: ReadNow<V> | undefined
    try {
      refuseRepeatedIdHeaders(topic, headers, 'value')
      read = readMessageNow(
        deserializer,
        { payload: message.value, headers: headers as MessageHeaders },
        contextFor(topic, 'value'),
      )
    } catch (error) {
      throw located(error, topic, partition, message, 'value')
    }
    if (read === undefined) return undefined
    decoded.value = read.value
    decoded.schema = { idType: read.idType, id: read.id, framed: read.framed, format: read.format }
    return decoded
  }

  async #decodeLater(
    topic: string,
    partition: number,
    message: ConsumedKafkaMessage,
  ): Promise<DecodedMessage<V, K>> {
    const headers = message.headers ?? {}
    let key: K | string | Buffer | null
    try {
      key = await this.#decodeKey(topic, message.key, headers)
    } catch (error) {
      throw located(error, topic, partition, message, 'key')
    }
    const decoded = decodedShell<V, K>(topic, partition, message, key, headers)
    if (message.value === null) return decoded
    const incoming: IncomingMessage = { payload: message.value, headers: headers as MessageHeaders }
    try {
      refuseRepeatedIdHeaders(topic, headers, 'value')
      decoded.value = await this.#deserializer.deserializeMessage(incoming, contextFor(topic, 'value'))
    } catch (error) {
      throw located(error, topic, partition, message, 'value')
    }
    const { idType, id, framed } = messageSchemaId(
      incoming,
      'value',
      this.#deserializer.useId ?? 'globalId',
      this.#deserializer.idSize ?? 4,
    )
    const format =
      this.#deserializer instanceof AnyDeserializer ? this.#deserializer.formatOf(id, idType) : undefined
    decoded.schema = { idType, id, framed, format }
    return decoded
  }

  /**
   * A KafkaJS `eachMessage` handler that decodes each message and calls `handler` with it (as `decoded`, beside
   * KafkaJS's own payload); a message that cannot be decoded goes to `deadLetter` (see {@link DeadLetterOptions}).
   */
  eachMessage(
    handler: (payload: DecodedMessagePayload<V, K>) => Promise<void>,
    options: DeadLetterOptions = {},
  ): (payload: EachMessagePayload) => Promise<void> {
    return async (payload) => {
      let decoded: DecodedMessage<V, K>
      try {
        decoded = await this.decodeMessage(payload.topic, payload.partition, payload.message)
      } catch (error) {
        await deadLetterOrThrow(error, payload.topic, payload.partition, payload.message, options)
        return
      }
      await handler({ ...payload, decoded })
    }
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
    return async (payload) => {
      const { topic, partition, messages } = payload.batch
      const decoded: DecodedMessage<V, K>[] = []
      let stop: { error: unknown } | undefined
      for (const message of messages) {
        try {
          decoded.push(await this.decodeMessage(topic, partition, message))
        } catch (error) {
          try {
            await deadLetterOrThrow(error, topic, partition, message, options)
          } catch (thrown) {
            stop = { error: thrown }
            break
          }
        }
      }
      await handler({ ...payload, decoded })
      if (stop !== undefined) throw stop.error
    }
  }

  async #encodeKey(topic: string, key: K | string | Buffer, headers: KafkaHeaders): Promise<Buffer> {
    const keys = this.#keys
    if (keys === 'string') {
      if (typeof key !== 'string')
        throw invalidConfigError(`KafkaJsSerde: keys are 'string', got ${typeof key}`)
      return Buffer.from(key, 'utf8')
    }
    if (keys === 'bytes') {
      if (!Buffer.isBuffer(key)) throw invalidConfigError(`KafkaJsSerde: keys are 'bytes', got ${typeof key}`)
      return key
    }
    if (keys.serializer === undefined)
      throw invalidConfigError('KafkaJsSerde: keys need a serializer to be written')
    const written = await keys.serializer.serializeMessage(key as K, contextFor(topic, 'key'))
    Object.assign(headers, toBuffers(written.headers))
    return toBuffer(written.payload)
  }

  /** A key read as a string or as bytes (`null` for none); keys with a serde are not read here. */
  #plainKey(topic: string, key: Buffer | null | undefined, headers: KafkaHeaders): string | Buffer | null {
    if (key === null || key === undefined) return null
    return this.#keys === 'string' ? stringKey(topic, key, headers) : key
  }

  async #decodeKey(
    topic: string,
    key: Buffer | null,
    headers: KafkaHeaders,
  ): Promise<K | string | Buffer | null> {
    if (key === null || key === undefined) return null
    const keys = this.#keys
    if (keys === 'string' || keys === 'bytes') return this.#plainKey(topic, key, headers)
    if (keys.deserializer === undefined)
      throw invalidConfigError('KafkaJsSerde: keys need a deserializer to be read')
    refuseRepeatedIdHeaders(topic, headers, 'key')
    return keys.deserializer.deserializeMessage(
      { payload: key, headers: headers as MessageHeaders },
      contextFor(topic, 'key'),
    )
  }
}

/**
 * A key read as text. A key written with a schema (an Apicurio frame, or an `apicurio.key.*` id header beside it)
 * would read as garbage: it is a `DeserializationError` (dead-lettered by the wrappers) naming the setting to change.
 */
function stringKey(topic: string, key: Buffer, headers: KafkaHeaders): string {
  const framed = key.length >= 5 && key[0] === 0
  const [globalId, contentId] = ID_HEADERS.key
  const header =
    headers[globalId] !== undefined ? globalId : headers[contentId] !== undefined ? contentId : undefined
  if (!framed && header === undefined) return key.toString('utf8')
  const error = new DeserializationError(
    `A key of topic '${topic}' was written with a schema (${header === undefined ? 'an Apicurio frame: 0x00 and an id' : `the header ${header}`}), but keys are read as strings: set keys to { deserializer } (or 'bytes')`,
  )
  throw recordFailedMessage(error, { payload: key, headers: headers as MessageHeaders })
}

/**
 * Records where the message that failed was consumed on a library error (`failedMessageOf`: topic and field, partition,
 * offset, and its bytes and headers when the deserializer did not record them); other errors pass untouched.
 */
function located(
  error: unknown,
  topic: string,
  partition: number,
  message: ConsumedKafkaMessage,
  field: 'key' | 'value',
): unknown {
  const payload = (field === 'key' ? message.key : message.value) ?? new Uint8Array(0)
  return recordFailedMessage(error, {
    payload,
    headers: (message.headers ?? {}) as MessageHeaders,
    context: { topic, field },
    partition,
    offset: message.offset,
  })
}

/**
 * Marks an error of writing `field` for `topic` with a non-enumerable `context` `{ topic, field }` (as a failed read
 * carries), unless it has one; anything not an object passes untouched.
 */
function withContext(error: unknown, topic: string, field: 'key' | 'value'): unknown {
  if (typeof error === 'object' && error !== null && !Object.hasOwn(error, 'context')) {
    Object.defineProperty(error, 'context', {
      value: { topic, field },
      enumerable: false,
      configurable: true,
      writable: false,
    })
  }
  return error
}

/**
 * An id header repeated with different values (`apicurio.value.globalId` twice, say, as a repeated Kafka header
 * arrives) names two schemas: which one wrote the message cannot be told, so it is a `DeserializationError`
 * (dead-lettered by the wrappers) rather than a guess. The same value repeated is read as one.
 */
/** A decoded message before its value is read: the value `null` (a tombstone stays so), no schema yet. */
function decodedShell<V, K>(
  topic: string,
  partition: number,
  message: ConsumedKafkaMessage,
  key: K | string | Buffer | null,
  headers: KafkaHeaders,
): DecodedMessage<V, K> {
  return {
    topic,
    partition,
    offset: message.offset,
    timestamp: message.timestamp,
    key,
    value: null,
    headers,
    schema: null,
  }
}

/** The id header names of each field, made once (a name concatenated per message costs a hash per lookup). */
const ID_HEADERS = {
  key: ['apicurio.key.globalId', 'apicurio.key.contentId'],
  value: ['apicurio.value.globalId', 'apicurio.value.contentId'],
} as const

function refuseRepeatedIdHeaders(topic: string, headers: KafkaHeaders, field: 'key' | 'value'): void {
  for (const name of ID_HEADERS[field]) {
    const value = headers[name]
    if (!Array.isArray(value) || value.length < 2) continue
    const distinct = new Set(value.map((one) => Buffer.from(one).toString('hex')))
    if (distinct.size < 2) continue
    // decodeMessage records the message (its bytes, headers, partition and offset) on the error.
    throw new DeserializationError(
      `A message of topic '${topic}' carries the header ${name} ${value.length} times with different ids (${[...distinct].map((hex) => `0x${hex}`).join(', ')}): which schema wrote its ${field} cannot be told`,
    )
  }
}

/** A message that will never decode: dead-letter it. Anything else (an outage, misuse) is thrown to the client. */
function isPoison(error: unknown): boolean {
  return isSerdeError(error, 'DESERIALIZATION') || isSerdeError(error, 'SCHEMA_NOT_FOUND')
}

async function deadLetterOrThrow(
  error: unknown,
  topic: string,
  partition: number,
  message: ConsumedKafkaMessage,
  options: DeadLetterOptions,
): Promise<void> {
  const target = options.deadLetter
  if (target === undefined || !isPoison(error)) throw error
  if (typeof target === 'function') {
    await target({ topic, partition, message, error })
    return
  }
  const code = (error as { code?: unknown }).code
  await target.producer.send({
    topic: target.topic,
    messages: [
      {
        key: message.key,
        value: message.value,
        headers: {
          ...(message.headers ?? {}),
          'x-serde-error-code': String(code),
          'x-serde-error-message': messageOf(error).slice(0, 1000),
          'x-serde-source': `${topic}/${partition}/${message.offset}`,
        },
      },
    ],
  })
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

function toBuffers(headers: Record<string, Uint8Array>): Record<string, Buffer> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, toBuffer(value)]))
}
