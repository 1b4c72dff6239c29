import { type DiffType, isBackwardCompatible } from './diff-types.js'

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
 * Where the comparison is, and the differences it found so far: a root collects all of them, a sub-context adds a
 * step to the path and remembers the references already followed on the way (so recursive schemas end).
 */
export class DiffContext {
  readonly steps: readonly string[]
  readonly visited: Set<string>
  readonly #found: Difference[]

  private constructor(steps: readonly string[], visited: ReadonlySet<string>, found: Difference[]) {
    this.steps = steps
    this.visited = new Set(visited)
    this.#found = found
  }

  /** A new comparison, sharing the references already followed by `parent`. */
  static root(parent?: DiffContext): DiffContext {
    return new DiffContext([], parent?.visited ?? new Set(), [])
  }

  /** A new comparison of its own that shares the references already followed here. */
  rootLike(): DiffContext {
    return DiffContext.root(this)
  }

  /** The context one step (`properties/a`, possibly several path steps) further. */
  sub(step: string): DiffContext {
    return new DiffContext([...this.steps, step], this.visited, this.#found)
  }

  /** Records a difference here. */
  add(type: DiffType, before?: unknown, after?: unknown): void {
    this.#found.push({
      type,
      context: this.steps.map((step) => `/${step}`).join(''),
      steps: this.steps,
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
