import { describe, expect, it } from 'vitest'
import { parseRetryAfter, RETRYABLE_STATUSES, retryDelayMs } from './retry-policy.js'

describe('retryDelayMs', () => {
  const settings = (random: number) => ({
    retryBackoffMs: 1000,
    retryMaxBackoffMs: 20_000,
    random: () => random,
  })

  it('is full jitter over min(retryBackoffMs × 2^k, retryMaxBackoffMs)', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((k) => retryDelayMs(k, settings(0.5), undefined))).toEqual([
      500, 1000, 2000, 4000, 8000, 10_000, 10_000,
    ])
    expect(retryDelayMs(2, settings(0), undefined)).toBe(0)
  })

  it('waits at least a Retry-After, never beyond the cap', () => {
    expect(retryDelayMs(0, settings(0.5), 3000)).toBe(3000)
    expect(retryDelayMs(3, settings(0.9), 3000)).toBe(7200)
    expect(retryDelayMs(0, settings(0.5), 120_000)).toBe(20_000)
  })
})

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z')

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter(' 0 ', now)).toBe(0)
  })

  it('reads an HTTP date relative to now, and a past date as 0', () => {
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000)
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0)
  })

  it('ignores an absent or unreadable header', () => {
    expect(parseRetryAfter(null, now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter('1.5', now)).toBeUndefined()
  })
})

describe('RETRYABLE_STATUSES', () => {
  it('holds exactly 429, 502, 503 and 504', () => {
    expect([...RETRYABLE_STATUSES].sort()).toEqual([429, 502, 503, 504])
  })
})
