/**
 * A top-level name an expression reads, with its 0-based offset in the expression. Comprehension variables (`x` in
 * `items.all(x, x > 0)`) are not references.
 */
export interface CelReference {
  /** The identifier. */
  name: string
  /** Its 0-based offset in the expression text. */
  offset: number
}

/** A problem the type check finds before evaluation, at a 0-based offset of the expression. */
export interface CelIssue {
  /** `parse` or `check`: the stage that refuses the expression. */
  stage: 'parse' | 'check'
  /** The checker's words, as the registry's engine writes them. */
  message: string
  /** Its 0-based offset in the expression text. */
  offset: number
}

/**
 * One compiled CEL expression. Values cross in one representation for every engine: `int` as `bigint`, `double`
 * as `number`, `string`, `bool`, `null`, `bytes` as `Uint8Array`, lists as arrays, maps as plain objects.
 */
export interface CelProgram {
  /** The top-level names the expression reads, in source order, each once. */
  readonly references: readonly CelReference[]
  /** What parsing and checking with every variable of type `dyn` found; any issue fails the rule unevaluated. */
  readonly issues: readonly CelIssue[]
  /** Evaluates with the variables given; throws an `Error` whose message is the engine's text on failure. */
  evaluate(variables: Record<string, unknown>): unknown
}

/** A CEL engine: parses an expression once into a program evaluated many times. */
export interface CelEvaluator {
  /** The engine's name, for messages and benchmarks. */
  readonly name: string
  /** Parses `expr`; throws an `Error` with the engine's parse message when it is not CEL. */
  compile(expr: string): CelProgram
}
