import { parseAvro } from './avro/schema.js'
import type { CompatibilityIssue } from './format-checker.js'
import { jsonNestsTooDeep } from './nesting.js'
import { importPaths, ProtoSyntaxError } from './protobuf/proto-parser.js'
import { checkInput, type SchemaInput } from './validate-schema.js'

/** Protobuf's well-known types, which need no reference. */
const WELL_KNOWN = /^google\/(protobuf|type|api)\//

/**
 * What Apicurio's `INTEGRITY` rule (`ALL_REFS_MAPPED`) refuses offline: a name the schema refers to that
 * `references` does not map — an Avro type defined nowhere, a JSON Schema `$ref` to another document, a Protobuf
 * `import` (the well-known `google/…` ones aside). The registry's other integrity levels are about what it stores
 * (duplicate names, references to versions that do not exist, cycles), which a map of names cannot hold.
 */
export function checkReferences(input: SchemaInput): CompatibilityIssue[] {
  checkInput(input)
  const references = input.references ?? {}
  const missing = referencedNames(input).filter((name) => !Object.hasOwn(references, name))
  return [...new Set(missing)].map((name) => ({
    path: '',
    message: `The schema refers to ${JSON.stringify(name)}, which no reference maps.`,
  }))
}

function referencedNames(input: SchemaInput): string[] {
  switch (input.format) {
    case 'AVRO':
      return avroUndefinedNames(input.schema, Object.values(input.references ?? {}))
    case 'JSON':
      return jsonExternalRefs(input.schema)
    case 'PROTOBUF':
      return protoImports(input.schema).filter((name) => !WELL_KNOWN.test(name))
  }
}

/** The full names an Avro schema uses and neither it nor the referenced schemas define. */
function avroUndefinedNames(schema: string, referenced: readonly string[]): string[] {
  const missing: string[] = []
  // The parser stops at the first undefined name: each one found is supplied as a stand-in and the parse retried.
  for (let tries = 0; tries < 100; tries++) {
    try {
      parseAvro(schema, [...referenced, ...missing.map(standIn)])
      return missing
    } catch (error) {
      const name = /^Undefined schema: (.+)$/.exec((error as Error).message)?.[1]
      if (name === undefined || missing.includes(name)) return missing
      missing.push(name)
    }
  }
  return missing
}

function standIn(fullName: string): string {
  const dot = fullName.lastIndexOf('.')
  return JSON.stringify({
    type: 'fixed',
    name: fullName.slice(dot + 1),
    ...(dot > 0 ? { namespace: fullName.slice(0, dot) } : {}),
    size: 1,
  })
}

/** The documents a JSON Schema's `$ref`s point to outside itself (the part before `#`). */
function jsonExternalRefs(schema: string): string[] {
  if (jsonNestsTooDeep(schema)) return []
  let root: unknown
  try {
    root = JSON.parse(schema)
  } catch {
    return []
  }
  const found: string[] = []
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    if (typeof node !== 'object' || node === null) return
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
        found.push(value.split('#')[0] as string)
      } else {
        visit(value)
      }
    }
  }
  visit(root)
  return found
}

/** The imports of a .proto text; none when it cannot be read at all (the `VALIDITY` rule is the one to refuse it). */
function protoImports(schema: string): string[] {
  try {
    return importPaths(schema)
  } catch (error) {
    if (!(error instanceof ProtoSyntaxError)) throw error
    return []
  }
}
