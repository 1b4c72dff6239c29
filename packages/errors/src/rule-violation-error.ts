import { SerdeError, type SerdeErrorOptions } from './serde-error.js'

/** One failed data-contract rule: its name, what failed, and the action its `onFailure` names. */
export interface RuleViolation {
  /** The failed rule's name. */
  readonly ruleName: string
  /** `Condition failed: <name>` for a condition that did not hold, else the evaluator's error text. */
  readonly message: string
  /** The rule's `onFailure` (`ERROR`, `DLQ`, `NONE`), or `null` when the rule names none. */
  readonly action: string | null
}

/** Options of `RuleViolationError`. */
export interface RuleViolationErrorOptions extends SerdeErrorOptions {
  /** The mode the rules ran in: `WRITE`, `READ`, `UPGRADE` or `DOWNGRADE`. */
  mode: string
  /** The failed rules, in the order they ran. */
  violations: readonly RuleViolation[]
}

function describeViolations(mode: string, violations: readonly RuleViolation[]): string {
  const names = violations.map((violation) => violation.ruleName).join(', ')
  const messages = violations.map((violation) => `${violation.ruleName}: ${violation.message}`).join('; ')
  const noun = violations.length === 1 ? 'rule' : 'rules'
  return `Data-contract ${noun} ${names} failed in ${mode} mode (${messages})`
}

/**
 * A record refused by a data-contract rule whose action is `ERROR` (or `DLQ`, outside a Kafka adapter), or that
 * the rules could not evaluate. The message names the rules, the mode and the rules' messages.
 */
export class RuleViolationError extends SerdeError {
  override name = 'RuleViolationError'
  /** The mode the rules ran in. */
  readonly mode: string
  /** The failed rules. */
  readonly violations: readonly RuleViolation[]

  constructor(message: string | undefined, options: RuleViolationErrorOptions) {
    super('RULE_VIOLATION', message ?? describeViolations(options.mode, options.violations), options)
    this.mode = options.mode
    this.violations = Object.freeze(options.violations.map((violation) => Object.freeze({ ...violation })))
  }

  /** As `SerdeError.toJSON()`, with `mode` and `violations`. */
  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), mode: this.mode, violations: this.violations }
  }
}
