import { createRequire } from 'node:module'
import type { ASTNode, Environment } from '@marcbachmann/cel-js'
import type { CelEvaluator, CelIssue, CelProgram, CelReference } from './cel-evaluator.js'
import { compileRe2 } from './re2-pattern.js'

const require = createRequire(import.meta.url)

/** Macros whose first argument names a variable bound inside the call. */
const BINDING_MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter'])

/** Type names that are identifiers in CEL, never record fields. */
const TYPE_NAMES = new Set([
  'int',
  'uint',
  'double',
  'string',
  'bool',
  'bytes',
  'list',
  'map',
  'null_type',
  'type',
])

/** Functions of CEL's extension libraries that the registry's engine does not declare. */
const EXTENSION_FUNCTIONS = new Set([
  'lowerAscii',
  'upperAscii',
  'trim',
  'replace',
  'split',
  'join',
  'indexOf',
  'lastIndexOf',
  'substring',
  'charAt',
  'format',
  'quote',
  'reverse',
])

/**
 * The name `string.matches` is evaluated under: the engine's own `matches` runs a JavaScript `RegExp`, which can
 * take time exponential in the text; this one runs RE2, as CEL specifies.
 */
const RE2_MATCHES = 'matchesRe2'

/** CEL's `matches`: whether RE2 `pattern` matches somewhere in `text`, in time linear in the text. */
function re2Matches(text: string, pattern: string): boolean {
  return compileRe2(pattern, 0).test(text)
}

const NUMERIC_OR_SCALAR = new Set(['int', 'uint', 'double', 'string', 'bool', 'bytes'])
const OPERATOR_NAMES: Record<string, string> = {
  '+': '_+_',
  '-': '_-_',
  '*': '_*_',
  '/': '_/_',
  '%': '_%_',
  '<': '_<_',
  '<=': '_<=_',
  '>': '_>_',
  '>=': '_>=_',
  '==': '_==_',
  '!=': '_!=_',
}

/**
 * The CEL engine `@marcbachmann/cel-js`: variables not declared are read as `dyn`, and list and map literals may
 * mix types, as `dyn` values do in the registry's engine. The registry's checker is followed where it is stricter:
 * an operator between two statically known, different types, the string extension functions and `has()` of a
 * plain name are refused before evaluation.
 */
export class CelJsEvaluator implements CelEvaluator {
  readonly name = '@marcbachmann/cel-js'
  #env: Environment

  /** Loads `@marcbachmann/cel-js` (synchronously, on first construction: importing this package does not). */
  constructor() {
    const cel = require('@marcbachmann/cel-js') as typeof import('@marcbachmann/cel-js')
    this.#env = new cel.Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false })
      .registerFunction(`string.${RE2_MATCHES}(string): bool`, re2Matches)
      .registerFunction('matches(string, string): bool', re2Matches)
  }

  /**
   * Parses `expr`. `matches` (function and method) is evaluated with RE2 semantics in linear time; a constant
   * pattern that is not RE2 syntax (a backreference, a lookaround) is an issue found before evaluation.
   */
  compile(expr: string): CelProgram {
    const parsed = this.#env.parse(expr)
    const walker = new Walker(expr)
    walker.visit(parsed.ast, new Set())
    return {
      references: walker.references,
      issues: walker.issues,
      evaluate(variables) {
        try {
          return parsed(variables)
        } catch (error) {
          throw error instanceof Error && error.message.includes(RE2_MATCHES)
            ? new Error(error.message.replaceAll(RE2_MATCHES, 'matches'))
            : error
        }
      },
    }
  }
}

class Walker {
  readonly references: CelReference[] = []
  readonly issues: CelIssue[] = []
  readonly #expr: string

  constructor(expr: string) {
    this.#expr = expr
  }

  /** Collects references and issues under `node`; returns its static type (`dyn` when not known). */
  visit(node: ASTNode, bound: ReadonlySet<string>): string {
    switch (node.op) {
      case 'value':
        return literalType(node.args)
      case 'id':
        if (
          !bound.has(node.args) &&
          !TYPE_NAMES.has(node.args) &&
          !this.references.some((r) => r.name === node.args)
        ) {
          this.references.push({ name: node.args, offset: node.start })
        }
        return 'dyn'
      case '.':
      case '.?':
        this.visit(node.args[0], bound)
        return 'dyn'
      case 'call': {
        const [name, args] = node.args
        if (name === 'matches' && args.length === 2) this.#pattern(args[1]!)
        if (name === 'has' && args[0]?.op !== '.') {
          const offset = this.#expr.indexOf('(', node.start)
          this.issues.push({ stage: 'parse', message: 'invalid argument to has() macro', offset })
        }
        for (const arg of args) this.visit(arg, bound)
        return name === 'size' ? 'int' : TYPE_NAMES.has(name) && NUMERIC_OR_SCALAR.has(name) ? name : 'dyn'
      }
      case 'rcall': {
        const [name, target, args] = node.args
        if (name === 'matches' && args.length === 1) {
          node.args[0] = RE2_MATCHES
          this.#pattern(args[0]!)
        }
        this.visit(target, bound)
        if (EXTENSION_FUNCTIONS.has(name)) {
          const offset = this.#expr.indexOf(`${name}(`, target.end) + name.length
          this.issues.push({
            stage: 'check',
            message: `undeclared reference to '${name}' (in container '')`,
            offset,
          })
        }
        const first = args[0]
        if (BINDING_MACROS.has(name) && first?.op === 'id') {
          const inner = new Set(bound).add(first.args)
          for (const arg of args.slice(1)) this.visit(arg, inner)
        } else {
          for (const arg of args) this.visit(arg, bound)
        }
        if (name === 'size') return 'int'
        return name === 'all' || name === 'exists' || name === 'exists_one' ? 'bool' : 'dyn'
      }
      case 'list':
        for (const item of node.args) this.visit(item, bound)
        return 'list'
      case 'map':
        for (const [key, value] of node.args) {
          this.visit(key, bound)
          this.visit(value, bound)
        }
        return 'map'
      case '!_':
        this.visit(node.args, bound)
        return 'bool'
      case '-_':
        return this.visit(node.args, bound)
      case '&&':
      case '||':
      case 'in':
        this.visit(node.args[0], bound)
        this.visit(node.args[1], bound)
        return 'bool'
      case '?:':
        for (const arg of node.args) this.visit(arg, bound)
        return 'dyn'
      case '[]':
      case '[?]':
        this.visit(node.args[0], bound)
        this.visit(node.args[1], bound)
        return 'dyn'
      default:
        return this.#binary(node, bound)
    }
  }

  /** A constant pattern of `matches` compiled now: one RE2 does not take is an issue. */
  #pattern(node: ASTNode): void {
    if (node.op !== 'value' || typeof node.args !== 'string') return
    try {
      compileRe2(node.args, 0)
    } catch (error) {
      this.issues.push({ stage: 'check', message: (error as Error).message, offset: node.start })
    }
  }

  #binary(node: ASTNode, bound: ReadonlySet<string>): string {
    const [left, right] = node.args as [ASTNode, ASTNode]
    const leftType = this.visit(left, bound)
    const rightType = this.visit(right, bound)
    const arithmetic = ['+', '-', '*', '/', '%'].includes(node.op)
    if (NUMERIC_OR_SCALAR.has(leftType) && NUMERIC_OR_SCALAR.has(rightType) && leftType !== rightType) {
      const offset = this.#expr.indexOf(node.op, left.end)
      const name = OPERATOR_NAMES[node.op] ?? node.op
      this.issues.push({
        stage: 'check',
        message: `found no matching overload for '${name}' applied to '(${leftType}, ${rightType})'`,
        offset,
      })
      return arithmetic ? 'dyn' : 'bool'
    }
    if (!arithmetic) return 'bool'
    return leftType === 'dyn' ? rightType : leftType
  }
}

function literalType(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return 'int'
    case 'number':
      return 'double'
    case 'string':
      return 'string'
    case 'boolean':
      return 'bool'
    case 'object':
      if (value === null) return 'null_type'
      if (value instanceof Uint8Array) return 'bytes'
      return 'uint'
    default:
      return 'dyn'
  }
}
