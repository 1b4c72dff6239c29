import type { CompiledRule, RuleOutcome } from './compiled-rule.js'
import type { JsonataEvaluator, JsonataProgram } from './jsonata-evaluator.js'
import { DataObject, MAX_RECORD_DEPTH, RecordTooDeepError, setData } from './record-data.js'
import type { Rule } from './types.js'

const PREFIX = 'JSONata evaluation error: '

/**
 * Compiles a JSONata rule: the record is the expression's input, a `bigint` read as the nearest `number` (JSONata
 * computes in doubles), its objects inheriting nothing, so a name the record does not hold is absent whatever it is
 * (`constructor`, `toString`, `__proto__`). Whatever the evaluation throws (a record nested too deep included) is
 * the rule's failure. Where the result holds, at the same place as the record, that nearest number, the `bigint`
 * itself is given back, so a long beyond 2^53 that a transform leaves in place stays exact, as the registry keeps it.
 * An evaluation running longer than `timeoutMs` is stopped and fails the rule (no limit when `undefined`).
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
        return { value: toPlainValue(program.evaluate(toJsonataValue(record, 0), timeoutMs), record, 0) }
      } catch (error) {
        return { error: `${PREFIX}JSONata evaluation failed: ${messageOf(error)}` }
      }
    },
  }
}

/**
 * The record as JSONata's input: objects that inherit nothing (JSONata reads a name as `object[name]`, so an
 * ordinary object would answer `constructor` or `toString` from its prototype), a `bigint` as the nearest `number`.
 */
function toJsonataValue(value: unknown, depth: number): unknown {
  if (typeof value !== 'object') return typeof value === 'bigint' ? Number(value) : value
  if (value === null || value instanceof Uint8Array) return value
  if (++depth > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
  if (Array.isArray(value)) {
    const list: unknown[] = []
    for (let index = 0; index < value.length; index++) list.push(toJsonataValue(value[index], depth))
    return list
  }
  const copy = new DataObject()
  const keys = Object.keys(value)
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!
    copy[key] = toJsonataValue((value as Record<string, unknown>)[key], depth)
  }
  return copy
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message)
  return String(error)
}

/**
 * JSONata's result as plain JSON values (its sequences are arrays with extra properties) of ordinary objects with
 * own data fields (`__proto__` included), with each number that is the nearest double of the `bigint` at the same
 * place in `source` (the record) given back as that `bigint`.
 */
function toPlainValue(value: unknown, source: unknown, depth: number): unknown {
  if (typeof value !== 'object') {
    return typeof value === 'number' && typeof source === 'bigint' && Number(source) === value
      ? source
      : value
  }
  if (value === null) return value
  if (++depth > MAX_RECORD_DEPTH) throw new RecordTooDeepError()
  if (Array.isArray(value)) {
    const items = Array.isArray(source) ? source : undefined
    const list: unknown[] = []
    for (let index = 0; index < value.length; index++)
      list.push(toPlainValue(value[index], items?.[index], depth))
    return list
  }
  const from =
    typeof source === 'object' && source !== null && !Array.isArray(source)
      ? (source as Record<string, unknown>)
      : undefined
  const plain: Record<string, unknown> = {}
  const keys = Object.keys(value)
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!
    const before = from !== undefined && Object.hasOwn(from, key) ? from[key] : undefined
    setData(plain, key, toPlainValue((value as Record<string, unknown>)[key], before, depth))
  }
  return plain
}
