import { createRequire } from 'node:module'
import { checkNesting, EvaluationGuard } from './jsonata-guard.js'
import { Re2RegExp, re2Of } from './jsonata-regex.js'
import { setData } from './record-data.js'

const require = createRequire(import.meta.url)

/** One compiled JSONata expression, evaluated synchronously. */
export interface JsonataProgram {
  /**
   * Evaluates against `input`; throws an `Error` with JSONata's message on failure. With `timeoutMs`, an evaluation
   * still running after that many milliseconds is stopped with an `Error` saying it ran out of its budget.
   */
  evaluate(input: unknown, timeoutMs?: number): unknown
}

/** A JSONata engine: compiles an expression once into a program evaluated many times. */
export interface JsonataEvaluator {
  /** The engine's name. */
  readonly name: string
  /** Parses `expr`; throws an `Error` with JSONata's message when it is not JSONata. */
  compile(expr: string): JsonataProgram
}

/** The `jsonata` module: a function, whose `RegexEngine` its evaluations construct regular expressions with. */
type JsonataModule = typeof import('jsonata') & { RegexEngine: unknown }

/** A JSONata AST node, as walked to check its regular expressions. */
interface AstNode {
  type?: unknown
  value?: unknown
}

/**
 * JSONata 1.8 (`jsonata@1.8.7`), whose `evaluate` returns its result synchronously (2.x returns a promise), so a
 * serializer's synchronous path can run transforms. Bounded, so that no expression holds the event loop for long:
 * - compiling refuses brackets nested deeper than 100 levels;
 * - an evaluation stops past its time budget (`timeoutMs`), past 500 nested steps (a runaway recursion), and before
 *   building a range of more than 100 000 items;
 * - regular expressions (`/pattern/flags`) run with RE2 semantics, in time linear in the text: a pattern with a
 *   backreference or a lookaround is refused when compiled.
 */
export class SyncJsonataEvaluator implements JsonataEvaluator {
  readonly name = 'jsonata@1.8.7'
  readonly #jsonata: JsonataModule

  /** Loads `jsonata` (synchronously, on first construction: importing this package does not). */
  constructor() {
    this.#jsonata = require('jsonata') as JsonataModule
  }

  /** Compiles `expr`; its `$merge` sets each field as an own data property, so `__proto__` stays a field. */
  compile(expr: string): JsonataProgram {
    checkNesting(expr)
    const expression = this.#jsonata(expr)
    checkRegexes(expression.ast())
    expression.registerFunction('merge', mergeOwn, '<a<o>:o>')
    const guard = new EvaluationGuard()
    expression.assign('__evaluate_entry', guard.entry)
    expression.assign('__evaluate_exit', guard.exit)
    const module = this.#jsonata
    return {
      evaluate(input, timeoutMs) {
        // JSONata constructs regular expressions with its module's RegexEngine: RE2 for this evaluation only
        const regexEngine = module.RegexEngine
        module.RegexEngine = Re2RegExp
        guard.start(timeoutMs)
        try {
          return expression.evaluate(input)
        } catch (error) {
          // a stop inside $eval comes wrapped in $eval's error
          throw guard.stopped ?? error
        } finally {
          module.RegexEngine = regexEngine
        }
      },
    }
  }
}

/**
 * Compiles each regular expression of the AST with RE2.
 * @throws Error when one is not RE2 syntax.
 */
function checkRegexes(ast: unknown): void {
  const seen = new Set<unknown>()
  const pending: unknown[] = [ast]
  while (pending.length > 0) {
    const node = pending.pop()
    if (typeof node !== 'object' || node === null || seen.has(node) || node instanceof RegExp) continue
    seen.add(node)
    if ((node as AstNode).type === 'regex' && (node as AstNode).value instanceof RegExp) {
      re2Of((node as AstNode).value as RegExp)
    }
    for (const value of Object.values(node)) if (typeof value === 'object') pending.push(value)
  }
}

/**
 * JSONata's `$merge` (the objects' fields in order, a later object's field replacing an earlier one's), with each
 * field set as an own data property: JSONata's own assigns them, so a field named `__proto__` would be dropped and
 * would set the merged object's prototype instead.
 */
function mergeOwn(
  objects: readonly Record<string, unknown>[] | undefined,
): Record<string, unknown> | undefined {
  if (objects === undefined) return undefined
  const merged: Record<string, unknown> = {}
  for (const object of objects) {
    for (const key in object) setData(merged, key, object[key])
  }
  return merged
}
