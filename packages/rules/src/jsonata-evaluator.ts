import { createRequire } from 'node:module'

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

  compile(expr: string): JsonataProgram {
    const expression = this.#jsonata(expr)
    return { evaluate: (input) => expression.evaluate(input) }
  }
}
