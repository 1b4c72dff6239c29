/**
 * The errors of consumed payloads found unreadable before their read (a client that looks every record of a fetch up
 * first, then reads them synchronously): kept by the payload's bytes until its read throws it. Until one is kept, a
 * read asks nothing ({@link errorOf} is one field check).
 */
export class PoisonRecords {
  readonly #errors = new WeakMap<object, unknown>()
  #any = false

  /** Keeps why `payload` cannot be read. */
  add(payload: object, error: unknown): void {
    this.#errors.set(payload, error)
    this.#any = true
  }

  /** Why `payload` cannot be read, when that was found before; else `undefined`. */
  errorOf(payload: object): unknown {
    return this.#any ? this.#errors.get(payload) : undefined
  }
}
