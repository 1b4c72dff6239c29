import type { AvroOptions } from '@x/avro-serde'
import { invalidConfigError, SerdeError, SerializationError } from '@x/errors'
import type { RegisteredSchema } from '@x/registry-client'
import { SingleFlightCache } from '@x/registry-client/cache'
import {
  type ArtifactResolver,
  checkKnownKeys,
  checkOptionsObject,
  type LookupOptions,
  normalizeRulesOptions,
  type RegistryPort,
  type RulesOptions,
  type SerializedMessage,
  type SerializerOptions,
  TopicIdStrategy,
} from '@x/serde-core'
import { type SerializationContext, WireFormat } from '@x/wire-format'
import { type SchemaKind, schemaKindOf } from './schema-kind.js'

/** The latest-version lookup is made to write a message: the registry's usage telemetry counts it so. */
const SERIALIZING: LookupOptions = Object.freeze({ operation: 'SERIALIZE' })

/**
 * Options of {@link AnySerializer}: those every serializer shares that make sense whatever the format, and each
 * format's own, handed to that format's serializer when its first artifact is met.
 *
 * @typeParam T - The type of the values given to `serialize` (what `toDict` takes).
 */
export interface AnySerializerOptions<T = unknown>
  extends Pick<SerializerOptions<T>, 'toDict' | 'useId' | 'idSize' | 'wireFormat'> {
  /**
   * Derives each message's artifact from its context; the artifact's latest version names the format.
   * @default new TopicIdStrategy() (`<topic>-value`, `<topic>-key`)
   */
  artifactResolver?: ArtifactResolver
  /** Avro artifacts: the `avro` options of `AvroSerializer` (`encoding`, logical types). @default Avro's */
  avro?: AvroOptions
  /** Avro artifacts: refuse fields the schema does not declare (`AvroSerializer`'s `strict`). @default false */
  strict?: boolean
  /** JSON Schema artifacts: validate each value (`JsonSchemaSerializer`'s `validate`). @default true */
  validate?: boolean
  /** Protobuf artifacts: the message type written (`ProtobufSerializer`'s `messageType`). @default the first */
  messageType?: string
  /** Protobuf artifacts: after the id, Apicurio's `Ref` or Confluent's message indexes. @default 'apicurio' */
  framing?: 'apicurio' | 'confluent'
  /**
   * Data-contract rules, handed unchanged to the serializer of every format: the `WRITE` and `WRITEREAD` rules of
   * the version written run before encoding, and a refused value throws `RuleViolationError` (nothing is written).
   * @default off
   */
  rules?: RulesOptions
}

/** What a format's serializer offers, as AnySerializer uses it. */
interface FormatWriter<T> {
  serialize(value: T, ctx: SerializationContext): Promise<Uint8Array>
  serializeMessage(value: T, ctx: SerializationContext): Promise<SerializedMessage>
  serializeSync(value: T, ctx: SerializationContext): Uint8Array
  serializeMessageSync(value: T, ctx: SerializationContext): SerializedMessage
  prepare(ctx?: SerializationContext): Promise<void>
  isPrepared(ctx?: SerializationContext): boolean
}

/** The registry call AnySerializer makes itself (the format serializers make theirs through the same client). */
type LatestLookup = RegistryPort & {
  getSchema(artifactId: string, options?: LookupOptions): Promise<RegisteredSchema>
}

const OWNER = 'AnySerializer'
const OPTION_NAMES = [
  'artifactResolver',
  'toDict',
  'useId',
  'idSize',
  'wireFormat',
  'avro',
  'strict',
  'validate',
  'messageType',
  'framing',
  'rules',
] as const
const FORMAT_OPTIONS: Record<SchemaKind, readonly string[]> = {
  AVRO: ['avro', 'strict'],
  JSON: ['validate'],
  PROTOBUF: ['messageType', 'framing'],
}
/** Bound of the artifact → format cache when the client does not say its own. */
const DEFAULT_BOUND = 1000

/**
 * Writes a value in the format of the artifact its strategy picks (`TopicIdStrategy` by default): the artifact's
 * latest version names the type (`AVRO`, `JSON`, `PROTOBUF`), and that format's serializer writes the value, framed
 * or in headers mode as `wireFormat` says. One lookup per artifact for the life of the serializer (shared by
 * concurrent first calls); each format's library is loaded when its first artifact is met. What `x-serde produce`
 * does, and the adapters' writer when none is given.
 *
 * @typeParam T - The type of the values given to `serialize`.
 */
export class AnySerializer<T = unknown> {
  readonly #client: LatestLookup
  readonly #resolve: (ctx: SerializationContext) => string
  readonly #options: Record<string, unknown>
  readonly #kinds: SingleFlightCache<SchemaKind>
  readonly #writers: Partial<Record<SchemaKind, FormatWriter<T>>> = {}
  readonly #loading = new Map<SchemaKind, Promise<FormatWriter<T>>>()
  readonly #resolver: ArtifactResolver

  /**
   * @param client - The registry client (`RegistryClient`) every format's serializer shares.
   * @throws TypeError (code `INVALID_CONFIG`) for a client without artifact lookups, an unknown option or an
   *   `artifactResolver` that is no strategy; each format's own options are checked by its serializer.
   */
  constructor(client: unknown, options: AnySerializerOptions<T> = {}) {
    const port = client as { getSchema?: unknown } | null
    if (typeof port !== 'object' || port === null || typeof port.getSchema !== 'function') {
      throw invalidConfigError(`${OWNER}: client must be a RegistryClient`)
    }
    const raw = checkOptionsObject(options, `${OWNER} options`)
    checkKnownKeys(raw, OPTION_NAMES, `${OWNER} options`)
    // Checked here as well as by each format's serde, so that a wrong `rules` fails at construction.
    normalizeRulesOptions(raw.rules, OWNER)
    this.#client = client as LatestLookup
    this.#resolver = (raw.artifactResolver as ArtifactResolver | undefined) ?? new TopicIdStrategy()
    const resolver = this.#resolver
    if (typeof resolver === 'function') this.#resolve = resolver
    else if (typeof resolver === 'object' && resolver !== null && typeof resolver.resolve === 'function') {
      this.#resolve = (ctx) => resolver.resolve(ctx)
    } else {
      throw invalidConfigError(
        `${OWNER}: artifactResolver must be a function (ctx) => string or an object with a resolve(ctx) method`,
      )
    }
    this.#options = raw
    const bound = (client as { cacheMaxSize?: unknown }).cacheMaxSize
    this.#kinds = new SingleFlightCache<SchemaKind>({
      max: typeof bound === 'number' ? bound : DEFAULT_BOUND,
      now: () => performance.now(),
    })
  }

  /** Where the id travels: `FRAMED_PAYLOAD` (the default) or `MESSAGE_HEADERS`. */
  get wireFormat(): WireFormat {
    return (this.#options.wireFormat as WireFormat | undefined) ?? WireFormat.FRAMED_PAYLOAD
  }

  /**
   * Encodes a value into a frame in the format of its artifact.
   *
   * @throws (rejects) the errors of the format's serializer; `SerializationError` for an artifact of a type no
   *   format here writes; the registry's errors for the artifact's lookup.
   */
  async serialize(value: T, ctx: SerializationContext): Promise<Uint8Array> {
    return (await this.#writerOf(ctx)).serialize(value, ctx)
  }

  /** Encodes a value as a Kafka message (payload and id headers) in the format of its artifact. */
  async serializeMessage(value: T, ctx: SerializationContext): Promise<SerializedMessage> {
    return (await this.#writerOf(ctx)).serializeMessage(value, ctx)
  }

  /** Learns the format of the artifact of `ctx` and caches its schema, so that the `…Sync` methods write it. */
  async prepare(ctx: SerializationContext): Promise<void> {
    await (await this.#writerOf(ctx)).prepare(ctx)
  }

  /**
   * Whether the `…Sync` methods can write for the artifact of `ctx` now: its format is known and its serializer
   * prepared, so that {@link prepare} would make no request.
   */
  isPrepared(ctx: SerializationContext): boolean {
    let artifactId: string
    try {
      artifactId = this.#resolve(ctx)
    } catch {
      return false
    }
    const kind = this.#kinds.get(artifactId)
    const writer = kind === undefined ? undefined : this.#writers[kind]
    return writer?.isPrepared(ctx) === true
  }

  /**
   * {@link serialize} without a Promise, once `prepare(ctx)` (or any call) has cached the artifact.
   *
   * @throws `SerdeError` (code `NOT_PREPARED`) when the artifact's format is not known yet.
   */
  serializeSync(value: T, ctx: SerializationContext): Uint8Array {
    return this.#preparedWriter(ctx, 'serializeSync').serializeSync(value, ctx)
  }

  /** {@link serializeMessage} without a Promise, once `prepare(ctx)` (or any call) has cached the artifact. */
  serializeMessageSync(value: T, ctx: SerializationContext): SerializedMessage {
    return this.#preparedWriter(ctx, 'serializeMessageSync').serializeMessageSync(value, ctx)
  }

  /** The format of the artifact of `ctx` when it is known already, else `undefined`. */
  formatOf(ctx: SerializationContext): SchemaKind | undefined {
    return this.#kinds.get(this.#resolve(ctx))
  }

  #preparedWriter(ctx: SerializationContext, method: string): FormatWriter<T> {
    const artifactId = this.#resolve(ctx)
    const kind = this.#kinds.get(artifactId)
    const writer = kind === undefined ? undefined : this.#writers[kind]
    if (writer === undefined) {
      throw new SerdeError(
        'NOT_PREPARED',
        `The format of artifact ${artifactId} is not known yet: await serializer.prepare(ctx) (or one serialize call) before ${method}`,
      )
    }
    return writer
  }

  async #writerOf(ctx: SerializationContext): Promise<FormatWriter<T>> {
    const artifactId = this.#resolve(ctx)
    const kind = await this.#kinds.load(artifactId, async () => {
      const latest = await this.#client.getSchema(artifactId, SERIALIZING)
      const found = schemaKindOf(latest.artifactType)
      if (found !== undefined) return found
      throw new SerializationError(
        `Artifact ${artifactId} is of type ${latest.artifactType ?? '(not named)'}: AnySerializer writes AVRO, JSON and PROTOBUF`,
      )
    })
    return this.#writerFor(kind)
  }

  #writerFor(kind: SchemaKind): Promise<FormatWriter<T>> {
    const ready = this.#writers[kind]
    if (ready !== undefined) return Promise.resolve(ready)
    let loading = this.#loading.get(kind)
    if (loading === undefined) {
      loading = this.#createWriter(kind).then(
        (writer) => {
          this.#writers[kind] = writer
          return writer
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

  async #createWriter(kind: SchemaKind): Promise<FormatWriter<T>> {
    const raw = this.#options
    const client = this.#client as RegistryPort
    const options: Record<string, unknown> = { artifactResolver: this.#resolver }
    for (const name of ['toDict', 'useId', 'idSize', 'wireFormat', 'rules', ...FORMAT_OPTIONS[kind]]) {
      if (raw[name] !== undefined) options[name] = raw[name]
    }
    switch (kind) {
      case 'AVRO': {
        const { AvroSerializer } = await import('@x/avro-serde')
        return new AvroSerializer<T>(client, options) as unknown as FormatWriter<T>
      }
      case 'JSON': {
        const { JsonSchemaSerializer } = await import('@x/jsonschema-serde')
        return new JsonSchemaSerializer<T>(client, options) as unknown as FormatWriter<T>
      }
      case 'PROTOBUF': {
        const { ProtobufSerializer } = await import('@x/protobuf-serde')
        return new ProtobufSerializer<T>(client, options) as unknown as FormatWriter<T>
      }
    }
  }
}
