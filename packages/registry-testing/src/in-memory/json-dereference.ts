import { checkNesting } from './json-nesting.js'

/**
 * `references=DEREFERENCE` of a JSON Schema, as Apicurio 3.3 answers it: every `$ref` whose value is the name of one
 * of the schema's references is replaced by the referenced schema (itself dereferenced, without its `$id`), and the
 * result is written as Jackson's default pretty printer writes it (`"key" : value`, two spaces per level). Other
 * `$ref`s (into the schema itself, or to a name no reference has) stay as they are. Throws a `JsonNestingError` for
 * content nested deeper than the registry reads.
 */
export function dereferenceJson(text: string, referenced: ReadonlyMap<string, string>): string {
  // `depth` counts the references inlined on the way, `level` the objects and arrays
  const resolve = (value: unknown, depth: number, level: number): unknown => {
    checkNesting(level)
    if (Array.isArray(value)) return value.map((item) => resolve(item, depth, level + 1))
    if (typeof value !== 'object' || value === null) return value
    const object = value as Record<string, unknown>
    const ref = object.$ref
    if (typeof ref === 'string' && referenced.has(ref) && depth < MAX_DEPTH) {
      const { $id: _id, ...inlined } = JSON.parse(referenced.get(ref) as string) as Record<string, unknown>
      return resolve(inlined, depth + 1, level)
    }
    return Object.fromEntries(
      Object.entries(object).map(([key, member]) => [key, resolve(member, depth, level + 1)]),
    )
  }
  return jacksonPretty(resolve(JSON.parse(text), 0, 0), 0)
}

/** References that refer to each other end here instead of recursing for ever. */
const MAX_DEPTH = 32

/** Jackson's `DefaultPrettyPrinter`: objects one member a line, arrays on one line (`[ 1, 2 ]`), `{ }` and `[ ]`. */
export function jacksonPretty(value: unknown, level: number): string {
  checkNesting(level)
  if (Array.isArray(value)) {
    if (value.length === 0) return '[ ]'
    return `[ ${value.map((item) => jacksonPretty(item, level + 1)).join(', ')} ]`
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
    if (entries.length === 0) return '{ }'
    const pad = '  '.repeat(level + 1)
    const members = entries.map(
      ([key, member]) => `${pad}${JSON.stringify(key)} : ${jacksonPretty(member, level + 1)}`,
    )
    return `{\n${members.join(',\n')}\n${'  '.repeat(level)}}`
  }
  return JSON.stringify(value)
}
