import { createRequire } from 'node:module'
import { setData } from './record-data.js'

const require = createRequire(import.meta.url)

/** One compiled JSONata expression, evaluated synchronously. */
export interface JsonataProgram {
  /** Evaluates against `input`; throws an `Error` with JSONata's message on failure. */
  evaluate(input: unknown): unknown
}

/** A JSONata engine: compiles an expression once into a program evaluated many times. */
export interface JsonataEvaluator {
  /** The engine's name. */
  readonly name: string
  /** Parses `expr`; throws an `Error` with JSONata's message when it is not JSONata. */
  compile(expr: string): JsonataProgram
}

/**
 * JSONata 1.8 (`jsonata@1.8.7`), whose `evaluate` returns its result synchronously (2.x returns a promise), so a
 * serializer's synchronous path can run transforms.
 */
export class SyncJsonataEvaluator implements JsonataEvaluator {
  readonly name = 'jsonata@1.8.7'
  readonly #jsonata: typeof import('jsonata')

  /** Loads `jsonata` (synchronously, on first construction: importing this package does not). */
  constructor() {
    this.#jsonata = require('jsonata') as typeof import('jsonata')
  }

  /** Compiles `expr`; its `$merge` sets each field as an own data property, so `__proto__` stays a field. */
  compile(expr: string): JsonataProgram {
    const expression = this.#jsonata(expr)
    expression.registerFunction('merge', mergeOwn, '<a<o>:o>')
    return { evaluate: (input) => expression.evaluate(input) }
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
