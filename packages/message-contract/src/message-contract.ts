import { invalidConfigError, isSerdeError, recordFailedMessage } from '@x/errors'
import {
  type FramedDecoder,
  type IncomingMessage,
  type MessageHeaders,
  messageSchemaId,
  type RulesOptions,
} from '@x/serde-core'
import type { IdType, MessageField, ReadIdSize, SchemaId, SerializationContext } from '@x/wire-format'
import {
  AnyDeserializer,
  type AnyDeserializerOptions,
  type DeserializedNow,
  type MessageSchema,
} from './any-deserializer.js'
import { contextFor } from './contexts.js'
import { applyIdHeaderRules, hasIdHeader } from './id-headers.js'
import { decodeKey, encodeKey, KEY_TYPES, type KeyLongs, type KeyType } from './key-types.js'

/** A serializer of any format, as the adapters use it (`AvroSerializer`, `JsonSchemaSerializer`, `ProtobufSerializer`, `AnySerializer`). */
export interface MessageSerializer<V> {
  serializeMessage(
    value: V,
    ctx: SerializationContext,
  ): Promise<{ payload: Uint8Array; headers: Record<string, Uint8Array> }>
}

/** A deserializer of any format, as the adapters use it (`AnyDeserializer`, or a format's own). */
export interface MessageDeserializer<V> {
  deserializeMessage(message: IncomingMessage, ctx: SerializationContext): Promise<V>
  /** The prepared path, when the deserializer has one (every deserializer of this family has). */
  deserializeMessageSync?(message: IncomingMessage, ctx: SerializationContext): V
  prepare?(schemaId: SchemaId, ctx?: SerializationContext, idType?: IdType): Promise<void>
  isPrepared?(schemaId: SchemaId, ctx?: SerializationContext, idType?: IdType): boolean
  readonly useId?: IdType
  /** How its frames' ids are read (every deserializer of this family says it); 4 when left out. */
  readonly idSize?: ReadIdSize
}

/**
 * How keys are written and read, the same in every adapter: one of Kafka's standard key types ({@link KeyType}, each
 * byte for byte as Java's serializer of that name), or a serde of their own. A key is read with a schema only when
 * an id header of the key (`apicurio.key.globalId` / `.contentId`, or Confluent 8's `__key_schema_id`) says so, or
 * when a serde is given (`{ serializer }` alone reads keys with an `AnyDeserializer`); never on a guess from its
 * bytes.
 */
export type KeyHandling<K> =
  | KeyType
  | { serializer?: MessageSerializer<K>; deserializer?: MessageDeserializer<K> }

/** What a key decodes to without a serde of its own. */
export type PlainKey = string | number | bigint | Buffer

/** Options of {@link MessageContract}. */
export interface MessageContractOptions<V, K> {
  /**
   * Writes values ({@link MessageContract.encodeValue}): a serializer of any format (`AnySerializer` writes each
   * topic's own).
   * @default none: values are not written
   */
  serializer?: MessageSerializer<V>
  /**
   * Reads values.
   * @default an `AnyDeserializer` on the client with `anyDeserializer`'s options: any format, framed or headers mode
   */
  deserializer?: MessageDeserializer<V>
  /**
   * Options of the `AnyDeserializer` that reads values (unless `deserializer` is given) and keys that name a
   * schema; its `longs` also says how a `'long'` key is given back (`'auto'`: a number when safe, else a bigint).
   * @default {}
   */
  anyDeserializer?: AnyDeserializerOptions<V>
  /**
   * Data-contract rules of the `AnyDeserializer` (values, and keys that name a schema): the same as
   * `anyDeserializer.rules`, which may not be given as well. A record a rule refuses is a `RuleViolationError`,
   * poison to `readErrorKind`.
   * @default off
   */
  rules?: RulesOptions
  /** How keys are written and read ({@link KeyHandling}). @default 'string' */
  keys?: KeyHandling<K>
  /**
   * Load Node's `fetch` (which Node loads when a process first uses it) and the format readers of the
   * `AnyDeserializer` that reads values (avsc, ajv, protobufjs) in the background, on the next turn of the event loop,
   * so that a consumer's first message waits for its schema's lookup only: once constructed, or, for a contract that
   * writes (a `serializer`, or `keys` with one: perhaps a producer's only), once an adapter binds a reader
   * ({@link MessageContract.preloadReaders}: a consumer's handler or deserializers), so that one that only writes
   * loads no reader. `false` loads each when a message first needs it. Nothing is loaded ahead when `deserializer` is given. The loading stops (between two
   * formats) when a message read or written first needs the registry, so that its lookup has the process to itself.
   * @default true
   */
  preload?: boolean
}

/**
 * Starts loading Node's `fetch`, then every format's reader, on the next turn of the event loop (unreferenced: it
 * keeps no process alive), until `signal` is aborted; a failure is left for the first message of that format to meet
 * again.
 */
function preloadSoon(any: AnyDeserializer<unknown>, signal: AbortSignal): void {
  setImmediate(() => {
    loadFetch()
    any.preload(undefined, { signal }).catch(() => {})
  }).unref()
}

/**
 * Makes Node load its `fetch` implementation (undici, 20–40 ms of CPU), which it does when a process first touches
 * `Headers`, `Request` or `fetch`: the registry client's first request would otherwise wait for it. Makes no request.
 */
function loadFetch(): void {
  try {
    if (typeof Headers === 'function') new Headers()
  } catch {
    // A runtime without a working `Headers` leaves the client to fail (or not) on its own first request.
  }
}

/** A message to write ({@link MessageContract.encodeMessage}). */
export interface MessageToWrite<V, K, H extends Record<string, unknown> = Record<string, unknown>> {
  /** The key, written as `keys` says; `null` is sent as no key. @default none: no key is set */
  key?: K | PlainKey | null
  /** The value; `null` is a tombstone. */
  value: V | null
  /** The message's headers (copied, never changed). @default none: `{}` */
  headers?: H | null
}

/** A message written ({@link MessageContract.encodeMessage}): the bytes of its key and value, and its headers. */
export interface WrittenMessage<H> {
  /** The key's bytes; `null` when the message was given a `null` key, not set when it was given none. */
  key?: Buffer | null
  /** The value's bytes (a frame, or the bare payload in headers mode); `null` for a tombstone. */
  value: Buffer | null
  /** A copy of the message's headers, with the id headers of headers mode added. */
  headers: H
}

/** A consumed message decoded: the same shape from every adapter and the CLI. */
export interface DecodedRecord<V, K, H = MessageHeaders> {
  /** The key as `keys` reads it; `null` when the message has none. */
  key: K | PlainKey | null
  /** The value; `null` for a tombstone (a message without a value: a deletion in a compacted topic). */
  value: V | null
  headers: H
  /**
   * Which schema wrote the value, and where its id was read; `null` for a tombstone. A frozen object; the frames of
   * an id read before on the topic share one.
   */
  schema: MessageSchema | null
}

/** One field of a message read: its value, and the schema that wrote it (`null` when none did). */
export interface FieldRead<T> {
  value: T
  schema: MessageSchema | null
}

const NOTHING: FieldRead<null> = Object.freeze({ value: null, schema: null }) as FieldRead<null>

/** A framed read of a field whose schema is prepared: its topic and frame id, and what decodes its payloads. */
export interface PreparedFrame {
  readonly topic: string
  readonly idType: IdType
  readonly id: number
}

/** The last framed read of a field, kept so that the next message of its topic and id decodes with no lookup. */
interface FrameMemo extends PreparedFrame {
  readonly decode: FramedDecoder<unknown>
  /** The schema every read of this frame gives: one frozen object, shared. */
  readonly schema: MessageSchema
}

/**
 * The one reading of a consumed message that every adapter and the CLI call: which deserializer reads each field
 * (values by any format; keys by their {@link KeyHandling}), the id header rules (a repeated id header with
 * different ids refused, Confluent 8's id header read), tombstones as `null`, and the decoded shape
 * `{ key, value, headers, schema }`. Errors carry the failed message (`failedMessageOf`: its bytes, headers, topic
 * and field); `readErrorKind` says which are poison.
 *
 * @typeParam V - The value type.
 * @typeParam K - The key type when keys have a serde of their own.
 */
export class MessageContract<V = unknown, K = never> {
  readonly #values: MessageDeserializer<V>
  readonly #serializer: MessageSerializer<V> | undefined
  readonly #any: AnyDeserializer<unknown>
  readonly #keys: KeyHandling<K>
  readonly #keyType: KeyType | undefined
  readonly #keyReader: MessageDeserializer<unknown> | undefined
  readonly #longs: KeyLongs
  /** Whether the background preload may no longer start: `preload: false`, or it was started or stopped (once at most). */
  #preloadDone: boolean
  /** Aborts the background preload once a message needs the registry: its lookup then has the process to itself. */
  #preloading: AbortController | undefined
  /** The last framed read of values and of keys (see {@link preparedFrameOf}). */
  #valueFrame: FrameMemo | undefined
  #keyFrame: FrameMemo | undefined

  /**
   * @param client - The registry client (`RegistryClient`) of the `AnyDeserializer`.
   * @throws TypeError (code `INVALID_CONFIG`) for `keys` that are neither a key type nor `{ serializer?,
   *   deserializer? }`, and what `AnyDeserializer` throws for its options.
   */
  constructor(client: unknown, options: MessageContractOptions<V, K> = {}) {
    const keys = options.keys ?? 'string'
    if (typeof keys === 'string' ? !KEY_TYPES.has(keys) : typeof keys !== 'object' || keys === null) {
      throw invalidConfigError(
        `keys must be one of ${[...KEY_TYPES].map((type) => `'${type}'`).join(', ')} or { serializer?, deserializer? }, got ${String(keys)}`,
      )
    }
    let anyOptions = options.anyDeserializer ?? {}
    if (options.rules !== undefined) {
      if (anyOptions.rules !== undefined) {
        throw invalidConfigError('give rules or anyDeserializer.rules, not both')
      }
      anyOptions = { ...anyOptions, rules: options.rules }
    }
    const any = new AnyDeserializer<V>(client, anyOptions)
    this.#any = any
    this.#values = options.deserializer ?? any
    this.#serializer = options.serializer
    this.#keys = keys
    this.#keyType = typeof keys === 'string' ? keys : undefined
    this.#keyReader = typeof keys === 'string' ? undefined : (keys.deserializer ?? any)
    this.#longs = anyOptions.longs ?? 'auto'
    this.#preloadDone = options.preload === false
    // A contract that writes (values, or keys with a serde) may be a producer's only: it waits for a reader's binding.
    if (options.serializer === undefined && (typeof keys === 'string' || keys.serializer === undefined))
      this.preloadReaders()
  }

  /** How keys are handled (the `keys` option). */
  get keys(): KeyHandling<K> {
    return this.#keys
  }

  /** The deserializer of values (the `deserializer` option, or the `AnyDeserializer`). */
  get valueDeserializer(): MessageDeserializer<V> {
    return this.#values
  }

  /**
   * A consumed message decoded at once when nothing needs the registry (the ids cached, keys without a schema or
   * cached too), else `undefined`: then {@link decode}.
   *
   * @throws what {@link decode} rejects with, for a message that cannot be read.
   */
  decodeNow<H extends object>(
    topic: string,
    key: Uint8Array | null | undefined,
    value: Uint8Array | null | undefined,
    headers: H,
  ): DecodedRecord<V, K, H> | undefined {
    const keyRead = this.readNow(topic, 'key', key, headers)
    if (keyRead === undefined) return undefined
    const valueRead = this.readNow(topic, 'value', value, headers)
    if (valueRead === undefined) return undefined
    return {
      key: keyRead.value as K | PlainKey | null,
      value: valueRead.value as V | null,
      headers,
      schema: valueRead.schema,
    }
  }

  /**
   * A consumed message decoded: its key, its value (any format, framed or headers mode), its headers and the schema
   * that wrote the value. A tombstone's value is `null`, as a missing key is.
   *
   * @throws (rejects) `DeserializationError` (a bad frame, a refused header, a key not of its type, bytes that do
   *   not match the schema), `SchemaNotFoundError`, or an outage, the failed message recorded on it.
   */
  async decode<H extends object>(
    topic: string,
    key: Uint8Array | null | undefined,
    value: Uint8Array | null | undefined,
    headers: H,
  ): Promise<DecodedRecord<V, K, H>> {
    const keyRead = await this.read(topic, 'key', key, headers)
    const valueRead = await this.read(topic, 'value', value, headers)
    return {
      key: keyRead.value as K | PlainKey | null,
      value: valueRead.value as V | null,
      headers,
      schema: valueRead.schema,
    }
  }

  /** One field read at once (see {@link decodeNow}), or `undefined` when it needs the registry first. */
  readNow(
    topic: string,
    field: MessageField,
    bytes: Uint8Array | null | undefined,
    headers: object | undefined,
  ): FieldRead<unknown> | undefined {
    if (bytes === null || bytes === undefined) return NOTHING
    const record = headers as MessageHeaders | undefined
    const reader = this.#readerOf(field, record)
    if (reader === undefined) return { value: this.#plainKey(topic, bytes, record), schema: null }
    // Warm: a frame of the id the field's last framed read had, on the same topic, decodes with what that read
    // prepared (the same decoding and errors as the path below, without its lookups).
    const frame = this.#frameOf(topic, field, bytes, record)
    if (frame !== undefined) {
      let value: unknown
      try {
        value = frame.decode(bytes, record)
      } catch (error) {
        throw located(error, bytes, record, topic, field)
      }
      return { value, schema: frame.schema }
    }
    const ctx = contextFor(topic, field)
    const message: IncomingMessage = { payload: bytes, headers: record }
    try {
      if (reader instanceof AnyDeserializer) {
        const read: DeserializedNow<unknown> | undefined = reader.deserializeMessageNow(message, ctx)
        // Once remembered, the read gives the frame's one frozen schema, as the next reads of that frame will.
        if (read?.schema.framed) {
          const frame = this.#remember(topic, field, reader, read.schema, ctx)
          if (frame !== undefined) return { value: read.value, schema: frame.schema }
        }
        return read
      }
      if (reader.deserializeMessageSync === undefined) return undefined
      const ruled = applyIdHeaderRules(message, field, reader.useId ?? 'globalId', topic)
      const value = reader.deserializeMessageSync(ruled, ctx)
      return { value, schema: schemaOf(reader, ruled, field) }
    } catch (error) {
      if (isSerdeError(error, 'NOT_PREPARED')) return undefined
      throw located(error, bytes, record, topic, field)
    }
  }

  /** One field read (see {@link decode}). */
  async read(
    topic: string,
    field: MessageField,
    bytes: Uint8Array | null | undefined,
    headers: object | undefined,
  ): Promise<FieldRead<unknown>> {
    if (bytes === null || bytes === undefined) return NOTHING
    const record = headers as MessageHeaders | undefined
    const reader = this.#readerOf(field, record)
    if (reader === undefined) return { value: this.#plainKey(topic, bytes, record), schema: null }
    this.stopPreloading()
    try {
      const ruled = applyIdHeaderRules(
        { payload: bytes, headers: record },
        field,
        reader.useId ?? 'globalId',
        topic,
      )
      const value = await reader.deserializeMessage(ruled, contextFor(topic, field))
      return { value, schema: schemaOf(reader, ruled, field) }
    } catch (error) {
      throw located(error, bytes, record, topic, field)
    }
  }

  /**
   * The schema id a field's read needs from the registry, or `undefined` when it needs none: no bytes, a key read
   * by its type, or a message the read refuses anyway (a bad frame, a refused header: reading it throws why).
   */
  idToPrepare(
    topic: string,
    field: MessageField,
    bytes: Uint8Array | null | undefined,
    headers: object | undefined,
  ): { idType: IdType; id: SchemaId } | undefined {
    if (bytes === null || bytes === undefined) return undefined
    const record = headers as MessageHeaders | undefined
    const reader = this.#readerOf(field, record)
    if (reader === undefined) return undefined
    const useId = reader.useId ?? 'globalId'
    try {
      const ruled = applyIdHeaderRules({ payload: bytes, headers: record }, field, useId, topic)
      const { idType, id } = messageSchemaId(ruled, field, useId, reader.idSize ?? 4)
      return { idType, id }
    } catch {
      return undefined
    }
  }

  /**
   * The field's prepared framed read when this message is a frame of its id on its topic (without an id header of
   * the field): then {@link readNow} decodes it with no lookup, and nothing needs the registry; else `undefined`
   * (which says nothing either way: {@link idToPrepare} and {@link isPrepared} tell). Makes no request.
   */
  preparedFrameOf(
    topic: string,
    field: MessageField,
    bytes: Uint8Array | null | undefined,
    headers: object | undefined,
  ): PreparedFrame | undefined {
    if (bytes === null || bytes === undefined) return undefined
    const record = headers as MessageHeaders | undefined
    if (this.#readerOf(field, record) === undefined) return undefined
    return this.#frameOf(topic, field, bytes, record)
  }

  /**
   * Whether the reader of `field` has the schema of an id cached (makes no request); when it has, the id becomes
   * that of the field's warm frames, as after {@link prepare}.
   */
  isPrepared(topic: string, field: MessageField, idType: IdType, id: SchemaId): boolean {
    const reader = field === 'value' ? this.#values : (this.#keyReader ?? this.#any)
    const ctx = contextFor(topic, field)
    if (reader.isPrepared?.(id, ctx, idType) !== true) return false
    this.#rememberPrepared(topic, field, reader, idType, id, ctx)
    return true
  }

  /**
   * Looks up and caches what the reader of `field` needs for an id (its format and schema), and makes it the id of
   * the field's warm frames (see {@link preparedFrameOf}), as the first read of a frame of it would: a client that
   * runs its hook over a whole fetch before reading any of it (Platformatic) then finds the fetch's other frames of
   * that id prepared at once.
   */
  async prepare(topic: string, field: MessageField, idType: IdType, id: SchemaId): Promise<void> {
    this.stopPreloading()
    const reader = field === 'value' ? this.#values : (this.#keyReader ?? this.#any)
    const ctx = contextFor(topic, field)
    await reader.prepare?.(id, ctx, idType)
    this.#rememberPrepared(topic, field, reader, idType, id, ctx)
  }

  /** Makes a prepared id that of the field's warm frames, unless it is already. */
  #rememberPrepared(
    topic: string,
    field: MessageField,
    reader: MessageDeserializer<unknown>,
    idType: IdType,
    id: SchemaId,
    ctx: SerializationContext,
  ): void {
    if (!(reader instanceof AnyDeserializer)) return
    const frame = field === 'value' ? this.#valueFrame : this.#keyFrame
    if (frame !== undefined && frame.topic === topic && frame.id === id && frame.idType === idType) return
    const format = reader.formatOf(id, idType)
    if (format !== undefined) this.#remember(topic, field, reader, { idType, id, framed: true, format }, ctx)
  }

  /**
   * The bytes of a key to send: by its key type, or by the key serde's serializer (whose id headers, in headers
   * mode, are added to `headers`). The same rule in every adapter: keys of a serde without a serializer are not
   * written (a key sent as raw text where a schema-written one is expected could not be read back), whatever the key.
   *
   * @throws TypeError (code `INVALID_CONFIG`) for a key not of the key type, or keys of a serde without a serializer;
   *   (rejects) the serializer's errors. Each error carries a non-enumerable `context` `{ topic, field: 'key' }`.
   */
  async encodeKey(topic: string, key: unknown, headers: Record<string, unknown>): Promise<Buffer> {
    try {
      const keys = this.#keys
      if (typeof keys === 'string') return encodeKey(keys, key)
      if (keys.serializer === undefined) throw noKeySerializer()
      this.stopPreloading()
      return written(await keys.serializer.serializeMessage(key as K, contextFor(topic, 'key')), headers)
    } catch (error) {
      throw writeContext(error, topic, 'key')
    }
  }

  /**
   * {@link encodeKey} without a Promise, for a client whose serializers are synchronous: by the key type, or by the
   * key serializer's prepared path (`serializeMessageSync`, once `prepare`d).
   *
   * @throws as {@link encodeKey} rejects; what the serializer's sync path throws (`NOT_PREPARED` before `prepare`).
   */
  encodeKeyNow(topic: string, key: unknown, headers: Record<string, unknown>): Buffer {
    try {
      const keys = this.#keys
      if (typeof keys === 'string') return encodeKey(keys, key)
      const serializer = keys.serializer as PreparedWrite<K> | undefined
      if (serializer === undefined) throw noKeySerializer()
      if (typeof serializer.serializeMessageSync !== 'function') {
        throw invalidConfigError(
          'keys written synchronously need a serializer of this family (serializeMessageSync)',
        )
      }
      return written(serializer.serializeMessageSync(key as K, contextFor(topic, 'key')), headers)
    } catch (error) {
      throw writeContext(error, topic, 'key')
    }
  }

  /**
   * The bytes of a value to send, by the `serializer` (a frame, or the bare payload with its id header added to
   * `headers` in headers mode).
   *
   * @throws (rejects) TypeError (code `INVALID_CONFIG`) without a serializer; the serializer's errors (a value of the
   *   wrong shape: TypeError, code `INVALID_DATA`, with the failing paths). Each error carries a non-enumerable
   *   `context` `{ topic, field: 'value' }`.
   */
  async encodeValue(topic: string, value: V, headers: Record<string, unknown>): Promise<Buffer> {
    try {
      if (this.#serializer === undefined) throw invalidConfigError('values need a serializer to be written')
      this.stopPreloading()
      return written(await this.#serializer.serializeMessage(value, contextFor(topic, 'value')), headers)
    } catch (error) {
      throw writeContext(error, topic, 'value')
    }
  }

  /**
   * A message's key, value and headers written: the one writing every adapter binds to its client. The caller's
   * headers are copied, never changed (the id headers of headers mode are added to the copy); the key is written by
   * {@link encodeKey} (`null` stays no key, a key left out is not set); the value by {@link encodeValue} (`null`
   * stays a tombstone). They are set on `into` (the client's own fields of the record, such as its partition,
   * already there; a new object when left out), which the Promise resolves to. A key of a key type is written
   * synchronously, so that the value's Promise is the only one waited for; a key written by its serializer is
   * written first, then the value.
   *
   * @throws (rejects) what {@link encodeKey} and {@link encodeValue} reject with.
   */
  encodeMessage<H extends Record<string, unknown>, R extends object = object>(
    topic: string,
    message: MessageToWrite<V, K, H>,
    into?: R,
  ): Promise<R & WrittenMessage<H>> {
    try {
      const given = message.headers
      const headers = (given === undefined || given === null ? {} : { ...given }) as H
      const out = (into ?? {}) as R & WrittenMessage<H>
      out.value = null
      out.headers = headers
      const key = message.key
      if (key === null) out.key = null
      else if (key !== undefined) {
        if (this.#keyType === undefined) return this.#encodeWithKey(topic, key, message.value, out)
        out.key = this.encodeKeyNow(topic, key, headers)
      }
      if (message.value === null) return Promise.resolve(out)
      return this.encodeValue(topic, message.value, headers).then((value) => {
        out.value = value
        return out
      })
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /** {@link encodeMessage} of a key written by its serializer: the key first, then the value. */
  async #encodeWithKey<O extends WrittenMessage<Record<string, unknown>>>(
    topic: string,
    key: K | PlainKey,
    value: V | null,
    out: O,
  ): Promise<O> {
    out.key = await this.encodeKey(topic, key, out.headers)
    if (value !== null) out.value = await this.encodeValue(topic, value, out.headers)
    return out
  }

  /** The key type keys are written and read as, or `undefined` for keys of a serde of their own. */
  get keyType(): KeyType | undefined {
    return this.#keyType
  }

  /**
   * Starts the background preload of the readers (see the `preload` option) when an adapter binds a reader: what a
   * contract that writes waits for. Once per contract: nothing with `preload: false`, when it was started or
   * stopped before, or when values have a deserializer of their own.
   */
  preloadReaders(): void {
    // Values read by a deserializer of their own: the AnyDeserializer's readers are not theirs to preload.
    if (this.#preloadDone || this.#values !== this.#any) return
    this.#preloadDone = true
    this.#preloading = new AbortController()
    preloadSoon(this.#any, this.#preloading.signal)
  }

  /**
   * Stops the background preload, for good: called when a message (read or written) first needs the registry, so
   * that its lookup has the process to itself; a reader not loaded yet is loaded when a message of its format comes.
   */
  stopPreloading(): void {
    this.#preloadDone = true
    if (this.#preloading !== undefined) {
      this.#preloading.abort()
      this.#preloading = undefined
    }
  }

  /** Who reads a field: the value deserializer; for keys, their serde, or the `AnyDeserializer` when an id header names the key's schema; `undefined` for a key read by its type. */
  #readerOf(
    field: MessageField,
    headers: MessageHeaders | undefined,
  ): MessageDeserializer<unknown> | undefined {
    if (field === 'value') return this.#values
    if (this.#keyReader !== undefined) return this.#keyReader
    return hasIdHeader(headers, 'key') ? this.#any : undefined
  }

  /** The field's last framed read when `bytes` is a frame (4-byte id) of its id on its topic, without an id header. */
  #frameOf(
    topic: string,
    field: MessageField,
    bytes: Uint8Array,
    headers: MessageHeaders | undefined,
  ): FrameMemo | undefined {
    const frame = field === 'value' ? this.#valueFrame : this.#keyFrame
    if (frame === undefined || bytes.length < 5 || bytes[0] !== 0 || frame.topic !== topic) return undefined
    if (bytes[1]! * 0x1000000 + ((bytes[2]! << 16) | (bytes[3]! << 8) | bytes[4]!) !== frame.id)
      return undefined
    return hasIdHeader(headers, field) ? undefined : frame
  }

  /** Keeps a framed read's decoder (when its reader offers one) for the next messages of the topic and id. */
  #remember(
    topic: string,
    field: MessageField,
    reader: AnyDeserializer<unknown>,
    schema: MessageSchema,
    ctx: SerializationContext,
  ): FrameMemo | undefined {
    const { idType, id, format } = schema
    if (reader.idSize !== 4 || typeof id !== 'number' || idType !== reader.useId) return undefined
    const decode = reader.framedDecoderOf(id, ctx)
    if (decode === undefined) return undefined
    const shared: MessageSchema = Object.freeze({ idType, id, framed: true, format })
    const frame: FrameMemo = Object.freeze({ topic, idType, id, decode, schema: shared })
    if (field === 'value') this.#valueFrame = frame
    else this.#keyFrame = frame
    return frame
  }

  #plainKey(topic: string, bytes: Uint8Array, headers: MessageHeaders | undefined): unknown {
    try {
      return decodeKey(this.#keyType!, bytes, this.#longs)
    } catch (error) {
      throw located(error, bytes, headers, topic, 'key')
    }
  }
}

/** The schema a deserializer read a message with (the id header rules already applied to `message`). */
function schemaOf(
  reader: MessageDeserializer<unknown>,
  message: IncomingMessage,
  field: MessageField,
): MessageSchema {
  const useId = reader.useId ?? 'globalId'
  const { idType, id, framed } = messageSchemaId(message, field, useId, reader.idSize ?? 4)
  const format = reader instanceof AnyDeserializer ? reader.formatOf(id, idType) : undefined
  return Object.freeze({ idType, id, framed, format })
}

/** Records the failed field (its bytes, the message's headers, topic and field) on a library error. */
function located(
  error: unknown,
  payload: Uint8Array,
  headers: MessageHeaders | undefined,
  topic: string,
  field: MessageField,
): unknown {
  return recordFailedMessage(error, { payload, headers: headers ?? {}, context: { topic, field } })
}

/** A serializer's prepared path, as {@link MessageContract.encodeKeyNow} uses it. */
interface PreparedWrite<K> {
  serializeMessageSync?(
    value: K,
    ctx: SerializationContext,
  ): { payload: Uint8Array; headers: Record<string, Uint8Array> }
}

function noKeySerializer(): TypeError {
  return invalidConfigError('keys need a serializer to be written (keys: { serializer })')
}

/** A written payload as bytes to send, its id headers (headers mode) added to `headers` as Buffers. */
function written(
  out: { payload: Uint8Array; headers: Record<string, Uint8Array> },
  headers: Record<string, unknown>,
): Buffer {
  for (const name in out.headers) headers[name] = toBuffer(out.headers[name]!)
  return toBuffer(out.payload)
}

/**
 * Marks an error of writing `field` for `topic` with a non-enumerable `context` `{ topic, field }` (as a failed read
 * carries), unless it has one; anything not an object passes untouched.
 */
function writeContext(error: unknown, topic: string, field: MessageField): unknown {
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

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
