import { describe, expect, it } from 'vitest'
import { isSerdeError, RuleViolationError, SerdeError } from './index.js'

describe('RuleViolationError', () => {
  it('names the rules, the mode and their messages, with code RULE_VIOLATION', () => {
    const error = new RuleViolationError(undefined, {
      mode: 'WRITE',
      violations: [
        { ruleName: 'positive', message: 'Condition failed: positive', action: 'ERROR' },
        { ruleName: 'named', message: "undeclared reference to 'x'", action: 'DLQ' },
      ],
    })
    expect(error).toBeInstanceOf(SerdeError)
    expect(isSerdeError(error, 'RULE_VIOLATION')).toBe(true)
    expect(error.name).toBe('RuleViolationError')
    expect(error.message).toBe(
      "Data-contract rules positive, named failed in WRITE mode (positive: Condition failed: positive; named: undeclared reference to 'x')",
    )
    expect(error.mode).toBe('WRITE')
    expect(error.violations.map((v) => v.action)).toEqual(['ERROR', 'DLQ'])
  })

  it('shows mode and violations in toJSON, and keeps its own copy of the violations', () => {
    const violations = [{ ruleName: 'r', message: 'Condition failed: r', action: null }]
    const error = new RuleViolationError(undefined, { mode: 'READ', violations })
    violations[0]!.ruleName = 'changed'
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'RuleViolationError',
      code: 'RULE_VIOLATION',
      message: 'Data-contract rule r failed in READ mode (r: Condition failed: r)',
      mode: 'READ',
      violations: [{ ruleName: 'r', message: 'Condition failed: r', action: null }],
    })
    expect(Object.isFrozen(error.violations)).toBe(true)
  })
})
