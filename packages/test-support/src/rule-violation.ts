import { type RuleViolation, RuleViolationError } from '@x/errors'
import { expect } from 'vitest'

/** A violation of a CEL condition as the engine reports it: `Condition failed: <name>`. */
export function conditionFailed(ruleName: string, action: string): RuleViolation {
  return { ruleName, message: `Condition failed: ${ruleName}`, action }
}

/**
 * Awaits `action`, expects it to reject with a `RuleViolationError` (and, when given, of `mode` and with exactly
 * `violations`), and gives the error back for what a test checks besides.
 */
export async function expectRuleViolation(
  action: Promise<unknown>,
  expected: { mode?: string; violations?: readonly RuleViolation[] } = {},
): Promise<RuleViolationError> {
  const error = await action.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(RuleViolationError)
  const violation = error as RuleViolationError
  if (expected.mode !== undefined) expect(violation.mode).toBe(expected.mode)
  if (expected.violations !== undefined) expect(violation.violations).toEqual(expected.violations)
  return violation
}
