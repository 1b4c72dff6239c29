import type { CompatibilityIssue, FormatChecker } from '../format-checker.js'
import { jsonNestsTooDeep, jsonTooDeep } from '../nesting.js'
import { ParseCache } from '../parse-cache.js'
import { pointerToPath } from '../pointer-path.js'
import type { ValidityLevel } from '../validate-schema.js'
import { DiffContext } from './diff-context.js'
import { diffSchema } from './diff-schema.js'
import { isBackwardCompatible } from './diff-types.js'
import { issueOf } from './issue-of.js'
import { loadSchema, SchemaLoadError } from './load-schema.js'
import { isInternalFragment, referencesOf, resolveUri } from './references.js'
import type { LoadedSchema } from './schema-model.js'
import { idKeyword, type SpecVersion, specVersionOf } from './spec-version.js'

type Document = Record<string, unknown>

function parseJson(text: string, role: string): unknown {
  if (jsonNestsTooDeep(text)) throw new SchemaLoadError(jsonTooDeep(`The ${role} schema`))
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new SchemaLoadError(`The ${role} schema is not JSON: ${(error as Error).message}`)
  }
}

function isDocument(parsed: unknown): parsed is Document {
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
}

/** A referenced document: Apicurio reads it as a JSON object, and refuses anything else. */
function parseReferenced(text: string, role: string): Document {
  const parsed = parseJson(text, role)
  if (!isDocument(parsed)) throw new SchemaLoadError(`The ${role} schema is not a JSON object`)
  return parsed
}

/**
 * A compared version as Apicurio reads it into an object before loading it: any JSON that is not an object (`true`,
 * `false`, a number, a string, an array) reads as the empty object, the schema that accepts everything; `null`
 * cannot be read.
 */
function parseCompared(text: string, role: string): Document {
  const parsed = parseJson(text, role)
  if (parsed === null) throw new SchemaLoadError(`The ${role} schema is null, not a schema`)
  return isDocument(parsed) ? parsed : {}
}

/**
 * The external documents a schema's references name, registered under the URIs its `$ref`s resolve to, as Apicurio
 * prepares the comparison: a `$ref` to another document must be one of the references by name, else the comparison
 * fails.
 */
function documentsFor(root: Document, references: Readonly<Record<string, string>>): Map<string, unknown> {
  const declared = typeof root.$schema === 'string' ? specVersionOf(root.$schema) : undefined
  const idKey = declared === 'DRAFT_4' ? 'id' : '$id'
  const idValue = root[idKey]
  const id = typeof idValue === 'string' ? resolveUri(undefined, idValue) : undefined
  const documents = new Map<string, unknown>()
  for (const reference of referencesOf(root, id)) {
    if (isInternalFragment(reference, id)) continue
    const name = Object.keys(references).find((candidate) => resolveUri(id, candidate) === reference)
    if (name === undefined) throw new SchemaLoadError(`Unresolved JSON Schema reference: ${reference}`)
    documents.set(
      reference,
      parseReferenced(references[name] as string, `referenced ${JSON.stringify(name)}`),
    )
  }
  return documents
}

/** The draft everit loads a document with in the comparison: its `$schema`, else draft 4. */
function comparisonVersion(root: Document): SpecVersion {
  if (!Object.hasOwn(root, '$schema')) return 'DRAFT_4'
  const url = root.$schema
  if (typeof url !== 'string') throw new SchemaLoadError('$schema is not a string')
  const version = specVersionOf(url)
  if (version === undefined)
    throw new SchemaLoadError(`could not determine version of ${JSON.stringify(url)}`)
  return version
}

const LOADED = new ParseCache<LoadedSchema>(2048)

/** The schema loaded as Apicurio loads it for a comparison; the same text with the same references is loaded once. */
function loadForComparison(
  text: string,
  role: string,
  references: Readonly<Record<string, string>>,
): LoadedSchema {
  const key = Object.keys(references).length === 0 ? text : `${text}\u0000${JSON.stringify(references)}`
  return LOADED.get(key, () => loadFresh(text, role, references))
}

function loadFresh(text: string, role: string, references: Readonly<Record<string, string>>): LoadedSchema {
  const root = parseCompared(text, role)
  // no `$ref` in the text: no reference to resolve
  const documents =
    text.includes('$ref') || text.includes('\\u')
      ? documentsFor(root, references)
      : new Map<string, unknown>()
  return loadSchema(root, '', undefined, { version: comparisonVersion(root), useDefaults: false, documents })
}

const INVALID = 'The schema is not valid JSON Schema'

/** One validity problem, with the cause the registry lists for it. */
function invalid(description: string, context: string): CompatibilityIssue {
  const where = context === '' ? '' : ` at ${context}`
  return {
    path: context.startsWith('#/') ? pointerToPath(context.slice(1)) : '',
    message: `${INVALID}: ${description.replace(/\.$/, '')}${where}.`,
    cause: { description, context },
  }
}

/**
 * The schema as Apicurio's validity rule reads it. `SYNTAX_ONLY`: it must be JSON (the registry lists no cause). `FULL`: it is loaded as everit
 * loads it (draft 7 unless `$schema` names another draft, every `$ref` followed, a reference not given standing for
 * any schema); a document that is not an object passes, except `null`; 2019-09 is refused and 2020-12 passes. The
 * registry lists one cause: everit's message split at its location, or `JSON schema not valid: …` with no location.
 */
function validityIssues(
  text: string,
  references: Readonly<Record<string, string>>,
  level: ValidityLevel,
): CompatibilityIssue[] {
  if (jsonNestsTooDeep(text)) {
    const reason = jsonTooDeep('The schema')
    if (level === 'SYNTAX_ONLY') return [{ path: '', message: `${INVALID}: ${reason}.` }]
    return [invalid(`JSON schema not valid: ${reason}`, '')]
  }
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch (error) {
    // at SYNTAX_ONLY the registry lists no cause
    if (level === 'SYNTAX_ONLY')
      return [{ path: '', message: `${INVALID}: it is not JSON: ${(error as Error).message}.` }]
    return [invalid(`JSON schema not valid: ${(error as Error).message}`, '')]
  }
  if (level === 'SYNTAX_ONLY') return []
  if (root === null)
    return [
      invalid(
        'JSON schema not valid: Cannot invoke "org.json.JSONObject.length()" because "obj" is null',
        '',
      ),
    ]
  if (typeof root !== 'object' || Array.isArray(root)) return []
  const document = root as Document
  const url = document.$schema
  if (typeof url === 'string' && /draft\/2019-09/.test(url))
    return [invalid('JSON schema not valid: JSON schema version 2019-09 is not supported yet.', '')]
  if (typeof url === 'string' && /draft\/2020-12/.test(url)) return []
  const version = (typeof url === 'string' ? specVersionOf(url) : undefined) ?? 'DRAFT_7'
  const idValue = document[idKeyword(version)]
  const id = typeof idValue === 'string' ? resolveUri(undefined, idValue) : undefined
  const found = [...referencesOf(document, id)]
  const unused = Object.keys(references).filter((name) => !found.includes(name))
  if (unused.length > 0) {
    return [
      invalid(
        `JSON schema not valid: There are unused references recorded for this content. Make sure you have not made a typo, otherwise remove the unused reference record(s). References in the content: ${found.join(', ')}. Unused reference records: ${unused.join(', ')}.`,
        '',
      ),
    ]
  }
  try {
    const documents = new Map<string, unknown>()
    for (const reference of found) {
      if (isInternalFragment(reference, id)) continue
      const given = Object.hasOwn(references, reference) ? references[reference] : undefined
      if (given !== undefined && jsonNestsTooDeep(given))
        throw new SchemaLoadError(jsonTooDeep(`The referenced ${JSON.stringify(reference)}`))
      documents.set(reference, given === undefined ? {} : JSON.parse(given))
    }
    loadSchema(document, '', undefined, { version, useDefaults: true, documents, resolveReferences: true })
    return []
  } catch (error) {
    if (!(error instanceof SchemaLoadError)) {
      if (error instanceof SyntaxError) return [invalid(`JSON schema not valid: ${error.message}`, '')]
      throw error
    }
    // everit's message starts with the schema's location: `#/properties/a`, or `a.json` for another document's root
    const colon = error.message.indexOf(': ')
    const location = colon === -1 ? '' : error.message.slice(0, colon)
    if (!location.includes('#')) return [invalid(`JSON schema not valid: ${error.message}`, '')]
    const description = error.message
      .slice(colon + 2)
      .replaceAll('JSONArray', 'JsonArray')
      .replaceAll('JSONObject', 'JsonObject')
    return [
      invalid(description, location.endsWith('#') && location !== '#' ? location.slice(0, -1) : location),
    ]
  }
}

/**
 * JSON Schema, as Apicurio 3.3's default JSON Schema compatibility checker decides it (its own diff library over
 * everit-json-schema): each document is loaded as everit loads it (draft 4 unless `$schema` names draft 6 or 7,
 * external `$ref`s only from the references given), the differences from the existing schema to the proposed one
 * are found, and those Apicurio marks as not backward compatible are the issues.
 */
export const jsonSchemaChecker: FormatChecker = {
  validate(schema, references, level) {
    return validityIssues(schema, references, level)
  },
  backwardIssues(existing, proposed, references) {
    const before = loadForComparison(existing, 'existing', references)
    const after = loadForComparison(proposed, 'proposed', references)
    const ctx = DiffContext.root()
    diffSchema(ctx, before, after)
    const seen = new Set<string>()
    const issues: CompatibilityIssue[] = []
    for (const found of ctx.differences) {
      if (isBackwardCompatible(found.type)) continue
      const key = JSON.stringify([found.type, found.context, found.before, found.after])
      if (seen.has(key)) continue
      seen.add(key)
      issues.push(issueOf(found))
    }
    return issues
  },
}
