import { invalidConfigError, messageOf } from '@x/errors'
import {
  checkBoolean,
  type DeserializerOptions,
  type DeserializerSetup,
  normalizeDeserializerOptions,
  type RegistryPort,
  type SchemaCodec,
  SchemaDeserializer,
} from '@x/serde-core'
import { JsonSchemaFormat } from './json-schema-format.js'

/** Options of {@link JsonSchemaDeserializer}: the options every deserializer has, and JSON Schema's own. */
export interface JsonSchemaDeserializerOptions<T = unknown> extends DeserializerOptions<T> {
  /**
   * Validate every message against the reader's chosen schema: `readerSchema`, the latest version of the artifact
   * with `useLatestVersion`, else the schema the message was written with. A message that does not match is a
   * `DeserializationError` whose `cause` is the `TypeError` (code `INVALID_DATA`, `paths` as the serializer names
   * them). Off by default, unlike Apicurio's Java deserializer: a reader that validates refuses messages its own
   * writer let through, and the serializer already validates by default.
   * @default false
   */
  validate?: boolean
  /**
   * A JSON Schema (object or JSON text) to validate messages against instead of their writer schema (with
   * `validate`). Exclusive with `useLatestVersion`.
   */
  readerSchema?: object | string
}

const OWNER = 'JsonSchemaDeserializer'

function setupOf<T>(client: unknown, options: unknown): DeserializerSetup<T> {
  const { options: shared, raw } = normalizeDeserializerOptions<T>(
    OWNER,
    options,
    ['validate', 'readerSchema'],
    'readerSchema',
  )
  const validate = checkBoolean(raw.validate, false, `${OWNER}: validate`)
  const format = new JsonSchemaFormat({ validateOnWrite: false, validateOnRead: validate })
  let reader: SchemaCodec | undefined
  const readerSchema = raw.readerSchema
  if (readerSchema !== undefined) {
    if (typeof readerSchema !== 'string' && (typeof readerSchema !== 'object' || readerSchema === null)) {
      throw invalidConfigError(`${OWNER}: readerSchema must be a JSON Schema object or its JSON text`)
    }
    try {
      reader = format.parse(typeof readerSchema === 'string' ? readerSchema : JSON.stringify(readerSchema))
    } catch (error) {
      throw invalidConfigError(
        `${OWNER}: readerSchema is not a valid JSON Schema: ${messageOf(error)}`,
        error,
      )
    }
  }
  return { owner: OWNER, client, format, options: shared, reader }
}

/**
 * Reads Apicurio-framed (or header-mode) JSON messages written with a JSON Schema artifact: integers beyond 2^53
 * come back as exact `bigint`s (Java writes `long`s as plain integers), everything else as `JSON.parse` gives it.
 * Validation is optional (`validate: true`). Reads what Apicurio's Java `JsonSchemaKafkaSerializer` writes.
 *
 * The methods are those of `SchemaDeserializer` (`@x/serde-core`), the same as `AvroDeserializer`'s.
 *
 * @typeParam T - What `deserialize` returns: the result of `fromDict`, or the parsed value.
 */
export class JsonSchemaDeserializer<T = unknown> extends SchemaDeserializer<T> {
  /**
   * @throws `TypeError` (code `INVALID_CONFIG`) for conflicting or misused options, or a `readerSchema` that does
   *   not compile.
   */
  constructor(client: RegistryPort, options?: JsonSchemaDeserializerOptions<T>) {
    super(setupOf<T>(client, options))
  }
}
