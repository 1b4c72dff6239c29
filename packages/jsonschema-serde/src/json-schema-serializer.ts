import { describeValue, invalidConfigError } from '@x/errors'
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
import { JsonSchemaFormat } from './json-schema-format.js'

/** Options of {@link JsonSchemaSerializer}: the options every serializer has, and JSON Schema's own. */
export interface JsonSchemaSerializerOptions<T = unknown> extends SerializerOptions<T> {
  /** The JSON Schema (object or JSON text) to register; required by `autoRegister`, ignored otherwise. */
  schema?: object | string
  /**
   * Apicurio artifact references registered with `schema`: the schemas its `$ref`s name, by the name the `$ref`
   * uses (`{ name: 'address.json', artifactId: 'address', version: '1' }`). Only with `autoRegister`.
   * @default []
   */
  references?: ArtifactReference[]
  /**
   * Validate every value against the schema before writing it (as Apicurio's Java serde does with
   * `apicurio.registry.serde.validation-enabled`, default true). A value that does not match is a `TypeError` (code
   * `INVALID_DATA`) whose `paths` name every failing place as every format does (`address.zip`, `lines[1]`), the
   * failing keyword in the message (`address.zip: expected to match pattern "^[0-9]{5}$", got string "1" (pattern)`).
   * @default true
   */
  validate?: boolean
}

/** Options of the `new JsonSchemaSerializer(client, artifactId, options)` form. */
export type JsonSchemaSerializerArtifactOptions<T = unknown> = Omit<
  JsonSchemaSerializerOptions<T>,
  'artifactId' | 'artifactResolver'
>

const OWNER = 'JsonSchemaSerializer'

function setupOf<T>(client: unknown, artifactIdOrOptions: unknown, options: unknown): SerializerSetup<T> {
  const { options: shared, raw } = normalizeSerializerOptions<T>(OWNER, artifactIdOrOptions, options, [
    'validate',
  ])
  const validate = checkBoolean(raw.validate, true, `${OWNER}: validate`)
  const format = new JsonSchemaFormat({ validateOnWrite: validate, validateOnRead: false })
  let schemaToRegister: string | undefined
  if (shared.autoRegister) {
    schemaToRegister = schemaText(shared.schema)
    checkSchemaToRegister(OWNER, format, schemaToRegister, shared.references)
  }
  return { owner: OWNER, client, format, options: shared, schemaToRegister }
}

/** The text to register: a JSON Schema object as compact JSON, JSON text verbatim. */
function schemaText(schema: unknown): string {
  if (typeof schema === 'string') return schema
  if (typeof schema === 'object' && schema !== null) return JSON.stringify(schema)
  if (typeof schema === 'boolean') return String(schema)
  throw invalidConfigError(
    `${OWNER}: schema must be a JSON Schema object or its JSON text, got ${describeValue(schema)}`,
  )
}

/**
 * Writes values as JSON validated by the JSON Schema of a registry artifact (`artifactType: 'JSON'`), in Apicurio's
 * wire formats: `0x00`, the 4-byte id, then the UTF-8 JSON; or the bare JSON with the id in an
 * `apicurio.{key|value}.{globalId|contentId}` header. Byte-compatible with Apicurio's Java `JsonSchemaKafkaSerializer`
 * (compact JSON; a `bigint` is written as its exact digits, as Java writes a `long`).
 *
 * The methods are those of `SchemaSerializer` (`@x/serde-core`), the same as `AvroSerializer`'s.
 *
 * @typeParam T - The type of the values given to `serialize` (what `toDict` takes).
 */
export class JsonSchemaSerializer<T = unknown> extends SchemaSerializer<T> {
  /**
   * A serializer bound to one artifact.
   * @throws `TypeError` (code `INVALID_CONFIG`) for a misused option, or a schema to register that does not compile.
   */
  constructor(client: RegistryPort, artifactId: string, options?: JsonSchemaSerializerArtifactOptions<T>)
  /**
   * A serializer whose artifact is `options.artifactId`, or is derived per call by `options.artifactResolver`.
   * @throws `TypeError` (code `INVALID_CONFIG`) for a misused option.
   */
  constructor(client: RegistryPort, options: JsonSchemaSerializerOptions<T>)
  constructor(
    client: RegistryPort,
    artifactIdOrOptions: string | JsonSchemaSerializerOptions<T>,
    options?: JsonSchemaSerializerArtifactOptions<T>,
  ) {
    super(setupOf<T>(client, artifactIdOrOptions, options))
  }
}
