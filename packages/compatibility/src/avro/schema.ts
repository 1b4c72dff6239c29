import { jsonNestsTooDeep, jsonTooDeep, MAX_SCHEMA_DEPTH, schemasTooDeep } from '../nesting.js'

/**
 * Apache Avro 1.12's schema parser (`Schema.Parser`): named types, references to names, fields with their defaults
 * and aliases, and what the parser refuses (illegal names, duplicate fields and symbols, a default that does not fit
 * its type, an undefined name).
 */

/** A schema's or field's custom properties (`logicalType`, `precision`, any other), in the order written. */
export type AvroProps = [string, unknown][]

/** What a record, enum or fixed has: its name and namespace (`null` for none), doc, aliases and properties. */
export interface AvroNamed {
  /** The simple name, `Order`. */
  readonly name: string
  /** The namespace, `com.example`; `null` for none. */
  readonly namespace: string | null
  /** The `doc` text, when it is a string. */
  doc?: string | undefined
  /** The `aliases` as written. */
  aliases?: unknown
  /** The custom properties. */
  props: AvroProps
}

/** One field of a record; `default` is absent when the field has none (`{ value: null }` for a null default). */
export interface AvroField {
  /** The field's name. */
  name: string
  /** The field's type. */
  type: AvroType
  /** The `doc` text, when it is a string. */
  doc?: string | undefined
  /** The default as written, wrapped so that a `null` default is told from none. */
  default?: { value: unknown } | undefined
  /** The sort `order` when it is not `ascending`. */
  order?: string | undefined
  /** The `aliases` as written. */
  aliases?: unknown
  /** The custom properties. */
  props: AvroProps
}

/** A parsed Avro schema; a name used before or after its definition is a `ref`, its `target` set once parsed. */
export type AvroType =
  | { kind: 'primitive'; type: string; props: AvroProps }
  | ({ kind: 'record'; error: boolean; fields: AvroField[] } & AvroNamed)
  | ({ kind: 'enum'; symbols: unknown; default?: unknown } & AvroNamed)
  | ({ kind: 'fixed'; size: unknown } & AvroNamed)
  | { kind: 'array'; items: AvroType; props: AvroProps }
  | { kind: 'map'; values: AvroType; props: AvroProps }
  | { kind: 'union'; types: AvroType[] }
  | { kind: 'ref'; fullName: string; target?: AvroType | undefined }

/**
 * A text Avro's parser refuses, thrown by {@link parseAvro}: a `TypeError` (code `INVALID_CONFIG`, the argument is
 * not an Avro schema) whose `exception` is the Java class name of Avro's error, which Apicurio puts in its answers.
 */
export class AvroSchemaError extends TypeError {
  /** `AvroSchemaError`. */
  override name = 'AvroSchemaError'
  /** The stable code of a misused argument. */
  readonly code = 'INVALID_CONFIG'
  /** Avro's exception: `SchemaParseException`, `AvroTypeException` (an undefined name, a bad default) or `AvroRuntimeException` (a duplicate field). */
  readonly exception: 'SchemaParseException' | 'AvroTypeException' | 'AvroRuntimeException'
  constructor(exception: AvroSchemaError['exception'], message: string) {
    super(message)
    this.exception = exception
  }
}

const PRIMITIVES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'])
const SCHEMA_RESERVED = new Set([
  'doc',
  'fields',
  'items',
  'name',
  'namespace',
  'size',
  'symbols',
  'values',
  'type',
  'aliases',
])
const ENUM_RESERVED = new Set([...SCHEMA_RESERVED, 'default'])
const FIELD_RESERVED = new Set(['default', 'doc', 'name', 'order', 'type', 'aliases'])

/**
 * Parses `text` with the types of `referenced` (schema texts, dependencies first) already known, as Apicurio seeds
 * one `Schema.Parser` with the referenced schemas before the main one. Throws an {@link AvroSchemaError} for a text
 * Avro 1.12's parser refuses, and for one that nests deeper than 1 000 levels of JSON or
 * 128 levels of schemas.
 */
export function parseAvro(text: string, referenced: readonly string[] = []): AvroType {
  const names = new Map<string, AvroType>()
  const refs: Extract<AvroType, { kind: 'ref' }>[] = []
  const parseText = (source: string): AvroType => {
    if (jsonNestsTooDeep(source)) throw new AvroSchemaError('SchemaParseException', jsonTooDeep('The schema'))
    let json: unknown
    try {
      json = JSON.parse(source)
    } catch (cause) {
      throw new AvroSchemaError('SchemaParseException', (cause as Error).message)
    }
    return parseNode(json, null, names, refs, 0)
  }
  // A referenced schema that defines a name another one defined already is passed over: the first definition is
  // kept, as Apicurio's dereferencing keeps it (a real 3.3.3 answers 200, not "Can't redefine").
  for (const source of referenced) {
    const before = new Map(names)
    const pending = refs.length
    try {
      parseText(source)
    } catch (error) {
      if (!(error instanceof AvroSchemaError) || !error.message.startsWith("Can't redefine")) throw error
      names.clear()
      for (const [name, type] of before) names.set(name, type)
      refs.length = pending
    }
  }
  const root = parseText(text)
  for (const ref of refs) {
    ref.target = names.get(ref.fullName)
    if (ref.target === undefined)
      throw new AvroSchemaError('AvroTypeException', `Undefined schema: ${ref.fullName}`)
  }
  for (const type of names.values()) {
    if (type.kind !== 'record') continue
    for (const field of type.fields) {
      if (field.default !== undefined && !isValidDefault(field.type, field.default.value)) {
        throw new AvroSchemaError(
          'AvroTypeException',
          `Invalid default for field ${field.name}: ${JSON.stringify(field.default.value)} not a ${describe(field.type)}`,
        )
      }
    }
  }
  return root
}

function parseNode(
  node: unknown,
  space: string | null,
  names: Map<string, AvroType>,
  refs: Extract<AvroType, { kind: 'ref' }>[],
  depth: number,
): AvroType {
  if (depth >= MAX_SCHEMA_DEPTH)
    throw new AvroSchemaError('SchemaParseException', schemasTooDeep('The schema'))
  if (typeof node === 'string')
    return PRIMITIVES.has(node)
      ? { kind: 'primitive', type: node, props: [] }
      : nameRef(node, space, names, refs)
  if (Array.isArray(node))
    return { kind: 'union', types: node.map((branch) => parseNode(branch, space, names, refs, depth + 1)) }
  if (typeof node !== 'object' || node === null)
    throw new AvroSchemaError('SchemaParseException', `Schema not yet supported: ${JSON.stringify(node)}`)
  const object = node as Record<string, unknown>
  const type = object.type
  if (typeof type !== 'string')
    throw new AvroSchemaError('SchemaParseException', `No type: ${JSON.stringify(node)}`)
  const sub = (child: unknown) => parseNode(child, space, names, refs, depth + 1)
  if (PRIMITIVES.has(type)) return { kind: 'primitive', type, props: propsOf(object, SCHEMA_RESERVED) }
  if (type === 'array')
    return { kind: 'array', items: sub(object.items), props: propsOf(object, SCHEMA_RESERVED) }
  if (type === 'map')
    return { kind: 'map', values: sub(object.values), props: propsOf(object, SCHEMA_RESERVED) }
  if (type !== 'record' && type !== 'error' && type !== 'enum' && type !== 'fixed')
    return nameRef(type, space, names, refs)
  const { name, namespace } = parseName(object, space)
  validName(name)
  for (const part of namespace?.split('.') ?? []) validName(part)
  const named = { name, namespace, doc: optionalText(object.doc), aliases: object.aliases }
  const fullName = namespace === null ? name : `${namespace}.${name}`
  if (names.has(fullName)) throw new AvroSchemaError('SchemaParseException', `Can't redefine: ${fullName}`)
  let schema: AvroType
  if (type === 'enum')
    schema = {
      kind: 'enum',
      ...named,
      symbols: object.symbols,
      default: object.default,
      props: propsOf(object, ENUM_RESERVED),
    }
  else if (type === 'fixed')
    schema = { kind: 'fixed', ...named, size: object.size, props: propsOf(object, SCHEMA_RESERVED) }
  else
    schema = {
      kind: 'record',
      error: type === 'error',
      ...named,
      fields: [],
      props: propsOf(object, SCHEMA_RESERVED),
    }
  names.set(fullName, schema)
  if (schema.kind === 'enum') checkEnum(schema)
  if (schema.kind === 'record') {
    if (!Array.isArray(object.fields))
      throw new AvroSchemaError('SchemaParseException', `Record has no fields: ${JSON.stringify(node)}`)
    for (const field of object.fields as Record<string, unknown>[]) {
      if (typeof field?.name !== 'string')
        throw new AvroSchemaError('SchemaParseException', `No field name: ${JSON.stringify(field)}`)
      if (!('type' in field))
        throw new AvroSchemaError('SchemaParseException', `No field type: ${JSON.stringify(field)}`)
      validName(field.name)
      if (schema.fields.some((other) => other.name === field.name)) {
        throw new AvroSchemaError(
          'AvroRuntimeException',
          `Duplicate field ${field.name} in record ${fullName}`,
        )
      }
      schema.fields.push({
        name: field.name,
        type: parseNode(field.type, namespace, names, refs, depth + 1),
        doc: optionalText(field.doc),
        default: 'default' in field ? { value: field.default } : undefined,
        order: typeof field.order === 'string' && field.order !== 'ascending' ? field.order : undefined,
        aliases: field.aliases,
        props: propsOf(field, FIELD_RESERVED),
      })
    }
  }
  return schema
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** Avro's `validateName`: a letter or `_`, then letters, digits or `_`. */
function validName(name: string): void {
  if (NAME.test(name)) return
  const first = name.charAt(0)
  throw new AvroSchemaError(
    'SchemaParseException',
    name === '' || !/[A-Za-z_]/.test(first)
      ? `Illegal initial character: ${name}`
      : `Illegal character in: ${name}`,
  )
}

function checkEnum(schema: Extract<AvroType, { kind: 'enum' }>): void {
  if (!Array.isArray(schema.symbols)) throw new AvroSchemaError('SchemaParseException', 'Enum has no symbols')
  const seen = new Set<string>()
  for (const symbol of schema.symbols as unknown[]) {
    if (typeof symbol !== 'string')
      throw new AvroSchemaError('SchemaParseException', 'Enum symbol not a string')
    validName(symbol)
    if (seen.has(symbol))
      throw new AvroSchemaError('SchemaParseException', `Duplicate enum symbol: ${symbol}`)
    seen.add(symbol)
  }
  if (schema.default !== undefined && !(typeof schema.default === 'string' && seen.has(schema.default))) {
    throw new AvroSchemaError(
      'SchemaParseException',
      `The Enum Default: ${String(schema.default)} is not in the enum symbol set: [${[...seen].join(', ')}]`,
    )
  }
}

function parseName(
  object: Record<string, unknown>,
  space: string | null,
): { name: string; namespace: string | null } {
  if (typeof object.name !== 'string')
    throw new AvroSchemaError('SchemaParseException', `No name in schema: ${JSON.stringify(object)}`)
  const dot = object.name.lastIndexOf('.')
  if (dot >= 0) return { name: object.name.slice(dot + 1), namespace: object.name.slice(0, dot) || null }
  const explicit = typeof object.namespace === 'string' ? object.namespace : space
  return { name: object.name, namespace: explicit === '' ? null : explicit }
}

function nameRef(
  name: string,
  space: string | null,
  names: Map<string, AvroType>,
  refs: Extract<AvroType, { kind: 'ref' }>[],
): AvroType {
  let fullName = name.includes('.') || space === null ? name : `${space}.${name}`
  if (!names.has(fullName) && names.has(name)) fullName = name
  const ref: Extract<AvroType, { kind: 'ref' }> = { kind: 'ref', fullName }
  refs.push(ref)
  return ref
}

function propsOf(object: Record<string, unknown>, reserved: ReadonlySet<string>): AvroProps {
  return Object.entries(object).filter(([key]) => !reserved.has(key))
}

function optionalText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/**
 * Avro 1.12's `Schema.isValidValue`: whether a JSON default fits `type` (a union: any of its branches). Throws an
 * {@link AvroSchemaError} when the default nests values deeper than 128 levels of the schema.
 */
export function isValidDefault(type: AvroType, value: unknown, depth = 0): boolean {
  if (depth >= MAX_SCHEMA_DEPTH)
    throw new AvroSchemaError('SchemaParseException', schemasTooDeep('A default'))
  const next = depth + 1
  switch (type.kind) {
    case 'ref':
      return type.target === undefined ? false : isValidDefault(type.target, value, next)
    case 'primitive':
      switch (type.type) {
        case 'null':
          return value === null
        case 'boolean':
          return typeof value === 'boolean'
        case 'int':
          return Number.isInteger(value) && Math.abs(value as number) <= 2 ** 31
        case 'long':
          return Number.isInteger(value)
        case 'float':
        case 'double':
          return typeof value === 'number'
        default:
          return typeof value === 'string'
      }
    case 'enum':
    case 'fixed':
      return typeof value === 'string'
    case 'array':
      return Array.isArray(value) && value.every((item) => isValidDefault(type.items, item, next))
    case 'map':
      return (
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        Object.values(value).every((item) => isValidDefault(type.values, item, next))
      )
    case 'union':
      return type.types.some((branch) => isValidDefault(branch, value, next))
    case 'record': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
      const object = value as Record<string, unknown>
      return type.fields.every((field) =>
        Object.hasOwn(object, field.name)
          ? isValidDefault(field.type, object[field.name], next)
          : field.default !== undefined || isValidDefault(field.type, null, next),
      )
    }
  }
}

function describe(type: AvroType): string {
  if (type.kind === 'primitive') return JSON.stringify(type.type)
  if (type.kind === 'ref') return JSON.stringify(type.fullName)
  if ('name' in type)
    return JSON.stringify(type.namespace === null ? type.name : `${type.namespace}.${type.name}`)
  return type.kind
}
