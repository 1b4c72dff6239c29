import type { CelEvaluator, CelProgram, CelReference } from './cel-evaluator.js'
import { fromCelValue, toCelValue } from './cel-values.js'
import type { CompiledRule, RuleOutcome } from './compiled-rule.js'
import type { Rule } from './types.js'

const PREFIX = 'CEL evaluation error: '

/**
 * Compiles a CEL rule read in Apicurio's dialect: each top-level field of the record is a variable of type `dyn`,
 * a name that is not a field is a compile error (reported with the registry's wording), and an evaluation error is
 * the rule's failure.
 */
export function compileCelRule(rule: Rule, evaluator: CelEvaluator): CompiledRule {
  const expr = rule.expr ?? ''
  let program: CelProgram
  try {
    program = evaluator.compile(expr)
  } catch (error) {
    const outcome: RuleOutcome = {
      error: `${PREFIX}CEL compilation failed: parse failed: ${messageOf(error)}`,
    }
    return { rule, run: () => outcome }
  }
  const references = program.references
  return {
    rule,
    run(record) {
      const variables: Record<string, unknown> = {}
      let undeclared: CelReference[] | undefined
      for (const reference of references) {
        if (Object.hasOwn(record, reference.name))
          variables[reference.name] = toCelValue(record[reference.name])
        else {
          undeclared ??= []
          undeclared.push(reference)
        }
      }
      if (undeclared !== undefined) return { error: undeclaredMessage(expr, undeclared) }
      try {
        return { value: fromCelValue(program.evaluate(variables)) }
      } catch (error) {
        return { error: `${PREFIX}CEL evaluation failed: ${messageOf(error)}` }
      }
    },
  }
}

/** The registry's check error for names that are not fields of the record, one paragraph per name. */
function undeclaredMessage(expr: string, references: readonly CelReference[]): string {
  const paragraphs = references.map(({ name, offset }) => {
    const before = expr.slice(0, offset)
    const line = before.split('\n').length
    const lineStart = before.lastIndexOf('\n') + 1
    const column = offset - lineStart + 1
    const lineText = expr.slice(lineStart).split('\n')[0]
    return `ERROR: <input>:${line}:${column}: undeclared reference to '${name}' (in container '')\n | ${lineText}\n | ${'.'.repeat(column - 1)}^`
  })
  return `${PREFIX}CEL compilation failed: check failed: ${paragraphs.join('\n')}`
}

function messageOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error)
}
