/**
 * How deeply a JSON schema text (Avro, JSON Schema) may nest objects and arrays: the registry's JSON reader refuses a
 * deeper document. Checked in one pass before the text is parsed.
 */
export const MAX_JSON_NESTING = 1000

/**
 * How deeply schemas may nest in one another: records in records, items in arrays, messages in messages (and any
 * block or bracket of a .proto text), counted along every walk over a schema, references followed. A deeper schema
 * is refused as unreadable rather than let exhaust the stack.
 */
export const MAX_SCHEMA_DEPTH = 128

/** Whether a JSON text nests objects and arrays deeper than {@link MAX_JSON_NESTING}; one pass, strings skipped. */
export function jsonNestsTooDeep(text: string): boolean {
  let depth = 0
  let inString = false
  for (let at = 0; at < text.length; at++) {
    const c = text.charCodeAt(at)
    if (inString) {
      if (c === 0x5c) at++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) {
      inString = true
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JSON_NESTING) return true
    } else if (c === 0x7d || c === 0x5d) {
      depth--
    }
  }
  return false
}

/** A walk over schemas that went deeper than {@link MAX_SCHEMA_DEPTH} levels. */
export class SchemaDepthError extends Error {
  override readonly name = 'SchemaDepthError'
}

/** The sentence saying that the JSON text of `what` nests too deeply. */
export function jsonTooDeep(what: string): string {
  return `${what} nests deeper than ${MAX_JSON_NESTING} levels of JSON`
}

/** The sentence saying that `what` nests schemas too deeply. */
export function schemasTooDeep(what: string): string {
  return `${what} nests schemas deeper than ${MAX_SCHEMA_DEPTH} levels`
}
