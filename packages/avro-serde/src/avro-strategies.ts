import {
  type RecordNameReader,
  QualifiedRecordIdStrategy as RecordNameStrategy,
  TopicRecordIdStrategy as TopicRecordNameStrategy,
} from '@x/serde-core'

/**
 * The full name of a record (or enum, fixed) schema, following the Avro rules: a dotted `name` is the full name
 * itself, otherwise `namespace.name` (just `name` without a namespace).
 */
const AVRO_RECORD_NAME: RecordNameReader = {
  wanted: "a named Avro schema (record, enum or fixed) with a non-empty 'name'",
  nameOf(schema) {
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined
    const { name, namespace } = schema as { name?: unknown; namespace?: unknown }
    if (typeof name !== 'string' || name === '') return undefined
    if (name.includes('.')) return name
    return typeof namespace === 'string' && namespace !== '' ? `${namespace}.${name}` : name
  },
}

/**
 * The full name of the record schema given at construction, whatever the topic (Java `QualifiedRecordIdStrategy`),
 * e.g. `com.example.Order`. `new QualifiedRecordIdStrategy(schema)` takes the record schema as an object or its JSON
 * text; one without a non-empty `name` is a `TypeError` (code `INVALID_CONFIG`).
 */
export class QualifiedRecordIdStrategy extends RecordNameStrategy {
  static override readonly recordNames: RecordNameReader = AVRO_RECORD_NAME
}

/**
 * `<topic>-<full name>` of the record schema given at construction, e.g. `orders-com.example.Order`.
 *
 * Note: Apicurio's Java `TopicRecordIdStrategy` puts the record's namespace in the group id and uses
 * `<topic>-<simple name>` as the artifact id; this strategy keeps the client's group and the full name, as
 * Confluent's `TopicRecordNameStrategy` does.
 *
 * `new TopicRecordIdStrategy(schema)` takes the record schema as an object or its JSON text; one without a non-empty
 * `name` is a `TypeError` (code `INVALID_CONFIG`).
 */
export class TopicRecordIdStrategy extends TopicRecordNameStrategy {
  static override readonly recordNames: RecordNameReader = AVRO_RECORD_NAME
}
