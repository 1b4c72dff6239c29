import { createHash } from 'node:crypto'
import { AvroSchemaError, normalizeAvro, parseAvro, writeAvro } from '@x/compatibility/avro'
import protobuf from 'protobufjs'
import { checkNesting, JsonNestingError } from './json-nesting.js'
import { toJsonText } from './json-text.js'

/**
 * A reference as Apicurio stores it: the default group is `null`, and a version is always present (Apicurio
 * refuses a reference without one).
 */
export interface StoredReference {
  readonly groupId: string | null
  readonly artifactId: string
  readonly version: string
  readonly name: string
}

/**
 * Apicurio's content hash (`RegistryContentUtils.contentHash`): SHA-256 hex of the UTF-8 text, followed, when the
 * content has references, by the Jackson JSON of the references (`[{"groupId":...,"artifactId":...,"version":...,
 * "name":...}]`, `null` for the default group). So identical text with other references is other content.
 */
export function contentHash(text: string, references: readonly StoredReference[]): string {
  const hash = createHash('sha256').update(text, 'utf8')
  if (references.length > 0) hash.update(referencesJson(references), 'utf8')
  return hash.digest('hex')
}

function referencesJson(references: readonly StoredReference[]): string {
  return toJsonText(
    references.map((r) => ({
      groupId: r.groupId,
      artifactId: r.artifactId,
      version: r.version,
      name: r.name,
    })),
  )
}

/**
 * The canonical form compared under `canonical=true`, as Apicurio 3.3 computes it:
 *
 * - AVRO: Apicurio's `EnhancedAvroContentCanonicalizer`. The schema is parsed (with its referenced schemas) and
 *   written back as Avro's `Schema.toString()` after dropping every `doc` and alias and the enum defaults. So
 *   whitespace, the order of a JSON object's members, docs, aliases, `"name":"n.A"` versus `"name":"A",
 *   "namespace":"n"` and `"string"` versus `{"type":"string"}` do not matter; the order of record fields, field
 *   defaults and custom properties (and the order of these among themselves) do.
 * - JSON: parsed and written back compactly with the members of every object sorted by key.
 * - PROTOBUF: the parsed file (protobufjs) as JSON: so whitespace, comments and the spelling of options do not
 *   matter, as under Apicurio's Wire-based canonicalizer; declarations and their order do.
 * - Any other type, any text that does not parse, and JSON nested deeper than the registry reads: the text itself.
 */
export function canonicalForm(artifactType: string, text: string, referenced: readonly string[]): string {
  try {
    if (artifactType === 'AVRO') return writeAvro(normalizeAvro(parseAvro(text, referenced)))
    if (artifactType === 'JSON') return writeSortedJson(JSON.parse(text), 0)
    if (artifactType === 'PROTOBUF') return protoCanonical(text)
  } catch (error) {
    if (
      error instanceof AvroSchemaError ||
      error instanceof SyntaxError ||
      error instanceof ProtoSyntaxError ||
      error instanceof JsonNestingError
    )
      return text
    throw error
  }
  return text
}

/** SHA-256 hex of the canonical form, followed by the references as in {@link contentHash}. */
export function canonicalHash(
  artifactType: string,
  text: string,
  references: readonly StoredReference[],
  referenced: readonly string[],
): string {
  return contentHash(canonicalForm(artifactType, text, referenced), references)
}

class ProtoSyntaxError extends Error {}

function protoCanonical(text: string): string {
  let parsed: protobuf.IParserResult
  try {
    parsed = protobuf.parse(text, { keepCase: true, alternateCommentMode: false })
  } catch (error) {
    throw new ProtoSyntaxError((error as Error).message)
  }
  return writeSortedJson(
    {
      syntax: (parsed as { syntax?: string }).syntax ?? 'proto2',
      package: parsed.package ?? null,
      imports: parsed.imports ?? [],
      weakImports: parsed.weakImports ?? [],
      root: parsed.root.toJSON(),
    },
    0,
  )
}

function writeSortedJson(value: unknown, depth: number): string {
  checkNesting(depth)
  if (Array.isArray(value)) return `[${value.map((item) => writeSortedJson(item, depth + 1)).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const object = value as Record<string, unknown>
    const keys = Object.keys(object).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${keys.map((key) => `${JSON.stringify(key)}:${writeSortedJson(object[key], depth + 1)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * What Apicurio 3.3.3 answers as `Content-Type` for stored content, and the file extension it puts in
 * `Content-Disposition: attachment; filename="<name>.<ext>"`.
 */
export function contentHeaders(contentType: string, fileName: string): Record<string, string> {
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? ''
  const extension = EXTENSIONS[type] ?? 'bin'
  const answered =
    type.startsWith('text/') && !contentType.includes('charset')
      ? `${contentType};charset=UTF-8`
      : contentType
  return {
    'Content-Disposition': `attachment; filename="${fileName}.${extension}"`,
    'Content-Type': answered,
  }
}

const EXTENSIONS: Readonly<Record<string, string>> = {
  'application/json': 'json',
  'application/x-protobuf': 'proto',
  'application/x-protobuffer': 'proto',
  'application/x-yaml': 'yaml',
  'application/yaml': 'yaml',
  'application/xml': 'xml',
  'text/xml': 'xml',
  'application/graphql': 'graphql',
}
