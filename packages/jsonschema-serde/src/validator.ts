import { createRequire } from 'node:module'
import { type DataIssue, dataIssue, dataIssuesError, fieldPath, indexPath } from '@x/errors'
import type { ResolvedReference } from '@x/serde-core'
import { Ajv, type AnySchema, type ErrorObject, MissingRefError, type ValidateFunction } from 'ajv'
import Ajv2019 from 'ajv/dist/2019.js'
import Ajv2020 from 'ajv/dist/2020.js'
import AjvDraft04 from 'ajv-draft-04'
import addFormats from 'ajv-formats'
import { validate as draft07Check } from './draft-07-meta-check.generated.js'
import { MAX_SCHEMA_DEPTH, nestsTooDeep } from './schema-depth.js'
import { UNIQUE_ITEMS } from './unique-items.js'

/**
 * JSON Schema validation with ajv 8, the dialect chosen by the schema's `$schema` as Apicurio's Java serde does
 * (networknt json-schema-validator, default dialect draft-07): draft-04 (`ajv-draft-04`), draft-06 and draft-07
 * (`Ajv`), 2019-09 (`Ajv2019`), 2020-12 (`Ajv2020`). Formats from `ajv-formats`. One ajv instance per compiled
 * schema, so that two versions of an artifact with the same `$id` never meet.
 */

/** draft-06's meta-schema (ajv ships it), for compiling draft-06 schemas with the draft-07 engine. */
const DRAFT_06_META = createRequire(import.meta.url)('ajv/dist/refs/json-schema-draft-06.json') as AnySchema

export type Dialect = 'draft-04' | 'draft-06' | 'draft-07' | '2019-09' | '2020-12'

/** The dialect a `$schema` URI names; draft-07 without one (Java's default). */
export function dialectOf(schema: unknown): Dialect {
  const uri =
    typeof schema === 'object' && schema !== null ? (schema as { $schema?: unknown }).$schema : undefined
  if (typeof uri !== 'string') return 'draft-07'
  if (uri.includes('draft-04')) return 'draft-04'
  if (uri.includes('draft-06')) return 'draft-06'
  if (uri.includes('draft-07')) return 'draft-07'
  if (uri.includes('2019-09')) return '2019-09'
  if (uri.includes('2020-12')) return '2020-12'
  throw new TypeError(
    `$schema '${uri.slice(0, 100)}' names no JSON Schema dialect this serde knows (draft-04, -06, -07, 2019-09, 2020-12)`,
  )
}

/**
 * The options of every ajv instance, and why:
 * - `allErrors`: a refused value names every failing path, not the first;
 * - `strict: false`: registry schemas may carry keywords ajv does not know (`javaType`, `$comment`-like vendor
 *   keywords Apicurio and Java generators add); refusing them would refuse schemas Java accepts;
 * - `unicodeRegExp: true` (the default): `pattern`s are compiled with the `u` flag as JSON Schema specifies;
 * - `validateFormats: true`: `format` is checked (with ajv-formats), as networknt does for the known formats;
 * - no `useDefaults`, `coerceTypes` or `removeAdditional`: validation never changes the caller's value.
 */
export const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: true } as const

/**
 * The options of the instances that compile a schema: the same, but the schema is checked against its meta-schema
 * by the dialect's shared checker ({@link checkSchema}) rather than by an instance that would compile the
 * meta-schema again for every schema.
 */
const COMPILER_OPTIONS = { ...AJV_OPTIONS, validateSchema: false } as const

export type AjvLike = {
  addSchema(schema: AnySchema, key?: string): unknown
  compile(schema: AnySchema): ValidateFunction
  addMetaSchema(schema: AnySchema): unknown
  validateSchema(schema: AnySchema, throwOrLogError?: boolean): unknown
  getSchema(keyRef: string): ValidateFunction | undefined
}

export function ajvFor(dialect: Dialect, options: object): AjvLike {
  let ajv: AjvLike
  switch (dialect) {
    case 'draft-04':
      ajv = new (AjvDraft04 as unknown as new (options: object) => AjvLike)(options)
      break
    case '2019-09':
      ajv = new (Ajv2019 as unknown as new (options: object) => AjvLike)(options)
      break
    case '2020-12':
      ajv = new (Ajv2020 as unknown as new (options: object) => AjvLike)(options)
      break
    default:
      ajv = new Ajv(options) as unknown as AjvLike
      if (dialect === 'draft-06') ajv.addMetaSchema(DRAFT_06_META)
  }
  ;(addFormats as unknown as (ajv: AjvLike) => void)(ajv)
  // ajv's `uniqueItems` compares every pair of items of no declared scalar type: the same keyword, linear.
  const keywords = ajv as unknown as {
    removeKeyword(name: string): unknown
    addKeyword(definition: object): unknown
  }
  keywords.removeKeyword('uniqueItems')
  keywords.addKeyword(UNIQUE_ITEMS)
  return ajv
}

/**
 * One ajv instance per dialect, configured as the compiling instances are, that only checks schemas against their
 * meta-schema: it compiles each meta-schema once per process (about 10 ms on Node 24) and holds no schema of a
 * registry.
 */
const checkers = new Map<Dialect, AjvLike>()

function checkerFor(dialect: Dialect): AjvLike {
  let checker = checkers.get(dialect)
  if (checker === undefined) {
    checker = ajvFor(dialect, AJV_OPTIONS)
    checkers.set(dialect, checker)
  }
  return checker
}

/** The draft-07 meta-schema's validating function, generated by ajv ahead of time (see {@link checkSchema}). */
const checkDraft07 = draft07Check as unknown as ValidateFunction

/** draft-07's meta-schema, as ajv keys it (a `$schema` may add the empty fragment `#`). */
const DRAFT_07_META = 'http://json-schema.org/draft-07/schema'

/**
 * Checks a schema against the meta-schema its `$schema` names (the dialect's default without one), throwing what ajv
 * throws when it compiles an invalid schema (`schema is invalid: …`). Draft-07's meta-schema (Java's default, and
 * ajv's for a draft-07 schema without `$schema`) is checked by code ajv generated ahead of time from the same
 * meta-schema with the same options (`draft-07-meta-check.generated.ts`), so that no process compiles it; other
 * meta-schemas by the dialect's shared checker when it holds them; a `$schema` it does not hold (a meta-schema among
 * the references) is looked up by the schema's own instance, which holds the references added so far.
 */
export function checkSchema(schema: AnySchema, dialect: Dialect, own: AjvLike): void {
  const uri = typeof schema === 'object' ? (schema as { $schema?: unknown }).$schema : undefined
  if (
    dialect === 'draft-07' &&
    typeof schema === 'object' &&
    schema !== null &&
    (uri === undefined || uri === DRAFT_07_META || uri === `${DRAFT_07_META}#`)
  ) {
    // ajv's own text of the errors, as its `validateSchema` throws it (`errorsText` reads no instance state).
    if (!checkDraft07(schema))
      throw new Error(`schema is invalid: ${Ajv.prototype.errorsText(checkDraft07.errors)}`)
    return
  }
  const checker = checkerFor(dialect)
  let shared = true
  if (typeof uri === 'string') {
    try {
      shared = checker.getSchema(uri) !== undefined
    } catch {
      shared = false
    }
  }
  ;(shared ? checker : own).validateSchema(schema, true)
}

/** A `$ref` the validator could not resolve: the schema needs (or lacks) one of its references. */
export function isMissingReference(error: unknown): string | undefined {
  return error instanceof MissingRefError ? error.missingRef : undefined
}

/**
 * A compiled validator of one schema, given its references by the names the schema uses (`address.json`), which are
 * also reachable by their own `$id` (Java resolves a `$ref` by the referenced schema's `$id`). Throws a `TypeError` for
 * a schema (or reference) that nests subschemas deeper than {@link MAX_SCHEMA_DEPTH} levels, or one whose chains of
 * `$ref`s are too long to compile.
 */
export function compileValidator(
  schema: object,
  references: readonly ResolvedReference[] = [],
): ValidateFunction {
  checkDepth(schema)
  const dialect = dialectOf(schema)
  const ajv = ajvFor(dialect, COMPILER_OPTIONS)
  for (const reference of references) {
    let parsed: unknown
    try {
      parsed = JSON.parse(reference.schema)
    } catch (error) {
      throw new TypeError(
        `The referenced schema '${reference.name}' is not JSON: ${(error as Error).message}`,
      )
    }
    if (typeof parsed !== 'object' || parsed === null) {
      throw new TypeError(`The referenced schema '${reference.name}' is not a JSON Schema object`)
    }
    if (nestsTooDeep(parsed)) {
      throw new TypeError(
        `The referenced schema '${reference.name}' nests subschemas deeper than ${MAX_SCHEMA_DEPTH} levels`,
      )
    }
    const id = (parsed as { $id?: unknown; id?: unknown }).$id
    // Under its reference name; ajv also registers its `$id` when it has one (unless the two are the same).
    ajv.addSchema(parsed as AnySchema, id === reference.name ? undefined : reference.name)
    // After adding it, as ajv's own check comes after its check that the name and `$id` are new.
    checkSchema(parsed as AnySchema, dialect, ajv)
  }
  checkSchema(schema as AnySchema, dialect, ajv)
  try {
    return ajv.compile(schema as AnySchema)
  } catch (error) {
    // ajv compiles a `$ref` inside the schema that refers to it: a long enough chain of them exhausts the stack
    if (error instanceof RangeError) {
      throw new TypeError('The schema nests subschemas, through its $refs, too deeply to be compiled')
    }
    throw error
  }
}

/** Throws a `TypeError` for a schema that nests subschemas deeper than {@link MAX_SCHEMA_DEPTH} levels. */
function checkDepth(schema: object): void {
  if (nestsTooDeep(schema))
    throw new TypeError(`The schema nests subschemas deeper than ${MAX_SCHEMA_DEPTH} levels`)
}

/**
 * One failure in the notation every format shares (`@x/errors`' data issues): the path of the failing value (of the
 * missing or extra property, for `required`, `dependentRequired`, `additionalProperties` and
 * `unevaluatedProperties`), dotted with `[i]` for array items and `["key"]` for names that are not identifiers, read
 * from ajv's JSON Pointer against the validated `data`; the sentence says what the keyword expected and what came,
 * and names the keyword in parentheses: `address.zip: expected to match pattern "^[0-9]{5}$", got string "1"
 * (pattern)`.
 */
function issueOf(data: unknown, error: ErrorObject): DataIssue {
  const params = error.params as {
    missingProperty?: unknown
    additionalProperty?: unknown
    unevaluatedProperty?: unknown
    type?: unknown
    allowedValues?: unknown
  }
  const segments =
    error.instancePath === '' ? [] : error.instancePath.slice(1).split('/').map(unescapePointer)
  const property = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty
  if (typeof property === 'string') segments.push(property)
  let path = ''
  let value = data
  for (const segment of segments) {
    if (Array.isArray(value) && /^(?:0|[1-9][0-9]*)$/.test(segment)) {
      path = indexPath(path, Number(segment))
      value = value[Number(segment)]
    } else {
      path = fieldPath(path, segment)
      value = isObject(value) && Object.hasOwn(value, segment) ? value[segment] : undefined
    }
  }
  return dataIssue(path, expectationOf(error, params), value, error.keyword)
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~')
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}

/** What the failing keyword asked for, as the words after `expected`. */
function expectationOf(
  error: ErrorObject,
  params: { missingProperty?: unknown; type?: unknown; allowedValues?: unknown },
): string {
  switch (error.keyword) {
    case 'type':
      return (Array.isArray(params.type) ? params.type : String(params.type).split(',')).join(' or ')
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      if (typeof params.missingProperty === 'string') return 'a value'
      break
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return 'no such property'
    case 'enum':
      if (Array.isArray(params.allowedValues)) {
        const shown = params.allowedValues
          .slice(0, 10)
          .map((allowed) => JSON.stringify(allowed) ?? 'undefined')
        return `one of ${shown.join(', ')}${params.allowedValues.length > 10 ? ', …' : ''}`
      }
      break
  }
  // ajv's own words, which all say what the value `must` do: `must be >= 1` → `to be >= 1`.
  const message = error.message ?? 'to be valid'
  return message.startsWith('must ') ? `to ${message.slice(5).replace(/^NOT /, 'not ')}` : message
}

/**
 * A `TypeError` (code `INVALID_DATA`) for what ajv refused when it validated `data`: every failure's path, the
 * first ten failures in the message.
 */
export function validationError(prefix: string, data: unknown, errors: readonly ErrorObject[]): TypeError {
  return dataIssuesError(
    prefix,
    errors.map((error) => issueOf(data, error)),
  )
}
