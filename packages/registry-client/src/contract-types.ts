import type { CallOptions } from './types.js'

/** When a contract rule runs: on writing, on reading, on both, or when a record moves to a newer or older version. */
export type ContractRuleMode = 'WRITE' | 'READ' | 'WRITEREAD' | 'UPGRADE' | 'DOWNGRADE'

/** What a consumer or producer does with a rule's outcome. */
export type ContractRuleAction = 'NONE' | 'ERROR' | 'DLQ'

/** One data-contract rule (Apicurio Registry 3.3 `ContractRule`). */
export interface ContractRule {
  name: string
  /** `CONDITION` (passes or fails) or `TRANSFORM` (rewrites the record). */
  kind: 'CONDITION' | 'TRANSFORM'
  /** The executor: `CEL`, `JSONATA`, or another type the registry names. */
  type: string
  mode: ContractRuleMode
  expr?: string
  params?: Record<string, string>
  tags?: string[]
  onSuccess?: ContractRuleAction
  onFailure?: ContractRuleAction
  disabled?: boolean
}

/** A set of data-contract rules (Apicurio Registry 3.3 `ContractRuleSet`); both lists are empty when none is set. */
export interface ContractRuleSet {
  domainRules: ContractRule[]
  migrationRules: ContractRule[]
}

/** One failed rule in a verdict. */
export interface ContractViolation {
  ruleName: string
  message: string
  /** The rule's action on failure (`ERROR`, `DLQ`, `NONE`); `null` when the rule names none. */
  action: string | null
}

/** The registry's verdict on a record: the answer of the execute and migrate endpoints. */
export interface ContractVerdict {
  passed: boolean
  /** The record after the transforms; absent when no transform ran. */
  transformedRecord?: Record<string, unknown>
  violations: ContractViolation[]
  executedRules: number
  failedRules: number
}

/** Options of the artifact-level and version-level ruleset calls. */
export interface ContractCallOptions extends CallOptions {
  /** The group of the artifact. @default the client's groupId */
  groupId?: string
}
