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
 * The levels of Apicurio's `VALIDITY` rule: `SYNTAX_ONLY` (a JSON Schema must be JSON) and `FULL` (it must load as a
 * schema). Avro and Protobuf are checked alike at both.
 */
export type ValidityLevel = 'SYNTAX_ONLY' | 'FULL'

/** One schema to validate, and the level of the rule. */
export interface ValidityInput extends SchemaInput {
  /**
   * The `VALIDITY` rule's level.
   * @default 'FULL'
   */
  level?: ValidityLevel
}

/**
 * What Apicurio's `VALIDITY` rule refuses in one schema, as issues; empty when the schema is valid. Avro: what Avro's
 * parser refuses (bad syntax, a default that does not fit its type, a duplicate field, an undefined name). Protobuf:
 * bad syntax, and what linking the file refuses (a type neither defined nor imported, an import that is neither
 * well-known nor a reference, names or numbers used twice, reserved numbers or names used, enum and option rules).
 * JSON Schema: what everit refuses when loading it; each issue's `cause` is then the registry's cause, its
 * `description` and `context` (`#/properties/a`). For Avro and Protobuf the registry lists no causes.
 */
export function validateSchema(input: ValidityInput): CompatibilityIssue[] {
  checkInput(input)
  const level = input.level ?? 'FULL'
  if (level !== 'SYNTAX_ONLY' && level !== 'FULL')
    throw new TypeError(`level must be 'SYNTAX_ONLY' or 'FULL', got ${JSON.stringify(level)}`)
  return checkerOf(input.format).validate(input.schema, { ...(input.references ?? {}) }, level)
}

/** Throws a `TypeError` unless `input` names a format and holds a schema text. */
export function checkInput(input: SchemaInput): void {
  if (!isSchemaFormat(input.format)) {
    throw new TypeError(`format must be 'AVRO', 'JSON' or 'PROTOBUF', got ${JSON.stringify(input.format)}`)
  }
  if (typeof input.schema !== 'string') throw new TypeError('schema must be a schema text')
}
