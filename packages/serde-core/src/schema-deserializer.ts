import {
  DeserializationError,
  type FailedMessageContext,
  invalidConfigError,
  messageOf,
  recordFailedMessage,
  SerdeError,
} from '@x/errors'
import { SingleFlightCache } from '@x/registry-client/cache'
import {
  type IdType,
  isIdType,
  type ReadIdSize,
  type SchemaId,
  type SerializationContext,
  toSchemaId,
} from '@x/wire-format'
import { ContractRules, type VersionCoordinates } from './contract-rules.js'
import type { NormalizedDeserializerOptions } from './deserializer-options.js'
import {
  type HeaderId,
  type IdHeaderNames,
  type IncomingMessage,
  idHeaderNamesFor,
  type MessageHeaders,
  readIdHeader,
} from './message-headers.js'
import { checkMessage, frameIdOf, payloadOffsetOf } from './message-schema-id.js'
import { withOtherIdHint } from './other-id-hint.js'
import {
  cacheBoundOf,
  cacheTtlOf,
  checkClient,
  DESERIALIZING,
  fetchById,
  type RegistryPort,
} from './registry-port.js'
import type { SchemaCodec, SchemaFormat } from './schema-format.js'
import { parseRegistered } from './schema-loader.js'

type RegistryFind = (id: SchemaId, idType: IdType) => Promise<VersionCoordinates | undefined>

/** What a format's deserializer class hands to the core. */
export interface DeserializerSetup<T> {
  /** The public class name, for messages (`AvroDeserializer`). */
  readonly owner: string
  readonly client: unknown
  readonly format: SchemaFormat
  readonly options: NormalizedDeserializerOptions<T>
  /** A fixed reader schema's codec (the format parsed it at construction), if any. */
  readonly reader?: SchemaCodec | undefined
}

/**
 * Decodes one framed payload of the writer schema a {@link SchemaDeserializer.framedDecoderOf} call was given; `headers`
 * are the message's (a format may read its payload's encoding there).
 */
export type FramedDecoder<T> = (bytes: Uint8Array, headers: MessageHeaders | null | undefined) => T

/** A parsed writer schema, cached per id. */
interface WriterSchema {
  idType: IdType
  id: SchemaId
  codec: SchemaCodec
  /** The version the message was written with, when data-contract rules are on. */
  coordinates: VersionCoordinates | undefined
}

/**
 * The deserializer of every format: decodes Apicurio-framed (or header-mode) messages, looking the writer schema up
 * by the id in the message. A format's class (`AvroDeserializer`, …) extends it and supplies the format.
 *
 * Each schema id costs one registry request for the life of the client; parsed schemas are cached per id in an LRU
 * bounded like the client's caches. Once an id is cached (`prepare`, or any call), `deserializeSync` decodes it
 * without a Promise.
 *
 * @typeParam T - What `deserialize` returns: the result of `fromDict`, or the decoded value.
 */
export class SchemaDeserializer<T = unknown> {
  readonly #owner: string
  readonly #client: RegistryPort
  readonly #format: SchemaFormat
  readonly #options: NormalizedDeserializerOptions<T>
  readonly #writers: Record<IdType, SingleFlightCache<WriterSchema, SchemaId>>
  readonly #reader: SchemaCodec | undefined
  /** With `useLatestVersion`: the reader codec of each artifact met, refreshed in the background after a TTL. */
  readonly #readers: SingleFlightCache<SchemaCodec> | undefined
  readonly #readerTtlMs: number | undefined
  readonly #headerNames: Readonly<Record<'key' | 'value', IdHeaderNames>>
  /** How frames' ids are read (the `idSize` option), kept in a field so the hot path reads no options. */
  readonly #idSize: ReadIdSize
  /** The data-contract rules; `undefined` when they are off (the hot path then reads this one field). */
  readonly #rules: ContractRules | undefined

  /** @param setup - What the format's class checked and built (see {@link DeserializerSetup}). */
  constructor(setup: DeserializerSetup<T>) {
    this.#owner = setup.owner
    this.#client = checkClient(setup.client, setup.owner)
    this.#format = setup.format
    this.#options = setup.options
    this.#reader = setup.reader
    this.#idSize = setup.options.idSize
    const bound = cacheBoundOf(this.#client)
    this.#writers = {
      globalId: new SingleFlightCache({ max: bound }),
      contentId: new SingleFlightCache({ max: bound }),
    }
    this.#headerNames = Object.freeze(idHeaderNamesFor(this.#options.useId))
    this.#rules =
      this.#options.rules === undefined
        ? undefined
        : new ContractRules(this.#client, this.#options.rules, setup.owner, bound)
    if (this.#options.useLatestVersion) {
      this.#readers = new SingleFlightCache<SchemaCodec>({
        max: bound,
        refresh: (artifactId) => this.#loadReader(artifactId),
      })
    }
    this.#readerTtlMs = cacheTtlOf(this.#client)
  }

  /** How the id of a framed message is read. */
  get useId(): IdType {
    return this.#options.useId
  }

  /** How many bytes a frame's id takes: 4, 8, or `'auto'` (see the `idSize` option). */
  get idSize(): ReadIdSize {
    return this.#idSize
  }

  /**
   * Decodes a framed message: `0x00`, the big-endian id in `idSize` bytes (read as `useId`), the payload.
   *
   * @throws (rejects) `DeserializationError` for input shorter than the frame header, a magic byte other than
   *   `0x00`, or an id that reads as 0 (the message names the likely `idSize`; all before any request), an undecodable payload, trailing bytes, a writer schema the reader schema cannot read, a writer
   *   schema that is not valid in the format, or a throwing `fromDict` (each with `cause`). `SchemaNotFoundError`,
   *   `RegistryConnectionError`, `AuthenticationError` from the registry, unwrapped. `ResolverError` with
   *   `useLatestVersion` and a failing resolver. `RuleViolationError` when a data-contract rule (or a migration)
   *   refuses the record (with `rules.enabled`).
   */
  deserialize(bytes: Uint8Array, ctx: SerializationContext): Promise<T> {
    return this.#deserializeFrame(bytes, ctx, undefined)
  }

  #deserializeFrame(
    bytes: Uint8Array,
    ctx: SerializationContext,
    headers: MessageHeaders | null | undefined,
  ): Promise<T> {
    let id: number | undefined
    try {
      const idSize = this.#idSize
      id = frameIdOf(bytes, idSize)
      const offset = payloadOffsetOf(bytes, idSize)
      const hint = this.#hintOf(headers, ctx)
      const idType = this.#options.useId
      const writer = this.#writers[idType].get(id)
      const reader = this.#readerFor(ctx)
      if (writer !== undefined && reader !== undefined && this.#rulesReady(writer)) {
        return Promise.resolve(this.#decode(writer, reader, bytes, offset, ctx, hint))
      }
      return this.#loadAndDecode(idType, id, bytes, offset, ctx, bytes, headers, hint, true)
    } catch (error) {
      return Promise.reject(failed(error, bytes, headers, ctx, this.#options.useId, id))
    }
  }

  /**
   * Decodes a consumed message. When its headers carry an Apicurio id header of `ctx.field`
   * (`apicurio.<field>.globalId` or `.contentId`; with both, the one matching `useId`), the payload is bare and the
   * header's name says the id type; otherwise the payload is read as a frame with `useId`. Header values may be
   * bytes or strings (read as latin1), repeated (the last wins).
   *
   * @throws (rejects) as {@link deserialize}; `DeserializationError` for an id header of other than 8 bytes.
   */
  deserializeMessage(message: IncomingMessage, ctx: SerializationContext): Promise<T> {
    let found: HeaderId | undefined
    try {
      const { payload, headers } = checkMessage(message)
      found = readIdHeader(headers, this.#namesFor(ctx))
      if (found === undefined) return this.#deserializeFrame(payload, ctx, headers)
      const hint = this.#hintOf(headers, ctx)
      const writer = this.#writers[found.idType].get(found.id)
      const reader = this.#readerFor(ctx)
      if (writer !== undefined && reader !== undefined && this.#rulesReady(writer)) {
        return Promise.resolve(this.#decode(writer, reader, payload, 0, ctx, hint))
      }
      return this.#loadAndDecode(found.idType, found.id, payload, 0, ctx, payload, headers, hint)
    } catch (error) {
      return Promise.reject(failed(error, message?.payload, message?.headers, ctx, found?.idType, found?.id))
    }
  }

  /**
   * Fetches and caches what `deserializeSync` needs for a schema id (read as `useId`, or as `idType`), and with
   * `useLatestVersion` the reader schema of `ctx`'s artifact. A `deserialize` call does the same as a side effect.
   *
   * @throws (rejects) the registry errors of {@link deserialize}; `DeserializationError` when the schema is not
   *   valid in the format; `RangeError` for an id outside signed 64-bit.
   */
  async prepare(
    schemaId: SchemaId,
    ctx?: SerializationContext,
    idType: IdType = this.#options.useId,
  ): Promise<void> {
    if (!isIdType(idType)) {
      throw invalidConfigError(
        `${this.#owner}.prepare: idType must be 'globalId' or 'contentId', got ${String(idType)}`,
      )
    }
    const id = toSchemaId(schemaId, idType)
    await this.#prepareRules(await this.#writer(idType, id))
    if (this.#readers !== undefined) await this.#loadReaderFor(ctx as SerializationContext)
  }

  /**
   * Whether the `…Sync` methods can decode messages of this schema id now: its writer schema is cached (read as
   * `idType`), and with `useLatestVersion` the reader schema of `ctx`'s artifact too. Makes no request.
   *
   * @returns false for an id that is not cached (or not a valid id).
   */
  isPrepared(schemaId: SchemaId, ctx?: SerializationContext, idType: IdType = this.#options.useId): boolean {
    const writers = isIdType(idType) ? this.#writers[idType] : undefined
    if (writers === undefined) return false
    let id: SchemaId
    try {
      id = toSchemaId(schemaId, idType)
    } catch {
      return false
    }
    const writer = writers.get(id)
    if (writer === undefined || !this.#rulesReady(writer)) return false
    if (this.#readers === undefined) return true
    if (ctx === undefined && this.#options.artifactId === undefined) return false
    return this.#readerFor(ctx as SerializationContext) !== undefined
  }

  /**
   * A decoder of the framed payloads of one writer schema id (read as `useId`), holding that id's parsed schema: what
   * an adapter's warm path calls once it has read the frame's id itself, so that each message costs no cache lookup.
   * `undefined` unless the id's writer schema is cached and nothing else is looked up per message (no
   * `useLatestVersion`, no data-contract rules). The caller hands it only payloads whose frame carries that id, of
   * messages without an Apicurio id header of `ctx.field`; it decodes and fails exactly as
   * {@link deserializeMessageSync} does for them (a parsed schema per id never changes, so holding it is the same as
   * finding it cached).
   */
  framedDecoderOf(id: SchemaId, ctx: SerializationContext): FramedDecoder<T> | undefined {
    if (this.#readers !== undefined || this.#rules !== undefined) return undefined
    const idType = this.#options.useId
    const writer = this.#writers[idType].get(id)
    if (writer === undefined) return undefined
    const reader = this.#reader ?? null
    const idSize = this.#idSize
    if (reader !== null || this.#options.fromDict !== undefined) {
      return (bytes, headers) => {
        try {
          const hint = this.#hintOf(headers, ctx)
          return this.#decode(writer, reader, bytes, payloadOffsetOf(bytes, idSize), ctx, hint)
        } catch (error) {
          throw failed(error, bytes, headers, ctx, idType, id)
        }
      }
    }
    // The writer schema reads and nothing follows the decode: the steps of #decode that apply are written out here,
    // so that a consumer's hot path has two calls fewer for the engine to run and optimize while it starts.
    const format = this.#format
    const codec = writer.codec
    const field = ctx.field === 'key' ? 'key' : 'value'
    return (bytes, headers) => {
      try {
        const hint =
          format.decodeHint === undefined || headers === undefined || headers === null
            ? undefined
            : format.decodeHint(headers, field)
        const buffer = Buffer.isBuffer(bytes)
          ? bytes
          : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
        try {
          return codec.decode(buffer, payloadOffsetOf(bytes, idSize), buffer.length, undefined, hint) as T
        } catch (cause) {
          throw this.#undecodable(writer, cause)
        }
      } catch (error) {
        throw failed(error, bytes, headers, ctx, idType, id)
      }
    }
  }

  /**
   * {@link deserialize} without a Promise, once the message's writer schema (and reader schema) is cached.
   *
   * @throws `SerdeError` (code `NOT_PREPARED`) when the schema id is not cached yet, naming the id to
   *   `prepare()`; the errors of {@link deserialize} that need no request.
   */
  deserializeSync(bytes: Uint8Array, ctx: SerializationContext): T {
    return this.#deserializeFrameSync(bytes, ctx, undefined)
  }

  #deserializeFrameSync(
    bytes: Uint8Array,
    ctx: SerializationContext,
    headers: MessageHeaders | null | undefined,
  ): T {
    let id: number | undefined
    try {
      const idSize = this.#idSize
      id = frameIdOf(bytes, idSize)
      const hint = this.#hintOf(headers, ctx)
      const writer = this.#preparedWriter(this.#options.useId, id)
      return this.#decode(writer, this.#preparedReader(ctx), bytes, payloadOffsetOf(bytes, idSize), ctx, hint)
    } catch (error) {
      throw failed(error, bytes, headers, ctx, this.#options.useId, id)
    }
  }

  /**
   * {@link deserializeMessage} without a Promise, once the id's writer schema (and reader schema) is cached.
   *
   * @throws `SerdeError` (code `NOT_PREPARED`) when the schema id is not cached yet, naming the id to `prepare()`.
   */
  deserializeMessageSync(message: IncomingMessage, ctx: SerializationContext): T {
    let found: HeaderId | undefined
    try {
      const { payload, headers } = checkMessage(message)
      found = readIdHeader(headers, this.#namesFor(ctx))
      if (found === undefined) return this.#deserializeFrameSync(payload, ctx, headers)
      const hint = this.#hintOf(headers, ctx)
      const writer = this.#preparedWriter(found.idType, found.id)
      return this.#decode(writer, this.#preparedReader(ctx), payload, 0, ctx, hint)
    } catch (error) {
      throw failed(error, message?.payload, message?.headers, ctx, found?.idType, found?.id)
    }
  }

  /** What the format reads from the message's headers for its codec (Avro: the payload's encoding), if anything. */
  #hintOf(headers: MessageHeaders | null | undefined, ctx: SerializationContext): unknown {
    const decodeHint = this.#format.decodeHint
    if (decodeHint === undefined || headers === undefined || headers === null) return undefined
    return decodeHint.call(this.#format, headers, ctx.field === 'key' ? 'key' : 'value')
  }

  #namesFor(ctx: SerializationContext): IdHeaderNames {
    return ctx.field === 'key' ? this.#headerNames.key : this.#headerNames.value
  }

  /**
   * The reader codec for this call: the fixed reader schema, the cached latest version of the resolved artifact,
   * or `null` for "the writer schema reads"; `undefined` when the latest version is not cached yet.
   */
  #readerFor(ctx: SerializationContext): SchemaCodec | null | undefined {
    if (this.#readers === undefined) return this.#reader ?? null
    return this.#readers.get(this.#readerArtifactOf(ctx))
  }

  #readerArtifactOf(ctx: SerializationContext): string {
    return this.#options.artifactId ?? this.#options.resolve!(ctx)
  }

  async #loadReaderFor(ctx: SerializationContext): Promise<SchemaCodec | null> {
    if (this.#readers === undefined) return this.#reader ?? null
    const artifactId = this.#readerArtifactOf(ctx)
    return this.#readers.load(artifactId, () => this.#loadReader(artifactId), undefined, this.#readerTtlMs)
  }

  async #loadReader(artifactId: string): Promise<SchemaCodec> {
    const registered = await this.#client.getSchema(artifactId, DESERIALIZING)
    const idType: IdType = registered.globalId !== undefined ? 'globalId' : 'contentId'
    const id = registered[idType]
    return parseRegistered(
      this.#client,
      this.#format,
      registered,
      { idType, id: id!, label: `artifact '${artifactId}' (the reader schema)` },
      (message, cause) => new DeserializationError(message, { cause }),
    )
  }

  async #loadAndDecode(
    idType: IdType,
    id: SchemaId,
    bytes: Uint8Array,
    offset: number,
    ctx: SerializationContext,
    payload: Uint8Array,
    headers: MessageHeaders | null | undefined,
    hint: unknown,
    framed = false,
  ): Promise<T> {
    let writer: WriterSchema
    try {
      writer = await this.#writer(idType, id)
    } catch (error) {
      // A frame's id type is the reader's guess (`useId`): one more request tells whether the other type fits.
      const told = framed ? await withOtherIdHint(this.#client, error, idType, id) : error
      throw failed(told, payload, headers, ctx, idType, id)
    }
    try {
      await this.#prepareRules(writer)
      const reader = await this.#loadReaderFor(ctx)
      return this.#decode(writer, reader, bytes, offset, ctx, hint)
    } catch (error) {
      throw failed(error, payload, headers, ctx, idType, id)
    }
  }

  /** The parsed writer schema of an id: cached, or fetched and parsed once (concurrent callers share the load). */
  #writer(idType: IdType, id: SchemaId): Promise<WriterSchema> {
    return this.#writers[idType].load(id, () => this.#loadWriter(idType, id))
  }

  async #loadWriter(idType: IdType, id: SchemaId): Promise<WriterSchema> {
    const registered = await fetchById(this.#client, idType, id, DESERIALIZING)
    const codec = await parseRegistered(
      this.#client,
      this.#format,
      registered,
      { idType, id, label: `${idType} ${String(id)}` },
      (message, cause) => new DeserializationError(message, { cause, schemaId: id }),
    )
    const coordinates =
      this.#rules === undefined ? undefined : await this.#coordinatesOf(registered, idType, id)
    return { idType, id, codec, coordinates }
  }

  /** Where the writer schema's version lives: from the lookup's answer, else the registry's search by id. */
  async #coordinatesOf(
    registered: { groupId?: string; artifactId?: string; version?: string },
    idType: IdType,
    id: SchemaId,
  ): Promise<VersionCoordinates> {
    const { groupId, artifactId, version } = registered
    if (groupId !== undefined && artifactId !== undefined && version !== undefined) {
      return { groupId, artifactId, version }
    }
    const find = (this.#client as { findVersionOfId?: RegistryFind }).findVersionOfId
    if (typeof find !== 'function') {
      throw invalidConfigError(
        `${this.#owner}: rules need a client with findVersionOfId() to tell the version of ${idType} ${String(id)} (RegistryClient of @x/registry-client has it)`,
      )
    }
    const found = await find.call(this.#client, id, idType)
    if (found === undefined) {
      throw new DeserializationError(
        `The registry lists no version with ${idType} ${String(id)}, so its data-contract rules cannot be looked up`,
        { schemaId: id },
      )
    }
    return found
  }

  #rulesReady(writer: WriterSchema): boolean {
    return this.#rules === undefined || this.#rules.isReady(writer.coordinates!, true)
  }

  async #prepareRules(writer: WriterSchema): Promise<void> {
    if (!this.#rulesReady(writer)) await this.#rules!.prepare(writer.coordinates!, true)
  }

  #preparedWriter(idType: IdType, id: SchemaId): WriterSchema {
    const writer = this.#writers[idType].get(id)
    if (writer === undefined) {
      throw new SerdeError(
        'NOT_PREPARED',
        `The writer schema of ${idType} ${String(id)} is not cached yet: await deserializer.prepare(${String(id)}${
          idType === this.#options.useId ? '' : `, ctx, '${idType}'`
        }) (or one deserialize call) before deserializeSync`,
      )
    }
    return writer
  }

  #preparedReader(ctx: SerializationContext): SchemaCodec | null {
    const reader = this.#readerFor(ctx)
    if (reader === undefined) {
      throw new SerdeError(
        'NOT_PREPARED',
        `The reader schema (latest version of artifact '${this.#readerArtifactOf(ctx)}') is not cached yet: await ` +
          'deserializer.prepare(schemaId, ctx) (or one deserialize call) before deserializeSync',
      )
    }
    return reader
  }

  /**
   * What a failed decode throws: always a DeserializationError (a RangeError of `longs: 'number'` included, as its
   * cause), so that a consumer can dead-letter the message.
   */
  #undecodable(writer: WriterSchema, cause: unknown): DeserializationError {
    return new DeserializationError(
      `Cannot decode the ${this.#format.name} payload of ${writer.idType} ${String(writer.id)}: ${messageOf(cause)}`,
      { cause, schemaId: writer.id },
    )
  }

  #decode(
    writer: WriterSchema,
    reader: SchemaCodec | null,
    bytes: Uint8Array,
    offset: number,
    ctx: SerializationContext,
    hint: unknown,
  ): T {
    const buffer = Buffer.isBuffer(bytes)
      ? bytes
      : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    let value: unknown
    try {
      value =
        reader === null
          ? writer.codec.decode(buffer, offset, buffer.length, undefined, hint)
          : reader.decode(buffer, offset, buffer.length, writer.codec, hint)
    } catch (cause) {
      throw this.#undecodable(writer, cause)
    }
    // The data-contract rules (when on) may refuse the record (RuleViolationError) or transform it.
    if (this.#rules !== undefined)
      value = this.#rules.read(writer.coordinates!, value, reader ?? writer.codec, this.#format.name)
    const fromDict = this.#options.fromDict
    if (fromDict === undefined) return value as T
    try {
      return fromDict(value, ctx)
    } catch (cause) {
      throw new DeserializationError(`fromDict threw: ${messageOf(cause)}`, { cause, schemaId: writer.id })
    }
  }
}

/**
 * Records what a dead-letter handler needs on a library error raised while deserializing (see `failedMessageOf` in
 * `@x/errors`): the bytes given, the headers, the context, and the id when one was read. Misuse (`TypeError`) and
 * input that is not bytes pass through untouched.
 */
function failed(
  error: unknown,
  payload: unknown,
  headers: MessageHeaders | null | undefined,
  ctx: SerializationContext,
  idType?: IdType,
  id?: SchemaId,
): unknown {
  if (!(payload instanceof Uint8Array)) return error
  return recordFailedMessage(error, {
    payload,
    schemaId: id,
    idType: id === undefined ? undefined : idType,
    headers: headers ?? undefined,
    context: typeof ctx === 'object' && ctx !== null ? (ctx as FailedMessageContext) : undefined,
  })
}
