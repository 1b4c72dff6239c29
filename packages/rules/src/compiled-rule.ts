import type { Rule } from './types.js'

/** What one rule gave on one record: its value, or the message of the error that stopped it. */
export type RuleOutcome = { value: unknown; error?: undefined } | { error: string; value?: undefined }

/** A rule compiled once: `run` evaluates it on a JSON-shaped record. */
export interface CompiledRule {
  /** The rule as given. */
  readonly rule: Rule
  /** Evaluates the rule's expression on `record`. */
  run(record: Record<string, unknown>): RuleOutcome
  /**
   * The top-level fields of the record the rule reads (a CEL expression's references); absent when it may read any
   * (a JSONata expression is given the whole record). `run` gives the same outcome on a record holding only these.
   */
  readonly fields?: readonly string[]
}

/** A ruleset whose CEL and JSONata rules are compiled; rules of other types are kept and skipped when run. */
export interface CompiledRuleSet {
  /** Domain rules in order, with `null` for a rule whose type no engine here runs. */
  readonly domainRules: readonly (CompiledRule | null)[]
  /** Migration rules in order, with `null` for a rule whose type no engine here runs. */
  readonly migrationRules: readonly (CompiledRule | null)[]
}
