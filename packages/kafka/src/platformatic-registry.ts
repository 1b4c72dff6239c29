import { invalidConfigError, recordFailedMessage, SerdeError } from '@x/errors'
import {
  type AnyDeserializerOptions,
  contextFor,
  encodeKey,
  type KeyType,
  MessageContract,
  type MessageDeserializer,
  type MessageSchema,
  type MessageSerializer,
  readErrorKind,
} from '@x/message-contract'
import type { ArtifactCoordinates, RegisteredSchema } from '@x/registry-client'
import type { MessageHeaders, RulesOptions } from '@x/serde-core'
import { fetchById } from '@x/serde-core/internal'
import type { IdType, SchemaId, SerializationContext } from '@x/wire-format'
import { LRUCache } from 'lru-cache'

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
  /** A Map (1.35), or the record's raw `[name, value]` pairs (2.x). */
  headers?: Map<unknown, unknown> | [Buffer | null, Buffer | null][]
  metadata?: Record<string, unknown>
}

/**
 * A serializer of any format, with the prepared (synchronous) path the registry's serializers use (every serializer
 * of this family, `AnySerializer` included).
 */
export interface PreparedSerializer<V> extends MessageSerializer<V> {
  prepare(ctx?: SerializationContext): Promise<void>
  serializeSync(value: V, ctx: SerializationContext): Uint8Array
  serializeMessageSync(
    value: V,
    ctx: SerializationContext,
  ): { payload: Uint8Array; headers: Record<string, Uint8Array> }
  readonly wireFormat: string
}

/** Options of {@link ApicurioSchemaRegistry}. */
export interface ApicurioSchemaRegistryOptions<V> {
  /**
   * Writes values: a serializer of any format, whose artifact strategy chooses the artifact from the topic; framed
   * or in headers mode as it is set (headers mode adds the id header to the message's headers).
   * @default none: values are not serialized by the registry (a producer without one sends Buffers as they are)
   */
  serializer?: PreparedSerializer<V>
  /**
   * Keys, as in every adapter: one of Kafka's standard key types, read and written byte for byte as Java's
   * serializers (`'string'`, `'bytes'`, `'long'`, `'int'`, `'short'`, `'double'`, `'float'`, `'uuid'`; a Buffer is
   * sent as it is), or `{ serializer?, deserializer? }` for keys written with a schema (`{ serializer }` alone reads
   * them with an `AnyDeserializer`). A key is read with a schema only when an `apicurio.key.*` id header says so.
   * @default 'string'
   */
  keys?: KeyType | { serializer?: PreparedSerializer<unknown>; deserializer?: MessageDeserializer<unknown> }
  /** @deprecated Use `keys: { serializer }`. */
  keySerializer?: PreparedSerializer<unknown>
  /**
   * Options of the `AnyDeserializer` that reads values (any format, framed or headers mode) and keys that name a
   * schema: `idSize: 8` for a topic of Apicurio 2.x frames, `'auto'` for one that holds both widths.
   * @default {}
   */
  anyDeserializer?: AnyDeserializerOptions<V>
  /**
   * Data-contract rules of the `AnyDeserializer` (as `anyDeserializer.rules`, which may not be given as well): the
   * `READ` rules run on each decoded record; a record they refuse makes the deserializer throw `RuleViolationError`.
   * Rules on write are the serializer's own option (`new AnySerializer(client, { rules })`): a refused value fails
   * the send and nothing is sent.
   * @default off
   */
  rules?: RulesOptions
  /** @deprecated Use `keys: {}` (or `{ serializer }`): keys read with a schema. */
  keysWithSchema?: boolean
  /**
   * Load the format readers of the `AnyDeserializer` (avsc, ajv, protobufjs) in the background once constructed, so
   * that a consumer's first message of a format waits for its schema's lookup only; `false` loads each when a
   * message of its format first arrives.
   * @default true
   */
  preload?: boolean
}

/** What the registry puts on a consumed message's `metadata.schemas`: which schema wrote each field. */
export interface ConsumedSchema extends MessageSchema {
  /**
   * Where the id lives (group, artifact, version), looked up once per id by the hook (`findVersionOfId`); absent
   * when the registry lists no version with it, or the client cannot tell.
   */
  readonly artifact?: ArtifactCoordinates
}

type Field = 'key' | 'value'

/** A frozen `metadata.schemas` and what it was made of: the frozen one it extends (if any) and the field's schema. */
interface MadeSchemas {
  base: Readonly<Record<string, ConsumedSchema>> | undefined
  schema: ConsumedSchema | undefined
  schemas: Readonly<Record<string, ConsumedSchema>> | undefined
}

/** The schema id of a consumed key or value. */
interface ConsumedId {
  idType: IdType
  id: SchemaId
}

/** The client calls `get` and `fetch` make. */
interface SchemaLookups {
  getSchemaByGlobalId(id: SchemaId): Promise<RegisteredSchema>
  getSchemaByContentId(id: SchemaId): Promise<RegisteredSchema>
  peekSchemaById?(idType: IdType, id: SchemaId): RegisteredSchema | undefined
  findVersionOfId?(id: SchemaId, idType: IdType): Promise<ArtifactCoordinates | undefined>
}

/** How many ids' coordinates the registry keeps, the least recently used going first (the client caches them too). */
const MAX_ARTIFACTS = 1000

/**
 * How many warm hook callbacks may run inside one another before one is deferred to a microtask. Platformatic 2.x
 * runs its hooks in a loop that returns from a synchronous callback at once (depth 1); 1.35 calls the next hook from
 * inside the callback, so that a fetch of thousands of records would otherwise nest thousands of calls deep.
 */
const MAX_SYNC_CALLBACKS = 32

/**
 * A `SchemaRegistry` for `@platformatic/kafka`'s `Producer` and `Consumer` (`new Producer({ …, registry })`), on
 * Apicurio Registry 3: values (and keys, optionally) written by a serializer of any format with the artifact its
 * strategy picks from the topic, read in any format by an {@link AnyDeserializer}. A consumed message's
 * `metadata.schemas` says which schema wrote its key and value ({@link ConsumedSchema}).
 */
export class ApicurioSchemaRegistry<V = unknown> {
  readonly #client: SchemaLookups
  readonly #serializer: PreparedSerializer<V> | undefined
  readonly #keySerializer: PreparedSerializer<unknown> | undefined
  readonly #contract: MessageContract<V, unknown>
  /** Payloads written in headers mode by the hook, taken by the synchronous serializer of the same message. */
  readonly #written = new WeakMap<object, Partial<Record<Field, Buffer>>>()
  /** Where each consumed id lives (null: nowhere the registry lists), found by the hook for the deserializers. */
  readonly #artifacts: Record<IdType, LRUCache<SchemaId, ArtifactCoordinates | 'none'>> = {
    globalId: new LRUCache({ max: MAX_ARTIFACTS }),
    contentId: new LRUCache({ max: MAX_ARTIFACTS }),
  }
  /** Why the hook could not prepare a consumed payload (an unknown id…): its deserializer throws it. */
  readonly #unreadable = new WeakMap<Buffer, unknown>()
  /** Whether anything was ever put in #unreadable (until then the deserializers skip its lookup). */
  #anyUnreadable = false
  /** The id whose coordinates were read last, and what they were: most topics carry one id at a time. */
  #lastArtifactIdType: IdType | undefined
  #lastArtifactId: SchemaId | undefined
  #lastArtifact: ArtifactCoordinates | 'none' | undefined
  /** For each field, the contract's shared schema of the frames read last, and the frozen entry made of it. */
  readonly #consumed: Record<
    Field,
    { schema: MessageSchema | undefined; consumed: ConsumedSchema | undefined }
  > = {
    key: { schema: undefined, consumed: undefined },
    value: { schema: undefined, consumed: undefined },
  }
  /** The frozen `metadata.schemas` made last for each field, and what it was made of (see #schemasWith). */
  readonly #schemasMade: Record<Field, MadeSchemas> = {
    key: { base: undefined, schema: undefined, schemas: undefined },
    value: { base: undefined, schema: undefined, schemas: undefined },
  }
  /** How many warm hook callbacks are running inside one another now (see MAX_SYNC_CALLBACKS). */
  #callbacks = 0

  /** @param client - The registry client (`RegistryClient`) the serdes share. */
  constructor(client: unknown, options: ApicurioSchemaRegistryOptions<V> = {}) {
    const keySerializer =
      typeof options.keys === 'object' && options.keys !== null
        ? options.keys.serializer
        : options.keySerializer
    for (const [name, serializer] of [
      ['serializer', options.serializer],
      ['keys.serializer', keySerializer],
    ] as const) {
      if (
        serializer !== undefined &&
        (typeof serializer !== 'object' || typeof serializer.prepare !== 'function')
      ) {
        throw invalidConfigError(`ApicurioSchemaRegistry: ${name} must be a serializer of this family`)
      }
    }
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
        ...(options.preload === undefined ? {} : { preload: options.preload }),
      })
    } catch (error) {
      if (error instanceof TypeError) error.message = `ApicurioSchemaRegistry: ${error.message}`
      throw error
    }
    this.#client = client as SchemaLookups // checked by AnyDeserializer
    this.#serializer = options.serializer
    this.#keySerializer = keySerializer
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
    const done = this.#client.getSchemaByGlobalId(id).then(() => undefined)
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
    if (Buffer.isBuffer(payload)) return this.#contract.idToPrepare('', 'value', payload, undefined)?.id
    const field: Field = type === 'key' ? 'key' : 'value'
    const headers =
      payload.headers instanceof Map ? Object.fromEntries(payload.headers) : (payload.headers ?? {})
    const written = this.#written.get(payload)?.[field]
    if (written === undefined) return undefined
    return this.#contract.idToPrepare(payload.topic, field, written, headers)?.id
  }

  /**
   * The synchronous serializers: values by their serializer (prepared by the hook), keys by their key type or
   * serializer, headers as bytes.
   */
  getSerializers() {
    const keyType = this.#contract.keyType
    const write =
      (field: Field) =>
      (data?: unknown, _headers?: unknown, message?: PlatformaticMessageToProduce): Buffer | undefined => {
        if (data === undefined || data === null) return undefined
        const serializer = field === 'value' ? this.#serializer : this.#keySerializer
        if (serializer === undefined) {
          if (field === 'key' && keyType !== undefined) return encodeKey(keyType, data)
          return textOrBytes(data, field)
        }
        const stashed = message === undefined ? undefined : this.#written.get(message)?.[field]
        if (stashed !== undefined) return stashed
        return toBuffer(serializer.serializeSync(data as V, contextFor(message?.topic ?? '', field)))
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
    const read =
      (field: Field) =>
      (data?: Buffer, headers?: Map<unknown, unknown>, message?: PlatformaticMessageToConsume): unknown => {
        if (data === undefined || data === null) return null
        const topic = message?.topic ?? ''
        // The record's own header pairs keep a repeated header (the Map Platformatic builds keeps its last value).
        const record = headerRecord(message?.headers ?? headers)
        if (this.#anyUnreadable) {
          const unreadable = this.#unreadable.get(data)
          if (unreadable !== undefined) throw failedIn(unreadable, topic, field, data, record, message)
        }
        let read: ReturnType<MessageContract<V, unknown>['readNow']>
        try {
          read = this.#contract.readNow(topic, field, data, record)
        } catch (error) {
          throw failedIn(error, topic, field, data, record, message)
        }
        if (read === undefined) {
          throw new SerdeError(
            'NOT_PREPARED',
            `The schema of this ${field} of topic '${topic}' is not cached: the registry's before-deserialization hook prepares it (set registry on the consumer)`,
          )
        }
        if (read.schema !== null && message !== undefined) {
          this.#putSchema(message, field, this.#consumedSchemaOf(field, read.schema))
        }
        return read.value
      }
    return {
      key: read('key'),
      value: read('value'),
      headerKey: (data?: Buffer) => data?.toString('utf8'),
      headerValue: (data?: Buffer) => data,
    }
  }

  /**
   * Before a message is produced: prepares its value's (and key's) serializer for the topic — the artifact looked
   * up or registered once, then cached — and in headers mode writes the payload and adds its id header. Always
   * calls back asynchronously (Platformatic 1.35 recurses on synchronous callbacks).
   */
  getBeforeSerializationHook() {
    return (
      payload: unknown,
      type: string,
      message: PlatformaticMessageToProduce,
      callback: PlatformaticHookCallback,
    ): void => {
      settle(this.#beforeSerialization(payload, type, message), callback)
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
    return (
      payload: Buffer | null,
      type: string,
      message: PlatformaticMessageToConsume,
      callback: PlatformaticHookCallback,
    ): void => {
      // Warm (nothing to fetch): called back at once, without the Promises of a lookup.
      if ((type !== 'key' && type !== 'value') || payload === null || payload === undefined) {
        this.#warmCallback(callback)
        return
      }
      const field: Field = type
      const headers = headerRecord(message.headers)
      // A frame of the id the last read of this field prepared, on the same topic: ready, unless its coordinates
      // are still to be looked up.
      const frame = this.#contract.preparedFrameOf(message.topic, field, payload, headers)
      if (
        frame !== undefined &&
        (this.#client.findVersionOfId === undefined || this.#artifactOf(frame.idType, frame.id) !== undefined)
      ) {
        this.#warmCallback(callback)
        return
      }
      const found = this.#contract.idToPrepare(message.topic, field, payload, headers)
      if (found === undefined || this.#isReady(message.topic, field, found)) this.#warmCallback(callback)
      else settle(this.#prepareConsumed(message.topic, field, found, payload), callback)
    }
  }

  /**
   * Calls a hook's callback for a message that needs nothing fetched: synchronously, as Platformatic's own registry
   * does, unless MAX_SYNC_CALLBACKS such callbacks already run inside one another (a client that calls the next hook
   * from inside the callback), then in a microtask, which ends the nesting.
   */
  #warmCallback(callback: PlatformaticHookCallback): void {
    if (this.#callbacks >= MAX_SYNC_CALLBACKS) {
      queueMicrotask(() => callback(null))
      return
    }
    this.#callbacks++
    try {
      callback(null)
    } finally {
      this.#callbacks--
    }
  }

  /**
   * What a read's schema becomes on `metadata.schemas`: a frozen copy with its artifact added. The copy of the
   * schema the contract shares among the frames of one id is made once its artifact is known, and shared too.
   */
  #consumedSchemaOf(field: Field, schema: MessageSchema): ConsumedSchema {
    const last = this.#consumed[field]
    if (schema === last.schema) return last.consumed!
    const artifact = this.#artifactOf(schema.idType, schema.id)
    const consumed: ConsumedSchema = Object.freeze(
      artifact !== undefined && artifact !== 'none' ? { ...schema, artifact } : { ...schema },
    )
    if (artifact === undefined && this.#client.findVersionOfId !== undefined) return consumed
    this.#consumed[field] = { schema, consumed }
    return consumed
  }

  /**
   * Puts the schema of a read field on the message's `metadata.schemas`. That object is frozen and shared by the
   * messages read with the same schemas (Platformatic copies `metadata` into each consumed message, not `schemas`):
   * a new object per message, kept until the whole fetch is handed over, costs about a tenth of a microsecond a
   * message in allocation and garbage collection. A `schemas` object put there by another hook is added to as it is.
   */
  #putSchema(message: PlatformaticMessageToConsume, field: Field, schema: ConsumedSchema): void {
    const metadata = message.metadata
    if (metadata === undefined) {
      message.metadata = { schemas: this.#schemasWith(undefined, field, schema) }
      return
    }
    const schemas = metadata.schemas as Record<string, ConsumedSchema> | null | undefined
    if (schemas === undefined || schemas === null)
      metadata.schemas = this.#schemasWith(undefined, field, schema)
    else if (Object.isFrozen(schemas)) metadata.schemas = this.#schemasWith(schemas, field, schema)
    else schemas[field] = schema
  }

  /**
   * The frozen `metadata.schemas` holding what `base` (frozen, or none) holds and `field`'s schema: made once for
   * each pair (the last one per field is kept), then shared. A key read with a schema makes `{ key }`, and its
   * message's value then `{ key, value }`.
   */
  #schemasWith(
    base: Readonly<Record<string, ConsumedSchema>> | undefined,
    field: Field,
    schema: ConsumedSchema,
  ): Readonly<Record<string, ConsumedSchema>> {
    const made = this.#schemasMade[field]
    if (made.schemas !== undefined && made.base === base && made.schema === schema) return made.schemas
    const schemas = Object.freeze(field === 'key' ? { ...base, key: schema } : { ...base, value: schema })
    this.#schemasMade[field] = { base, schema, schemas }
    return schemas
  }

  /** Where a consumed id lives as far as the registry knows now (`undefined`: not looked up yet). */
  #artifactOf(idType: IdType, id: SchemaId): ArtifactCoordinates | 'none' | undefined {
    if (id === this.#lastArtifactId && idType === this.#lastArtifactIdType) return this.#lastArtifact
    const artifact = this.#artifacts[idType].get(id)
    if (artifact !== undefined) {
      this.#lastArtifactIdType = idType
      this.#lastArtifactId = id
      this.#lastArtifact = artifact
    }
    return artifact
  }

  async #beforeSerialization(
    payload: unknown,
    type: string,
    message: PlatformaticMessageToProduce,
  ): Promise<void> {
    if (type !== 'key' && type !== 'value') return
    const serializer = type === 'value' ? this.#serializer : this.#keySerializer
    if (serializer === undefined || payload === undefined || payload === null) return
    const ctx = contextFor(message.topic, type)
    await serializer.prepare(ctx)
    if (serializer.wireFormat !== 'MESSAGE_HEADERS') return
    const written = serializer.serializeMessageSync(payload as V, ctx)
    const slots = this.#written.get(message) ?? {}
    slots[type] = toBuffer(written.payload)
    this.#written.set(message, slots)
    if (message.headers instanceof Map) {
      for (const [name, value] of Object.entries(written.headers)) message.headers.set(name, toBuffer(value))
    } else {
      message.headers = { ...(message.headers ?? {}), ...mapValues(written.headers, toBuffer) }
    }
  }

  /** Whether a consumed id needs nothing from the registry: its schema (and its artifact) cached. */
  #isReady(topic: string, field: Field, found: ConsumedId): boolean {
    return (
      this.#contract.isPrepared(topic, field, found.idType, found.id) &&
      (this.#client.findVersionOfId === undefined || this.#artifacts[found.idType].has(found.id))
    )
  }

  /**
   * Looks up (once per id) where a consumed id lives, for the deserializers to put on the message's metadata: once
   * the id's schema has been fetched (the client's cached, single-flight request, which `prepare` makes too), so
   * that the search goes over the connection that request opened. Sent side by side, the two requests open a second
   * connection, which costs a cold consumer more CPU (about 25 ms, measured on Node 24) than the round trip it saves;
   * the schema's compiling covers that round trip. An id whose schema cannot be fetched is not searched (this
   * rejects with the fetch's error).
   */
  async #findArtifact(idType: IdType, id: SchemaId): Promise<void> {
    const find = this.#client.findVersionOfId
    const known = this.#artifacts[idType]
    if (find === undefined || known.has(id)) return
    await fetchById(this.#client, idType, id)
    if (known.has(id)) return
    const found = await find.call(this.#client, id, idType)
    known.set(id, found ?? 'none')
  }

  /**
   * Fetches what the deserializers need for a consumed id: its schema, once per id, and then its artifact (see
   * {@link #findArtifact}). The schema's failure is the one that counts: a poison id is left to the deserializer
   * whatever its artifact's search gave.
   */
  async #prepareConsumed(topic: string, field: Field, found: ConsumedId, payload: Buffer): Promise<void> {
    const prepared = this.#contract.prepare(topic, field, found.idType, found.id)
    const artifact = this.#findArtifact(found.idType, found.id).then(
      () => undefined,
      (error: unknown) => ({ error }),
    )
    try {
      await prepared
      const failed = await artifact
      if (failed !== undefined) throw failed.error
    } catch (error) {
      if (readErrorKind(error) !== 'poison') throw error
      this.#unreadable.set(payload, error)
      this.#anyUnreadable = true
    }
  }
}

/**
 * Records the failed record on a deserializer's error (its bytes, headers, topic, field and partition, and its offset
 * when the client gives one); an error that names another record (one lookup's rejection, shared) is copied.
 */
function failedIn(
  error: unknown,
  topic: string,
  field: Field,
  payload: Buffer,
  headers: MessageHeaders,
  message: PlatformaticMessageToConsume | undefined,
): unknown {
  const offset = (message as { offset?: unknown } | undefined)?.offset
  return recordFailedMessage(error, {
    payload,
    headers,
    context: { topic, field },
    partition: message?.partition,
    offset: typeof offset === 'bigint' || typeof offset === 'number' ? String(offset) : undefined,
  })
}

/** Calls `callback` once `work` settles, never synchronously. */
function settle(work: Promise<void>, callback: PlatformaticHookCallback): void {
  work.then(
    () => callback(null),
    (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
  )
}

/** The record of a message without headers (most of them): one frozen object, only read. */
const NO_HEADERS: MessageHeaders = Object.freeze({})

/**
 * Raw header names and values (Buffers; names also strings; a Map or pairs) as a record the contract reads; a
 * header repeated in the pairs keeps all its values (an array), as KafkaJS hands them over.
 */
function headerRecord(headers: Iterable<[unknown, unknown]> | undefined): MessageHeaders {
  if (headers === undefined || headers === null) return NO_HEADERS
  if (headers instanceof Map ? headers.size === 0 : Array.isArray(headers) && headers.length === 0)
    return NO_HEADERS
  const record: MessageHeaders = {}
  for (const [name, value] of headers) {
    const key = Buffer.isBuffer(name) ? name.toString('utf8') : String(name)
    if (!Buffer.isBuffer(value) && typeof value !== 'string') continue
    const seen = record[key]
    if (seen === undefined) record[key] = value
    else if (Array.isArray(seen)) seen.push(value)
    else record[key] = [seen, value]
  }
  return record
}

function textOrBytes(data: unknown, what: string): Buffer {
  if (Buffer.isBuffer(data)) return data
  if (typeof data === 'string') return Buffer.from(data, 'utf8')
  throw invalidConfigError(
    `ApicurioSchemaRegistry: a ${what} without a serializer must be a string or a Buffer, got ${typeof data}`,
  )
}

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

function mapValues<A, B>(record: Record<string, A>, map: (value: A) => B): Record<string, B> {
  return Object.fromEntries(Object.entries(record).map(([name, value]) => [name, map(value)]))
}
