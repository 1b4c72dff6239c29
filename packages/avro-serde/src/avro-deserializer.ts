import { invalidConfigError, messageOf } from '@x/errors'
import {
  type DeserializerOptions,
  type DeserializerSetup,
  normalizeDeserializerOptions,
  type RegistryPort,
  type SchemaCodec,
  SchemaDeserializer,
} from '@x/serde-core'
import type { AvroOptions } from './avro/index.js'
import { AvroFormat } from './avro-format.js'
import { checkAvroOption, checkSchemaOption } from './avro-options.js'

/** Options of {@link AvroDeserializer}: the options every deserializer has, and Avro's own. */
export interface AvroDeserializerOptions<T = unknown> extends DeserializerOptions<T> {
  /**
   * Decode into the latest version of the resolved artifact (fetched on the first call for that artifact and
   * cached), resolving it against each message's writer schema (Avro schema resolution). Needs `artifactId` or
   * `artifactResolver`; exclusive with `readerSchema`.
   * @default false
   */
  useLatestVersion?: boolean
  /**
   * The reader schema (object or JSON text), parsed once at construction: values are decoded into it by Avro
   * schema resolution (defaults fill missing fields, extra writer fields are dropped, promotions, aliases).
   * Exclusive with `useLatestVersion`. Without it (and without `useLatestVersion`) the writer schema reads.
   * @default undefined
   */
  readerSchema?: object | string
  /** How Avro values map to JavaScript (longs, unions, logical types); see the type mapping. */
  avro?: AvroOptions
}

const AVRO_OPTION_NAMES = ['readerSchema', 'avro'] as const

function setupOf<T>(client: unknown, options: unknown): DeserializerSetup<T> {
  const owner = 'AvroDeserializer'
  const { options: shared, raw } = normalizeDeserializerOptions<T>(
    owner,
    options,
    AVRO_OPTION_NAMES,
    'readerSchema',
  )
  const readerSchema = checkSchemaOption(raw.readerSchema, `${owner}: readerSchema`)
  const format = new AvroFormat(checkAvroOption(raw.avro, `${owner}: avro`))
  let reader: SchemaCodec | undefined
  if (readerSchema !== undefined) {
    try {
      reader = format.parse(readerSchema)
    } catch (error) {
      throw invalidConfigError(
        `${owner}: readerSchema is not a valid Avro schema: ${messageOf(error)}`,
        error,
      )
    }
  }
  return { owner, client, format, options: shared, reader }
}

/**
 * Decodes Apicurio-framed (or header-mode) Avro messages, looking the writer schema up by the id in the message.
 *
 * Each schema id costs one registry request for the life of the client; parsed schemas (and writer/reader
 * resolvers) are cached per id in an LRU bounded like the client's caches. Once an id is cached (`prepare`, or any
 * call), `deserializeSync` decodes it without a Promise. The methods are those of {@link SchemaDeserializer}
 * (`@x/serde-core`), which every format shares.
 *
 * @typeParam T - What `deserialize` returns: the result of `fromDict`, or the decoded value.
 * @example
 * ```ts
 * const deserializer = new AvroDeserializer<UserEvent>(client, { useId: 'contentId' })
 * const event = await deserializer.deserialize(message.value, new SerializationContext('users'))
 * ```
 */
export class AvroDeserializer<T = unknown> extends SchemaDeserializer<T> {
  /**
   * @param client - The registry client (its caches are shared by every serde using it).
   * @param options - See {@link AvroDeserializerOptions}.
   * @throws `TypeError` (code `INVALID_CONFIG`) for conflicting or misused options: `artifactId` with
   *   `artifactResolver`; `useLatestVersion` without either, or with `readerSchema`; `artifactId` /
   *   `artifactResolver` without `useLatestVersion`; a `useId` other than `globalId`/`contentId`; a `readerSchema`
   *   that is not valid Avro.
   */
  constructor(client: RegistryPort, options?: AvroDeserializerOptions<T>) {
    super(setupOf<T>(client, options))
  }
}
