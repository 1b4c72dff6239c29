import { invalidConfigError, messageOf, SerdeError, SerializationError } from '@x/errors'
import type { ArtifactReference, RegisteredSchema } from '@x/registry-client'
import { SingleFlightCache } from '@x/registry-client/cache'
import {
  encodeIdHeader,
  type IdSize,
  type IdType,
  idHeaderName,
  type SchemaId,
  type SerializationContext,
  WireFormat,
  writeFrameHeader,
} from '@x/wire-format'
import { ContractRules, type VersionCoordinates } from './contract-rules.js'
import type { SerializedMessage } from './message-headers.js'
import { cacheBoundOf, cacheTtlOf, checkClient, type RegistryPort, SERIALIZING } from './registry-port.js'
import type { SchemaCodec, SchemaFormat } from './schema-format.js'
import { parseRegistered } from './schema-loader.js'
import type { NormalizedSerializerOptions } from './serializer-options.js'
import { untransferableMarker } from './untransferable.js'

/** What a format's serializer class hands to the core: its name, the client, its format and checked options. */
export interface SerializerSetup<T> {
  /** The public class name, for messages (`AvroSerializer`). */
  readonly owner: string
  readonly client: unknown
  readonly format: SchemaFormat
  readonly options: NormalizedSerializerOptions<T>
  /** The text `autoRegister` registers (the format checked it), when it registers. */
  readonly schemaToRegister: string | undefined
  /**
   * With `autoRegister`: registers what the schema needs besides the references the user gave (Protobuf's well-known
   * imports, which Apicurio's Java serde registers and needs as references), before the schema itself, and returns
   * the references to add. Runs with each registration of the schema.
   */
  readonly registerDependencies?:
    | ((client: RegistryPort) => Promise<readonly ArtifactReference[]>)
    | undefined
}

/** What the serializer keeps per artifact: the codec, the id and its header bytes, computed once. */
interface WriterArtifact {
  artifactId: string
  registered: RegisteredSchema
  codec: SchemaCodec
  id: SchemaId
  /** `0x00` + the id in `idSize` bytes, in framed mode. */
  frameHeader: Uint8Array | undefined
  /** The 8-byte id header value, in header mode. */
  idHeader: Uint8Array | undefined
  /** The version the value is written with, whose data-contract rules run on it. */
  coordinates: VersionCoordinates
}

/** Scratch space for messages too big for a slab; a larger one (grown for a big value) is dropped after the call. */
const SCRATCH_SIZE = 8 * 1024
const MAX_KEPT_SCRATCH = 1024 * 1024

/**
 * Messages are encoded straight into the unused part of a slab and handed out as views of it, as Node's
 * `Buffer.allocUnsafe` hands out views of its 8 KiB pool: no copy, and a retained message keeps at most its slab
 * alive, as one from `allocUnsafe` does. A message that does not fit what is left goes to a new slab if it needs at
 * most half of one, else to the scratch buffer and a Buffer of its own. The bench record's `serializeSync` spent
 * 15 % of its time in the copy out of a scratch buffer and the allocation of its result.
 *
 * Each slab is marked untransferable, as Node marks its pool, so that a `postMessage` transfer list naming one
 * message's `ArrayBuffer` cannot detach the messages beside it. A runtime without `markAsUntransferable` gets no
 * slab: each message is then copied into a Buffer of its own.
 */
const SLAB_SIZE = 8 * 1024

/**
 * The serializer of every format: encodes values with the schema of a registry artifact, in Apicurio's wire formats.
 * A format's class (`AvroSerializer`, `JsonSchemaSerializer`, `ProtobufSerializer`) extends it and supplies the
 * format; the methods are these.
 *
 * The first call for an artifact fetches its latest schema and ids (or registers `schema` with `autoRegister`)
 * and caches them; later calls make no request and cannot fail on the network. After `prepare(ctx)`, the `…Sync`
 * methods encode without a Promise.
 *
 * @typeParam T - The type of the values given to `serialize` (what `toDict` takes).
 */
export class SchemaSerializer<T = unknown> {
  readonly #owner: string
  readonly #client: RegistryPort
  readonly #format: SchemaFormat
  readonly #options: NormalizedSerializerOptions<T>
  readonly #schemaToRegister: string | undefined
  readonly #registerDependencies: SerializerSetup<T>['registerDependencies']
  /**
   * What was built from the latest version of each artifact met, bounded like the client's caches, one load in
   * flight per artifact. With a TTL (the client's `cacheTtlMs`) an expired entry is still served while one background
   * load replaces it, so a call never fails, nor waits, because of a refresh.
   */
  readonly #artifacts: SingleFlightCache<WriterArtifact>
  readonly #ttlMs: number | undefined
  readonly #headerNames: Readonly<Record<'key' | 'value', string>>
  readonly #framed: boolean
  /** The data-contract rules; `undefined` when they are off (the hot path then reads this one field). */
  readonly #rules: ContractRules | undefined
  #scratch: Buffer | undefined
  /** Where messages are written (see `SLAB_SIZE`), and where its unused part starts. */
  #slab: Buffer | undefined
  #slabAt = 0
  /**
   * The bytes the last message encoded in a slab took (header included): a message is expected to be about as long,
   * so one that would not fit what is left of the slab is encoded in a new slab at once, not tried first and encoded
   * again when the try fails for want of room. The bytes written do not depend on it, only where they are.
   */
  #lastSize = 0
  /**
   * Whether a message is being encoded: a `serialize` called meanwhile (from a getter, a `toJSON`, a logical type
   * that the codec runs) gets memory of its own, since the outer message is being written where it would go.
   */
  #encoding = false

  /** @param setup - What the format's class checked and built (see {@link SerializerSetup}). */
  constructor(setup: SerializerSetup<T>) {
    this.#owner = setup.owner
    this.#client = checkClient(setup.client, setup.owner)
    this.#format = setup.format
    this.#options = setup.options
    this.#schemaToRegister = setup.schemaToRegister
    this.#registerDependencies = setup.registerDependencies
    this.#framed = this.#options.wireFormat === WireFormat.FRAMED_PAYLOAD
    const useId = this.#options.useId
    this.#headerNames = Object.freeze({
      key: idHeaderName('key', useId),
      value: idHeaderName('value', useId),
    })
    this.#rules =
      this.#options.rules === undefined
        ? undefined
        : new ContractRules(this.#client, this.#options.rules, setup.owner, cacheBoundOf(this.#client))
    // Registering again finds the same version: a TTL refresh only makes sense for "latest" lookups.
    const ttl = this.#options.autoRegister ? undefined : cacheTtlOf(this.#client)
    this.#ttlMs = ttl
    this.#artifacts = new SingleFlightCache<WriterArtifact>({
      max: cacheBoundOf(this.#client),
      refresh: (artifactId, previous) => this.#loadArtifact(artifactId, previous),
    })
  }

  /** Which registry id the serializer writes. */
  get useId(): IdType {
    return this.#options.useId
  }

  /** How many bytes a frame gives the id: 4 or 8 (the `idSize` option; no effect in headers mode). */
  get idSize(): IdSize {
    return this.#options.idSize
  }

  /** Where the id travels: `FRAMED_PAYLOAD` or `MESSAGE_HEADERS`. */
  get wireFormat(): WireFormat {
    return this.#options.wireFormat
  }

  /**
   * Encodes a value into a frame: `0x00`, the big-endian schema id in `idSize` bytes (4 by default), then the payload.
   *
   * @returns A new `Buffer`, never written again by the serializer. As `Buffer.allocUnsafe` hands out views of
   *   Node's pool, a message of at most 4 KiB is a view of an 8 KiB slab that later messages of the same serializer
   *   share: its `.buffer` holds them too (use `byteOffset` and `length`), and keeping the message keeps the slab
   *   alive. The slab is marked untransferable as Node's pool is: naming `message.buffer` in a `postMessage`
   *   transfer list copies it (Node 20) or throws a `DataCloneError` (Node 22+), never detaching the other
   *   messages; to transfer one, copy it first (`Uint8Array.from(message)`). A `serialize` called while the same
   *   serializer is writing (from a getter, a `toJSON`, a logical type) gets memory of its own.
   * @throws (rejects) `TypeError` (code `INVALID_CONFIG`) in `MESSAGE_HEADERS` mode, before any request: use
   *   `serializeMessage`. `ResolverError` when the resolver throws or returns no non-empty string.
   *   `SchemaNotFoundError`, `RegistryConnectionError`, `AuthenticationError`, `SchemaRegistrationError` from the
   *   registry, unwrapped. `SerializationError` when `toDict` throws or the registry schema is not valid in the
   *   format. `TypeError` (code `INVALID_DATA`, `paths`) when the value does not match the schema. `RangeError` (code
   *   `ID_OUT_OF_RANGE`) when the id does not fit the frame (with 4 bytes, its message says `32-bit`).
   *   `RuleViolationError` when a data-contract rule refuses the value (with `rules.enabled`).
   */
  serialize(value: T, ctx: SerializationContext): Promise<Uint8Array> {
    try {
      if (!this.#framed) throw this.#useMessageError('serialize', 'serializeMessage')
      const artifactId = this.#artifactIdOf(ctx)
      const entry = this.#cached(artifactId)
      if (entry !== undefined && this.#ready(entry)) return Promise.resolve(this.#frame(entry, value, ctx))
      return this.#load(artifactId).then((loaded) => this.#frame(loaded, value, ctx))
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * Encodes a value as a Kafka message: in `MESSAGE_HEADERS` mode the bare payload and one 8-byte id header
   * `apicurio.<ctx.field>.<useId>` (with the headers the format adds, such as Avro's `apicurio.<field>.encoding`
   * with the JSON encoding); in `FRAMED_PAYLOAD` mode the frame and no header (`{}`). `{ value: payload,
   * headers }` goes straight into a kafkajs message.
   *
   * @throws (rejects) as {@link serialize}, except that both wire formats are accepted.
   */
  serializeMessage(value: T, ctx: SerializationContext): Promise<SerializedMessage> {
    try {
      const artifactId = this.#artifactIdOf(ctx)
      const entry = this.#cached(artifactId)
      if (entry !== undefined && this.#ready(entry)) return Promise.resolve(this.#message(entry, value, ctx))
      return this.#load(artifactId).then((loaded) => this.#message(loaded, value, ctx))
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * Fetches (or registers) and caches what the `…Sync` methods need for the artifact of `ctx`. With a fixed
   * artifact id, `ctx` may be left out.
   *
   * @throws (rejects) the registry and resolver errors of {@link serialize}; `SerializationError` when the schema is
   *   not valid in the format; `RangeError` (`32-bit`) in framed mode when the id does not fit the frame.
   */
  async prepare(ctx?: SerializationContext): Promise<void> {
    const artifactId = this.#options.artifactId ?? this.#artifactIdOf(ctx as SerializationContext)
    const entry = this.#cached(artifactId)
    if (entry !== undefined && this.#ready(entry)) return
    await this.#load(artifactId)
  }

  /**
   * Whether the `…Sync` methods can write for the artifact of `ctx` now: its schema is cached (and its data-contract
   * rules, when they are on), so that {@link prepare} would make no request. With a fixed artifact id, `ctx` may be
   * left out; `false` when the artifact cannot be told.
   */
  isPrepared(ctx?: SerializationContext): boolean {
    let artifactId: string
    try {
      artifactId = this.#options.artifactId ?? this.#artifactIdOf(ctx as SerializationContext)
    } catch {
      return false
    }
    const entry = this.#cached(artifactId)
    return entry !== undefined && this.#ready(entry)
  }

  /** Whether the artifact's data-contract rules (when on) are cached too. */
  #ready(entry: WriterArtifact): boolean {
    return this.#rules === undefined || this.#rules.isReady(entry.coordinates, false)
  }

  /**
   * The artifact's entry, loading it on a miss (one load per artifact at a time; failures are not cached), and its
   * data-contract rules when they are on and not cached.
   */
  async #load(artifactId: string): Promise<WriterArtifact> {
    const entry =
      this.#cached(artifactId) ??
      (await this.#artifacts.load(
        artifactId,
        () => this.#loadArtifact(artifactId, undefined),
        undefined,
        this.#ttlMs,
      ))
    if (!this.#ready(entry)) await this.#rules!.prepare(entry.coordinates, false)
    return entry
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
      `${this.#owner}.${method}() returns only bytes, but the wire format is MESSAGE_HEADERS, where the id travels ` +
        `in a message header: call ${instead}() and send its payload with its headers`,
    )
  }

  #artifactIdOf(ctx: SerializationContext): string {
    return this.#options.artifactId ?? this.#options.resolve!(ctx)
  }

  /** The cached artifact (one key compare when it is the one read last), refreshed in the background when stale. */
  #cached(artifactId: string): WriterArtifact | undefined {
    return this.#artifacts.get(artifactId)
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
    const format = this.#format
    const registered = options.autoRegister
      ? await this.#register(artifactId)
      : await this.#client.getSchema(artifactId, SERIALIZING)
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
      format,
      registered,
      { idType: options.useId, id, label: `artifact '${artifactId}' (${options.useId} ${String(id)})` },
      (message, cause) => new SerializationError(message, { cause }),
    )
    let frameHeader: Uint8Array | undefined
    let idHeader: Uint8Array | undefined
    if (this.#framed) {
      frameHeader = Buffer.allocUnsafe(1 + options.idSize)
      writeFrameHeader(frameHeader, id, 0, { idSize: options.idSize })
    } else {
      idHeader = encodeIdHeader(id)
    }
    const coordinates: VersionCoordinates = {
      groupId: registered.groupId ?? (this.#client as { groupId?: string }).groupId ?? 'default',
      artifactId: registered.artifactId ?? artifactId,
      version: registered.version ?? 'branch=latest',
    }
    return { artifactId, registered, codec, id, frameHeader, idHeader, coordinates }
  }

  async #register(artifactId: string): Promise<RegisteredSchema> {
    const options = this.#options
    const format = this.#format
    const dependencies =
      this.#registerDependencies === undefined ? [] : await this.#registerDependencies(this.#client)
    const references = [...(options.references ?? []), ...dependencies]
    return this.#client.registerSchema(artifactId, this.#schemaToRegister!, {
      ifExists: options.ifExists,
      artifactType: format.artifactType,
      contentType: format.contentType,
      ...(references.length === 0 ? {} : { references }),
    })
  }

  /**
   * What the codec encodes: `toDict`'s result for `value`, or `value` itself, after the data-contract `WRITE` rules
   * (when on), which may refuse it or hand back a transformed record (turned back into the codec's values).
   */
  #dataOf(entry: WriterArtifact, value: T, ctx: SerializationContext): unknown {
    const rules = this.#rules
    const data = this.#toDict(entry, value, ctx)
    return rules === undefined ? data : rules.write(entry.coordinates, data, entry.codec)
  }

  #toDict(entry: WriterArtifact, value: T, ctx: SerializationContext): unknown {
    const toDict = this.#options.toDict
    if (toDict === undefined) return value
    try {
      return toDict(value, ctx)
    } catch (cause) {
      throw new SerializationError(`toDict threw for artifact '${entry.artifactId}': ${messageOf(cause)}`, {
        cause,
      })
    }
  }

  /**
   * `data` encoded after `header`: in the slab's unused part (a new slab when what is left is too short) and handed
   * out as a view of it, or, for a message bigger than half a slab, in the scratch buffer (grown to fit) and copied
   * into a Buffer of its own. Nothing written is written over later: the slab's position moves past each message. A
   * call made while a message is being encoded (re-entered through the value) uses neither the slab nor the scratch.
   */
  #encode(entry: WriterArtifact, data: unknown, header: Uint8Array | undefined): Buffer {
    const headerSize = header === undefined ? 0 : header.length
    if (this.#encoding) return this.#encodeApart(entry.codec, data, header, headerSize, true)
    this.#encoding = true
    try {
      const mark = untransferableMarker()
      if (mark === undefined) {
        return this.#encodeApart(entry.codec, data, header, headerSize, false)
      }
      return this.#encodeInSlab(entry.codec, data, header, headerSize, mark)
    } finally {
      this.#encoding = false
    }
  }

  #encodeInSlab(
    codec: SchemaCodec,
    data: unknown,
    header: Uint8Array | undefined,
    headerSize: number,
    mark: (buffer: ArrayBufferLike) => void,
  ): Buffer {
    let slab = this.#slab
    let at = this.#slabAt
    // A last message of more than half a slab predicts nothing: one as long would get memory of its own.
    const expected = this.#lastSize > SLAB_SIZE / 2 ? headerSize : Math.max(headerSize, this.#lastSize)
    const room = slab !== undefined && at + expected < slab.length
    let end = room ? codec.encodeInto(data, slab!, at + headerSize) : -1
    if (end < 0) {
      // A failed try tells the room the message needs (its end would be `slab.length - end`).
      if (room && slab!.length - end - at > SLAB_SIZE / 2)
        return this.#encodeApart(codec, data, header, headerSize, false)
      slab = this.#slab = Buffer.allocUnsafeSlow(SLAB_SIZE)
      mark(slab.buffer)
      at = 0
      end = codec.encodeInto(data, slab, headerSize)
      if (end < 0) return this.#encodeApart(codec, data, header, headerSize, false)
    }
    for (let i = 0; i < headerSize; i++) slab![at + i] = header![i]!
    this.#lastSize = end - at
    // The next message starts 8-byte aligned, as in Node's pool.
    this.#slabAt = (end + 7) & ~7
    return slab!.subarray(at, end)
  }

  /**
   * {@link #encode} into a Buffer of its own: in the scratch buffer (grown to fit; a re-entered call uses a fresh
   * one, as the outer call may be writing in the serializer's), then copied out once.
   */
  #encodeApart(
    codec: SchemaCodec,
    data: unknown,
    header: Uint8Array | undefined,
    headerSize: number,
    reentered: boolean,
  ): Buffer {
    let scratch = (reentered ? undefined : this.#scratch) ?? Buffer.allocUnsafeSlow(SCRATCH_SIZE)
    let end = codec.encodeInto(data, scratch, headerSize)
    while (end < 0) {
      const needed = scratch.length - end
      scratch = Buffer.allocUnsafeSlow(Math.max(needed, scratch.length * 2))
      end = codec.encodeInto(data, scratch, headerSize)
    }
    if (!reentered) this.#scratch = scratch.length > MAX_KEPT_SCRATCH ? undefined : scratch
    for (let i = 0; i < headerSize; i++) scratch[i] = header![i]!
    const out = Buffer.allocUnsafe(end)
    scratch.copy(out, 0, 0, end)
    return out
  }

  #frame(entry: WriterArtifact, value: T, ctx: SerializationContext): Buffer {
    return this.#encode(entry, this.#dataOf(entry, value, ctx), entry.frameHeader)
  }

  #message(entry: WriterArtifact, value: T, ctx: SerializationContext): SerializedMessage {
    if (this.#framed) return { payload: this.#frame(entry, value, ctx), headers: {} }
    const payload = this.#encode(entry, this.#dataOf(entry, value, ctx), undefined)
    const header = Buffer.allocUnsafe(8)
    header.set(entry.idHeader!, 0)
    const headers: Record<string, Uint8Array> = {}
    const field = ctx.field === 'key' ? 'key' : 'value'
    headers[this.#headerNames[field]] = header
    const extra = this.#format.messageHeaders?.[field]
    if (extra !== undefined) {
      for (const name of Object.keys(extra)) headers[name] = Buffer.from(extra[name]!)
    }
    return { payload, headers }
  }
}
