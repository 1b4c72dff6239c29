import { LRUCache } from 'lru-cache'

/** Longest wait between background refreshes of an entry served stale. */
const DEFAULT_STALE_RETRY_MS = 5_000

interface Entry<V> {
  value: V
  /** Clock time from which the entry is stale; `undefined` never expires. */
  expiresAt: number | undefined
  /** The lifetime it was stored with. */
  ttlMs: number | undefined
  /**
   * Set while the entry is served stale because its refresh failed with an error `serveStaleOn` accepts: the
   * clock time from which the next (background) refresh may start.
   */
  retryAt?: number
  /** Set while a background `refresh` of the expired entry is under way. */
  refreshing?: boolean
}

interface Flight<V> {
  promise: Promise<V>
  controller: AbortController
  /** Callers waiting that may still give up (each with its own signal), plus those that never give up. */
  waiters: number
}

/** Settings of one cache (of values `V` by keys `K`). */
export interface SingleFlightCacheOptions<V = unknown, K = string> {
  /** Most entries kept; the least recently used goes first. */
  max: number
  /**
   * The clock of the expiry times (milliseconds, monotonic).
   * @default performance.now
   */
  now?: () => number
  /**
   * Stale-on-error: when the refresh of an expired entry fails with an error this accepts (the registry is
   * unreachable), the stale value is served instead, to every caller, without waiting, and a refresh is tried in
   * the background at most every `min(ttl, staleRetryMs)` until one succeeds.
   * @default never: an expired entry is refreshed or the caller gets the error
   */
  serveStaleOn?: (error: unknown) => boolean
  /**
   * Longest wait between background refreshes of an entry served stale.
   * @default 5000
   */
  staleRetryMs?: number
  /** Told of every `load`: whether the cache answered it (fresh, or stale while the registry is unreachable). */
  onLookup?: ((hit: boolean) => void) | undefined
  /**
   * Refresh in the background (stale-while-revalidate): an expired entry is still served, by `get` and `load` alike,
   * at once, and one call of `refresh(key, value)` per expiry replaces its value when it succeeds; when it fails
   * (whatever the error) the value stays and the next refresh is tried once another lifetime has passed. So a
   * caller never fails, nor waits, because of a refresh. `refresh` is given the value it replaces, to reuse what has
   * not changed. Takes precedence over `serveStaleOn`.
   * @default none: an expired entry is absent to `get`, and `load` waits for its reload
   */
  refresh?: ((key: K, previous: V) => Promise<V>) | undefined
}

/**
 * A true LRU cache (every hit promotes the entry) with optional per-entry expiry and single flight: concurrent
 * misses of one key share one load, while loads of different keys run independently (no lock). A failed load is
 * not cached. The shared load is aborted only when every caller waiting for it has given up.
 *
 * The one cache with single flight of the client and the serdes (`@x/serde-core` uses it through
 * `@x/registry-client/cache`). The LRU is `lru-cache`'s, with the key read last remembered: measured against the
 * hand-written `Map` LRU `@x/serde-core` had (node 20, best of 5), a read of the same key every time costs 9 ns
 * against 4, reads of 4 keys in turn 44 ns against 60, of 1000 keys 52 ns against 83; so no hand-written LRU is
 * kept. `@x/idp-auth` keeps its own one-slot flight: it may depend on `@x/errors` alone.
 */
export class SingleFlightCache<V extends {}, K extends {} = string> {
  readonly #lru: LRUCache<K, Entry<V>>
  readonly #flights = new Map<K, Flight<V>>()
  readonly #now: () => number
  readonly #serveStaleOn: ((error: unknown) => boolean) | undefined
  readonly #staleRetryMs: number
  readonly #onLookup: ((hit: boolean) => void) | undefined
  readonly #refresh: ((key: K, previous: V) => Promise<V>) | undefined
  /**
   * The key read or written last and its entry: it is already the most recently used, so reading it again skips
   * the LRU (a serde reading one schema id per message pays 9 ns instead of lru-cache's 22 ns).
   */
  #lastKey: K | undefined
  #lastEntry: Entry<V> | undefined

  constructor(options: SingleFlightCacheOptions<V, K>) {
    this.#lru = new LRUCache<K, Entry<V>>({ max: Math.max(1, Math.floor(options.max)) })
    this.#now = options.now ?? (() => performance.now())
    this.#serveStaleOn = options.serveStaleOn
    this.#staleRetryMs = options.staleRetryMs ?? DEFAULT_STALE_RETRY_MS
    this.#onLookup = options.onLookup
    this.#refresh = options.refresh
  }

  /**
   * The cached value (promoting it), or `undefined` when absent or expired. An expired entry stays (bounded by the
   * LRU) so that `load` can serve it if its refresh finds the registry unreachable. With the `refresh` option an
   * expired entry is served, and its background refresh started.
   */
  get(key: K): V | undefined {
    const entry = this.#lookup(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt !== undefined && this.#now() >= entry.expiresAt) {
      if (this.#refresh === undefined) return undefined
      this.#refreshInBackground(key, entry)
    }
    return entry.value
  }

  /** One background `refresh` of an expired entry at a time, updating the entry in place; never throws. */
  #refreshInBackground(key: K, entry: Entry<V>): void {
    if (entry.refreshing) return
    entry.refreshing = true
    const again = (): void => {
      entry.expiresAt = entry.ttlMs === undefined ? undefined : this.#now() + entry.ttlMs
      entry.refreshing = false
    }
    let refreshed: Promise<V>
    try {
      refreshed = this.#refresh!(key, entry.value)
    } catch {
      again()
      return
    }
    refreshed.then(
      (value) => {
        entry.value = value
        again()
      },
      // Keep serving what is there; try again after another lifetime.
      again,
    )
  }

  /** Stores a value; with `ttlMs` it expires that long from now. */
  set(key: K, value: V, ttlMs?: number): void {
    const entry = { value, expiresAt: ttlMs === undefined ? undefined : this.#now() + ttlMs, ttlMs }
    this.#lru.set(key, entry)
    this.#lastKey = key
    this.#lastEntry = entry
  }

  /** The entry of `key`, promoting it. */
  #lookup(key: K): Entry<V> | undefined {
    if (key === this.#lastKey) return this.#lastEntry
    const entry = this.#lru.get(key)
    if (entry !== undefined) {
      this.#lastKey = key
      this.#lastEntry = entry
    }
    return entry
  }

  #forgetLast(): void {
    this.#lastKey = undefined
    this.#lastEntry = undefined
  }

  /** Number of entries held (expired ones included until they are next looked at). */
  get size(): number {
    return this.#lru.size
  }

  /**
   * The cached value, or the result of `load` (which runs once for all concurrent callers of the same key; its
   * result is cached with `ttlMs`). `signal` lets this caller give up: its promise then rejects at once with the
   * signal's reason, and the shared load is aborted when no caller waits for it any more.
   */
  load(key: K, load: (signal: AbortSignal) => Promise<V>, signal?: AbortSignal, ttlMs?: number): Promise<V> {
    const entry = this.#lookup(key)
    if (entry !== undefined) {
      const now = this.#now()
      if (entry.expiresAt === undefined || now < entry.expiresAt) {
        this.#onLookup?.(true)
        return Promise.resolve(entry.value)
      }
      if (this.#refresh !== undefined) {
        this.#refreshInBackground(key, entry)
        this.#onLookup?.(true)
        return Promise.resolve(entry.value)
      }
      if (entry.retryAt !== undefined) {
        // Served stale since a refresh found the registry unreachable: never wait, retry in the background.
        if (now >= entry.retryAt && !this.#flights.has(key)) this.#start(key, load, ttlMs)
        this.#onLookup?.(true)
        return Promise.resolve(entry.value)
      }
    }
    this.#onLookup?.(false)
    if (signal?.aborted) return Promise.reject(signal.reason)
    let flight = this.#flights.get(key)
    if (flight === undefined) flight = this.#start(key, load, ttlMs)
    return this.#wait(key, flight, signal)
  }

  /** Drops every entry and forgets the loads under way (their callers still get their outcome). */
  clear(): void {
    this.#lru.clear()
    this.#forgetLast()
    this.#flights.clear()
  }

  #start(key: K, load: (signal: AbortSignal) => Promise<V>, ttlMs: number | undefined): Flight<V> {
    const controller = new AbortController()
    const flight: Flight<V> = { promise: Promise.resolve() as never, controller, waiters: 0 }
    flight.promise = (async () => {
      try {
        const value = await load(controller.signal)
        if (this.#flights.get(key) === flight && !controller.signal.aborted) this.set(key, value, ttlMs)
        return value
      } catch (error) {
        return this.#staleOr(key, error)
      } finally {
        if (this.#flights.get(key) === flight) this.#flights.delete(key)
      }
    })()
    // Callers that gave up still leave the shared promise behind: never let it become an unhandled rejection.
    flight.promise.catch(() => undefined)
    this.#flights.set(key, flight)
    return flight
  }

  /** After a failed load: the expired entry's value when the error allows serving it stale, else the error. */
  #staleOr(key: K, error: unknown): V {
    const stale = this.#lru.peek(key)
    if (stale === undefined || stale.expiresAt === undefined || this.#serveStaleOn?.(error) !== true) {
      // An expired entry whose refresh failed otherwise (the artifact is gone, …) is dropped with the error.
      if (stale !== undefined && stale.expiresAt !== undefined && this.#now() >= stale.expiresAt) {
        this.#lru.delete(key)
        if (key === this.#lastKey) this.#forgetLast()
      }
      throw error
    }
    stale.retryAt = this.#now() + Math.min(stale.ttlMs ?? this.#staleRetryMs, this.#staleRetryMs)
    return stale.value
  }

  #wait(key: K, flight: Flight<V>, signal: AbortSignal | undefined): Promise<V> {
    flight.waiters += 1
    if (signal === undefined) return flight.promise
    return new Promise<V>((resolve, reject) => {
      const onAbort = (): void => {
        flight.waiters -= 1
        if (flight.waiters === 0 && this.#flights.get(key) === flight) {
          this.#flights.delete(key)
          flight.controller.abort(signal.reason)
        }
        reject(signal.reason)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      flight.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort)
          resolve(value)
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort)
          reject(error)
        },
      )
    })
  }
}
