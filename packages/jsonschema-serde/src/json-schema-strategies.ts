import { describeValue, invalidConfigError } from '@x/errors'
import {
  QualifiedRecordIdStrategy as RecordNameStrategy,
  TopicRecordIdStrategy as TopicRecordNameStrategy,
} from '@x/serde-core'

/**
 * The record name of a JSON Schema: its `title`, as Confluent's record strategies use for JSON Schema. (Apicurio's
 * Java serde has record strategies for Avro only; for JSON Schema it offers the topic strategies.)
 */
export function titleOf(schema: unknown, strategy: string): string {
  let parsed = schema
  if (typeof schema === 'string') {
    try {
      parsed = JSON.parse(schema)
    } catch (error) {
      throw invalidConfigError(
        `${strategy} needs a JSON Schema object or its JSON text, got text that is not JSON`,
        error,
      )
    }
  }
  const title =
    typeof parsed === 'object' && parsed !== null ? (parsed as { title?: unknown }).title : undefined
  if (typeof title !== 'string' || title === '') {
    throw invalidConfigError(
      `${strategy} needs a JSON Schema with a non-empty 'title' (its record name), got ${describeValue(title)}`,
    )
  }
  return title
}

/** The `title` of the JSON Schema given at construction, whatever the topic, e.g. `com.example.Order`. */
export class QualifiedRecordIdStrategy extends RecordNameStrategy {
  /**
   * @param schema - The JSON Schema (object or JSON text) whose `title` is the artifact id.
   * @throws `TypeError` (code `INVALID_CONFIG`) when the schema has no non-empty `title`.
   */
  constructor(schema: object | string) {
    super(titleOf(schema, 'QualifiedRecordIdStrategy'))
  }
}

/** `<topic>-<title>` of the JSON Schema given at construction, e.g. `orders-com.example.Order`. */
export class TopicRecordIdStrategy extends TopicRecordNameStrategy {
  /**
   * @param schema - The JSON Schema (object or JSON text) whose `title` follows the topic.
   * @throws `TypeError` (code `INVALID_CONFIG`) when the schema has no non-empty `title`.
   */
  constructor(schema: object | string) {
    super(titleOf(schema, 'TopicRecordIdStrategy'))
  }
}
