/** The formats a reader of any format decodes, by their Apicurio artifact type. */
export type SchemaKind = 'AVRO' | 'JSON' | 'PROTOBUF'

/** Keywords only a JSON Schema has (an Avro schema never uses them). */
const JSON_SCHEMA_ONLY = [
  '$schema',
  '$id',
  '$ref',
  '$defs',
  'definitions',
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'const',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
]

/** Avro's types that JSON Schema has no `type` of that name for. */
const AVRO_ONLY_TYPES = new Set(['record', 'enum', 'fixed', 'map', 'int', 'long', 'float', 'double', 'bytes'])

/**
 * The format of a schema told from its text alone, for an id whose artifact type the registry did not name (a
 * contentId: one content may be shared by several artifacts). Text that is not JSON is a `.proto` file; JSON is an
 * Avro schema when it is a type name, a union (an array), or an object with an Avro-only type, a nested type
 * object, `logicalType`, or `items`/`values` naming a type by string; a JSON Schema when it uses a keyword only JSON
 * Schema has, or a list of types. `undefined` when the text reads as either (`{"type":"string"}`) or as neither.
 */
export function schemaKindOfText(text: string): SchemaKind | undefined {
  let schema: unknown
  try {
    schema = JSON.parse(text)
  } catch {
    return /^\s*(syntax|package|import|message|enum|option|edition)\b/m.test(text) ? 'PROTOBUF' : undefined
  }
  if (typeof schema === 'string' || Array.isArray(schema)) return 'AVRO'
  if (typeof schema !== 'object' || schema === null) return undefined
  const object = schema as Record<string, unknown>
  const avro =
    (typeof object.type === 'string' && AVRO_ONLY_TYPES.has(object.type)) ||
    (typeof object.type === 'object' && object.type !== null && !Array.isArray(object.type)) ||
    'logicalType' in object ||
    typeof object.items === 'string' ||
    typeof object.values === 'string'
  const jsonSchema = JSON_SCHEMA_ONLY.some((keyword) => keyword in object) || Array.isArray(object.type)
  if (avro === jsonSchema) return undefined
  return avro ? 'AVRO' : 'JSON'
}

/** The artifact type a registry named, as a {@link SchemaKind}, or `undefined` for a type no format here reads. */
export function schemaKindOf(artifactType: string | undefined): SchemaKind | undefined {
  return artifactType === 'AVRO' || artifactType === 'JSON' || artifactType === 'PROTOBUF'
    ? artifactType
    : undefined
}
