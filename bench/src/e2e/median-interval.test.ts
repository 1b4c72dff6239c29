import { describe, expect, it } from 'vitest'
import { medianInterval } from './median-interval.js'

const oneTo = (n: number) => Array.from({ length: n }, (_, i) => n - i)

describe('medianInterval', () => {
  it('gives the 6th smallest and 6th largest of 21 values, which hold the median 97.3 % of the time', () => {
    const interval = medianInterval(oneTo(21))
    expect(interval?.low).toBe(6)
    expect(interval?.high).toBe(16)
    expect(interval?.coverage).toBeCloseTo(1 - (2 * (1 + 21 + 210 + 1330 + 5985 + 20349)) / 2 ** 21, 12)
  })

  it('gives the 2nd smallest and 2nd largest of 9 values (96.1 %)', () => {
    const interval = medianInterval(oneTo(9))
    expect([interval?.low, interval?.high]).toEqual([2, 8])
    expect(interval?.coverage).toBeCloseTo(1 - (2 * (1 + 9)) / 512, 12)
  })

  it('gives the extremes of 6 values, and nothing for 5 or fewer, since no interval of them reaches 95 %', () => {
    expect(medianInterval([3, 1, 6, 2, 5, 4])).toEqual({ low: 1, high: 6, coverage: 1 - 2 / 64 })
    expect(medianInterval(oneTo(5))).toBeUndefined()
    expect(medianInterval([])).toBeUndefined()
  })

  it('widens as the confidence asked rises', () => {
    expect(medianInterval(oneTo(21), 0.5)).toMatchObject({ low: 9, high: 13 })
    expect(medianInterval(oneTo(21), 0.99)).toMatchObject({ low: 5, high: 17 })
  })

  it('refuses a confidence outside (0, 1) with a TypeError', () => {
    expect(() => medianInterval([1, 2, 3], 1)).toThrow(TypeError)
    expect(() => medianInterval([1, 2, 3], 0)).toThrow(TypeError)
    expect(() => medianInterval([1, 2, 3], Number.NaN)).toThrow('confidence must be between 0 and 1, got NaN')
  })
})
