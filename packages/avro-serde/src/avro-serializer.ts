import { invalidConfigError, SerdeError, SerializationError } from '@x/errors'
import type { RegisteredSchema, RegistryClient } from '@x/registry-client'
import {
  encodeIdHeader,
  FRAME_HEADER_SIZE,
  type IdType,
  idHeaderName,
  type SchemaId,
  type SerializationContext,
  WireFormat,
  writeFrameHeader,
} from '@x/wire-format'
import { type AvroCodec, createCodec, isMissingNamedType } from './avro/index.js'
import { LatestArtifacts } from './latest-artifacts.js'
import type { SerializedMessage } from './message-headers.js'
import { cacheBoundOf, cacheTtlOf, checkClient, type RegistryPort } from './registry-port.js'
import { parseRegistered } from './schema-loader.js'
import {
  type AvroSerializerArtifactOptions,
  type AvroSerializerOptions,
  type NormalizedSerializerOptions,
  normalizeSerializerOptions,
} from './serializer-options.js'

/** What the serializer keeps per artifact: the codec, the id and its header bytes, computed once. */
interface WriterArtifact {
  artifactId: string
  registered: RegisteredSchema
  codec: AvroCodec
  id: SchemaId
  /** `0x00` + 4-byte id, in framed mode. */
  frameHeader: Uint8Array | undefined
  /** The 8-byte id header value, in header mode. */
  idHeader: Uint8Array | undefined
}

/** Scratch space kept between calls; a larger one (grown for a big value) is dropped after the call. */
const SCRATCH_SIZE = 8 * 1024
const MAX_KEPT_SCRATCH = 1024 * 1024

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * `autoRegister`'s schema must be valid Avro before anything is registered: parsed at construction. A named type it
 * does not define is accepted only when one of `references` names it (the registry resolves those).
 */
function checkSchemaToRegister<T>(options: NormalizedSerializerOptions<T>): void {
  try {
    createCodec(options.schema!, options.avro)
  } catch (error) {
    const missing = isMissingNamedType(error)
    if (missing !== undefined && options.references?.some((reference) => reference.name === missing)) return
    const invalid = invalidConfigError(
      `AvroSerializer: the schema to register (autoRegister) is not a valid Avro schema: ${messageOf(error)}`,
    )
    Object.defineProperty(invalid, 'cause', {
      value: error,
      enumerable: false,
      configurable: true,
      writable: true,
    })
    throw invalid
  }
}

/**
 * Encodes values with the Avro schema of a registry artifact, in Apicurio's wire formats.
 *
 * The first call for an artifact fetches its latest schema and ids (or registers `schema` with `autoRegister`)
 * and caches them; later calls make no request and cannot fail on the network. After `prepare(ctx)`, the `…Sync`
 * methods encode without a Promise.
 *
 * @typeParam T - The type of the values given to `serialize` (what `toDict` takes).
 * @example
 * ```ts
 * const serializer = new AvroSerializer(client, 'UserEvent')
 * const bytes = await serializer.serialize({ id: 'u1' }, new SerializationContext('users'))
 * ```
 */
export class AvroSerializer<T = unknown> {
  readonly #client: RegistryPort
  readonly #options: NormalizedSerializerOptions<T>
  readonly #artifacts: LatestArtifacts<WriterArtifact>
  readonly #headerNames: Readonly<Record<'key' | 'value', string>>
  readonly #framed: boolean
  #fixedSlot: { entry: WriterArtifact; staleAt: number; refreshing: boolean } | undefined
  #scratch: Buffer = Buffer.allocUnsafe(SCRATCH_SIZE)

  /**
   * A serializer bound to one artifact.
   * @param client - The registry client (its caches are shared by every serde using it).
   * @param artifactId - The artifact whose latest schema encodes every value.
   * @param options - See {@link AvroSerializerOptions}.
   * @throws `TypeError` (code `INVALID_CONFIG`) for a misused option.
   */
  constructor(client: RegistryClient, artifactId: string, options?: AvroSerializerArtifactOptions<T>)
  /**
   * A serializer whose artifact is `options.artifactId`, or is derived per call by `options.artifactResolver`.
   * @throws `TypeError` (code `INVALID_CONFIG`) for a misused option, or unless exactly one of `artifactId` and
   *   `artifactResolver` is given.
   */
  constructor(client: RegistryClient, options: AvroSerializerOptions<T>)
  constructor(
    client: RegistryClient,
    artifactIdOrOptions: string | AvroSerializerOptions<T>,
    options?: AvroSerializerArtifactOptions<T>,
  ) {
    this.#client = checkClient(client, 'AvroSerializer')
    this.#options = normalizeSerializerOptions<T>(artifactIdOrOptions, options)
    if (this.#options.autoRegister) checkSchemaToRegister(this.#options)
    this.#framed = this.#options.wireFormat === WireFormat.FRAMED_PAYLOAD
    const useId = this.#options.useId
    this.#headerNames = Object.freeze({
      key: idHeaderName('key', useId),
      value: idHeaderName('value', useId),
    })
    // Registering again finds the same version: a TTL refresh only makes sense for "latest" lookups.
    const ttl = this.#options.autoRegister ? undefined : cacheTtlOf(this.#client)
    this.#artifacts = new LatestArtifacts(
      (artifactId, previous) => this.#loadArtifact(artifactId, previous),
      cacheBoundOf(this.#client),
      ttl,
    )
  }

  /** Which registry id the serializer writes. */
  get useId(): IdType {
    return this.#options.useId
  }

  /** Where the id travels: `FRAMED_PAYLOAD` or `MESSAGE_HEADERS`. */
  get wireFormat(): WireFormat {
    return this.#options.wireFormat
  }

  /**
   * Encodes a value into a frame: `0x00`, the 4-byte big-endian schema id, then the Avro binary encoding.
   *
   * @returns A new `Buffer` (it shares no memory with the serializer).
   * @throws (rejects) `TypeError` (code `INVALID_CONFIG`) in `MESSAGE_HEADERS` mode, before any request: use
   *   `serializeMessage`. `ResolverError` when the resolver throws or returns no non-empty string.
   *   `SchemaNotFoundError`, `RegistryConnectionError`, `AuthenticationError`, `SchemaRegistrationError` from the
   *   registry, unwrapped. `SerializationError` when `toDict` throws or the registry schema is not valid Avro.
   *   `TypeError` (code `INVALID_DATA`, `paths`) when the value does not match the schema (or has fields the schema
   *   lacks, with `strict`). `RangeError` (code `ID_OUT_OF_RANGE`, message says `32-bit`) when the id does not fit
   *   the 4-byte frame.
   */
  serialize(value: T, ctx: SerializationContext): Promise<Uint8Array> {
    try {
      if (!this.#framed) throw this.#useMessageError('serialize', 'serializeMessage')
      const artifactId = this.#artifactIdOf(ctx)
      const entry = this.#cached(artifactId)
      if (entry !== undefined) return Promise.resolve(this.#frame(entry, value, ctx))
      return this.#artifacts.load(artifactId).then((slot) => {
        this.#remember(artifactId, slot)
        return this.#frame(slot.entry, value, ctx)
      })
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * Encodes a value as a Kafka message: in `MESSAGE_HEADERS` mode the bare Avro encoding as `payload` and exactly
   * one 8-byte id header `apicurio.<ctx.field>.<useId>`; in `FRAMED_PAYLOAD` mode the frame and no header (`{}`).
   * `{ value: payload, headers }` goes straight into a kafkajs message.
   *
   * @throws (rejects) as {@link serialize}, except that both wire formats are accepted.
   */
  serializeMessage(value: T, ctx: SerializationContext): Promise<SerializedMessage> {
    try {
      const artifactId = this.#artifactIdOf(ctx)
      const entry = this.#cached(artifactId)
      if (entry !== undefined) return Promise.resolve(this.#message(entry, value, ctx))
      return this.#artifacts.load(artifactId).then((slot) => {
        this.#remember(artifactId, slot)
        return this.#message(slot.entry, value, ctx)
      })
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * Fetches (or registers) and caches what the `…Sync` methods need for the artifact of `ctx`. With a fixed
   * artifact id, `ctx` may be left out.
   *
   * @throws (rejects) the registry and resolver errors of {@link serialize}; `SerializationError` when the schema is
   *   not valid Avro; `RangeError` (`32-bit`) in framed mode when the id does not fit the frame.
   */
  async prepare(ctx?: SerializationContext): Promise<void> {
    const artifactId = this.#options.artifactId ?? this.#artifactIdOf(ctx as SerializationContext)
    if (this.#cached(artifactId) !== undefined) return
    this.#remember(artifactId, await this.#artifacts.load(artifactId))
  }

  /**
   * {@link serialize} without a Promise, once `prepare(ctx)` (or any call) has cached the artifact's schema. The
   * bytes are the same as `serialize`'s.
   *
   * @throws `SerdeError` (code `NOT_PREPARED`) when the schema is not cached yet, naming `prepare()`; the errors of
   *   {@link serialize} that need no request.
   */
  serializeSync(value: T, ctx: SerializationContext): Uint8Array {
    if (!this.#framed) throw this.#useMessageError('serializeSync', 'serializeMessageSync')
    return this.#frame(this.#preparedEntry(ctx), value, ctx)
  }

  /**
   * {@link serializeMessage} without a Promise, once `prepare(ctx)` (or any call) has cached the artifact's schema.
   *
   * @throws `SerdeError` (code `NOT_PREPARED`) when the schema is not cached yet, naming `prepare()`.
   */
  serializeMessageSync(value: T, ctx: SerializationContext): SerializedMessage {
    return this.#message(this.#preparedEntry(ctx), value, ctx)
  }

  #useMessageError(method: string, instead: string): TypeError {
    return invalidConfigError(
      `AvroSerializer.${method}() returns only bytes, but the wire format is MESSAGE_HEADERS, where the id travels ` +
        `in a message header: call ${instead}() and send its payload with its headers`,
    )
  }

  #artifactIdOf(ctx: SerializationContext): string {
    return this.#options.artifactId ?? this.#options.resolve!(ctx)
  }

  /** The cached artifact, with no lookup at all beyond a field read for a fixed artifact id. */
  #cached(artifactId: string): WriterArtifact | undefined {
    const fixed = this.#fixedSlot
    if (fixed !== undefined) {
      if (fixed.staleAt !== Number.POSITIVE_INFINITY) this.#artifacts.refreshIfStale(artifactId, fixed)
      return fixed.entry
    }
    return this.#options.artifactId === undefined ? this.#artifacts.cached(artifactId) : undefined
  }

  #remember(artifactId: string, slot: { entry: WriterArtifact; staleAt: number; refreshing: boolean }): void {
    if (this.#options.artifactId === artifactId) this.#fixedSlot = slot
  }

  #preparedEntry(ctx: SerializationContext): WriterArtifact {
    const artifactId = this.#artifactIdOf(ctx)
    const entry = this.#cached(artifactId)
    if (entry === undefined) {
      throw new SerdeError(
        'NOT_PREPARED',
        `The schema of artifact '${artifactId}' is not cached yet: call prepare() first (await ` +
          'serializer.prepare(ctx), or one serialize call) before the …Sync methods',
      )
    }
    return entry
  }

  async #loadArtifact(artifactId: string, previous: WriterArtifact | undefined): Promise<WriterArtifact> {
    const options = this.#options
    const registered = options.autoRegister
      ? await this.#client.registerSchema(artifactId, options.schema!, {
          ifExists: options.ifExists,
          ...(options.references === undefined ? {} : { references: options.references }),
        })
      : await this.#client.getSchema(artifactId)
    const id = registered[options.useId]
    if (id === undefined) {
      throw new SerializationError(
        `The registry told no ${options.useId} for artifact '${artifactId}', so the message cannot carry it`,
      )
    }
    if (previous !== undefined && previous.id === id && previous.registered.schema === registered.schema) {
      return previous
    }
    const codec = await parseRegistered(
      this.#client,
      registered,
      { idType: options.useId, id, label: `artifact '${artifactId}' (${options.useId} ${String(id)})` },
      options.avro,
      (message, cause) => new SerializationError(message, { cause }),
    )
    let frameHeader: Uint8Array | undefined
    let idHeader: Uint8Array | undefined
    if (this.#framed) {
      frameHeader = Buffer.allocUnsafe(FRAME_HEADER_SIZE)
      writeFrameHeader(frameHeader, id)
    } else {
      idHeader = encodeIdHeader(id)
    }
    return { artifactId, registered, codec, id, frameHeader, idHeader }
  }

  /** Encodes `value` into the scratch buffer at `offset`, growing it as needed; returns the end position. */
  #encode(entry: WriterArtifact, value: T, ctx: SerializationContext, offset: number): number {
    let data: unknown = value
    const toDict = this.#options.toDict
    if (toDict !== undefined) {
      try {
        data = toDict(value, ctx)
      } catch (cause) {
        throw new SerializationError(`toDict threw for artifact '${entry.artifactId}': ${messageOf(cause)}`, {
          cause,
        })
      }
    }
    const codec = entry.codec
    if (this.#options.strict) codec.checkStrict(data)
    let end = codec.encodeInto(data, this.#scratch, offset)
    while (end < 0) {
      const needed = this.#scratch.length - end
      this.#scratch = Buffer.allocUnsafe(Math.max(needed, this.#scratch.length * 2))
      end = codec.encodeInto(data, this.#scratch, offset)
    }
    return end
  }

  /** Copies `[from, end)` of the scratch buffer into `out` at `at`, and drops an oversized scratch buffer. */
  #copyOut(out: Buffer, at: number, from: number, end: number): void {
    this.#scratch.copy(out, at, from, end)
    if (this.#scratch.length > MAX_KEPT_SCRATCH) this.#scratch = Buffer.allocUnsafe(SCRATCH_SIZE)
  }

  #frame(entry: WriterArtifact, value: T, ctx: SerializationContext): Buffer {
    const end = this.#encode(entry, value, ctx, FRAME_HEADER_SIZE)
    const out = Buffer.allocUnsafe(end)
    out.set(entry.frameHeader!, 0)
    this.#copyOut(out, FRAME_HEADER_SIZE, FRAME_HEADER_SIZE, end)
    return out
  }

  #message(entry: WriterArtifact, value: T, ctx: SerializationContext): SerializedMessage {
    if (this.#framed) return { payload: this.#frame(entry, value, ctx), headers: {} }
    const end = this.#encode(entry, value, ctx, 0)
    const payload = Buffer.allocUnsafe(end)
    this.#copyOut(payload, 0, 0, end)
    const header = Buffer.allocUnsafe(8)
    header.set(entry.idHeader!, 0)
    const headers: Record<string, Uint8Array> = {}
    headers[ctx.field === 'key' ? this.#headerNames.key : this.#headerNames.value] = header
    return { payload, headers }
  }
}
