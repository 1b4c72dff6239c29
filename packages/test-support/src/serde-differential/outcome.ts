import { isDeepStrictEqual } from 'node:util'
import { RuleViolationError } from '@x/errors'
import { parseExactJson } from '@x/registry-client/json'
import { plainText } from './java-record.js'

/**
 * What a case comes to, in terms both sides can give: the rules refused the record (the violations, by rule name and
 * action, in order), or it went on as `record` (the registry's `transformedRecord`, or the record it was sent; on
 * the library's side the value written or read, as Java's serde would send it), or another error.
 */
export type Outcome =
  | { refused: [ruleName: string, action: string | null][] }
  | { record: unknown }
  | { error: string }

/** JSON text parsed with its integers beyond 2^53 exact. */
export function exactParse(text: string): unknown {
  return parseExactJson(text).value
}

interface Answer {
  passed: boolean
  transformedRecord?: unknown
  violations: { ruleName: string; action?: string | null }[]
}

/**
 * The registry's answer as a serde acts on it: a failed rule whose action is `ERROR` or `DLQ` refuses the record
 * (every violation named); otherwise the record goes on, transformed when a transform ran.
 */
export function registryOutcome(answerJson: string, recordJson: string): Outcome {
  const answer = exactParse(answerJson) as Answer
  if (!answer.passed && answer.violations.some((v) => v.action === 'ERROR' || v.action === 'DLQ')) {
    return { refused: answer.violations.map((v) => [v.ruleName, v.action ?? null]) }
  }
  return { record: answer.transformedRecord ?? exactParse(recordJson) }
}

/** What a serde did: its value (as Java's serde would send it: `toJava`) or its error. */
export async function nodeOutcome(
  toJava: (value: unknown) => string,
  run: () => Promise<unknown>,
): Promise<Outcome> {
  try {
    return { record: exactParse(toJava(await run())) }
  } catch (error) {
    if (error instanceof RuleViolationError) {
      return { refused: error.violations.map((v) => [v.ruleName, v.action ?? null]) }
    }
    const { name, code, message } = error as { name?: string; code?: string; message?: string }
    return { error: `${name} ${code ?? ''}: ${message}` }
  }
}

/** Whether two outcomes agree (records compared as data: key order aside, `5.0` and `5` alike). */
export function sameOutcome(a: Outcome, b: Outcome): boolean {
  if ('error' in a || 'error' in b) return 'error' in a && 'error' in b && a.error === b.error
  return isDeepStrictEqual(a, b)
}

/** An outcome as one line of JSON text (longs exact). */
export function describeOutcome(outcome: Outcome): string {
  return plainText(outcome)
}

/** The outcome {@link describeOutcome} wrote. */
export function outcomeOf(text: string): Outcome {
  return exactParse(text) as Outcome
}
