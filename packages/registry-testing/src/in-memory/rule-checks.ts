import protobuf from 'protobufjs'
import { avroIncompatibilities, type Incompatibility } from './avro-compatibility.js'
import { AvroSchemaError, parseAvro } from './avro-schema.js'
import type { StoredReference } from './content.js'
import { RegistryProblem } from './problems.js'
import type { RegistryStorage, StoredVersion } from './storage.js'

/** What is about to be stored, and where. */
export interface Candidate {
  readonly groupId: string | null
  readonly artifactId: string
  readonly artifactType: string
  readonly text: string
  readonly references: readonly StoredReference[]
  /** The versions it must be compatible with, oldest first; empty for a new artifact. */
  readonly existing: readonly StoredVersion[]
}

const LEVELS = [
  'NONE',
  'BACKWARD',
  'BACKWARD_TRANSITIVE',
  'FORWARD',
  'FORWARD_TRANSITIVE',
  'FULL',
  'FULL_TRANSITIVE',
] as const

/**
 * Applies the rules in force (the artifact's, else its group's, else the global ones) before anything is stored,
 * as Apicurio does: `VALIDITY` (the content parses in its type; `SYNTAX_ONLY` and `FULL` alike), then
 * `COMPATIBILITY` against the latest version (or every version for `…_TRANSITIVE`). A violation is a 400
 * `RuleViolationException` with Apicurio's causes. `COMPATIBILITY` is checked for `AVRO` artifacts only (Apicurio's
 * JSON Schema and Protobuf diff engines are not reproduced): another type with a compatibility level other than
 * `NONE` is a 500 saying so, never a silent pass. `INTEGRITY` rules are stored but not applied.
 */
export function applyRules(storage: RegistryStorage, candidate: Candidate): void {
  const validity = storage.rules.effective(candidate.groupId, candidate.artifactId, 'VALIDITY')
  if (validity !== undefined && validity !== 'NONE') checkValidity(storage, candidate)
  const level = storage.rules.effective(candidate.groupId, candidate.artifactId, 'COMPATIBILITY')
  if (level === undefined || level === 'NONE' || candidate.existing.length === 0) return
  if (!(LEVELS as readonly string[]).includes(level)) {
    throw new RegistryProblem(
      500,
      'IllegalArgumentException',
      `No enum constant io.apicurio.registry.rules.compatibility.CompatibilityLevel.${level}`,
    )
  }
  if (candidate.artifactType !== 'AVRO') {
    throw new RegistryProblem(
      500,
      'UnsupportedOperationException',
      `InMemoryRegistry checks COMPATIBILITY rules of AVRO artifacts only, not ${candidate.artifactType}: test this against a real Apicurio Registry`,
    )
  }
  checkAvroCompatibility(storage, candidate, level)
}

function checkValidity(storage: RegistryStorage, candidate: Candidate): void {
  switch (candidate.artifactType) {
    case 'AVRO':
      try {
        parseAvro(candidate.text, storage.resolveReferences(candidate.references))
      } catch (error) {
        if (!(error instanceof AvroSchemaError)) throw error
        throw violation('Syntax violation for Avro artifact.', [])
      }
      return
    case 'JSON':
      checkJsonSchema(candidate.text)
      return
    case 'PROTOBUF':
      try {
        protobuf.parse(candidate.text, { keepCase: true })
      } catch {
        throw violation('Syntax violation for Protobuf artifact.', [])
      }
      return
    default:
      return
  }
}

function checkJsonSchema(text: string): void {
  const title = 'Syntax or semantic violation for JSON Schema artifact.'
  let schema: unknown
  try {
    schema = JSON.parse(text)
  } catch (error) {
    throw violation(title, [
      { description: `JSON schema not valid: ${(error as Error).message}`, context: '' },
    ])
  }
  if (typeof schema === 'boolean') return
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw violation(title, [{ description: 'expected type: JSONObject or Boolean', context: '#' }])
  }
  const type = (schema as Record<string, unknown>).type
  if (type !== undefined && typeof type !== 'string' && !Array.isArray(type)) {
    throw violation(title, [
      {
        description: `expected type is one of JsonArray or String, found: ${javaTypeName(type)}`,
        context: '#/type',
      },
    ])
  }
}

function javaTypeName(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'Integer' : 'BigDecimal'
  if (typeof value === 'boolean') return 'Boolean'
  if (value === null) return 'Null'
  return 'JsonObject'
}

function checkAvroCompatibility(storage: RegistryStorage, candidate: Candidate, level: string): void {
  const proposed = parseForCompatibility(candidate.text, storage.resolveReferences(candidate.references))
  const against = level.endsWith('_TRANSITIVE') ? candidate.existing : candidate.existing.slice(-1)
  const found: Incompatibility[] = []
  for (const version of against) {
    const content = storage.contentById(version.contentId)
    if (content === undefined) continue
    const existing = parseForCompatibility(content.text, storage.resolveReferences(content.references))
    if (!level.startsWith('FORWARD')) found.push(...avroIncompatibilities(proposed, existing))
    if (!level.startsWith('BACKWARD')) found.push(...avroIncompatibilities(existing, proposed))
  }
  const causes = unique(found)
  if (causes.length === 0) return
  const list = causes.map((cause) => `${cause.description} at ${cause.context}`).join(', ')
  const title = `Incompatible artifact: ${candidate.artifactId} [${candidate.artifactType}], num of incompatible diffs: {${causes.length}}, list of diff types: [${list}]`
  throw new RegistryProblem(400, 'RuleViolationException', title, {
    detail: `${title} Causes: ${list}`,
    causes,
  })
}

function parseForCompatibility(text: string, referenced: readonly string[]) {
  try {
    return parseAvro(text, referenced)
  } catch (error) {
    if (!(error instanceof AvroSchemaError)) throw error
    throw new RegistryProblem(
      422,
      'UnprocessableSchemaException',
      'Could not execute compatibility rule on invalid Avro schema',
      {
        detail: `${error.exception}: ${error.message}`,
      },
    )
  }
}

/** Apicurio collects the differences in a set: the same one found against two versions is listed once. */
function unique(found: readonly Incompatibility[]): Incompatibility[] {
  const seen = new Set<string>()
  return found.filter((cause) => {
    const key = `${cause.description}\u0000${cause.context}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function violation(title: string, causes: readonly Incompatibility[]): RegistryProblem {
  const list = causes.map((cause) =>
    cause.context === '' ? cause.description : `${cause.description} at ${cause.context}`,
  )
  const detail = causes.length === 0 ? title : `${title} Causes: ${list.join(', ')}`
  return new RegistryProblem(400, 'RuleViolationException', title, { detail, causes })
}
