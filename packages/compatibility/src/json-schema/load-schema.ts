import { MAX_SCHEMA_DEPTH, schemasTooDeep } from '../nesting.js'
import { canonicalJson } from './canonical-json.js'
import { evaluatePointer, fragmentOf, PointerError, resolveUri, withoutFragment } from './references.js'
import { schemaWithId } from './schema-ids.js'
import type {
  ArrayNode,
  CombinedNode,
  LoadedSchema,
  NumberNode,
  ObjectNode,
  RefNode,
  StringNode,
} from './schema-model.js'
import {
  arrayKeywords,
  idKeyword,
  isAtLeast,
  knownFormats,
  NUMBER_KEYWORDS,
  objectKeywords,
  type SpecVersion,
  STRING_KEYWORDS,
} from './spec-version.js'

/** A schema everit would refuse to load; Apicurio answers such a comparison with an error. */
export class SchemaLoadError extends Error {
  override readonly name = 'SchemaLoadError'
}

/** How a document is loaded. */
export interface LoadOptions {
  /** The draft the document's own `$schema` names, or the default. */
  readonly version: SpecVersion
  /** Whether `default` is read as a keyword (the validity rule) or kept as an unknown one (the compatibility check). */
  readonly useDefaults: boolean
  /** The documents external references may name, by absolute URI. */
  readonly documents: ReadonlyMap<string, unknown>
  /**
   * Whether each referenced schema is loaded as soon as its `$ref` is (the validity rule), rather than when first
   * compared.
   * @default false
   */
  readonly resolveReferences?: boolean
}

interface Where {
  /** The document the schema is in. */
  readonly document: unknown
  /** The base URI external references resolve against. */
  readonly scope: string | undefined
  /** The name of the document in locations (`''` for the document loaded). */
  readonly documentName: string
  /** The JSON pointer of the schema in its document. */
  readonly pointer: string
}

type Object_ = Record<string, unknown>

function isObject(value: unknown): value is Object_ {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function kindOf(value: unknown): string {
  if (value === null) return 'Null'
  if (Array.isArray(value)) return 'JSONArray'
  if (typeof value === 'object') return 'JSONObject'
  if (typeof value === 'number') return Number.isInteger(value) ? 'Integer' : 'BigDecimal'
  if (typeof value === 'string') return 'String'
  return 'Boolean'
}

/** Compiles a `pattern` as everit does when loading; a pattern that does not compile cannot be loaded. */
function checkPattern(pattern: string): void {
  try {
    new RegExp(pattern)
  } catch (error) {
    throw new SchemaLoadError((error as Error).message)
  }
}

function decimal(value: number): string {
  return String(value)
}

/** A JSON pointer step: `~` and `/` escaped. */
function escapeStep(step: string): string {
  return step.includes('~') || step.includes('/') ? step.replaceAll('~', '~0').replaceAll('/', '~1') : step
}

/**
 * Loads one document's schema tree as everit does, each `$ref` resolved when first compared. Throws a
 * {@link SchemaLoadError} for a schema nested deeper than {@link MAX_SCHEMA_DEPTH} levels, references followed.
 */
export function loadSchema(
  root: Object_,
  documentName: string,
  scope: string | undefined,
  options: LoadOptions,
): LoadedSchema {
  return new Loader(options).load(root, { document: root, scope, documentName, pointer: '' })
}

class Loader {
  readonly #options: LoadOptions
  readonly #targets = new Map<string, () => LoadedSchema>()
  readonly #resolving = new Set<string>()
  /** How many schemas are being loaded, one inside the other (references followed). */
  #depth = 0

  constructor(options: LoadOptions) {
    this.#options = options
  }

  load(value: unknown, at: Where): LoadedSchema {
    if (this.#depth >= MAX_SCHEMA_DEPTH) {
      throw new SchemaLoadError(`${at.documentName}#${at.pointer}: ${schemasTooDeep('the schema')}`)
    }
    this.#depth++
    try {
      return this.#load(value, at)
    } finally {
      this.#depth--
    }
  }

  #load(value: unknown, at: Where): LoadedSchema {
    let where = at
    const location = `${where.documentName}#${where.pointer}`
    if (value === true) return { kind: 'true', raw: true, tag: 'true', location, unprocessed: {} }
    if (value === false) return { kind: 'false', raw: false, tag: 'false', location, unprocessed: {} }
    if (!isObject(value)) {
      throw new SchemaLoadError(
        `${location}: expected type is one of Boolean or JSONObject, found: ${kindOf(value)}`,
      )
    }
    const id = value[idKeyword(this.#options.version)]
    if (id !== undefined && typeof id !== 'string')
      throw new SchemaLoadError(
        `${location}/${idKeyword(this.#options.version)}: expected type: String, found: ${kindOf(id)}`,
      )
    if (typeof id === 'string') where = { ...where, scope: resolveUri(where.scope, id) }
    if (Object.hasOwn(value, '$ref')) return this.#reference(value, where, location)
    const consumed = new Set<string>()
    const parts = this.#extract(value, where, location, consumed)
    const version = this.#options.version
    for (const common of [idKeyword(version), 'title', 'description']) consumed.add(common)
    if (version === 'DRAFT_7') consumed.add('readOnly').add('writeOnly')
    if (this.#options.useDefaults) consumed.add('default')
    // built from entries so that a keyword named `__proto__` is kept as data, not taken as the prototype
    const unprocessed: Object_ = Object.fromEntries(
      Object.entries(value).filter(([key]) => !consumed.has(key)),
    )
    if (parts.length === 0) return { kind: 'empty', raw: value, tag: 'empty', location, unprocessed }
    if (parts.length === 1) {
      const only = parts[0] as LoadedSchema
      return { ...only, unprocessed } as LoadedSchema
    }
    const combined: CombinedNode = {
      kind: 'combined',
      raw: value,
      tag: 'synthetic',
      location,
      unprocessed,
      criterion: 'allOf',
      subschemas: parts,
      synthetic: true,
    }
    return combined
  }

  #child(value: unknown, where: Where, ...steps: (string | number)[]): LoadedSchema {
    let pointer = where.pointer
    for (const step of steps) pointer += `/${escapeStep(String(step))}`
    return this.load(value, {
      document: where.document,
      scope: where.scope,
      documentName: where.documentName,
      pointer,
    })
  }

  #extract(json: Object_, where: Where, location: string, consumed: Set<string>): LoadedSchema[] {
    const version = this.#options.version
    const parts: LoadedSchema[] = []
    const base = { location, unprocessed: {} }
    if (Object.hasOwn(json, 'enum')) {
      consumed.add('enum')
      const values = json.enum
      if (!Array.isArray(values))
        throw new SchemaLoadError(`${location}/enum: expected type: JSONArray, found: ${kindOf(values)}`)
      parts.push({
        kind: 'enum',
        raw: json,
        tag: 'enum',
        ...base,
        values: new Set(values.map(canonicalJson)),
      })
    }
    for (const criterion of ['allOf', 'anyOf', 'oneOf'] as const) {
      if (!Object.hasOwn(json, criterion)) continue
      consumed.add(criterion)
      const list = json[criterion]
      if (!Array.isArray(list))
        throw new SchemaLoadError(
          `${location}/${criterion}: expected type: JSONArray, found: ${kindOf(list)}`,
        )
      const subschemas = list.map((item, index) => this.#child(item, where, criterion, index))
      parts.push({
        kind: 'combined',
        raw: json,
        tag: criterion,
        ...base,
        criterion,
        subschemas,
        synthetic: false,
      })
    }
    if (Object.hasOwn(json, 'not')) {
      consumed.add('not')
      parts.push({
        kind: 'not',
        raw: json,
        tag: 'not',
        ...base,
        mustNotMatch: this.#child(json.not, where, 'not'),
      })
    }
    if (version !== 'DRAFT_4' && Object.hasOwn(json, 'const')) {
      consumed.add('const')
      parts.push({ kind: 'const', raw: json, tag: 'const', ...base, value: canonicalJson(json.const) })
    }
    if (Object.hasOwn(json, 'type')) {
      consumed.add('type')
      const type = json.type
      if (Array.isArray(type)) {
        const subschemas = type.map((name, index) => {
          if (typeof name !== 'string')
            throw new SchemaLoadError(
              `${location}/type/${index}: expected type: String, found: ${kindOf(name)}`,
            )
          return this.#explicit(name, json, where, location, consumed)
        })
        parts.push({
          kind: 'combined',
          raw: json,
          tag: 'types',
          ...base,
          criterion: 'anyOf',
          subschemas,
          synthetic: false,
        })
      } else if (typeof type === 'string') {
        parts.push(this.#explicit(type, json, where, location, consumed))
      } else {
        throw new SchemaLoadError(
          `${location}/type: expected type is one of JSONArray or String, found: ${kindOf(type)}`,
        )
      }
    }
    const left = (keys: readonly string[]) =>
      keys.some((key) => Object.hasOwn(json, key) && !consumed.has(key))
    if (left(arrayKeywords(version))) parts.push(this.#array(json, where, location, consumed))
    if (left(objectKeywords(version))) parts.push(this.#object(json, where, location, consumed))
    if (left(NUMBER_KEYWORDS)) parts.push(this.#number(json, location, consumed, false))
    if (left(STRING_KEYWORDS)) parts.push(this.#string(json, location, consumed))
    if (version === 'DRAFT_7' && left(['if', 'then', 'else'])) {
      for (const key of ['if', 'then', 'else']) consumed.add(key)
      const part = (key: string) =>
        Object.hasOwn(json, key) ? this.#child(json[key], where, key) : undefined
      parts.push({
        kind: 'conditional',
        raw: json,
        tag: 'if',
        ...base,
        ifSchema: part('if'),
        thenSchema: part('then'),
        elseSchema: part('else'),
      })
    }
    return parts
  }

  #explicit(
    type: string,
    json: Object_,
    where: Where,
    location: string,
    consumed: Set<string>,
  ): LoadedSchema {
    const base = { location, unprocessed: {} }
    switch (type) {
      case 'string':
        return this.#string(json, location, consumed)
      case 'integer':
        return this.#number(json, location, consumed, true)
      case 'number':
        return this.#number(json, location, consumed, false)
      case 'boolean':
        return { kind: 'boolean', raw: json, tag: 'boolean', ...base }
      case 'null':
        return { kind: 'null', raw: json, tag: 'null', ...base }
      case 'array':
        return this.#array(json, where, location, consumed)
      case 'object':
        return this.#object(json, where, location, consumed)
      default:
        throw new SchemaLoadError(`${location}: unknown type: [${type}]`)
    }
  }

  #integer(json: Object_, key: string, location: string): number | undefined {
    if (!Object.hasOwn(json, key)) return undefined
    const value = json[key]
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      throw new SchemaLoadError(`${location}/${key}: expected type: Integer, found: ${kindOf(value)}`)
    }
    return value
  }

  #numberText(json: Object_, key: string, location: string): string | undefined {
    if (!Object.hasOwn(json, key)) return undefined
    const value = json[key]
    if (typeof value !== 'number')
      throw new SchemaLoadError(`${location}/${key}: expected type: Number, found: ${kindOf(value)}`)
    return decimal(value)
  }

  #boolean(json: Object_, key: string, location: string): boolean | undefined {
    if (!Object.hasOwn(json, key)) return undefined
    const value = json[key]
    if (typeof value !== 'boolean')
      throw new SchemaLoadError(`${location}/${key}: expected type: Boolean, found: ${kindOf(value)}`)
    return value
  }

  #string(json: Object_, location: string, consumed: Set<string>): StringNode {
    for (const key of STRING_KEYWORDS) consumed.add(key)
    const pattern = json.pattern
    if (pattern !== undefined && typeof pattern !== 'string') {
      throw new SchemaLoadError(`${location}/pattern: expected type: String, found: ${kindOf(pattern)}`)
    }
    if (pattern !== undefined) checkPattern(pattern)
    const format = json.format
    if (format !== undefined && typeof format !== 'string') {
      throw new SchemaLoadError(`${location}/format: expected type: String, found: ${kindOf(format)}`)
    }
    return {
      kind: 'string',
      raw: json,
      tag: 'string',
      location,
      unprocessed: {},
      minLength: this.#integer(json, 'minLength', location),
      maxLength: this.#integer(json, 'maxLength', location),
      pattern,
      format: format !== undefined && knownFormats(this.#options.version).has(format) ? format : undefined,
    }
  }

  #number(json: Object_, location: string, consumed: Set<string>, integer: boolean): NumberNode {
    for (const key of NUMBER_KEYWORDS) consumed.add(key)
    const draft4 = this.#options.version === 'DRAFT_4'
    const exclusive = (key: string) => (draft4 ? this.#boolean(json, key, location) === true : false)
    const limit = (key: string) => (draft4 ? undefined : this.#numberText(json, key, location))
    return {
      kind: 'number',
      raw: json,
      tag: `number:${integer}`,
      location,
      unprocessed: {},
      requiresInteger: integer,
      minimum: this.#numberText(json, 'minimum', location),
      maximum: this.#numberText(json, 'maximum', location),
      exclusiveMinimum: exclusive('exclusiveMinimum'),
      exclusiveMaximum: exclusive('exclusiveMaximum'),
      exclusiveMinimumLimit: limit('exclusiveMinimum'),
      exclusiveMaximumLimit: limit('exclusiveMaximum'),
      multipleOf: this.#numberText(json, 'multipleOf', location),
    }
  }

  #schemaMap(value: unknown, where: Where, location: string, keyword: string): Map<string, LoadedSchema> {
    if (!isObject(value))
      throw new SchemaLoadError(`${location}/${keyword}: expected type: JSONObject, found: ${kindOf(value)}`)
    const map = new Map<string, LoadedSchema>()
    for (const [name, item] of Object.entries(value)) map.set(name, this.#child(item, where, keyword, name))
    return map
  }

  #object(json: Object_, where: Where, location: string, consumed: Set<string>): ObjectNode {
    const version = this.#options.version
    for (const key of objectKeywords(version)) consumed.add(key)
    const properties = new Map<string, LoadedSchema>()
    if (Object.hasOwn(json, 'properties')) {
      const defs = json.properties
      if (!isObject(defs))
        throw new SchemaLoadError(`${location}/properties: expected type: JSONObject, found: ${kindOf(defs)}`)
      for (const [name, item] of Object.entries(defs)) {
        if (name !== idKeyword(version) || isObject(item))
          properties.set(name, this.#child(item, where, 'properties', name))
      }
    }
    let additionalProperties = true
    let schemaOfAdditionalProperties: LoadedSchema | undefined
    if (Object.hasOwn(json, 'additionalProperties')) {
      const raw = json.additionalProperties
      if (typeof raw === 'boolean') additionalProperties = raw
      else if (isObject(raw)) schemaOfAdditionalProperties = this.#child(raw, where, 'additionalProperties')
      else
        throw new SchemaLoadError(
          `${location}/additionalProperties: expected type is one of Boolean or JSONObject, found: ${kindOf(raw)}`,
        )
    }
    const required: string[] = []
    if (Object.hasOwn(json, 'required')) {
      const list = json.required
      if (!Array.isArray(list))
        throw new SchemaLoadError(`${location}/required: expected type: JSONArray, found: ${kindOf(list)}`)
      for (const [index, name] of list.entries()) {
        if (typeof name !== 'string')
          throw new SchemaLoadError(
            `${location}/required/${index}: expected type: String, found: ${kindOf(name)}`,
          )
        required.push(name)
      }
    }
    const patternProperties = Object.hasOwn(json, 'patternProperties')
      ? this.#schemaMap(json.patternProperties, where, location, 'patternProperties')
      : new Map<string, LoadedSchema>()
    const propertyDependencies = new Map<string, Set<string>>()
    const schemaDependencies = new Map<string, LoadedSchema>()
    if (Object.hasOwn(json, 'dependencies')) {
      const deps = json.dependencies
      if (!isObject(deps))
        throw new SchemaLoadError(
          `${location}/dependencies: expected type: JSONObject, found: ${kindOf(deps)}`,
        )
      for (const [name, dep] of Object.entries(deps)) {
        if (Array.isArray(dep)) {
          const names = new Set<string>()
          for (const item of dep) {
            if (typeof item !== 'string')
              throw new SchemaLoadError(
                `${location}/dependencies/${name}: expected type: String, found: ${kindOf(item)}`,
              )
            names.add(item)
          }
          propertyDependencies.set(name, names)
        } else if (typeof dep !== 'boolean' && !isObject(dep)) {
          throw new SchemaLoadError(
            `${location}/dependencies/${escapeStep(name)}: expected type is one of Boolean or JSONArray or JSONObject, found: ${kindOf(dep)}`,
          )
        } else {
          schemaDependencies.set(name, this.#child(dep, where, 'dependencies', name))
        }
      }
    }
    const propertyNames =
      isAtLeast(version, 'DRAFT_6') && Object.hasOwn(json, 'propertyNames')
        ? this.#child(json.propertyNames, where, 'propertyNames')
        : undefined
    return {
      kind: 'object',
      raw: json,
      tag: 'object',
      location,
      unprocessed: {},
      properties,
      additionalProperties,
      schemaOfAdditionalProperties,
      required,
      minProperties: this.#integer(json, 'minProperties', location),
      maxProperties: this.#integer(json, 'maxProperties', location),
      propertyDependencies,
      schemaDependencies,
      patternProperties,
      propertyNames,
    }
  }

  #array(json: Object_, where: Where, location: string, consumed: Set<string>): ArrayNode {
    const version = this.#options.version
    for (const key of arrayKeywords(version)) consumed.add(key)
    let additionalItems = true
    let schemaOfAdditionalItems: LoadedSchema | undefined
    if (Object.hasOwn(json, 'additionalItems')) {
      const raw = json.additionalItems
      if (typeof raw === 'boolean') additionalItems = raw
      else if (isObject(raw)) schemaOfAdditionalItems = this.#child(raw, where, 'additionalItems')
      else
        throw new SchemaLoadError(
          `${location}/additionalItems: expected type is one of Boolean or JSONObject, found: ${kindOf(raw)}`,
        )
    }
    let allItems: LoadedSchema | undefined
    let items: LoadedSchema[] | undefined
    if (Object.hasOwn(json, 'items')) {
      const raw = json.items
      if (Array.isArray(raw)) items = raw.map((item, index) => this.#child(item, where, 'items', index))
      else if (typeof raw === 'boolean' || isObject(raw)) allItems = this.#child(raw, where, 'items')
      else
        throw new SchemaLoadError(
          `${location}/items: expected type is one of Boolean or JSONArray or JSONObject, found: ${kindOf(raw)}`,
        )
    }
    const contains =
      version !== 'DRAFT_4' && Object.hasOwn(json, 'contains')
        ? this.#child(json.contains, where, 'contains')
        : undefined
    return {
      kind: 'array',
      raw: json,
      tag: 'array',
      location,
      unprocessed: {},
      allItems,
      items,
      additionalItems,
      schemaOfAdditionalItems,
      minItems: this.#integer(json, 'minItems', location),
      maxItems: this.#integer(json, 'maxItems', location),
      uniqueItems: this.#boolean(json, 'uniqueItems', location) === true,
      contains,
    }
  }

  #reference(json: Object_, where: Where, location: string): RefNode {
    const ref = json.$ref
    if (typeof ref !== 'string')
      throw new SchemaLoadError(`${location}/$ref: expected type: String, found: ${kindOf(ref)}`)
    const absolute = resolveUri(where.scope, ref)
    let target = this.#targets.get(absolute)
    if (target === undefined) {
      target = this.#target(ref, absolute, where)
      this.#targets.set(absolute, target)
      if (this.#options.resolveReferences === true && !this.#resolving.has(absolute)) {
        this.#resolving.add(absolute)
        target()
        this.#resolving.delete(absolute)
      }
    }
    return { kind: 'ref', raw: json, tag: 'ref', location, unprocessed: {}, target }
  }

  #target(ref: string, absolute: string, where: Where): () => LoadedSchema {
    const identified = schemaWithId(where.document, idKeyword(this.#options.version), absolute)
    if (identified !== undefined) {
      // everit looks a reference up among the document's ids before reading it as a pointer
      let loaded: LoadedSchema | undefined
      return () => {
        loaded ??= this.load(identified.value, { ...where, pointer: identified.pointer })
        return loaded
      }
    }
    let found: { document: unknown; scope: string | undefined; documentName: string; fragment: string }
    if (ref.startsWith('#')) {
      found = {
        document: where.document,
        scope: where.scope,
        documentName: where.documentName,
        fragment: ref,
      }
    } else if (this.#options.documents.has(absolute)) {
      found = {
        document: this.#options.documents.get(absolute),
        scope: withoutFragment(absolute),
        documentName: absolute,
        fragment: '#',
      }
    } else if (this.#options.documents.has(withoutFragment(absolute))) {
      const name = withoutFragment(absolute)
      found = {
        document: this.#options.documents.get(name),
        scope: name,
        documentName: name,
        fragment: fragmentOf(absolute),
      }
    } else {
      throw new SchemaLoadError(`External JSON Schema resolution is disabled (${absolute})`)
    }
    let value: unknown
    let pointer: string
    try {
      ;({ value, pointer } = evaluatePointer(found.document, found.fragment))
    } catch (error) {
      if (!(error instanceof PointerError)) throw error
      throw new SchemaLoadError(`${found.documentName}#${error.parent}: key [${error.step}] not found`)
    }
    let loaded: LoadedSchema | undefined
    return () => {
      loaded ??= this.load(value, {
        document: found.document,
        scope: found.scope,
        documentName: found.documentName,
        pointer,
      })
      return loaded
    }
  }
}
