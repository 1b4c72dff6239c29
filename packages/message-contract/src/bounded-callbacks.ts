/**
 * How a client's hook is called back for what needs no lookup: at once, as a client's own registry does, unless
 * `max` such callbacks already run inside one another (a client that calls its next hook from inside the callback,
 * as `@platformatic/kafka` does, so that a fetch or a batch of thousands of records would nest thousands of calls
 * deep); then in a microtask, which ends the nesting.
 */
export class BoundedCallbacks {
  readonly #max: number
  /** How many callbacks run inside one another now. */
  #depth = 0

  /** @param max - How many callbacks may run inside one another before one is deferred. @default 32 */
  constructor(max = 32) {
    this.#max = max
  }

  /** Calls `callback(null)` now, or in a microtask when `max` callbacks already run inside one another. */
  call(callback: (error: null) => void): void {
    if (this.#depth >= this.#max) {
      queueMicrotask(() => callback(null))
      return
    }
    this.#depth++
    try {
      callback(null)
    } finally {
      this.#depth--
    }
  }
}
