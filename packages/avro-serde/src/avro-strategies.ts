import { invalidConfigError, messageOf } from '@x/errors'
import {
  QualifiedRecordIdStrategy as RecordNameStrategy,
  TopicRecordIdStrategy as TopicRecordNameStrategy,
} from '@x/serde-core'

/**
 * The full name of a record (or enum, fixed) schema, following the Avro rules: a dotted `name` is the full name
 * itself, otherwise `namespace.name` (just `name` without a namespace).
 */
export function avroFullNameOf(schema: unknown, strategy: string): string {
  let parsed = schema
  if (typeof schema === 'string') {
    try {
      parsed = JSON.parse(schema)
    } catch (error) {
      throw invalidConfigError(
        `${strategy} needs an Avro schema object or JSON text, got text that is not JSON (${messageOf(error)})`,
        error,
      )
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidConfigError(
      `${strategy} needs a named Avro schema (record, enum or fixed) with a non-empty 'name', got ${
        Array.isArray(parsed) ? 'a union' : typeof parsed
      }`,
    )
  }
  const { name, namespace } = parsed as { name?: unknown; namespace?: unknown }
  if (typeof name !== 'string' || name === '') {
    throw invalidConfigError(
      `${strategy} needs a named Avro schema (record, enum or fixed) with a non-empty 'name'`,
    )
  }
  if (name.includes('.')) return name
  return typeof namespace === 'string' && namespace !== '' ? `${namespace}.${name}` : name
}

/**
 * The full name of the record schema given at construction, whatever the topic (Java `QualifiedRecordIdStrategy`),
 * e.g. `com.example.Order`.
 */
export class QualifiedRecordIdStrategy extends RecordNameStrategy {
  /**
   * @param schema - The record schema (object or JSON text) whose full name is the artifact id.
   * @throws `TypeError` (code `INVALID_CONFIG`) when the schema has no non-empty `name`.
   */
  constructor(schema: object | string) {
    super(avroFullNameOf(schema, 'QualifiedRecordIdStrategy'))
  }
}

/**
 * `<topic>-<full name>` of the record schema given at construction, e.g. `orders-com.example.Order`.
 *
 * Note: Apicurio's Java `TopicRecordIdStrategy` puts the record's namespace in the group id and uses
 * `<topic>-<simple name>` as the artifact id; this strategy keeps the client's group and the full name, as
 * Confluent's `TopicRecordNameStrategy` does.
 */
export class TopicRecordIdStrategy extends TopicRecordNameStrategy {
  /**
   * @param schema - The record schema (object or JSON text) whose full name follows the topic.
   * @throws `TypeError` (code `INVALID_CONFIG`) when the schema has no non-empty `name`.
   */
  constructor(schema: object | string) {
    super(avroFullNameOf(schema, 'TopicRecordIdStrategy'))
  }
}
