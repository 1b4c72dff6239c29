import { invalidConfigError } from '@x/errors'
import {
  headerRecord,
  type KeyType,
  MessageContract,
  type MessageContractOptions,
  type MessageDeserializer,
  PreparedReads,
  type PreparedSerializer,
  PreparedWrites,
  routeDeadLetter,
} from '@x/message-contract'
import type { RegisteredSchema, RegistryOperation } from '@x/registry-client'
import type { IdType, MessageField, SchemaId } from '@x/wire-format'

const DESERIALIZING = Object.freeze({ operation: 'DESERIALIZE' as const })

/**
 * `@platformatic/kafka`'s `SchemaRegistry` (1.35 and 2.x share it), implemented on this family's serdes: its
 * asynchronous before-hooks look up and prepare what a message needs (single flight, the client's caches and
 * retries), then its synchronous serializers and deserializers do the per-message work with the `…Sync` paths.
 * The shapes are declared here, so that the client is not a dependency.
 */

/** The callback of Platformatic's hooks. */
export type PlatformaticHookCallback = (error: Error | null) => void

/** A message Platformatic is about to produce, as its hooks and serializers see it. */
export interface PlatformaticMessageToProduce {
  topic: string
  key?: unknown
  value?: unknown
  headers?: Map<unknown, unknown> | Record<string, unknown>
  metadata?: unknown
}

/** A record Platformatic consumed, as its hooks and deserializers see it. */
export interface PlatformaticMessageToConsume {
  topic: string
  partition?: number
  key?: Buffer | null
  value?: Buffer | null
  /**
   * The record's raw `[name, value]` pairs, as 1.35 hands them to the hooks and (in the record it passes third) to
   * the deserializers: a repeated header shows every value. A `Map` (what 1.35 builds for its deserializers' second
   * argument) holds one value per name, the last: a repeat cannot be seen there.
   */
  headers?: Map<unknown, unknown> | [Buffer | null, Buffer | null][]
  metadata?: Record<string, unknown>
}

/**
 * Options of {@link ApicurioSchemaRegistry}: the message contract's reading options (`anyDeserializer`, `rules`,
 * `preload`: values read by an `AnyDeserializer` of any format), the serializers, and where poison records go.
 */
export interface ApicurioSchemaRegistryOptions<V>
  extends Pick<MessageContractOptions<V, unknown>, 'anyDeserializer' | 'rules' | 'preload'> {
  /**
   * Writes values: a serializer of any format, whose artifact strategy chooses the artifact from the topic; framed
   * or in headers mode as it is set (headers mode adds the id header to the message's headers).
   * @default none: values are not serialized by the registry (a producer without one sends Buffers as they are)
   */
  serializer?: PreparedSerializer<V>
  /**
   * Keys, as in every adapter (see `KeyHandling`): a standard key type, or `{ serializer?, deserializer? }` for keys
   * written with a schema (`{ serializer }` alone reads them with an `AnyDeserializer`); a key write without a
   * serializer is a `TypeError` (`INVALID_CONFIG`).
   * @default 'string'
   */
  keys?: KeyType | { serializer?: PreparedSerializer<unknown>; deserializer?: MessageDeserializer<unknown> }
  /** @deprecated Use `keys: { serializer }`. */
  keySerializer?: PreparedSerializer<unknown>
  /** @deprecated Use `keys: {}` (or `{ serializer }`): keys read with a schema. */
  keysWithSchema?: boolean
  /**
   * Where the handlers of {@link ApicurioSchemaRegistry.getDeserializationErrorHandler} (2.x) and
   * {@link ApicurioSchemaRegistry.getCorruptedMessageHandler} (1.35) send a record that cannot be decoded (a poison
   * record, as `readErrorKind` says): a function, or a topic sent to with a producer that writes Buffers as they are
   * (no registry, no serializers), with the record's key, value and headers (names and values as Buffers; the last
   * value of a repeated one: a produced message's headers are a Map) and the `x-serde-*` headers every adapter adds.
   * @default none: Platformatic ends the stream with the error, as without the handler
   */
  deadLetter?:
    | ((dead: PlatformaticDeadLetter) => Promise<void> | void)
    | { producer: PlatformaticProducer; topic: string }
}

/** A record the registry's handlers route to `deadLetter`: where it was consumed, as it came. */
export interface PlatformaticDeadLetter {
  topic: string
  partition: number
  offset: string
  /** The record as consumed: its key, value and raw header pairs untouched. */
  record: PlatformaticRecord
  /** Why: a `DeserializationError`, a `SchemaNotFoundError` or a `RuleViolationError` (see `failedMessageOf`). */
  error: unknown
}

/** What Platformatic 2.x hands its `onDeserializationError` handler (the fields the registry's handler reads). */
export interface PlatformaticDeserializationErrorContext {
  /** What the deserializer threw (ours, as thrown), or what the before-deserialization hook failed with. */
  error: unknown
  /** The record as consumed: its key, value and raw header pairs. */
  record: PlatformaticRecord
  /** The topic it was consumed from. */
  topic: string
  /** The partition it was consumed from. */
  partition: number
  /** The record's offset. */
  offset: bigint
}

/** A raw record as Platformatic hands it to `onCorruptedMessage` and `onDeserializationError`. */
export interface PlatformaticRecord {
  key: Buffer | null
  value: Buffer | null
  headers: [Buffer | null, Buffer | null][]
  offsetDelta: number
}

/** What a dead-letter topic is sent through: a Platformatic `Producer` without serializers. */
export interface PlatformaticProducer {
  send(options: {
    messages: { topic: string; key?: Buffer | null; value?: Buffer | null; headers?: Map<Buffer, Buffer> }[]
  }): Promise<unknown>
}

/** The client calls `get` and `fetch` make. */
interface SchemaLookups {
  getSchemaByGlobalId(id: SchemaId, options?: { operation?: RegistryOperation }): Promise<RegisteredSchema>
  getSchemaByContentId(id: SchemaId, options?: { operation?: RegistryOperation }): Promise<RegisteredSchema>
  peekSchemaById?(idType: IdType, id: SchemaId): RegisteredSchema | undefined
}

/**
 * A `SchemaRegistry` for `@platformatic/kafka`'s `Producer` and `Consumer` (`new Producer({ …, registry })`), on
 * Apicurio Registry 3: values (and keys, optionally) written by a serializer of any format with the artifact its
 * strategy picks from the topic, read in any format by an {@link AnyDeserializer}. A consumed message's
 * `metadata.schemas` says which schema wrote its key and value ({@link ConsumedSchema}).
 */
export class ApicurioSchemaRegistry<V = unknown> {
  readonly #client: SchemaLookups
  readonly #contract: MessageContract<V, unknown>
  readonly #deadLetter: ApicurioSchemaRegistryOptions<V>['deadLetter']
  /** What the hook prepares and the serializers write (the contract's prepare-then-write binding). */
  readonly #writes: PreparedWrites<V>
  /** What the hook prepares and the deserializers read (the contract's prepare-then-read binding). */
  readonly #reads: PreparedReads<V, unknown>

  /** @param client - The registry client (`RegistryClient`) the serdes share. */
  constructor(client: unknown, options: ApicurioSchemaRegistryOptions<V> = {}) {
    const keySerializer =
      typeof options.keys === 'object' && options.keys !== null
        ? options.keys.serializer
        : options.keySerializer
    const keys =
      options.keys ??
      (options.keysWithSchema === true || keySerializer !== undefined
        ? keySerializer === undefined
          ? {}
          : { serializer: keySerializer }
        : 'string')
    try {
      this.#contract = new MessageContract<V, unknown>(client, {
        keys,
        ...(options.anyDeserializer === undefined ? {} : { anyDeserializer: options.anyDeserializer }),
        ...(options.rules === undefined ? {} : { rules: options.rules }),
        // A contract that writes preloads the readers when a consumer takes the deserializers, not for a producer.
        ...(options.serializer === undefined ? {} : { serializer: options.serializer }),
        ...(options.preload === undefined ? {} : { preload: options.preload }),
      })
      this.#writes = new PreparedWrites(this.#contract, { value: options.serializer, key: keySerializer })
    } catch (error) {
      if (error instanceof TypeError) error.message = `ApicurioSchemaRegistry: ${error.message}`
      throw error
    }
    this.#client = client as SchemaLookups // checked by AnyDeserializer
    this.#reads = new PreparedReads(this.#contract, client)
    this.#deadLetter = options.deadLetter
  }

  /** The registered schema of a globalId when the client has it cached, else `undefined` (see `fetch`). */
  get(id: SchemaId): RegisteredSchema | undefined {
    return this.#client.peekSchemaById?.('globalId', id)
  }

  /**
   * Fetches (and caches) the schema of a globalId; with `callback`, calls it when done (with no argument, or the
   * error: Platformatic's `fetch` callback takes no `null`), else returns a Promise.
   */
  fetch(id: SchemaId, callback?: (error?: Error) => void): void | Promise<void> {
    // Platformatic fetches a schema it has not got to read a message: a deserialization, for the usage telemetry.
    const done = this.#client.getSchemaByGlobalId(id, DESERIALIZING).then(() => undefined)
    if (callback === undefined) return done
    done.then(
      () => callback(),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
    )
  }

  /**
   * The schema id of a framed payload (its id read as the value deserializer's `useId`), or of a message this
   * registry has written in headers mode; `undefined` when there is none. Platformatic's clients do not call it.
   */
  getSchemaId(
    payload: Buffer | PlatformaticMessageToProduce | null,
    type: string = 'value',
  ): SchemaId | undefined {
    if (payload === null) return undefined
    return this.#writes.schemaIdOf(payload, type === 'key' ? 'key' : 'value')
  }

  /**
   * The synchronous serializers: values by their serializer (prepared by the hook), keys by their key type or
   * serializer, headers as bytes.
   */
  getSerializers() {
    const write =
      (field: MessageField) =>
      (data?: unknown, _headers?: unknown, message?: PlatformaticMessageToProduce): Buffer | undefined => {
        if (data === undefined || data === null) return undefined
        return this.#writes.writeNow(message?.topic ?? '', field, data, message) ?? textOrBytes(data, field)
      }
    return {
      key: write('key'),
      value: write('value'),
      headerKey: (data?: unknown) => (data === undefined ? undefined : textOrBytes(data, 'header name')),
      headerValue: (data?: unknown) => (data === undefined ? undefined : textOrBytes(data, 'header value')),
    }
  }

  /**
   * The synchronous deserializers: keys and values as the message contract reads them (their schemas fetched by
   * the hook). A tombstone's value (and a missing key) is `null`, as in every adapter.
   */
  getDeserializers() {
    this.#contract.preloadReaders()
    const read =
      (field: MessageField) =>
      (data?: Buffer, headers?: Map<unknown, unknown>, message?: PlatformaticMessageToConsume): unknown => {
        if (data === undefined || data === null) return null
        const topic = message?.topic ?? ''
        // The record's own header pairs keep a repeated header (the Map Platformatic builds keeps its last value).
        return this.#reads.read(topic, field, data, headerRecord(message?.headers ?? headers), message)
      }
    return {
      key: read('key'),
      value: read('value'),
      headerKey: (data?: Buffer) => data?.toString('utf8'),
      headerValue: (data?: Buffer) => data,
    }
  }

  /**
   * A handler for Platformatic 2.x's `onDeserializationError` (`consumer.consume({ …, onDeserializationError })`),
   * called for a record the deserializers refused or whose before-deserialization hook failed. A refused record's
   * topic, partition, offset and payload are recorded on its error (`failedMessageOf`), and a poison one goes to
   * `deadLetter` (see {@link ApicurioSchemaRegistryOptions.deadLetter}) and is skipped (`'skip'`). Anything else (no
   * `deadLetter`, a hook's outage, a dead-letter function that throws at once) is `'fail'`, as Platformatic's default:
   * the stream ends with a `UserError` whose `cause` is the record's error (a hook's error itself). Platformatic
   * takes the action synchronously, not a Promise: the stream moves on while the dead-letter function or send runs,
   * and one that fails is left unhandled (Node stops the process by default), since the record is already behind it.
   */
  getDeserializationErrorHandler(): (context: PlatformaticDeserializationErrorContext) => 'skip' | 'fail' {
    return ({ record, topic, partition, offset }) =>
      this.#routeRefused(record, topic, partition, String(offset)) ? 'skip' : 'fail'
  }

  /**
   * A handler for Platformatic's `onCorruptedMessage` (1.35; deprecated in 2.x for
   * {@link getDeserializationErrorHandler}), called for a record the deserializers refused: it routes the record as
   * `getDeserializationErrorHandler` does, and returns `false` (skip) for one sent to `deadLetter`, else `true` (end
   * the stream with the error). It is synchronous too: a dead-letter send that fails is left unhandled.
   */
  getCorruptedMessageHandler(): (
    record: PlatformaticRecord,
    topic: string,
    partition: number,
    firstTimestamp: bigint,
    firstOffset: bigint,
  ) => boolean {
    return (record, topic, partition, _firstTimestamp, firstOffset) =>
      !this.#routeRefused(record, topic, partition, String(firstOffset + BigInt(record.offsetDelta)))
  }

  /**
   * Records where a record was consumed on the error the deserializers refused it with, and sends a poison one to
   * `deadLetter`. Whether it went there: not for a record not refused (a failed hook: an outage), without
   * `deadLetter`, for an error that is not poison, or a dead-letter function (or send) that throws at once.
   */
  #routeRefused(record: PlatformaticRecord, topic: string, partition: number, offset: string): boolean {
    const error = this.#reads.refusedOf(
      topic,
      partition,
      offset,
      record.key,
      record.value,
      headerRecord(record.headers),
    )
    if (error === undefined) return false
    try {
      const routed = routeDeadLetter(
        error,
        this.#deadLetter,
        () => ({ topic, partition, offset, record, error }),
        { topic, partition, offset },
        (producer, to, added) => {
          const named = new Map<string, Buffer>()
          for (const [name, value] of record.headers)
            if (name !== null && value !== null) named.set(name.toString('utf8'), value)
          for (const name in added) named.set(name, Buffer.from(added[name]!, 'utf8'))
          // Names as bytes too: a producer without serializers writes a header's name as it is given.
          const headers = new Map<Buffer, Buffer>()
          for (const [name, value] of named) headers.set(Buffer.from(name, 'utf8'), value)
          return producer.send({ messages: [{ topic: to, key: record.key, value: record.value, headers }] })
        },
      )
      return routed !== undefined
    } catch {
      return false
    }
  }

  /**
   * Before a message is produced: prepares its value's (and key's) serializer for the topic — the artifact looked
   * up or registered once, then cached — and in headers mode writes the payload and adds its id header. Once the
   * serializer is prepared for the topic it calls back at once, as Platformatic's own registry does (in a microtask
   * when many such callbacks already run inside one another: Platformatic 1.35 calls the next hook from inside one).
   */
  getBeforeSerializationHook() {
    return (
      payload: unknown,
      type: string,
      message: PlatformaticMessageToProduce,
      callback: PlatformaticHookCallback,
    ): void => {
      this.#writes.prepareField(type, payload, message, callback)
    }
  }

  /**
   * Before a record is deserialized: learns the format of its value's (and key's, when it names a schema) schema
   * id and fetches the schema, once per id. A message that cannot be read (a bad frame, an unknown id) is left to
   * the synchronous deserializer to refuse, so that Platformatic reports it for that message (set
   * `onDeserializationError` on `consume()` to go on past it); an outage fails the fetch. A record that needs
   * nothing fetched is called back at once, as Platformatic's own registry does.
   */
  getBeforeDeserializationHook() {
    this.#contract.preloadReaders()
    return (
      payload: Buffer | null,
      type: string,
      message: PlatformaticMessageToConsume,
      callback: PlatformaticHookCallback,
    ): void => this.#reads.prepareField(message.topic, type, payload, message.headers, callback)
  }
}

function textOrBytes(data: unknown, what: string): Buffer {
  if (Buffer.isBuffer(data)) return data
  if (typeof data === 'string') return Buffer.from(data, 'utf8')
  throw invalidConfigError(
    `ApicurioSchemaRegistry: a ${what} without a serializer must be a string or a Buffer, got ${typeof data}`,
  )
}
