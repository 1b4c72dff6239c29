import type { ResolvedReference, SchemaFormat } from '@x/serde-core'
import { JsonSchemaCodec } from './json-codec.js'
import { compileValidator, isMissingReference } from './validator.js'

/** A JSON Schema text that is not JSON, or not a schema object or boolean. */
export class JsonSchemaTextError extends TypeError {
  override name = 'JsonSchemaTextError'
}

/** Parses JSON Schema text into a schema object (or boolean schema); the message says what was wrong. */
export function parseSchemaText(text: string): object | boolean {
  let schema: unknown
  try {
    schema = JSON.parse(text)
  } catch (error) {
    throw new JsonSchemaTextError(`not JSON (${(error as Error).message})`)
  }
  if (typeof schema === 'boolean') return schema
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new JsonSchemaTextError(
      `a JSON Schema is an object or a boolean, got ${Array.isArray(schema) ? 'an array' : String(schema)}`,
    )
  }
  return schema
}

/**
 * @internal JSON Schema for the core: registry schemas (JSON text, `$ref`s to references by name or `$id`) compiled
 * with ajv, into codecs that validate on write (and on read when asked).
 */
export class JsonSchemaFormat implements SchemaFormat<JsonSchemaCodec> {
  readonly name = 'JSON Schema'
  readonly artifactType = 'JSON'
  readonly contentType = 'application/json'
  readonly #validateOnWrite: boolean
  readonly #validateOnRead: boolean

  constructor(options: { validateOnWrite: boolean; validateOnRead: boolean }) {
    this.#validateOnWrite = options.validateOnWrite
    this.#validateOnRead = options.validateOnRead
  }

  parse(text: string, references?: readonly ResolvedReference[]): JsonSchemaCodec {
    const schema = parseSchemaText(text)
    const validator = compileValidator(schema as object, references)
    return new JsonSchemaCodec(schema, validator, this.#validateOnWrite, this.#validateOnRead)
  }

  needsReferences(error: unknown): boolean {
    return isMissingReference(error) !== undefined
  }
}
