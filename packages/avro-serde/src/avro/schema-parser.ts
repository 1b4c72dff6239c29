import { type CodedTypeError, invalidConfigError } from '@x/errors'
import { type AvscType, avro, isType, type ParseOptions } from './avsc-internals.js'
import { longType } from './longs.js'
import type { NormalizedAvroOptions } from './options.js'
import { createSafeType } from './safe-types.js'
import { MAX_SCHEMA_DEPTH, nestsTooDeep } from './schema-depth.js'
import { createUnion } from './unions.js'

/**
 * Parses Avro schemas into avsc types with this library's representation: every schema goes through a `typeHook`
 * that substitutes the exact long type, the safe array/map/record/bytes/fixed types, the union representation,
 * and the logical types (dispatched here rather than by avsc, so that an invalid annotation still falls back to a
 * safe underlying type).
 */

const AVRO_TYPE_NAMES = new Set([
  'null',
  'boolean',
  'int',
  'long',
  'float',
  'double',
  'bytes',
  'string',
  'record',
  'error',
  'enum',
  'array',
  'map',
  'fixed',
])

const PRIMITIVE_NAMES = new Set(['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'])

const MISSING_NAMED_TYPE = Symbol('missingNamedType')

/** A name part (and an enum symbol), as Avro defines it. */
const NAME_PART = /^[A-Za-z_][A-Za-z0-9_]*$/

/**
 * The full name a type reference (a schema that is a string) refers to, as the Avro specification resolves it: a
 * name with a dot is already full (a leading dot is allowed), a simple name is in the enclosing namespace. Undefined
 * for a primitive type name (in any namespace) and for an invalid name, which avsc refuses with its own message.
 */
function referencedName(reference: string, namespace: string | undefined): string | undefined {
  if (PRIMITIVE_NAMES.has(reference.slice(reference.lastIndexOf('.') + 1))) return undefined
  const full = reference.includes('.')
    ? reference.replace(/^\./, '')
    : namespace
      ? `${namespace}.${reference}`
      : reference
  return full.split('.').every((part) => NAME_PART.test(part)) ? full : undefined
}

/** Thrown by the hook for a reference to a named type that is defined nowhere (yet): the schema needs references. */
class MissingNamedType extends Error {
  readonly typeName: string
  constructor(typeName: string) {
    super(`no type named ${typeName} is defined (here or in a reference)`)
    this.name = 'MissingNamedType'
    this.typeName = typeName
  }
}

interface SchemaObject {
  type?: unknown
  logicalType?: unknown
  name?: unknown
  namespace?: unknown
}

function createHook(options: NormalizedAvroOptions): ParseOptions['typeHook'] {
  const long = longType(options.longs)
  // Set while a logical type is being built: the next schema the hook sees is its underlying type (avsc's
  // LogicalType constructor parses the same schema again first thing), which must not dispatch to it again.
  let underlyingNext = false
  const hook = (schema: unknown, opts: ParseOptions): AvscType | undefined => {
    const isUnderlying = underlyingNext
    underlyingNext = false
    if (options.typeHook !== undefined) {
      const custom = options.typeHook(schema, opts)
      if (custom !== undefined && custom !== null) return custom as AvscType
    }
    if (typeof schema === 'string') {
      const name = referencedName(schema, opts.namespace)
      // Told here rather than read from the text of avsc's error: a name that is defined nowhere (yet).
      if (name !== undefined && opts.registry[name] === undefined) throw new MissingNamedType(name)
      return undefined
    }
    if (typeof schema !== 'object' || schema === null) return undefined
    if (Array.isArray(schema)) {
      const branches = schema.map((branch) => avro.Type.forSchema(branch, opts as never) as AvscType)
      return createUnion(branches, opts, options.unions)
    }
    const object = schema as SchemaObject
    const logicalName = object.logicalType
    if (
      !isUnderlying &&
      typeof logicalName === 'string' &&
      Object.hasOwn(options.logicalTypes, logicalName)
    ) {
      const Logical = options.logicalTypes[logicalName]!
      const registry = Object.assign(Object.create(null), opts.registry)
      const namespace = opts.namespace
      underlyingNext = true
      try {
        return new Logical(object, opts) as AvscType
      } catch {
        // An invalid annotation: the Avro specification says to use the underlying type alone. Undo whatever the
        // failed attempt registered, as avsc does.
        opts.registry = registry
        opts.namespace = namespace
      } finally {
        underlyingNext = false
      }
    }
    if (object.type === 'long') return long
    const safe = createSafeType(object, opts)
    if (safe !== undefined) return safe
    if (typeof object.type === 'string' && !AVRO_TYPE_NAMES.has(object.type)) {
      // `{"type": "com.example.Named"}`: a reference to a named type, which avsc does not accept in this form.
      return avro.Type.forSchema(object.type, opts as never) as AvscType
    }
    return undefined
  }
  return hook
}

function toJson(schema: string | object, what: string): unknown {
  const json = parseJson(schema, what)
  if (nestsTooDeep(json)) {
    throw schemaError(what, `it nests types deeper than ${MAX_SCHEMA_DEPTH} levels`, undefined)
  }
  return json
}

function parseJson(schema: string | object, what: string): unknown {
  if (typeof schema !== 'string') {
    if (isType(schema)) {
      throw invalidConfigError(
        `Invalid Avro ${what}: pass the schema JSON (text or object), not an avsc Type`,
      )
    }
    if (typeof schema !== 'object' || schema === null) {
      throw invalidConfigError(`Invalid Avro ${what}: expected JSON text or an object, got ${typeof schema}`)
    }
    return schema
  }
  const text = schema.trim()
  if (PRIMITIVE_NAMES.has(text)) return text
  try {
    return JSON.parse(text)
  } catch (error) {
    throw schemaError(what, `not valid JSON (${(error as Error).message})`, error)
  }
}

function schemaError(what: string, detail: string, cause: unknown, missing?: string): CodedTypeError {
  const error = invalidConfigError(`Invalid Avro ${what}: ${detail}`, cause)
  if (missing !== undefined) Object.defineProperty(error, MISSING_NAMED_TYPE, { value: missing })
  return error
}

function parseError(what: string, error: unknown): CodedTypeError {
  const message = error instanceof Error ? error.message : String(error)
  const missing = error instanceof MissingNamedType ? error.typeName : undefined
  const detail =
    missing === undefined ? message : `unknown type name '${missing}' (not defined here or in a reference)`
  return schemaError(what, detail, error, missing)
}

/**
 * The full name of the type a schema defines at its top, when it is a named type already in the registry: a
 * reference given twice (two references sharing a dependency) is then parsed once.
 */
function definedName(json: unknown, registry: Record<string, unknown>): string | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined
  const { name, namespace } = json as SchemaObject
  if (typeof name !== 'string') return undefined
  const full =
    name.includes('.') || typeof namespace !== 'string' || namespace === '' ? name : `${namespace}.${name}`
  return Object.hasOwn(registry, full) ? full : undefined
}

/** A parsed schema: the avsc type and the schema JSON it came from. */
export interface ParsedSchema {
  readonly type: AvscType
  readonly json: object
}

/**
 * Parses `schema` (JSON text or object) after its `references` (schemas of named types it uses, in dependency
 * order), all into one registry of named types. Throws a `TypeError` (code `INVALID_CONFIG`) whose message starts
 * with `Invalid Avro schema` (for a schema that nests types deeper than {@link MAX_SCHEMA_DEPTH} levels too);
 * `missingNamedType()` tells whether a named type was missing.
 */
export function parseSchema(
  schema: string | object,
  options: NormalizedAvroOptions,
  references: ReadonlyArray<string | object> = [],
): ParsedSchema {
  // A registry without a prototype: avsc looks named types up by name, and a type named `toString` or
  // `constructor` must not find `Object.prototype`'s members.
  const opts: ParseOptions = {
    registry: Object.create(null),
    typeHook: createHook(options),
    omitRecordMethods: true,
  }
  references.forEach((reference, i) => {
    const what = `schema reference #${i + 1}`
    const json = toJson(reference, what)
    if (definedName(json, opts.registry) !== undefined) return
    try {
      avro.Type.forSchema(json as never, opts as never)
    } catch (error) {
      throw parseError(what, error)
    }
  })
  const json = toJson(schema, 'schema')
  let type: AvscType
  try {
    type = avro.Type.forSchema(json as never, opts as never) as AvscType
  } catch (error) {
    throw parseError('schema', error)
  }
  return { type, json: typeof json === 'string' ? { type: json } : (json as object) }
}

/**
 * The full name of the named type whose absence made `parseSchema` (or `createCodec`) fail, or undefined when the
 * error is another one. The serde fetches the schema's references only then.
 */
export function missingNamedType(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const name = (error as Record<symbol, unknown>)[MISSING_NAMED_TYPE]
  return typeof name === 'string' ? name : undefined
}
