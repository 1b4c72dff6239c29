import { MAX_SCHEMA_DEPTH, schemasTooDeep } from '../nesting.js'
import { type AvroField, type AvroProps, AvroSchemaError, type AvroType } from './schema.js'

// Avro's `Schema.toString()` and Apicurio's canonical form of an Avro schema, over a schema `parseAvro` read.

/**
 * Apicurio's `EnhancedAvroContentCanonicalizer`: every `doc` becomes `""`, aliases and enum defaults go, a union
 * field whose first branch is `null` gets `"default":null`; field order, defaults, `order` and custom properties stay.
 * Throws an {@link AvroSchemaError} for a schema nested deeper than 128 levels, references followed.
 */
export function normalizeAvro(schema: AvroType, seen = new Set<AvroType>()): AvroType {
  return normalize(schema, seen, 0)
}

function normalize(schema: AvroType, seen: Set<AvroType>, depth: number): AvroType {
  if (depth >= MAX_SCHEMA_DEPTH)
    throw new AvroSchemaError('SchemaParseException', schemasTooDeep('The schema'))
  const next = depth + 1
  switch (schema.kind) {
    case 'ref':
      return schema.target === undefined ? schema : normalize(schema.target, seen, next)
    case 'primitive':
    case 'union':
      return schema.kind === 'union'
        ? { kind: 'union', types: schema.types.map((t) => normalize(t, seen, next)) }
        : schema
    case 'array':
      return { ...schema, items: normalize(schema.items, seen, next) }
    case 'map':
      return { ...schema, values: normalize(schema.values, seen, next) }
    case 'enum':
    case 'fixed':
      return {
        ...schema,
        doc: '',
        aliases: undefined,
        ...(schema.kind === 'enum' ? { default: undefined } : {}),
      }
    case 'record': {
      if (seen.has(schema)) return schema
      seen.add(schema)
      const fields = schema.fields.map((field): AvroField => {
        const type = normalize(field.type, seen, next)
        const nullFirst =
          type.kind === 'union' && type.types[0]?.kind === 'primitive' && type.types[0].type === 'null'
        const fallback = field.default ?? (nullFirst ? { value: null } : undefined)
        return { name: field.name, type, doc: '', default: fallback, order: field.order, props: field.props }
      })
      return { ...schema, doc: '', aliases: undefined, fields }
    }
  }
}

/**
 * Writes a schema as Avro's `Schema.toString()` does: compact, each named type defined at its first use. Throws an
 * {@link AvroSchemaError} for a schema nested deeper than 128 levels, references followed.
 */
export function writeAvro(schema: AvroType): string {
  return write(schema, null, new Set<string>(), 0)
}

function write(schema: AvroType, space: string | null, written: Set<string>, depth: number): string {
  if (depth >= MAX_SCHEMA_DEPTH)
    throw new AvroSchemaError('SchemaParseException', schemasTooDeep('The schema'))
  const next = depth + 1
  switch (schema.kind) {
    case 'ref':
      return schema.target === undefined
        ? JSON.stringify(schema.fullName)
        : write(schema.target, space, written, next)
    case 'primitive':
      return schema.props.length === 0
        ? JSON.stringify(schema.type)
        : object([['type', schema.type]], schema.props)
    case 'union':
      return `[${schema.types.map((t) => write(t, space, written, next)).join(',')}]`
    case 'array':
      return object(
        [
          ['type', 'array'],
          ['items', raw(write(schema.items, space, written, next))],
        ],
        schema.props,
      )
    case 'map':
      return object(
        [
          ['type', 'map'],
          ['values', raw(write(schema.values, space, written, next))],
        ],
        schema.props,
      )
    default:
      break
  }
  const fullName = schema.namespace === null ? schema.name : `${schema.namespace}.${schema.name}`
  if (written.has(fullName))
    return JSON.stringify(schema.namespace === null || schema.namespace === space ? schema.name : fullName)
  written.add(fullName)
  const head: AvroProps = [
    ['type', schema.kind === 'record' && schema.error ? 'error' : schema.kind],
    ['name', schema.name],
  ]
  if (schema.namespace !== space) head.push(['namespace', schema.namespace ?? ''])
  if (schema.doc !== undefined) head.push(['doc', schema.doc])
  const tail: AvroProps = schema.aliases === undefined ? [] : [['aliases', schema.aliases]]
  if (schema.kind === 'enum') {
    head.push(['symbols', schema.symbols])
    if (schema.default !== undefined) head.push(['default', schema.default])
  } else if (schema.kind === 'fixed') {
    head.push(['size', schema.size])
  } else {
    head.push([
      'fields',
      raw(`[${schema.fields.map((field) => writeField(field, schema.namespace, written, next)).join(',')}]`),
    ])
  }
  return object(head, [...schema.props, ...tail])
}

function writeField(field: AvroField, space: string | null, written: Set<string>, depth: number): string {
  const members: AvroProps = [
    ['name', field.name],
    ['type', raw(write(field.type, space, written, depth))],
  ]
  if (field.doc !== undefined) members.push(['doc', field.doc])
  if (field.default !== undefined) members.push(['default', field.default.value])
  if (field.order !== undefined) members.push(['order', field.order])
  if (field.aliases !== undefined) members.push(['aliases', field.aliases])
  return object(members, field.props)
}

/** Already written JSON text, to be embedded as is. */
class Raw {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
}

function raw(text: string): Raw {
  return new Raw(text)
}

function object(head: AvroProps, props: AvroProps): string {
  const members = [...head, ...props].map(
    ([key, value]) => `${JSON.stringify(key)}:${value instanceof Raw ? value.text : JSON.stringify(value)}`,
  )
  return `{${members.join(',')}}`
}
