/** When a rule applies: on the producer (`WRITE`), the consumer (`READ`), both, or between versions. */
export type RuleMode = 'WRITE' | 'READ' | 'WRITEREAD' | 'UPGRADE' | 'DOWNGRADE'

/** What a rule does: accept or refuse a record (`CONDITION`), or rewrite it (`TRANSFORM`). */
export type RuleKind = 'CONDITION' | 'TRANSFORM'

/** What the registry reports for a failed rule, read by the caller: throw (`ERROR`), dead-letter (`DLQ`), pass. */
export type RuleAction = 'NONE' | 'ERROR' | 'DLQ'

/**
 * One contract rule, exactly as Apicurio Registry 3.3's REST API names its fields (`ContractRule`).
 * `type` names the executor: `CEL` and `JSONATA` run here; a rule of any other type is skipped, as the registry
 * skips it.
 */
export interface Rule {
  /** The rule's name, unique within its level; a rule of a later level with the same name replaces it. */
  name: string
  /** `CONDITION` or `TRANSFORM`. */
  kind: RuleKind
  /** `CEL`, `JSONATA`, or another executor's name (skipped). */
  type: 'CEL' | 'JSONATA' | (string & {})
  /** When the rule applies. */
  mode: RuleMode
  /** The expression: CEL in Apicurio's dialect (each top-level field of the record a variable) or JSONata. */
  expr?: string
  /** Free parameters, kept as the registry keeps them. */
  params?: Record<string, string>
  /** Tags, kept as the registry keeps them. */
  tags?: string[]
  /** Kept as the registry keeps it; a passing rule reports nothing, whatever this says. */
  onSuccess?: RuleAction
  /** The action a failure carries; absent, the violation carries `null`. */
  onFailure?: RuleAction
  /** A disabled rule is skipped and not counted. */
  disabled?: boolean
}

/** A ruleset as the registry stores it at each level (`ContractRuleSet`). */
export interface RuleSet {
  /** Conditions and transforms run on write and read. */
  domainRules?: Rule[]
  /** Transforms run between versions (`UPGRADE`, `DOWNGRADE`). */
  migrationRules?: Rule[]
}

/** One failed rule in an execute or migrate answer. */
export interface RuleViolation {
  /** The failed rule's name. */
  ruleName: string
  /** `Condition failed: <name>` for a condition that did not hold, else the evaluator's error text. */
  message: string
  /** The rule's `onFailure`, or `null` when the rule has none (as the registry answers). */
  action: RuleAction | null
}

/**
 * The verdict on one record, shaped as the registry's execute and migrate answers.
 * `transformedRecord` is present only when a transform produced an object.
 */
export interface ExecuteResult {
  /** `true` when no executed rule failed. */
  passed: boolean
  /** The record after the transforms that produced an object; absent when none did. */
  transformedRecord?: Record<string, unknown>
  /** The failed rules, in the order they ran. */
  violations: RuleViolation[]
  /** How many rules ran (disabled rules, rules of another mode and of an unknown type do not count). */
  executedRules: number
  /** How many of them failed. */
  failedRules: number
}

/** The answer of a migration, shaped as the registry's migrate answer. */
export type MigrateResult = ExecuteResult

/** The modes `execute` takes: the registry's execute endpoint documents `WRITE` and `READ`. */
export type ExecuteMode = RuleMode
