import { invalidConfigError } from '@x/errors'
import type { ArtifactReference } from '@x/registry-client'
import {
  checkBoolean,
  checkSchemaToRegister,
  normalizeSerializerOptions,
  type RegistryPort,
  SchemaSerializer,
  type SerializerOptions,
  type SerializerSetup,
} from '@x/serde-core'
import type { AvroOptions } from './avro/index.js'
import { AvroFormat } from './avro-format.js'
import { checkAvroOption, checkSchemaOption } from './avro-options.js'

/** Options of {@link AvroSerializer}: the options every serializer has, and Avro's own. */
export interface AvroSerializerOptions<T = unknown> extends SerializerOptions<T> {
  /** The Avro schema (object or JSON text) to register; required by `autoRegister`, ignored otherwise. */
  schema?: object | string
  /**
   * Apicurio artifact references registered with `schema` (named types it uses that other artifacts define, as
   * `{ name: 'com.example.Address', artifactId: 'com.example.Address', version: '1' }`). Only with `autoRegister`.
   * @default []
   */
  references?: ArtifactReference[]
  /**
   * Refuse values with fields the schema does not define, at any depth (records in records, arrays, maps,
   * unions); the `TypeError` (code `INVALID_DATA`) names each such field by path. Off: such fields are ignored.
   * @default false
   */
  strict?: boolean
  /** How Avro values map to JavaScript (longs, unions, logical types); see the type mapping. */
  avro?: AvroOptions
}

/** Options of the `new AvroSerializer(client, artifactId, options)` form, where the artifact id comes second. */
export type AvroSerializerArtifactOptions<T = unknown> = Omit<
  AvroSerializerOptions<T>,
  'artifactId' | 'artifactResolver'
>

const AVRO_OPTION_NAMES = ['strict', 'avro'] as const

/** The core's setup of an Avro serializer: the shared options, the Avro format, the checked schema to register. */
function setupOf<T>(client: unknown, artifactIdOrOptions: unknown, options: unknown): SerializerSetup<T> {
  const owner = 'AvroSerializer'
  const { options: shared, raw } = normalizeSerializerOptions<T>(
    owner,
    artifactIdOrOptions,
    options,
    AVRO_OPTION_NAMES,
  )
  const strict = checkBoolean(raw.strict, false, `${owner}: strict`)
  const avro = checkAvroOption(raw.avro, `${owner}: avro`)
  if (avro.encoding === 'auto') {
    throw invalidConfigError(
      `${owner}: avro.encoding 'auto' is for deserializers (a serializer writes one encoding): 'binary' or 'json'`,
    )
  }
  const format = new AvroFormat(avro, strict)
  const schema = checkSchemaOption(shared.schema, `${owner}: schema`)
  let schemaToRegister: string | undefined
  if (shared.autoRegister) {
    // An object is registered as compact JSON, a text verbatim; checked now, so an invalid schema registers nothing.
    schemaToRegister = typeof schema === 'string' ? schema : JSON.stringify(schema)
    checkSchemaToRegister(owner, format, schemaToRegister, shared.references)
  }
  return { owner, client, format, options: shared, schemaToRegister }
}

/**
 * Encodes values with the Avro schema of a registry artifact, in Apicurio's wire formats.
 *
 * The first call for an artifact fetches its latest schema and ids (or registers `schema` with `autoRegister`)
 * and caches them; later calls make no request and cannot fail on the network. After `prepare(ctx)`, the `…Sync`
 * methods encode without a Promise. The methods are those of {@link SchemaSerializer} (`@x/serde-core`), which every
 * format shares.
 *
 * @typeParam T - The type of the values given to `serialize` (what `toDict` takes).
 * @example
 * ```ts
 * const serializer = new AvroSerializer(client, 'UserEvent')
 * const bytes = await serializer.serialize({ id: 'u1' }, new SerializationContext('users'))
 * ```
 */
export class AvroSerializer<T = unknown> extends SchemaSerializer<T> {
  /**
   * A serializer bound to one artifact.
   * @param client - The registry client (its caches are shared by every serde using it).
   * @param artifactId - The artifact whose latest schema encodes every value.
   * @param options - See {@link AvroSerializerOptions}.
   * @throws `TypeError` (code `INVALID_CONFIG`) for a misused option, or a schema to register that is not valid Avro.
   */
  constructor(client: RegistryPort, artifactId: string, options?: AvroSerializerArtifactOptions<T>)
  /**
   * A serializer whose artifact is `options.artifactId`, or is derived per call by `options.artifactResolver`.
   * @throws `TypeError` (code `INVALID_CONFIG`) for a misused option, or unless exactly one of `artifactId` and
   *   `artifactResolver` is given.
   */
  constructor(client: RegistryPort, options: AvroSerializerOptions<T>)
  constructor(
    client: RegistryPort,
    artifactIdOrOptions: string | AvroSerializerOptions<T>,
    options?: AvroSerializerArtifactOptions<T>,
  ) {
    super(setupOf<T>(client, artifactIdOrOptions, options))
  }
}
