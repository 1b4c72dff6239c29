/**
 * How deep brackets (`(`, `[`, `{`) may nest in a JSONata expression: a deeper one is refused before it is parsed,
 * so compiling takes little time and stack. Real expressions nest a few levels.
 */
export const MAX_JSONATA_NESTING = 100

/**
 * How deep a JSONata evaluation may nest (each step inside another, a function calling another included): deeper,
 * the rule fails, well before JavaScript's stack would overflow.
 */
export const MAX_JSONATA_DEPTH = 500

/** The most items a JSONata range (`[a..b]`) may hold: a larger one fails the rule before it is built. */
export const MAX_JSONATA_RANGE = 100_000

/** How many evaluation steps run between two looks at the clock. */
const STEPS_PER_CHECK = 16

/** The mark on the operands of a range, set when the range is met. */
const RANGE_LOW = Symbol('range low')
const RANGE_HIGH = Symbol('range high')

/** A JSONata AST node as the evaluation hooks see it. */
interface Node {
  type?: string
  value?: unknown
  lhs?: Node
  rhs?: Node
  [RANGE_LOW]?: true
  [RANGE_HIGH]?: true
}

/** A step's result as its parent sees it: a sequence of one value is that value. */
function single(result: unknown): unknown {
  return Array.isArray(result) && result.length === 1 ? result[0] : result
}

/** Why an evaluation was stopped: it went past its budget of time, depth or range size. */
export class BudgetExceeded extends Error {
  override name = 'BudgetExceeded'
}

/**
 * `expr` refused when its brackets nest deeper than {@link MAX_JSONATA_NESTING} (strings and escaped characters
 * are skipped).
 * @throws Error saying how deep it nests.
 */
export function checkNesting(expr: string): void {
  let depth = 0
  for (let index = 0; index < expr.length; index++) {
    const char = expr.charCodeAt(index)
    if (char === 0x28 || char === 0x5b || char === 0x7b) {
      if (++depth > MAX_JSONATA_NESTING) {
        throw new Error(
          `The expression nests brackets deeper than ${MAX_JSONATA_NESTING} levels (at offset ${index}), more than a rule may`,
        )
      }
    } else if (char === 0x29 || char === 0x5d || char === 0x7d) {
      depth--
    } else if (char === 0x5c) {
      index++
    } else if (char === 0x22 || char === 0x27) {
      // a string: up to its closing quote, escapes skipped
      for (index++; index < expr.length && expr.charCodeAt(index) !== char; index++) {
        if (expr.charCodeAt(index) === 0x5c) index++
      }
    }
  }
}

/**
 * The budget of one JSONata program's evaluations, enforced by JSONata's per-step hooks: a time limit (the clock is
 * read every few steps), a depth limit and a range-size limit. `start` before each evaluation.
 */
export class EvaluationGuard {
  #deadline = Number.POSITIVE_INFINITY
  #timeoutMs: number | undefined
  #steps = 0
  #depth = 0
  #lows: unknown[] = []
  /** Why the last evaluation was stopped, or `undefined`. */
  stopped: BudgetExceeded | undefined

  /** Starts an evaluation that may run `timeoutMs` (no limit when `undefined`). */
  start(timeoutMs: number | undefined): void {
    this.#timeoutMs = timeoutMs
    this.#deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + timeoutMs
    this.#steps = 0
    this.#depth = 0
    this.#lows.length = 0
    this.stopped = undefined
  }

  /** JSONata's `__evaluate_entry` hook: called as each step starts. */
  readonly entry = (node: Node): void => {
    if (++this.#depth > MAX_JSONATA_DEPTH) {
      this.#stop(`its evaluation nests deeper than ${MAX_JSONATA_DEPTH} levels`)
    }
    if (++this.#steps % STEPS_PER_CHECK === 0 && performance.now() > this.#deadline) {
      this.#stop(`it ran longer than ${this.#timeoutMs} ms`)
    }
    if (node.value === '..' && node.type === 'binary') {
      node.lhs![RANGE_LOW] = true
      node.rhs![RANGE_HIGH] = true
    }
  }

  /** JSONata's `__evaluate_exit` hook: called as each step ends, with its result. */
  readonly exit = (node: Node, _input: unknown, _environment: unknown, result: unknown): void => {
    this.#depth--
    if (node[RANGE_LOW] === true) this.#lows.push(single(result))
    if (node[RANGE_HIGH] === true) {
      const low = this.#lows.pop()
      const high = single(result)
      if (typeof low === 'number' && typeof high === 'number' && high - low + 1 > MAX_JSONATA_RANGE) {
        this.#stop(`the range [${low}..${high}] holds more than ${MAX_JSONATA_RANGE} items`)
      }
    }
  }

  #stop(reason: string): never {
    this.stopped = new BudgetExceeded(`The expression ran out of its evaluation budget: ${reason}`)
    throw this.stopped
  }
}
