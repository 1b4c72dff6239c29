import type { AvroOptions } from '@x/avro-serde'
import {
  DeserializationError,
  describeValue,
  type FailedMessageContext,
  failedMessageOf,
  invalidConfigError,
  isSerdeError,
  recordFailedMessage,
  SerdeError,
} from '@x/errors'
import type { RegisteredSchema } from '@x/registry-client'
import { SingleFlightCache } from '@x/registry-client/cache'
import {
  checkKnownKeys,
  checkOptionsObject,
  type DeserializerOptions,
  type FramedDecoder,
  type IncomingMessage,
  type LookupOptions,
  type MessageHeaders,
  messageSchemaId,
  normalizeRulesOptions,
  type RegistryPort,
  type RulesOptions,
  withOtherIdHint,
} from '@x/serde-core'
import {
  type IdType,
  isIdType,
  type ReadIdSize,
  type SchemaId,
  type SerializationContext,
} from '@x/wire-format'
import { applyIdHeaderRules } from './id-headers.js'
import { schemaById } from './schema-by-id.js'
import { type SchemaKind, schemaKindOf, schemaKindOfText } from './schema-kind.js'

/**
 * Options of {@link AnyDeserializer}: those every deserializer shares that make sense whatever the format (`fromDict`
 * receives the decoded value of any format; `useId` and `idSize` read a frame's id, and by contentId a schema's format
 * is told from its text), and each format's own, handed to that format's reader when its first message arrives.
 *
 * @typeParam T - What `deserialize` returns: the result of `fromDict`, or the decoded value.
 */
export interface AnyDeserializerOptions<T = unknown>
  extends Pick<DeserializerOptions<T>, 'fromDict' | 'useId' | 'idSize'> {
  /** Avro messages: the `avro` options of `AvroDeserializer` (`longs`, `unions`, logical types). @default Avro's */
  avro?: AvroOptions
  /** JSON Schema messages: validate each against its schema (`JsonSchemaDeserializer`'s `validate`). @default false */
  validate?: boolean
  /** Protobuf messages: after the id, Apicurio's `Ref` or Confluent's message indexes. @default 'apicurio' */
  framing?: 'apicurio' | 'confluent'
  /** Protobuf messages: 64-bit integers (`ProtobufDeserializer`'s `longs`). @default 'auto' */
  longs?: 'auto' | 'number' | 'bigint'
  /** Protobuf messages: enums as their names or numbers. @default 'name' */
  enums?: 'name' | 'number'
  /** Protobuf messages: proto3 fields not on the wire come back with their defaults. @default true */
  defaults?: boolean
  /** Protobuf messages: fields the schema does not know are dropped or kept. @default 'drop' */
  unknownFields?: 'drop' | 'keep'
  /**
   * Data-contract rules, handed unchanged to the reader of every format: the `READ` and `WRITEREAD` rules of the
   * version a message was written with (or, with `migration`, of its `targetVersion`) run after decoding; a refused
   * record throws `RuleViolationError`, which `readErrorKind` counts as poison.
   * @default off
   */
  rules?: RulesOptions
}

/** What a format's deserializer offers, as AnyDeserializer uses it. */
interface FormatReader<T> {
  deserialize(bytes: Uint8Array, ctx: SerializationContext): Promise<T>
  deserializeSync(bytes: Uint8Array, ctx: SerializationContext): T
  deserializeMessage(message: IncomingMessage, ctx: SerializationContext): Promise<T>
  deserializeMessageSync(message: IncomingMessage, ctx: SerializationContext): T
  prepare(schemaId: SchemaId, ctx?: SerializationContext, idType?: IdType): Promise<void>
  isPrepared(schemaId: SchemaId, ctx?: SerializationContext, idType?: IdType): boolean
  framedDecoderOf?(id: SchemaId, ctx: SerializationContext): FramedDecoder<T> | undefined
}

/**
 * Which schema wrote a consumed key or value, and where its id was read. Always a frozen object; the messages of one
 * id read on the warm path share one.
 */
export interface MessageSchema {
  readonly idType: IdType
  readonly id: SchemaId
  /** `true` when the id was read from the payload's frame, `false` from a header. */
  readonly framed: boolean
  /** The format behind the id; `undefined` when a deserializer other than `AnyDeserializer` read it. */
  readonly format: SchemaKind | undefined
}

/** A message decoded at once by {@link AnyDeserializer.deserializeMessageNow}: its value and the schema that wrote it. */
export interface DeserializedNow<T> {
  value: T
  schema: MessageSchema
}

/** The registry calls AnyDeserializer makes itself (the format readers make theirs through the same client). */
interface IdLookups {
  getSchemaByGlobalId(id: SchemaId, options?: LookupOptions): Promise<RegisteredSchema>
  getSchemaByContentId(id: SchemaId, options?: LookupOptions): Promise<RegisteredSchema>
  readonly cacheMaxSize?: number
}

const OWNER = 'AnyDeserializer'
const OPTION_NAMES = [
  'fromDict',
  'useId',
  'idSize',
  'avro',
  'validate',
  'framing',
  'longs',
  'enums',
  'defaults',
  'unknownFields',
  'rules',
] as const
const PROTOBUF_OPTIONS = ['framing', 'longs', 'enums', 'defaults', 'unknownFields'] as const
const SCHEMA_KINDS: readonly SchemaKind[] = Object.freeze(['AVRO', 'JSON', 'PROTOBUF'])
/** Bound of the id → format cache when the client does not say its own. */
const DEFAULT_BOUND = 1000

/**
 * Reads a message of any of the three formats — Avro, JSON Schema, Protobuf — choosing by the artifact type behind
 * its schema id, so that one consumer reads a topic whatever its producers chose. The id comes from the message's
 * frame or Apicurio id header, as every deserializer reads it; the format is learnt from the id's lookup (one
 * request per id for the life of the client: the format's reader then finds the schema in the client's cache), and
 * the format's library (avsc, ajv, protobufjs) is loaded when a message of that format first arrives, or ahead by
 * `preload` (which `MessageContract`, beneath the adapters, calls in the background).
 *
 * Errors are those of the format's deserializer, with the failed message recorded on them for dead-letter
 * handlers (`failedMessageOf` in `@x/errors`); an id whose artifact is of another type (`OPENAPI`, …) is a
 * `DeserializationError` naming it.
 *
 * @typeParam T - What `deserialize` returns: the result of `fromDict`, or the decoded value.
 */
export class AnyDeserializer<T = unknown> {
  readonly #client: IdLookups
  readonly #useId: IdType
  readonly #idSize: ReadIdSize
  readonly #options: Record<string, unknown>
  readonly #kinds: SingleFlightCache<SchemaKind>
  readonly #loading = new Map<SchemaKind, Promise<FormatReader<T>>>()
  /** The id whose format was looked up last, and that format: most topics carry one id at a time. */
  #lastIdType: IdType | undefined
  #lastId: SchemaId | undefined
  #lastKind: SchemaKind | undefined

  readonly #readers: Partial<Record<SchemaKind, FormatReader<T>>> = {}

  /**
   * @param client - The registry client (`RegistryClient`) every format's reader shares.
   * @throws TypeError (code `INVALID_CONFIG`) for a client without id lookups, an unknown option or an invalid
   *   `useId` or `idSize`; each format's own options are checked by its reader when its first message arrives.
   */
  constructor(client: unknown, options: AnyDeserializerOptions<T> = {}) {
    const lookups = client as Partial<IdLookups> | null
    if (
      typeof lookups !== 'object' ||
      lookups === null ||
      typeof lookups.getSchemaByGlobalId !== 'function' ||
      typeof lookups.getSchemaByContentId !== 'function'
    ) {
      throw invalidConfigError(`${OWNER}: client must be a RegistryClient`)
    }
    const raw = checkOptionsObject(options, `${OWNER} options`)
    checkKnownKeys(raw, OPTION_NAMES, `${OWNER} options`)
    // Checked here as well as by each format's serde, so that a wrong `rules` fails at construction.
    normalizeRulesOptions(raw.rules, OWNER)
    const useId = raw.useId ?? 'globalId'
    if (!isIdType(useId)) {
      throw invalidConfigError(`${OWNER}: useId must be 'globalId' or 'contentId', got ${String(useId)}`)
    }
    this.#client = lookups as IdLookups
    const idSize = raw.idSize ?? 4
    if (idSize !== 4 && idSize !== 8 && idSize !== 'auto') {
      throw invalidConfigError(`${OWNER}: idSize must be 4 or 8 or 'auto', got ${describeValue(idSize)}`)
    }
    this.#useId = useId
    this.#idSize = idSize
    this.#options = raw
    const bound = typeof lookups.cacheMaxSize === 'number' ? lookups.cacheMaxSize : DEFAULT_BOUND
    this.#kinds = new SingleFlightCache<SchemaKind>({ max: bound, now: () => performance.now() })
  }

  /** How the id of a framed message is read. */
  get useId(): IdType {
    return this.#useId
  }

  /** How many bytes a frame's id takes: 4, 8 or `'auto'` (the `idSize` option). */
  get idSize(): ReadIdSize {
    return this.#idSize
  }

  /**
   * Decodes a framed message (`0x00`, an id of `idSize` bytes read as `useId`, the payload) of any format.
   *
   * @throws (rejects) the errors of the format's deserializer; `DeserializationError` for a bad frame (before any
   *   request) or an artifact type no format here reads; the registry's errors for the id's lookup.
   */
  deserialize(bytes: Uint8Array, ctx: SerializationContext): Promise<T> {
    return this.#read({ payload: bytes }, ctx, false)
  }

  /**
   * Decodes a consumed message of any format: its id from an Apicurio id header of `ctx.field` when it has one (the
   * payload is then bare), else from the payload's frame.
   *
   * @throws (rejects) as {@link deserialize}; `DeserializationError` for an id header of other than 8 bytes.
   */
  deserializeMessage(message: IncomingMessage, ctx: SerializationContext): Promise<T> {
    return this.#read(message, ctx, true)
  }

  /**
   * {@link deserialize} without a Promise, once the id's format and schema are cached (`prepare`, or any call).
   *
   * @throws `SerdeError` (code `NOT_PREPARED`) when the id's format is not known yet, naming the id to `prepare()`.
   */
  deserializeSync(bytes: Uint8Array, ctx: SerializationContext): T {
    return this.#readSync({ payload: bytes }, ctx, false)
  }

  /** {@link deserializeMessage} without a Promise, once the id's format and schema are cached. */
  deserializeMessageSync(message: IncomingMessage, ctx: SerializationContext): T {
    return this.#readSync(message, ctx, true)
  }

  /**
   * Learns the format of a schema id, loads that format's reader and caches the schema, so that the `…Sync` methods
   * decode its messages. A `deserialize` call does the same as a side effect.
   *
   * @throws (rejects) the registry's errors; `DeserializationError` for an artifact type no format here reads.
   */
  async prepare(schemaId: SchemaId, ctx?: SerializationContext, idType: IdType = this.#useId): Promise<void> {
    if (!isIdType(idType)) {
      throw invalidConfigError(
        `${OWNER}.prepare: idType must be 'globalId' or 'contentId', got ${String(idType)}`,
      )
    }
    const reader = await this.#readerFor(await this.#kindOf(idType, schemaId))
    await reader.prepare(schemaId, ctx, idType)
  }

  /**
   * Loads the readers of `formats` (and their libraries: avsc, ajv, protobufjs) now, one after the other, so that
   * the first message of each format waits for its schema's lookup only; for JSON Schema it also compiles one small
   * schema (`warmUpValidators`), so that the first real one compiles in a tenth of the time. Makes no request.
   * `MessageContract` calls it in the background once constructed (a consumer's connection and group join leave the
   * time) and aborts it when the first message needs the registry; a reader that fails to load is loaded again when a
   * message of its format arrives.
   *
   * @param formats - The formats to load. @default all three
   * @param options - `signal`: stops before the next format once aborted (the one loading finishes).
   * @throws (rejects) what loading a format's library throws; the signal's reason once aborted; TypeError (code
   *   `INVALID_CONFIG`) for a format not one of `'AVRO'`, `'JSON'`, `'PROTOBUF'`.
   */
  async preload(
    formats: readonly SchemaKind[] = SCHEMA_KINDS,
    options: { signal?: AbortSignal } = {},
  ): Promise<void> {
    for (const kind of formats) {
      if (!SCHEMA_KINDS.includes(kind)) {
        throw invalidConfigError(
          `${OWNER}.preload: formats must be 'AVRO', 'JSON' or 'PROTOBUF', got ${describeValue(kind)}`,
        )
      }
    }
    // One after the other: the first format is ready soonest, rather than all three late.
    for (const kind of formats) {
      options.signal?.throwIfAborted()
      await this.#readerFor(kind)
      if (kind === 'JSON') {
        // ajv's schema compiler and the draft-07 meta-schema, compiled ahead: the first JSON schema then compiles in a
        // tenth of the time.
        options.signal?.throwIfAborted()
        const { warmUpValidators } = await import('@x/jsonschema-serde')
        warmUpValidators()
      }
    }
  }

  /** Whether the reader of `format` is loaded (by `preload`, `prepare` or a message of that format). */
  isLoaded(format: SchemaKind): boolean {
    return this.#readers[format] !== undefined
  }

  /** The format of a schema id when it is known already (`prepare` or a message of it), else `undefined`. */
  formatOf(schemaId: SchemaId, idType: IdType = this.#useId): SchemaKind | undefined {
    if (schemaId === this.#lastId && idType === this.#lastIdType) return this.#lastKind
    const kind = this.#kinds.get(`${idType}:${String(schemaId)}`)
    if (kind !== undefined) {
      this.#lastIdType = idType
      this.#lastId = schemaId
      this.#lastKind = kind
    }
    return kind
  }

  /**
   * Whether the `…Sync` methods can decode messages of this schema id now: its format is known and that format's
   * reader has the schema cached (see the format deserializer's `isPrepared`). Makes no request.
   */
  isPrepared(schemaId: SchemaId, ctx?: SerializationContext, idType: IdType = this.#useId): boolean {
    const kind = this.formatOf(schemaId, idType)
    const reader = kind === undefined ? undefined : this.#readers[kind]
    return reader?.isPrepared(schemaId, ctx, idType) === true
  }

  /**
   * The decoder of framed payloads of an id read as `useId`, holding its parsed schema (see the format
   * deserializer's `framedDecoderOf`), when the id's format is known and its reader offers one; else `undefined`.
   * It decodes and fails as `deserializeMessageSync` does for a framed message of that id without id headers.
   */
  framedDecoderOf(id: SchemaId, ctx: SerializationContext): FramedDecoder<T> | undefined {
    const format = this.formatOf(id, this.#useId)
    const reader = format === undefined ? undefined : this.#readers[format]
    return reader?.framedDecoderOf?.(id, ctx)
  }

  /**
   * Decodes a consumed message at once when its id's format and schema are cached (`prepare`, or an earlier message
   * of that id), giving its value and the schema that wrote it; else `undefined`, making no request (then
   * `deserializeMessage` does the lookups). What the adapters' warm path calls: one reading of the id, no Promise.
   *
   * @throws what {@link deserializeMessageSync} throws for a message that cannot be read.
   */
  deserializeMessageNow(message: IncomingMessage, ctx: SerializationContext): DeserializedNow<T> | undefined {
    const field = ctx?.field === 'key' ? 'key' : 'value'
    let found: { idType: IdType; id: SchemaId; framed: boolean }
    let read: IncomingMessage
    try {
      read = applyIdHeaderRules(message, field, this.#useId, ctx?.topic)
      found = messageSchemaId(read, field, this.#useId, this.#idSize)
    } catch (error) {
      throw failed(error, message, ctx, undefined, undefined)
    }
    const { idType, id } = found
    const format = this.formatOf(id, idType)
    const reader = format === undefined ? undefined : this.#readers[format]
    if (reader === undefined) return undefined
    let value: T
    try {
      value = reader.deserializeMessageSync(read, ctx)
    } catch (error) {
      // Not cached after all (never read, or the reader's cache let it go): the caller takes the asynchronous path.
      if (isSerdeError(error, 'NOT_PREPARED')) return undefined
      throw read === message ? error : recordOriginal(error, message, ctx)
    }
    return { value, schema: Object.freeze({ idType, id, framed: found.framed, format }) }
  }

  async #read(message: IncomingMessage, ctx: SerializationContext, withHeaders: boolean): Promise<T> {
    let idType: IdType | undefined
    let id: SchemaId | undefined
    let reader: FormatReader<T>
    let framed = false
    let read = message
    try {
      if (withHeaders) read = this.#withRules(message, ctx)
      ;({ idType, id, framed } = this.#idOf(read, ctx, withHeaders))
      reader =
        this.#readers[this.formatOf(id, idType) ?? ('' as SchemaKind)] ??
        (await this.#readerFor(await this.#kindOf(idType, id)))
    } catch (error) {
      // A frame's id type is the reader's guess (`useId`): one more request tells whether the other type fits.
      const told =
        framed && idType !== undefined && id !== undefined
          ? await withOtherIdHint(this.#client, error, idType, id)
          : error
      throw failed(told, message, ctx, idType, id)
    }
    if (!withHeaders) return reader.deserialize(message.payload, ctx)
    if (read === message) return reader.deserializeMessage(message, ctx)
    return reader.deserializeMessage(read, ctx).catch((error: unknown) => {
      throw recordOriginal(error, message, ctx)
    })
  }

  #readSync(message: IncomingMessage, ctx: SerializationContext, withHeaders: boolean): T {
    let idType: IdType | undefined
    let id: SchemaId | undefined
    let reader: FormatReader<T> | undefined
    let read = message
    try {
      if (withHeaders) read = this.#withRules(message, ctx)
      ;({ idType, id } = this.#idOf(read, ctx, withHeaders))
      const kind = this.formatOf(id, idType)
      reader = kind === undefined ? undefined : this.#readers[kind]
      if (reader === undefined) {
        throw new SerdeError(
          'NOT_PREPARED',
          `The format of ${idType} ${String(id)} is not known yet: await deserializer.prepare(${String(id)}${
            idType === this.#useId ? '' : `, ctx, '${idType}'`
          }) (or one deserialize call) before ${withHeaders ? 'deserializeMessageSync' : 'deserializeSync'}`,
        )
      }
    } catch (error) {
      throw failed(error, message, ctx, idType, id)
    }
    if (!withHeaders) return reader.deserializeSync(message.payload, ctx)
    try {
      return reader.deserializeMessageSync(read, ctx)
    } catch (error) {
      throw read === message ? error : recordOriginal(error, message, ctx)
    }
  }

  /** The message after the id header rules (a refused header throws; a Confluent 8 id header is translated). */
  #withRules(message: IncomingMessage, ctx: SerializationContext): IncomingMessage {
    return applyIdHeaderRules(message, ctx?.field === 'key' ? 'key' : 'value', this.#useId, ctx?.topic)
  }

  #idOf(
    message: IncomingMessage,
    ctx: SerializationContext,
    withHeaders: boolean,
  ): { idType: IdType; id: SchemaId; framed: boolean } {
    if (!withHeaders) return messageSchemaId({ payload: message.payload }, 'value', this.#useId, this.#idSize)
    return messageSchemaId(message, ctx?.field === 'key' ? 'key' : 'value', this.#useId, this.#idSize)
  }

  /** The format behind an id: one lookup per id (shared by concurrent callers), its answer kept. */
  #kindOf(idType: IdType, id: SchemaId): Promise<SchemaKind> {
    return this.#kinds.load(`${idType}:${String(id)}`, async () => {
      const registered = await schemaById(this.#client, idType, id)
      const named = registered.artifactType
      const kind = named === undefined ? schemaKindOfText(registered.schema) : schemaKindOf(named)
      if (kind !== undefined) return kind
      throw new DeserializationError(
        named === undefined
          ? `Cannot tell the format of ${idType} ${String(id)}: the registry does not name it and its text reads as Avro and as JSON Schema alike (or as neither); read this topic with useId 'globalId', or with the format's own deserializer`
          : `${idType} ${String(id)} is a schema of type ${named}: AnyDeserializer reads AVRO, JSON and PROTOBUF`,
        { schemaId: id },
      )
    })
  }

  /** The reader of a format, created (and its library loaded) on first use. */
  #readerFor(kind: SchemaKind): Promise<FormatReader<T>> {
    const ready = this.#readers[kind]
    if (ready !== undefined) return Promise.resolve(ready)
    let loading = this.#loading.get(kind)
    if (loading === undefined) {
      loading = this.#createReader(kind).then(
        (reader) => {
          this.#readers[kind] = reader
          return reader
        },
        (error: unknown) => {
          this.#loading.delete(kind)
          throw error
        },
      )
      this.#loading.set(kind, loading)
    }
    return loading
  }

  async #createReader(kind: SchemaKind): Promise<FormatReader<T>> {
    const raw = this.#options
    // The constructor checked what AnyDeserializer uses; each format's class checks the client it needs.
    const client = this.#client as unknown as RegistryPort
    const shared: Record<string, unknown> = { useId: this.#useId, idSize: this.#idSize }
    if (raw.fromDict !== undefined) shared.fromDict = raw.fromDict
    if (raw.rules !== undefined) shared.rules = raw.rules
    const pick = (names: readonly string[]) =>
      Object.fromEntries(names.filter((name) => raw[name] !== undefined).map((name) => [name, raw[name]]))
    switch (kind) {
      case 'AVRO': {
        const { AvroDeserializer } = await import('@x/avro-serde')
        return new AvroDeserializer<T>(client, { ...shared, ...pick(['avro']) }) as FormatReader<T>
      }
      case 'JSON': {
        const { JsonSchemaDeserializer } = await import('@x/jsonschema-serde')
        return new JsonSchemaDeserializer<T>(client, { ...shared, ...pick(['validate']) }) as FormatReader<T>
      }
      case 'PROTOBUF': {
        const { ProtobufDeserializer } = await import('@x/protobuf-serde')
        return new ProtobufDeserializer<T>(client, {
          ...shared,
          ...pick(PROTOBUF_OPTIONS),
        }) as FormatReader<T>
      }
    }
  }
}

/**
 * Records the message as consumed (its own headers, not those the header rules made) on a format reader's error. The
 * reader recorded the message it read, whose headers were the rules' copy: those are replaced, on this error only
 * when it names this payload (a shared error is copied by `recordFailedMessage`).
 */
function recordOriginal(error: unknown, message: IncomingMessage, ctx: SerializationContext): unknown {
  const recorded = failedMessageOf(error)
  if (
    recorded !== undefined &&
    recorded.payload === message.payload &&
    Object.hasOwn(error as object, 'headers')
  ) {
    Object.defineProperty(error, 'headers', {
      value: message.headers ?? undefined,
      enumerable: false,
      configurable: true,
      writable: false,
    })
  }
  return failed(error, message, ctx, undefined, undefined)
}

/** Records the failed message on a library error raised before a format's reader took the message over. */
function failed(
  error: unknown,
  message: IncomingMessage,
  ctx: SerializationContext,
  idType: IdType | undefined,
  id: SchemaId | undefined,
): unknown {
  const payload = (message as IncomingMessage | null)?.payload
  if (!(payload instanceof Uint8Array)) return error
  return recordFailedMessage(error, {
    payload,
    schemaId: id,
    idType: id === undefined ? undefined : idType,
    headers: ((message as IncomingMessage).headers ?? undefined) as MessageHeaders | undefined,
    context: typeof ctx === 'object' && ctx !== null ? (ctx as FailedMessageContext) : undefined,
  })
}
