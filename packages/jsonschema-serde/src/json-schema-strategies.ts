import {
  type RecordNameReader,
  QualifiedRecordIdStrategy as RecordNameStrategy,
  TopicRecordIdStrategy as TopicRecordNameStrategy,
} from '@x/serde-core'

/**
 * The record name of a JSON Schema: its `title`, as Confluent's record strategies use for JSON Schema. (Apicurio's
 * Java serde has record strategies for Avro only; for JSON Schema it offers the topic strategies.) The codec's
 * `recordName` is the same.
 */
export const JSON_SCHEMA_RECORD_NAME: RecordNameReader = {
  wanted: "a JSON Schema with a non-empty 'title' (its record name)",
  nameOf(schema) {
    const title =
      typeof schema === 'object' && schema !== null ? (schema as { title?: unknown }).title : undefined
    return typeof title === 'string' && title !== '' ? title : undefined
  },
}

/**
 * The `title` of the JSON Schema given at construction, whatever the topic, e.g. `com.example.Order`.
 * `new QualifiedRecordIdStrategy(schema)` takes the schema as an object or its JSON text; one without a non-empty
 * `title` is a `TypeError` (code `INVALID_CONFIG`).
 */
export class QualifiedRecordIdStrategy extends RecordNameStrategy {
  static override readonly recordNames: RecordNameReader = JSON_SCHEMA_RECORD_NAME
}

/**
 * `<topic>-<title>` of the JSON Schema given at construction, e.g. `orders-com.example.Order`.
 * `new TopicRecordIdStrategy(schema)` takes the schema as an object or its JSON text; one without a non-empty `title`
 * is a `TypeError` (code `INVALID_CONFIG`).
 */
export class TopicRecordIdStrategy extends TopicRecordNameStrategy {
  static override readonly recordNames: RecordNameReader = JSON_SCHEMA_RECORD_NAME
}
