import type { CelEvaluator, CelIssue, CelProgram, CelReference } from './cel-evaluator.js'
import { fromCelValue, toCelValue } from './cel-values.js'
import type { CompiledRule, RuleOutcome } from './compiled-rule.js'
import { setData } from './record-data.js'
import type { Rule } from './types.js'

const PREFIX = 'CEL evaluation error: '

/** A comprehension macro call: an expression with two or more may loop over a list for each item of another. */
const COMPREHENSION = /\.\s*(?:all|exists|exists_one|map|filter)\s*\(/g

/** The outcomes of a condition that holds or not, shared: a message passing a condition allocates none. */
const TRUE: RuleOutcome = Object.freeze({ value: true })
const FALSE: RuleOutcome = Object.freeze({ value: false })

/**
 * Compiles a CEL rule read in Apicurio's dialect: each top-level field of the record is a variable of type `dyn`,
 * a name that is not a field is a compile error (reported with the registry's wording), and an evaluation error is
 * the rule's failure, whatever the engine throws (a record nested too deep included). An empty (or blank) expression
 * passes every record, as the registry passes it. An expression with nested comprehensions (a loop over a list for
 * each item of another) runs within `timeoutMs`: the clock is read each time it reads a field of the record, and
 * past the budget the rule fails (no limit when `undefined`).
 */
export function compileCelRule(
  rule: Rule,
  evaluator: CelEvaluator,
  timeoutMs: number | undefined,
): CompiledRule {
  const expr = rule.expr ?? ''
  // the registry passes a rule with no expression, whatever the record
  if (expr.trim() === '') return { rule, run: () => TRUE, fields: [] }
  let program: CelProgram
  try {
    program = evaluator.compile(expr)
  } catch (error) {
    const outcome: RuleOutcome = {
      error: `${PREFIX}CEL compilation failed: parse failed: ${messageOf(error)}`,
    }
    return { rule, run: () => outcome, fields: [] }
  }
  const references = program.references
  const parseIssue = program.issues.find((issue) => issue.stage === 'parse')
  if (parseIssue !== undefined) {
    const outcome: RuleOutcome = {
      error: `${PREFIX}CEL compilation failed: parse failed: ${located(expr, parseIssue.message, parseIssue.offset)}`,
    }
    return { rule, run: () => outcome, fields: [] }
  }
  const checkIssues = program.issues
  const budget =
    timeoutMs !== undefined && (expr.match(COMPREHENSION)?.length ?? 0) >= 2 ? timeoutMs : undefined
  return {
    rule,
    fields: references.map((reference) => reference.name),
    run(record) {
      let undeclared: CelReference[] | undefined
      for (const reference of references) {
        if (!Object.hasOwn(record, reference.name)) {
          undeclared ??= []
          undeclared.push(reference)
        }
      }
      if (undeclared !== undefined || checkIssues.length > 0)
        return { error: checkMessage(expr, undeclared ?? [], checkIssues) }
      try {
        const variables: Record<string, unknown> = {}
        for (const { name } of references) setData(variables, name, toCelValue(record[name], 1))
        if (budget !== undefined) timed(variables, performance.now() + budget, budget)
        const value = program.evaluate(variables)
        if (value === true) return TRUE
        if (value === false) return FALSE
        return { value: fromCelValue(value, 0) }
      } catch (error) {
        return { error: `${PREFIX}CEL evaluation failed: ${messageOf(error)}` }
      }
    },
  }
}

/**
 * Turns each field of `variables` into a getter that reads the clock: past `deadline`, reading one throws an `Error`
 * saying the expression ran out of its budget (a comprehension reads the record's fields as it loops).
 */
function timed(variables: Record<string, unknown>, deadline: number, timeoutMs: number): void {
  for (const name of Object.keys(variables)) {
    const value = variables[name]
    Object.defineProperty(variables, name, {
      enumerable: true,
      get() {
        if (performance.now() > deadline) {
          throw new Error(
            `The expression ran out of its evaluation budget: it ran longer than ${timeoutMs} ms`,
          )
        }
        return value
      },
    })
  }
}

/** The registry's check error: one paragraph per issue, names that are not fields of the record included. */
function checkMessage(
  expr: string,
  undeclared: readonly CelReference[],
  issues: readonly CelIssue[],
): string {
  const all = [
    ...undeclared.map(({ name, offset }) => ({
      message: `undeclared reference to '${name}' (in container '')`,
      offset,
    })),
    ...issues,
  ].sort((a, b) => a.offset - b.offset)
  const paragraphs = all.map(({ message, offset }) => located(expr, message, offset))
  return `${PREFIX}CEL compilation failed: check failed: ${paragraphs.join('\n')}`
}

/** `ERROR: <input>:line:column: message`, the line, and a caret under the column, as cel-go formats them. */
function located(expr: string, message: string, offset: number): string {
  const before = expr.slice(0, offset)
  const line = before.split('\n').length
  const lineStart = before.lastIndexOf('\n') + 1
  const column = offset - lineStart + 1
  const lineText = expr.slice(lineStart).split('\n')[0]
  return `ERROR: <input>:${line}:${column}: ${message}\n | ${lineText}\n | ${'.'.repeat(column - 1)}^`
}

function messageOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error)
}
