import type { CompiledRule, RuleOutcome } from './compiled-rule.js'
import type { JsonataEvaluator, JsonataProgram } from './jsonata-evaluator.js'
import type { Rule } from './types.js'

const PREFIX = 'JSONata evaluation error: '

/** Compiles a JSONata rule: the record is the expression's input, a `bigint` read as the nearest `number`. */
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
        return { value: toPlainValue(program.evaluate(toJsonataValue(record))) }
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

/** JSONata's result as plain JSON values: its sequences are arrays with extra properties. */
function toPlainValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return Array.from(value, toPlainValue)
  const plain: Record<string, unknown> = {}
  for (const key of Object.keys(value)) plain[key] = toPlainValue((value as Record<string, unknown>)[key])
  return plain
}
