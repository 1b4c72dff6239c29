/**
 * The schemas last read, by text: a transitive check reads the proposed schema once per existing version, and
 * consecutive checks read the same versions again. Holds at most `limit` entries, dropping the oldest.
 */
export class ParseCache<T> {
  readonly #entries = new Map<string, T>()
  readonly #limit: number

  /** @param limit - How many parsed schemas to keep. */
  constructor(limit: number) {
    this.#limit = limit
  }

  /** The value for `key`, made by `make` when not held. */
  get(key: string, make: () => T): T {
    const held = this.#entries.get(key)
    if (held !== undefined) return held
    const made = make()
    if (this.#entries.size >= this.#limit) {
      const oldest = this.#entries.keys().next()
      if (oldest.done !== true) this.#entries.delete(oldest.value)
    }
    this.#entries.set(key, made)
    return made
  }
}
