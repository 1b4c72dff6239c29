import { describe, expect, it } from 'vitest'
import { SingleFlightCache } from './single-flight-cache.js'

function deferred<T>(): {
  promise: Promise<T>
  resolve: (value: T) => void
  reject: (error: unknown) => void
} {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('SingleFlightCache', () => {
  it('is a true LRU however often the last key is read again, with keys of any type', () => {
    const cache = new SingleFlightCache<string, number | bigint>({ max: 2 })
    cache.set(1, 'one')
    cache.set(2n, 'two')
    expect([cache.get(1), cache.get(1), cache.get(1)]).toEqual(['one', 'one', 'one'])
    cache.set(3, 'three')
    expect([cache.get(1), cache.get(2n), cache.get(3)]).toEqual(['one', undefined, 'three'])
    cache.set(3, 'three again')
    expect(cache.get(3)).toBe('three again')
    cache.clear()
    expect([cache.get(3), cache.size]).toEqual([undefined, 0])
  })

  it('keeps a lower bound of one entry and no expiry without a clock', () => {
    const cache = new SingleFlightCache<string>({ max: 0.5 })
    cache.set('a', 'x')
    cache.set('b', 'y')
    expect([cache.get('a'), cache.get('b'), cache.size]).toEqual([undefined, 'y', 1])
  })

  it('runs one load for concurrent misses of a key and caches its result', async () => {
    const cache = new SingleFlightCache<{ v: string }>({ max: 10, now: () => 0 })
    const gate = deferred<{ v: string }>()
    let loads = 0
    const load = () => {
      loads += 1
      return gate.promise
    }
    const all = Promise.all(Array.from({ length: 100 }, () => cache.load('k', load)))
    gate.resolve({ v: 'x' })
    const results = await all
    expect(loads).toBe(1)
    expect(new Set(results).size).toBe(1)
    await cache.load('k', load)
    expect(loads).toBe(1)
  })

  it('does not cache a failed load', async () => {
    const cache = new SingleFlightCache<{ v: string }>({ max: 10, now: () => 0 })
    let loads = 0
    const failing = async () => {
      loads += 1
      throw new Error('boom')
    }
    await expect(cache.load('k', failing)).rejects.toThrow('boom')
    await expect(cache.load('k', failing)).rejects.toThrow('boom')
    expect(loads).toBe(2)
    expect(cache.get('k')).toBeUndefined()
  })

  it('promotes on a hit: with max 2, A B A C evicts B and keeps A', () => {
    const cache = new SingleFlightCache<{ v: string }>({ max: 2, now: () => 0 })
    cache.set('A', { v: 'a' })
    cache.set('B', { v: 'b' })
    expect(cache.get('A')).toEqual({ v: 'a' })
    cache.set('C', { v: 'c' })
    expect(cache.get('B')).toBeUndefined()
    expect(cache.get('A')).toEqual({ v: 'a' })
    expect(cache.get('C')).toEqual({ v: 'c' })
  })

  it('expires an entry with a lifetime exactly when the clock reaches it, and others never', () => {
    let now = 100_000
    const cache = new SingleFlightCache<{ v: string }>({ max: 10, now: () => now })
    cache.set('ttl', { v: 't' }, 60_000)
    cache.set('forever', { v: 'f' })
    now = 159_999
    expect(cache.get('ttl')).toEqual({ v: 't' })
    now = 160_000
    expect(cache.get('ttl')).toBeUndefined()
    now = 10 ** 12
    expect(cache.get('forever')).toEqual({ v: 'f' })
  })

  it('lets one caller give up at once while the shared load goes on for the others', async () => {
    const cache = new SingleFlightCache<{ v: string }>({ max: 10, now: () => 0 })
    const gate = deferred<{ v: string }>()
    let loadSignal: AbortSignal | undefined
    const load = (signal: AbortSignal) => {
      loadSignal = signal
      return gate.promise
    }
    const quitter = new AbortController()
    const first = cache.load('k', load, quitter.signal)
    const second = cache.load('k', load)
    quitter.abort(new Error('caller gave up'))
    await expect(first).rejects.toThrow('caller gave up')
    expect(loadSignal?.aborted).toBe(false)
    gate.resolve({ v: 'x' })
    await expect(second).resolves.toEqual({ v: 'x' })
    expect(cache.get('k')).toEqual({ v: 'x' })
  })

  it('aborts the shared load when every caller gave up, and caches nothing', async () => {
    const cache = new SingleFlightCache<{ v: string }>({ max: 10, now: () => 0 })
    const gate = deferred<{ v: string }>()
    let loadSignal: AbortSignal | undefined
    const load = (signal: AbortSignal) => {
      loadSignal = signal
      return gate.promise
    }
    const a = new AbortController()
    const b = new AbortController()
    const pa = cache.load('k', load, a.signal)
    const pb = cache.load('k', load, b.signal)
    a.abort('a')
    expect(loadSignal?.aborted).toBe(false)
    b.abort('b')
    expect(loadSignal?.aborted).toBe(true)
    await expect(pa).rejects.toBe('a')
    await expect(pb).rejects.toBe('b')
    gate.resolve({ v: 'late' })
    await gate.promise
    expect(cache.get('k')).toBeUndefined()
  })

  it('rejects at once for a signal that is already aborted, without loading', async () => {
    const cache = new SingleFlightCache<{ v: string }>({ max: 10, now: () => 0 })
    let loads = 0
    const controller = new AbortController()
    controller.abort('stop')
    await expect(
      cache.load(
        'k',
        async () => {
          loads += 1
          return { v: 'x' }
        },
        controller.signal,
      ),
    ).rejects.toBe('stop')
    expect(loads).toBe(0)
  })

  it('loads different keys independently: a slow key does not hold up another', async () => {
    const cache = new SingleFlightCache<{ v: string }>({ max: 10, now: () => 0 })
    const slow = deferred<{ v: string }>()
    const slowResult = cache.load('slow', () => slow.promise)
    await expect(cache.load('fast', async () => ({ v: 'fast' }))).resolves.toEqual({ v: 'fast' })
    slow.resolve({ v: 'slow' })
    await expect(slowResult).resolves.toEqual({ v: 'slow' })
  })

  it('serves an expired entry to all concurrent callers of one failed refresh when the error allows it', async () => {
    let now = 0
    const outage = new Error('unreachable')
    const cache = new SingleFlightCache<{ v: string }>({
      max: 10,
      now: () => now,
      serveStaleOn: (error) => error === outage,
      staleRetryMs: 1_000,
    })
    cache.set('k', { v: 'old' }, 10_000)
    now = 10_000
    let loads = 0
    const failing = async () => {
      loads += 1
      throw outage
    }
    const answers = await Promise.all([1, 2, 3].map(() => cache.load('k', failing, undefined, 10_000)))
    expect(answers).toEqual([{ v: 'old' }, { v: 'old' }, { v: 'old' }])
    expect(loads).toBe(1)
    expect(cache.get('k')).toBeUndefined()
    now = 10_999
    await cache.load('k', failing, undefined, 10_000)
    expect(loads).toBe(1)
    now = 11_000
    await expect(cache.load('k', async () => ({ v: 'new' }), undefined, 10_000)).resolves.toEqual({
      v: 'old',
    })
    await Promise.resolve()
    await expect(cache.load('k', failing, undefined, 10_000)).resolves.toEqual({ v: 'new' })
    // Another error (not an outage) after expiry reaches the caller and drops the entry.
    now = 30_000
    await expect(
      cache.load('k', async () => Promise.reject(new Error('gone')), undefined, 10_000),
    ).rejects.toThrow('gone')
    expect(cache.size).toBe(0)
  })

  it('with refresh, serves an expired entry at once to get and load while one background refresh replaces it', async () => {
    let clock = 0
    const refreshes: [string, string][] = []
    const next = deferred<string>()
    const cache = new SingleFlightCache<string>({
      max: 10,
      now: () => clock,
      refresh: (key, previous) => {
        refreshes.push([key, previous])
        return next.promise
      },
    })
    expect(await cache.load('a', async () => 'v1', undefined, 100)).toBe('v1')
    clock = 100
    expect(cache.get('a')).toBe('v1')
    expect(await cache.load('a', async () => 'never')).toBe('v1')
    expect(cache.get('a')).toBe('v1')
    expect(refreshes).toEqual([['a', 'v1']])
    next.resolve('v2')
    await next.promise
    await Promise.resolve()
    expect(cache.get('a')).toBe('v2')
    clock = 199
    expect(cache.get('a')).toBe('v2')
    expect(refreshes).toHaveLength(1)
  })

  it('with refresh, keeps the value when a refresh fails or throws, and tries again one lifetime later', async () => {
    let clock = 0
    let calls = 0
    const cache = new SingleFlightCache<string>({
      max: 10,
      now: () => clock,
      refresh: async () => {
        calls++
        if (calls === 1) throw new Error('registry down')
        return 'v2'
      },
    })
    cache.set('a', 'v1', 100)
    clock = 150
    expect(cache.get('a')).toBe('v1')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect([cache.get('a'), calls]).toEqual(['v1', 1])
    clock = 249
    expect([cache.get('a'), calls]).toEqual(['v1', 1])
    clock = 250
    expect(cache.get('a')).toBe('v1')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect([cache.get('a'), calls]).toEqual(['v2', 2])
    const throwing = new SingleFlightCache<string>({
      max: 1,
      now: () => clock,
      refresh: () => {
        throw new Error('not even a promise')
      },
    })
    throwing.set('b', 'kept', 1)
    clock = 1000
    expect(throwing.get('b')).toBe('kept')
  })
})
