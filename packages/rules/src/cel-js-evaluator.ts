import { type ASTNode, Environment } from '@marcbachmann/cel-js'
import type { CelEvaluator, CelProgram, CelReference } from './cel-evaluator.js'

/** Macros whose first argument names a variable bound inside the call. */
const BINDING_MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter'])

/**
 * The CEL engine `@marcbachmann/cel-js`: variables not declared are read as `dyn`, and list and map literals may
 * mix types, as `dyn` values do in the registry's engine.
 */
export class CelJsEvaluator implements CelEvaluator {
  readonly name = '@marcbachmann/cel-js'
  #env = new Environment({ unlistedVariablesAreDyn: true, homogeneousAggregateLiterals: false })

  compile(expr: string): CelProgram {
    const parsed = this.#env.parse(expr)
    const references: CelReference[] = []
    collectReferences(parsed.ast, new Set(), references)
    return { references, evaluate: (variables) => parsed(variables) }
  }
}

function collectReferences(node: ASTNode, bound: ReadonlySet<string>, into: CelReference[]): void {
  switch (node.op) {
    case 'value':
      return
    case 'id':
      if (!bound.has(node.args) && !into.some((reference) => reference.name === node.args)) {
        into.push({ name: node.args, offset: node.start })
      }
      return
    case '.':
    case '.?':
      collectReferences(node.args[0], bound, into)
      return
    case 'call':
      for (const arg of node.args[1]) collectReferences(arg, bound, into)
      return
    case 'rcall': {
      const [name, target, args] = node.args
      collectReferences(target, bound, into)
      const first = args[0]
      if (BINDING_MACROS.has(name) && first?.op === 'id') {
        const inner = new Set(bound).add(first.args)
        for (const arg of args.slice(1)) collectReferences(arg, inner, into)
        return
      }
      for (const arg of args) collectReferences(arg, bound, into)
      return
    }
    case 'list':
      for (const item of node.args) collectReferences(item, bound, into)
      return
    case 'map':
      for (const [key, value] of node.args) {
        collectReferences(key, bound, into)
        collectReferences(value, bound, into)
      }
      return
    case '!_':
    case '-_':
      collectReferences(node.args, bound, into)
      return
    default:
      for (const arg of node.args as ASTNode[]) collectReferences(arg, bound, into)
  }
}
