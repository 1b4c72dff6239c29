import jsonata from 'jsonata'

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

  compile(expr: string): JsonataProgram {
    const expression = jsonata(expr)
    return { evaluate: (input) => expression.evaluate(input) }
  }
}
