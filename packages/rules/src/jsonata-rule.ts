import type { CompiledRule, RuleOutcome } from './compiled-rule.js'
import type { JsonataEvaluator, JsonataProgram } from './jsonata-evaluator.js'
import type { Rule } from './types.js'

const PREFIX = 'JSONata evaluation error: '

/**
 * Compiles a JSONata rule: the record is the expression's input, a `bigint` read as the nearest `number` (JSONata
 * computes in doubles). Where the result holds, at the same place as the record, that nearest number, the `bigint`
 * itself is given back, so a long beyond 2^53 that a transform leaves in place stays exact, as the registry keeps it.
 */
export function compileJsonataRule(rule: Rule, evaluator: JsonataEvaluator): CompiledRule {
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
        return { value: toPlainValue(program.evaluate(toJsonataValue(record)), record) }
      } catch (error) {
        return { error: `${PREFIX}JSONata evaluation failed: ${messageOf(error)}` }
      }
    },
  }
}

function toJsonataValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value)
  if (typeof value !== 'object' || value === null || value instanceof Uint8Array) return value
  if (Array.isArray(value)) return value.map(toJsonataValue)
  let copy: Record<string, unknown> | undefined
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key]
    const converted = toJsonataValue(item)
    if (converted === item) continue
    copy ??= { ...(value as Record<string, unknown>) }
    copy[key] = converted
  }
  return copy ?? value
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message)
  return String(error)
}

/**
 * JSONata's result as plain JSON values (its sequences are arrays with extra properties), with each number that is
 * the nearest double of the `bigint` at the same place in `source` (the record) given back as that `bigint`.
 */
function toPlainValue(value: unknown, source: unknown): unknown {
  if (typeof value === 'number') {
    return typeof source === 'bigint' && Number(source) === value ? source : value
  }
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    const items = Array.isArray(source) ? source : []
    return Array.from(value, (item, index) => toPlainValue(item, items[index]))
  }
  const from =
    typeof source === 'object' && source !== null && !Array.isArray(source)
      ? (source as Record<string, unknown>)
      : {}
  const plain: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    plain[key] = toPlainValue(
      (value as Record<string, unknown>)[key],
      Object.hasOwn(from, key) ? from[key] : undefined,
    )
  }
  return plain
}
