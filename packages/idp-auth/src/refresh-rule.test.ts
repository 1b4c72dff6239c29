import { describe, expect, it } from 'vitest'
import { refreshMarginMs, refreshRetryDelayMs, scheduleToken } from './refresh-rule.js'

describe('the refresh-ahead rule: min(30 s, 20 % of the lifetime)', () => {
  it.each([
    [2_000, 400],
    [60_000, 12_000],
    [149_000, 29_800],
    [150_000, 30_000],
    [300_000, 30_000],
    [86_400_000, 30_000],
  ])('replaces a token of %i ms lifetime %i ms before its end', (lifetimeMs, marginMs) => {
    expect(refreshMarginMs(lifetimeMs)).toBe(marginMs)
  })

  it('counts the lifetime from when the request left', () => {
    expect(scheduleToken('t', 60_000, 5_000)).toEqual({ value: 't', expiresAt: 65_000, refreshAt: 53_000 })
  })

  it.each([
    [400, 100],
    [20_000, 5_000],
    [10_000_000, 5_000],
    [0, 0],
    [-5, 0],
  ])('after a failed refresh with %i ms left, tries again after %i ms', (leftMs, delayMs) => {
    expect(refreshRetryDelayMs(leftMs)).toBe(delayMs)
  })
})
