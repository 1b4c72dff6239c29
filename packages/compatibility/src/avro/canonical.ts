import type { AvroField, AvroProps, AvroType } from './schema.js'

// Avro's `Schema.toString()` and Apicurio's canonical form of an Avro schema, over a schema `parseAvro` read.

/**
 * Apicurio's `EnhancedAvroContentCanonicalizer`: every `doc` becomes `""`, aliases and enum defaults go, a union
 * field whose first branch is `null` gets `"default":null`; field order, defaults, `order` and custom properties stay.
 */
export function normalizeAvro(schema: AvroType, seen = new Set<AvroType>()): AvroType {
  switch (schema.kind) {
    case 'ref':
      return schema.target === undefined ? schema : normalizeAvro(schema.target, seen)
    case 'primitive':
    case 'union':
      return schema.kind === 'union'
        ? { kind: 'union', types: schema.types.map((t) => normalizeAvro(t, seen)) }
        : schema
    case 'array':
      return { ...schema, items: normalizeAvro(schema.items, seen) }
    case 'map':
      return { ...schema, values: normalizeAvro(schema.values, seen) }
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
        const type = normalizeAvro(field.type, seen)
        const nullFirst =
          type.kind === 'union' && type.types[0]?.kind === 'primitive' && type.types[0].type === 'null'
        const fallback = field.default ?? (nullFirst ? { value: null } : undefined)
        return { name: field.name, type, doc: '', default: fallback, order: field.order, props: field.props }
      })
      return { ...schema, doc: '', aliases: undefined, fields }
    }
  }
}

/** Writes a schema as Avro's `Schema.toString()` does: compact, each named type defined at its first use. */
export function writeAvro(schema: AvroType): string {
  return write(schema, null, new Set<string>())
}

function write(schema: AvroType, space: string | null, written: Set<string>): string {
  switch (schema.kind) {
    case 'ref':
      return schema.target === undefined
        ? JSON.stringify(schema.fullName)
        : write(schema.target, space, written)
    case 'primitive':
      return schema.props.length === 0
        ? JSON.stringify(schema.type)
        : object([['type', schema.type]], schema.props)
    case 'union':
      return `[${schema.types.map((t) => write(t, space, written)).join(',')}]`
    case 'array':
      return object(
        [
          ['type', 'array'],
          ['items', raw(write(schema.items, space, written))],
        ],
        schema.props,
      )
    case 'map':
      return object(
        [
          ['type', 'map'],
          ['values', raw(write(schema.values, space, written))],
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
      raw(`[${schema.fields.map((field) => writeField(field, schema.namespace, written)).join(',')}]`),
    ])
  }
  return object(head, [...schema.props, ...tail])
}

function writeField(field: AvroField, space: string | null, written: Set<string>): string {
  const members: AvroProps = [
    ['name', field.name],
    ['type', raw(write(field.type, space, written))],
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
