import { invalidConfigError, messageOf } from '@x/errors'
import type { SchemaFormat } from './schema-format.js'

/** `Avro schema`, `JSON Schema`, `Protobuf schema`. */
function schemaNoun(format: SchemaFormat): string {
  return format.name.endsWith('Schema') ? format.name : `${format.name} schema`
}

/**
 * For format packages: checks at construction that the schema `autoRegister` will register parses in its format,
 * so that an invalid schema registers nothing. A failure the schema's references may cure (`needsReferences`) is accepted when
 * `references` name what it needs (`referencesNeeded`; a format without it: when any reference is given). Anything
 * else: a `TypeError` (code `INVALID_CONFIG`) with the parse failure as `cause`.
 */
export function checkSchemaToRegister(
  owner: string,
  format: SchemaFormat,
  schema: string,
  references: readonly { readonly name: string }[] | undefined,
): void {
  try {
    format.parse(schema)
  } catch (error) {
    let advice = ''
    if (format.needsReferences(error)) {
      const names = new Set((references ?? []).map((reference) => reference.name))
      const needed = format.referencesNeeded?.(error, schema)
      if (needed === undefined ? names.size > 0 : needed.every((name) => names.has(name))) return
      const lacking = (needed ?? []).filter((name) => !names.has(name)).map((name) => `'${name}'`)
      if (lacking.length > 0) {
        advice =
          lacking.length === 1
            ? ` (give ${lacking[0]} as a reference named as the schema names it)`
            : ` (give ${lacking.join(', ')} as references named as the schema names them)`
      }
    }
    throw invalidConfigError(
      `${owner}: the schema to register (autoRegister) is not a valid ${schemaNoun(format)}: ${messageOf(error)}${advice}`,
      error,
    )
  }
}
