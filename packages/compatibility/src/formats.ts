import { avroChecker } from './avro/index.js'
import type { FormatChecker } from './format-checker.js'
import { jsonSchemaChecker } from './json-schema/index.js'
import { protobufChecker } from './protobuf/index.js'

/** The schema formats checked, named as Apicurio names their artifact types. */
export const SCHEMA_FORMATS = ['AVRO', 'JSON', 'PROTOBUF'] as const

/** `AVRO`, `JSON` (JSON Schema) or `PROTOBUF`. */
export type SchemaFormat = (typeof SCHEMA_FORMATS)[number]

/** Whether `value` names one of the checked formats. */
export function isSchemaFormat(value: unknown): value is SchemaFormat {
  return typeof value === 'string' && (SCHEMA_FORMATS as readonly string[]).includes(value)
}

const CHECKERS: Readonly<Record<SchemaFormat, FormatChecker>> = {
  AVRO: avroChecker,
  JSON: jsonSchemaChecker,
  PROTOBUF: protobufChecker,
}

/** The checker of one format. */
export function checkerOf(format: SchemaFormat): FormatChecker {
  return CHECKERS[format]
}
