/**
 * @internal One load per key at a time: concurrent callers of a key share one promise, and a settled load is
 * forgotten at once (a failure is not kept: the next caller tries again). The serde's caches use it for writer
 * schemas by id and latest versions by artifact.
 *
 * Single flight is written three times in the project, on purpose: `@x/registry-client`'s `SingleFlightCache` also
 * aborts a shared request when every caller gave up, which the serde never needs; `@x/idp-auth` shares one token
 * request and may not depend on this package (it stands on `@x/errors` alone).
 */
export class SingleFlight<K, V> {
  readonly #pending = new Map<K, Promise<V>>()

  /** The promise of the load of `key` under way, or of a new one started with `load`. */
  run(key: K, load: () => Promise<V>): Promise<V> {
    let pending = this.#pending.get(key)
    if (pending === undefined) {
      pending = load().finally(() => this.#pending.delete(key))
      this.#pending.set(key, pending)
    }
    return pending
  }

  /** How many loads are under way. */
  get size(): number {
    return this.#pending.size
  }
}
