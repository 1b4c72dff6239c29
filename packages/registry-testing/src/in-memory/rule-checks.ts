import {
  type CompatibilityLevel,
  checkCompatibility,
  isCompatibilityLevel,
  isSchemaFormat,
  type SchemaFormat,
  type ValidityLevel,
  validateSchema,
} from '@x/compatibility'
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

/** One entry of the `causes` of a `RuleViolationException`. */
interface Incompatibility {
  readonly description: string
  readonly context: string
}

/**
 * Applies the rules in force (the artifact's, else its group's, else the global ones) before anything is stored,
 * as Apicurio does: `VALIDITY` (as `validateSchema` decides it at the rule's level), then
 * `COMPATIBILITY` against the latest version (or every version for `…_TRANSITIVE`), decided by `@x/compatibility` for
 * `AVRO`, `JSON` and `PROTOBUF`. A violation is a 400 `RuleViolationException` with Apicurio's causes; a schema the
 * check cannot read is a 422 `UnprocessableSchemaException`. Another artifact type with a compatibility level other
 * than `NONE` is a 500 saying so, never a silent pass. `INTEGRITY` rules are stored but not applied.
 */
export function applyRules(storage: RegistryStorage, candidate: Candidate): void {
  const validity = storage.rules.effective(candidate.groupId, candidate.artifactId, 'VALIDITY')
  if (validity !== undefined && validity !== 'NONE') checkValidity(storage, candidate, validity)
  const level = storage.rules.effective(candidate.groupId, candidate.artifactId, 'COMPATIBILITY')
  if (level === undefined || level === 'NONE' || candidate.existing.length === 0) return
  if (!isCompatibilityLevel(level)) {
    throw new RegistryProblem(
      500,
      'IllegalArgumentException',
      `No enum constant io.apicurio.registry.rules.compatibility.CompatibilityLevel.${level}`,
    )
  }
  if (!isSchemaFormat(candidate.artifactType)) {
    throw new RegistryProblem(
      500,
      'UnsupportedOperationException',
      `InMemoryRegistry checks COMPATIBILITY rules of AVRO, JSON and PROTOBUF artifacts only, not ${candidate.artifactType}: test this against a real Apicurio Registry`,
    )
  }
  checkCompatibilityRule(storage, candidate, level)
}

/** The title of the registry's `RuleViolationException` for content its VALIDITY rule refuses. */
function validityTitle(format: SchemaFormat, level: ValidityLevel): string {
  if (format !== 'JSON') return `Syntax violation for ${FORMAT_NAMES[format]} artifact.`
  return level === 'FULL'
    ? 'Syntax or semantic violation for JSON Schema artifact.'
    : 'Syntax violation for JSON Schema artifact.'
}

// `validateSchema` refuses what 3.3.3's VALIDITY rule refuses at the level; its issues carry the registry's causes
// (JSON Schema's keyword and everit's message; none for Avro and Protobuf).
function checkValidity(storage: RegistryStorage, candidate: Candidate, rule: string): void {
  if (!isSchemaFormat(candidate.artifactType)) return
  const level: ValidityLevel = rule === 'SYNTAX_ONLY' ? 'SYNTAX_ONLY' : 'FULL'
  const issues = validateSchema({
    format: candidate.artifactType,
    schema: candidate.text,
    references: storage.resolveReferencesByName(candidate.references),
    level,
  })
  if (issues.length === 0) return
  const causes = issues.flatMap((issue) => (issue.cause === undefined ? [] : [issue.cause]))
  throw violation(validityTitle(candidate.artifactType, level), causes)
}

function checkCompatibilityRule(
  storage: RegistryStorage,
  candidate: Candidate,
  level: CompatibilityLevel,
): void {
  const existing: string[] = []
  for (const version of candidate.existing) {
    const content = storage.contentById(version.contentId)
    if (content !== undefined) existing.push(content.text)
  }
  const result = checkCompatibility({
    format: candidate.artifactType as SchemaFormat,
    level,
    existing,
    proposed: candidate.text,
    references: storage.resolveReferencesByName(candidate.references),
  })
  if (result.unreadable !== undefined) {
    throw new RegistryProblem(
      422,
      'UnprocessableSchemaException',
      `Could not execute compatibility rule on invalid ${FORMAT_NAMES[candidate.artifactType] ?? candidate.artifactType} schema`,
      { detail: result.unreadable },
    )
  }
  if (result.compatible) return
  const causes = result.issues.map(
    (issue): Incompatibility => issue.cause ?? { description: issue.message, context: pointerOf(issue.path) },
  )
  const list = causes.map((cause) => `${cause.description} at ${cause.context}`).join(', ')
  const title = `Incompatible artifact: ${candidate.artifactId} [${candidate.artifactType}], num of incompatible diffs: {${causes.length}}, list of diff types: [${list}]`
  throw new RegistryProblem(400, 'RuleViolationException', title, {
    detail: `${title} Causes: ${list}`,
    causes,
  })
}

const FORMAT_NAMES: Readonly<Record<string, string>> = { AVRO: 'Avro', JSON: 'JSON', PROTOBUF: 'Protobuf' }

/** A data-error path (`fields[1].type`) as a JSON pointer (`/fields/1/type`). */
function pointerOf(path: string): string {
  if (path === '') return '/'
  const steps: string[] = []
  for (const [, name, index, quoted] of path.matchAll(
    /\.?([A-Za-z_$][A-Za-z0-9_$]*)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g,
  )) {
    steps.push(name ?? index ?? (JSON.parse(quoted as string) as string))
  }
  return `/${steps.map((step) => step.replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`
}

function violation(title: string, causes: readonly Incompatibility[]): RegistryProblem {
  const list = causes.map((cause) =>
    cause.context === '' ? cause.description : `${cause.description} at ${cause.context}`,
  )
  const detail = causes.length === 0 ? title : `${title} Causes: ${list.join(', ')}`
  return new RegistryProblem(400, 'RuleViolationException', title, { detail, causes })
}
