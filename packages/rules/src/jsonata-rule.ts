import type { CompiledRule, RuleOutcome } from './compiled-rule.js'
import type { JsonataEvaluator, JsonataProgram } from './jsonata-evaluator.js'
import { DataObject, MAX_RECORD_DEPTH, RecordTooDeepError, setData } from './record-data.js'
import { isRuleDouble, type RuleDouble } from './rule-double.js'
import type { Rule } from './types.js'

const PREFIX = 'JSONata evaluation error: '

/**
 * Compiles a JSONata rule: the record is the expression's input, a `bigint` read as the nearest `number` (JSONata
 * computes in doubles, as the registry's JSONata does) and a `RuleDouble` as its number, its objects inheriting
 * nothing, so a name the record does not hold is absent whatever it is (`constructor`, `toString`, `__proto__`).
 * Whatever the evaluation throws (a record nested too deep included) is the rule's failure. A value the expression
 * moves or copies unchanged comes back as it was, as the registry's engine hands on the very object it was given: a
 * long beyond 2^53 exact, an integral double still a double; a value it computes comes back as JSONata computes it
 * (an integral result is an integer, as the registry's answers give it: beyond ±(2^53 − 1) the `bigint` of its exact value). An expression that gives back its input
 * itself (`$`) leaves the record as it was, not transformed. An evaluation running longer than `timeoutMs` is
 * stopped and fails the rule (no limit when `undefined`).
 */
export function compileJsonataRule(
  rule: Rule,
  evaluator: JsonataEvaluator,
  timeoutMs: number | undefined,
): CompiledRule {
  let program: JsonataProgram
  try {
    program = evaluator.compile(rule.expr ?? '')
  } catch (error) {
    const outcome: RuleOutcome = { error: `${PREFIX}JSONata compilation failed: ${messageOf(error)}` }
    return { rule, run: () => outcome }
  }
  return {
    rule,
    run(record) {
      try {
        const kept: unknown[] = []
        const input = toJsonataValue(record, 0, kept, false)
        const result = program.evaluate(input, timeoutMs)
        if (result === input) return { value: record }
        return {
          value: toPlainValue(
            result,
            kept.length === 0 ? undefined : traced(program, record, timeoutMs),
            kept,
            0,
          ),
        }
      } catch (error) {
        return { error: `${PREFIX}JSONata evaluation failed: ${messageOf(error)}` }
      }
    },
  }
}

/** One unit of the numbers that stand for kept values in a traced evaluation: odd multiples of it are marks. */
const MARK_UNIT = 2 ** -1000

/**
 * The result of evaluating `program` once more on the record with each kept value (a `bigint` or a `RuleDouble`)
 * replaced by a mark of its own, a tiny number no computation on record values is likely to give: where the result
 * holds a mark, the value was moved or copied there unchanged. `undefined` when that evaluation fails (the marks are
 * numbers of another size, so a condition may take another branch): then nothing is given back as it was.
 */
function traced(program: JsonataProgram, record: unknown, timeoutMs: number | undefined): unknown {
  try {
    return program.evaluate(toJsonataValue(record, 0, [], true), timeoutMs)
  } catch {
    return undefined
  }
}

/** The index of the kept value `value` marks, or -1 when it is no mark. */
function markIndex(value: number, count: number): number {
  const odd = value / MARK_UNIT
  if (!Number.isInteger(odd) || odd % 2 !== 1) return -1
  const index = (odd - 1) / 2
  return index < count ? index : -1
}

/**
 * The record as JSONata's input: objects that inherit nothing (JSONata reads a name as `object[name]`, so an
 * ordinary object would answer `constructor` or `toString` from its prototype), a `bigint` as the nearest `number`
 * and a `RuleDouble` as its number, each pushed on `kept`; with `marking`, each of those is its mark instead.
 */
function toJsonataValue(value: unknown, depth: number, kept: unknown[], marking: boolean): unknown {
  if (typeof value !== 'object') {
    if (typeof value !== 'bigint') return value
    kept.push(value)
    return marking ? (2 * kept.length - 1) * MARK_UNIT : Number(value)
  }
  if (value === null || value instanceof Uint8Array) return value
  if (isRuleDouble(value)) {
    kept.push(value)
    return marking ? (2 * kept.length - 1) * MARK_UNIT : value.value
  }
  if (++depth > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
  if (Array.isArray(value)) {
    const list: unknown[] = []
    for (let index = 0; index < value.length; index++)
      list.push(toJsonataValue(value[index], depth, kept, marking))
    return list
  }
  const copy = new DataObject()
  const keys = Object.keys(value)
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!
    copy[key] = toJsonataValue((value as Record<string, unknown>)[key], depth, kept, marking)
  }
  return copy
}

const TWO_63 = 2 ** 63
const MAX_LONG = 2n ** 63n - 1n

/**
 * A number JSONata computed, as the registry's engine gives it back: an integral double beyond ±(2^53 − 1) and
 * within ±2^63 is the long of its exact value (`2^60 + 2` computed in doubles is 1152921504606846976, not the
 * 1152921504606847000 its shortest digits spell), 2^63 itself clamped to 2^63 − 1, as Java's cast to `long`
 * clamps it; every other number stays as it is.
 */
function computedNumber(value: number): number | bigint {
  if (Number.isSafeInteger(value) || !Number.isInteger(value) || Math.abs(value) > TWO_63) return value
  const exact = BigInt(value)
  return exact > MAX_LONG ? MAX_LONG : exact
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message)
  return String(error)
}

/**
 * JSONata's result as plain JSON values (its sequences are arrays with extra properties) of ordinary objects with
 * own data fields (`__proto__` included). `trace` is the traced result (see {@link traced}) walked beside it: where
 * it holds the mark of a kept value and the result holds that value's number, the kept value itself is given back.
 */
function toPlainValue(value: unknown, trace: unknown, kept: readonly unknown[], depth: number): unknown {
  if (typeof value !== 'object') {
    if (typeof value !== 'number') return value
    if (typeof trace !== 'number') return computedNumber(value)
    const index = markIndex(trace, kept.length)
    if (index < 0) return computedNumber(value)
    const original = kept[index]
    return Number(original as number | bigint | RuleDouble) === value ? original : computedNumber(value)
  }
  if (value === null) return value
  if (++depth > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
  if (Array.isArray(value)) {
    const items = Array.isArray(trace) ? trace : undefined
    const list: unknown[] = []
    for (let index = 0; index < value.length; index++)
      list.push(toPlainValue(value[index], items?.[index], kept, depth))
    return list
  }
  const from =
    typeof trace === 'object' && trace !== null && !Array.isArray(trace)
      ? (trace as Record<string, unknown>)
      : undefined
  const plain: Record<string, unknown> = {}
  const keys = Object.keys(value)
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!
    const before = from !== undefined && Object.hasOwn(from, key) ? from[key] : undefined
    setData(plain, key, toPlainValue((value as Record<string, unknown>)[key], before, kept, depth))
  }
  return plain
}
