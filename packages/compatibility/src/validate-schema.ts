import type { CompatibilityIssue } from './format-checker.js'
import { checkerOf, isSchemaFormat, type SchemaFormat } from './formats.js'

/** One schema to validate, or to check the references of. */
export interface SchemaInput {
  /** Its format. */
  format: SchemaFormat
  /** Its text. */
  schema: string
  /**
   * The schemas it references, by the name it uses for them.
   * @default {}
   */
  references?: Readonly<Record<string, string>>
}

/**
 * What Apicurio's `VALIDITY` rule (level `FULL`) refuses in one schema: bad syntax, and what its format's parser
 * refuses (an Avro default that does not fit its type, a duplicate field). Empty when the schema is valid.
 */
export function validateSchema(input: SchemaInput): CompatibilityIssue[] {
  checkInput(input)
  return checkerOf(input.format).validate(input.schema, { ...(input.references ?? {}) })
}

/** Throws a `TypeError` unless `input` names a format and holds a schema text. */
export function checkInput(input: SchemaInput): void {
  if (!isSchemaFormat(input.format)) {
    throw new TypeError(`format must be 'AVRO', 'JSON' or 'PROTOBUF', got ${JSON.stringify(input.format)}`)
  }
  if (typeof input.schema !== 'string') throw new TypeError('schema must be a schema text')
}
