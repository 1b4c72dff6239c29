import { canonicalJson } from './canonical-json.js'

/**
 * A JSON Schema as everit-json-schema 1.14 loads it for Apicurio's compatibility check: one node per schema class
 * everit builds (a `type` with `enum` becomes a synthetic `allOf` of both, `{}` is the empty schema), so that the
 * differences are found between the same shapes Apicurio compares.
 */
export type LoadedSchema =
  | ObjectNode
  | ArrayNode
  | StringNode
  | NumberNode
  | SimpleNode
  | ConstNode
  | EnumNode
  | NotNode
  | RefNode
  | CombinedNode
  | ConditionalNode

/** What every node carries: the JSON it was loaded from (its identity with its kind), its location. */
export interface NodeBase {
  /** The schema's JSON (for a synthetic node, the JSON of the object it was made from). */
  readonly raw: unknown
  /** Tells apart nodes made from the same JSON (the parts of a synthetic `allOf`). */
  readonly tag: string
  /** The JSON pointer of the schema in its document, `#/properties/a`. */
  readonly location: string
  /** The keywords no part of the loader read (`contentEncoding`, `default`, unknown ones). */
  readonly unprocessed: Readonly<Record<string, unknown>>
}

/** An `object` schema, or one told by object keywords. */
export interface ObjectNode extends NodeBase {
  readonly kind: 'object'
  readonly properties: ReadonlyMap<string, LoadedSchema>
  readonly additionalProperties: boolean
  readonly schemaOfAdditionalProperties: LoadedSchema | undefined
  readonly required: readonly string[]
  readonly minProperties: number | undefined
  readonly maxProperties: number | undefined
  readonly propertyDependencies: ReadonlyMap<string, ReadonlySet<string>>
  readonly schemaDependencies: ReadonlyMap<string, LoadedSchema>
  readonly patternProperties: ReadonlyMap<string, LoadedSchema>
  readonly propertyNames: LoadedSchema | undefined
}

/** An `array` schema, or one told by array keywords. */
export interface ArrayNode extends NodeBase {
  readonly kind: 'array'
  readonly allItems: LoadedSchema | undefined
  readonly items: readonly LoadedSchema[] | undefined
  readonly additionalItems: boolean
  readonly schemaOfAdditionalItems: LoadedSchema | undefined
  readonly minItems: number | undefined
  readonly maxItems: number | undefined
  readonly uniqueItems: boolean
  readonly contains: LoadedSchema | undefined
}

/** A `string` schema, or one told by string keywords. */
export interface StringNode extends NodeBase {
  readonly kind: 'string'
  readonly minLength: number | undefined
  readonly maxLength: number | undefined
  readonly pattern: string | undefined
  /** A format the loader knows a validator for; others are dropped as everit drops them. */
  readonly format: string | undefined
}

/** A `number` or `integer` schema; the limits are decimal texts, compared exactly. */
export interface NumberNode extends NodeBase {
  readonly kind: 'number'
  readonly requiresInteger: boolean
  readonly minimum: string | undefined
  readonly maximum: string | undefined
  /** Draft 4's boolean `exclusiveMinimum`. */
  readonly exclusiveMinimum: boolean
  readonly exclusiveMaximum: boolean
  /** Draft 6 and 7's numeric `exclusiveMinimum`. */
  readonly exclusiveMinimumLimit: string | undefined
  readonly exclusiveMaximumLimit: string | undefined
  readonly multipleOf: string | undefined
}

/** The schemas with nothing to compare inside: `boolean`, `null`, `{}`, `true` and `false`. */
export interface SimpleNode extends NodeBase {
  readonly kind: 'boolean' | 'null' | 'empty' | 'true' | 'false'
}

/** `const` (draft 6 and later). */
export interface ConstNode extends NodeBase {
  readonly kind: 'const'
  /** The value's canonical JSON. */
  readonly value: string
}

/** `enum`: the values' canonical JSON texts. */
export interface EnumNode extends NodeBase {
  readonly kind: 'enum'
  readonly values: ReadonlySet<string>
}

/** `not`. */
export interface NotNode extends NodeBase {
  readonly kind: 'not'
  readonly mustNotMatch: LoadedSchema
}

/** `$ref`, resolved lazily so that recursive schemas load. */
export interface RefNode extends NodeBase {
  readonly kind: 'ref'
  readonly target: () => LoadedSchema
}

/** `allOf`, `anyOf` or `oneOf`; `synthetic` when the loader made it from several keywords of one object. */
export interface CombinedNode extends NodeBase {
  readonly kind: 'combined'
  readonly criterion: 'allOf' | 'anyOf' | 'oneOf'
  readonly subschemas: readonly LoadedSchema[]
  readonly synthetic: boolean
}

/** `if` / `then` / `else` (draft 7). */
export interface ConditionalNode extends NodeBase {
  readonly kind: 'conditional'
  readonly ifSchema: LoadedSchema | undefined
  readonly thenSchema: LoadedSchema | undefined
  readonly elseSchema: LoadedSchema | undefined
}

const KEYS = new WeakMap<LoadedSchema, string>()

/** Equal for schemas everit prints the same way, as Apicurio's equality wrapper compares them; computed once. */
export function keyOf(schema: LoadedSchema): string {
  let key = KEYS.get(schema)
  if (key === undefined) {
    key = `${schema.tag}:${canonicalJson(schema.raw)}`
    KEYS.set(schema, key)
  }
  return key
}
