/**
 * @internal A small least-recently-used map, bounded like the registry client's caches. A hit on the key read last
 * costs one `Map` lookup and no reordering, so a serializer serving one topic pays nothing for the bookkeeping.
 */
export class Lru<K, V> {
  readonly #max: number
  readonly #map = new Map<K, V>()
  #last: K | undefined

  /** @param max - The most entries kept; the least recently used one is dropped beyond it. */
  constructor(max: number) {
    this.#max = Math.max(1, Math.floor(max))
  }

  /** The value, marking the key as the most recently used. */
  get(key: K): V | undefined {
    const value = this.#map.get(key)
    if (value !== undefined && key !== this.#last) {
      this.#map.delete(key)
      this.#map.set(key, value)
      this.#last = key
    }
    return value
  }

  /** The value, without touching the order. */
  peek(key: K): V | undefined {
    return this.#map.get(key)
  }

  set(key: K, value: V): void {
    this.#map.delete(key)
    this.#map.set(key, value)
    this.#last = key
    if (this.#map.size > this.#max) {
      const oldest = this.#map.keys().next().value as K
      this.#map.delete(oldest)
      if (oldest === this.#last) this.#last = undefined
    }
  }

  delete(key: K): void {
    this.#map.delete(key)
    if (key === this.#last) this.#last = undefined
  }

  values(): IterableIterator<V> {
    return this.#map.values()
  }

  get size(): number {
    return this.#map.size
  }
}
