import type { CompatibilityIssue } from './format-checker.js'
import { checkerOf, isSchemaFormat, type SchemaFormat } from './formats.js'
import { type CompatibilityLevel, isCompatibilityLevel } from './levels.js'
import { referenceIssues } from './strict-references.js'

/** What `checkCompatibility` compares. */
export interface CompatibilityCheck {
  /** The format of every schema given. */
  format: SchemaFormat
  /** The rule: one of Apicurio's seven compatibility levels. */
  level: CompatibilityLevel
  /** The versions already registered, oldest first. */
  existing: readonly string[]
  /** The version proposed. */
  proposed: string
  /**
   * The schemas the others reference, by the name they use for them (an Avro full name, a JSON Schema `$ref`, a
   * Protobuf import path). Apicurio resolves the proposed version's references and uses them for every version.
   * @default {}
   */
  references?: Readonly<Record<string, string>>
  /**
   * Beyond the registry: also compare what the registry never compares, the schemas each version references. Each
   * existing version's references (`existingReferences`) are compared, name by name, with the proposed version's
   * (`references`) in the level's directions; a difference is an issue naming the reference. The registry reads
   * every version with the proposed version's references, so it never sees a referenced type (an Avro named type, a
   * `$ref`'d document, a Protobuf import) change.
   * @default false
   */
  strict?: boolean
  /**
   * With `strict`: the references of each existing version, in the order of `existing` (an entry left out or
   * `undefined`: that version's references are the proposed version's, so nothing of them is compared).
   * @default []
   */
  existingReferences?: readonly (Readonly<Record<string, string>> | undefined)[]
}

/** The verdict: compatible, or every difference that breaks the rule. */
export interface CompatibilityResult {
  /** Whether `proposed` may be registered under the rule. */
  compatible: boolean
  /** Every difference found, each once, in the order found (empty when compatible). */
  issues: CompatibilityIssue[]
  /**
   * Set when a schema could not be read at all, so nothing was compared: why. Apicurio answers such a version with
   * 422 `UnprocessableSchemaException` rather than a rule violation. `issues` then holds one issue saying so.
   */
  unreadable?: string
}

/**
 * Whether `proposed` may follow `existing` under the compatibility `level`, decided as Apicurio Registry 3.3.3
 * decides it: `BACKWARD` (the proposed schema reads data written with the latest one), `FORWARD` (the latest reads
 * data written with the proposed one), `FULL` (both), each against the latest version only, or against every
 * version with `…_TRANSITIVE`; `NONE` and no existing version are always compatible. A schema that cannot be read
 * (Apicurio answers 422 for it) is an issue at the path `''`. With `strict`, the referenced schemas of each version
 * compared are compared too, which the registry never does.
 */
export function checkCompatibility(check: CompatibilityCheck): CompatibilityResult {
  const { format, level, existing, proposed } = check
  if (!isSchemaFormat(format)) {
    throw new TypeError(`format must be 'AVRO', 'JSON' or 'PROTOBUF', got ${JSON.stringify(format)}`)
  }
  if (!isCompatibilityLevel(level)) {
    throw new TypeError(`level must be one of Apicurio's compatibility levels, got ${JSON.stringify(level)}`)
  }
  if (!Array.isArray(existing) || existing.some((text) => typeof text !== 'string')) {
    throw new TypeError('existing must be an array of schema texts, oldest first')
  }
  if (typeof proposed !== 'string') throw new TypeError('proposed must be a schema text')
  const references = { ...(check.references ?? {}) }
  if (check.existingReferences !== undefined && !Array.isArray(check.existingReferences))
    throw new TypeError('existingReferences must be an array, in the order of existing')
  if (level === 'NONE' || existing.length === 0) return { compatible: true, issues: [] }
  const checker = checkerOf(format)
  const indexes = existing.map((_, index) => index)
  const against = level.endsWith('_TRANSITIVE') ? indexes.reverse() : indexes.slice(-1)
  const strict = check.strict === true
  const ownReferences = (index: number) => check.existingReferences?.[index] ?? references
  const found = new IssueSet()
  try {
    if (!level.startsWith('FORWARD')) {
      for (const index of against) {
        found.addAll(checker.backwardIssues(existing[index] as string, proposed, references))
        if (strict)
          found.addAll(
            referenceIssues(checker, ownReferences(index), references, 'newer-reads-older', references),
          )
      }
    }
    if (!level.startsWith('BACKWARD')) {
      for (const index of against) {
        found.addAll(checker.backwardIssues(proposed, existing[index] as string, references))
        if (strict)
          found.addAll(
            referenceIssues(checker, ownReferences(index), references, 'older-reads-newer', references),
          )
      }
    }
  } catch (error) {
    if (error instanceof TypeError && 'code' in error && error.code === 'INVALID_CONFIG') throw error
    const reason = error instanceof Error ? error.message : String(error)
    return {
      compatible: false,
      issues: [{ path: '', message: `The schemas cannot be compared: ${reason.replace(/\.?$/, '.')}` }],
      unreadable: reason,
    }
  }
  const issues = found.list()
  return { compatible: issues.length === 0, issues }
}

/** Issues each kept once (Apicurio collects their causes in a set), in the order first found. */
class IssueSet {
  readonly #seen = new Map<string, CompatibilityIssue>()

  addAll(issues: readonly CompatibilityIssue[]): void {
    for (const issue of issues) {
      // the registry lists each cause once (a set of description and context), whichever direction found it
      // the first text's length keeps two different pairs from joining into one key
      const [first, second] =
        issue.cause === undefined
          ? [issue.path, issue.message]
          : [issue.cause.description, issue.cause.context]
      const key = `${first.length}:${first}${second}`
      if (!this.#seen.has(key)) this.#seen.set(key, issue)
    }
  }

  list(): CompatibilityIssue[] {
    return [...this.#seen.values()]
  }
}
