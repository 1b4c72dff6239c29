import { MAX_SCHEMA_DEPTH, schemasTooDeep } from '../nesting.js'
import { type DiffType, isBackwardCompatible } from './diff-types.js'
import { SchemaLoadError } from './load-schema.js'

/** One difference found: its kind, where in the new schema (Apicurio's context) and what changed. */
export interface Difference {
  readonly type: DiffType
  /** Apicurio's context: the steps to the difference, `/properties/a/required`. */
  readonly context: string
  /** The same steps, one string each. */
  readonly steps: readonly string[]
  /** What the old schema had there, in words, when it is one value. */
  readonly before?: string | undefined
  /** What the new schema has there. */
  readonly after?: string | undefined
}

/**
 * How many steps one comparison may take, references followed. References that branch into one another
 * (`{"properties": {"a": {"$ref": "#"}, "b": {"$ref": "#"}, …}}`) are followed along every order of them, so a
 * schema of a few hundred bytes would otherwise keep the comparison going for hours: past this many steps it is
 * refused as unreadable.
 */
export const MAX_COMPARISON_STEPS = 1_000_000

/** The steps a comparison has left, shared by all its contexts. */
interface StepBudget {
  left: number
}

/**
 * Where the comparison is, and the differences it found so far: a root collects all of them, a sub-context adds a
 * step to the path and knows the references already followed on the way (so recursive schemas end).
 */
export class DiffContext {
  /** The references followed on the way here, by the location of their `$ref`. */
  readonly visited: ReadonlySet<string>
  readonly #parent: DiffContext | undefined
  readonly #step: string | undefined
  readonly #found: Difference[]
  /** How many steps from the first root, through the comparisons of their own made on the way. */
  readonly #depth: number
  readonly #budget: StepBudget

  private constructor(
    parent: DiffContext | undefined,
    step: string | undefined,
    visited: ReadonlySet<string>,
    found: Difference[],
    depth: number,
    budget: StepBudget,
  ) {
    // every step is a step into both schemas: a deeper comparison would exhaust the stack
    if (depth > MAX_SCHEMA_DEPTH) throw new SchemaLoadError(schemasTooDeep('The comparison'))
    if (--budget.left < 0)
      throw new SchemaLoadError(
        `The comparison takes more than ${MAX_COMPARISON_STEPS} steps (references that branch into one another)`,
      )
    this.#budget = budget
    this.#parent = parent
    this.#step = step
    this.visited = visited
    this.#found = found
    this.#depth = depth
  }

  /** A new comparison. */
  static root(): DiffContext {
    return new DiffContext(undefined, undefined, new Set(), [], 0, { left: MAX_COMPARISON_STEPS })
  }

  /** A new comparison of its own that shares the references already followed here. */
  rootLike(): DiffContext {
    return new DiffContext(undefined, undefined, this.visited, [], this.#depth + 1, this.#budget)
  }

  /** The context one step (`properties/a`, possibly several path steps) further. */
  sub(step: string): DiffContext {
    return new DiffContext(this, step, this.visited, this.#found, this.#depth + 1, this.#budget)
  }

  /** The context one step further, the reference at `location` followed on the way. */
  following(location: string, step: string): DiffContext {
    return new DiffContext(
      this,
      step,
      new Set(this.visited).add(location),
      this.#found,
      this.#depth + 1,
      this.#budget,
    )
  }

  /** The steps from the root to here. */
  get steps(): string[] {
    const steps: string[] = []
    let at: DiffContext | undefined = this
    while (at !== undefined && at.#step !== undefined) {
      steps.push(at.#step)
      at = at.#parent
    }
    return steps.reverse()
  }

  /** Records a difference here. */
  add(type: DiffType, before?: unknown, after?: unknown): void {
    const steps = this.steps
    this.#found.push({
      type,
      context: steps.map((step) => `/${step}`).join(''),
      steps,
      before: describe(before),
      after: describe(after),
    })
  }

  /** Every difference recorded in this comparison. */
  get differences(): readonly Difference[] {
    return this.#found
  }

  /** Whether no difference recorded so far breaks backward compatibility. */
  allCompatible(): boolean {
    return this.#found.every((found) => isBackwardCompatible(found.type))
  }
}

function describe(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value)
  return undefined
}
