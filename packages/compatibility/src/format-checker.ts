import type { ValidityLevel } from './validate-schema.js'

/**
 * One incompatibility or validity problem: where (in the data-error path notation of `@x/errors`, `fields[1].type`,
 * `''` for the schema itself) and a sentence saying what is wrong.
 */
export interface CompatibilityIssue {
  /** Where in the schema, `fields[1].type`; `''` for the schema as a whole. */
  path: string
  /** A sentence saying what is wrong and why. */
  message: string
  /**
   * The same problem as Apicurio Registry 3.3.3 lists it among the `causes` of its `RuleViolationException`, when
   * the checker knows it: its `description` and its `context` (`/fields/1/type`).
   */
  cause?: RegistryCause
  /**
   * Set only with `strict`, for a difference in a referenced schema (which the registry never compares): the name of
   * the reference; `path` is then a path in that schema.
   */
  reference?: string
}

/** One entry of the `causes` of Apicurio's `RuleViolationException` answer. */
export interface RegistryCause {
  /** Apicurio's text for the difference, `reader type: INT not compatible with writer type: STRING`. */
  description: string
  /** Where Apicurio says it is, `/fields/0/type`. */
  context: string
}

/** What one format's checker does; the levels and the transitive walk are applied on top of it. */
export interface FormatChecker {
  /** Syntax/validity problems of one schema (Apicurio's VALIDITY rule at `level`), given its references by name. */
  validate(schema: string, references: Record<string, string>, level: ValidityLevel): CompatibilityIssue[]
  /** Differences that make `proposed` unable to read data written with `existing` (the backward direction, as Apicurio's checkers compute `findCompatibilityDifferences(existing, proposed)`). */
  backwardIssues(existing: string, proposed: string, references: Record<string, string>): CompatibilityIssue[]
}
