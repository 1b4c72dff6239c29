import { describe, expect, it } from 'vitest'
import type { CaseDef } from './cases.js'
import { casesToRepeat, isSettled, pairedRatios, quantile, spreadOf } from './repeat.js'
import type { RoundResult } from './report.js'

const ceiling = { name: 'raw', group: 'encode', label: 'raw' } as unknown as CaseDef
const ours = { name: 'ours', group: 'encode', label: 'ours', ceiling: 'raw' } as unknown as CaseDef
const other = { name: 'other', group: 'encode', label: 'other', ceiling: 'raw' } as unknown as CaseDef

function result(caseName: string, round: number, opsPerSec: number): RoundResult {
  return { round, caseName, ops: 1, ns: 1, opsPerSec, sliceRates: [opsPerSec], cpuShare: 1 }
}

describe('--repeat', () => {
  it('pairs each round of a case with its ceiling in the same round, and skips rounds without the ceiling', () => {
    const results = [
      result('raw', 1, 100),
      result('ours', 1, 90),
      result('ours', 2, 80),
      result('raw', 3, 50),
      result('ours', 3, 40),
    ]
    expect(pairedRatios(ours, results)).toEqual([0.9, 0.8])
    expect(pairedRatios(ceiling, results)).toEqual([])
  })

  it('takes quartiles between closest ranks', () => {
    expect(quantile([1, 2, 3, 4, 5], 0.25)).toBe(2)
    expect(quantile([1, 2, 3, 4], 0.25)).toBe(1.75)
    expect(quantile([7], 0.75)).toBe(7)
    expect(spreadOf([0.9, 0.8, 1.0, 0.85, 0.95])).toEqual({ median: 0.9, q1: 0.85, q3: 0.95, rounds: 5 })
  })

  it('settles a case only with enough rounds and its middle half within the tolerance of the median', () => {
    expect(isSettled({ median: 0.9, q1: 0.89, q3: 0.91, rounds: 4 }, 0.03, 5)).toBe(false)
    expect(isSettled({ median: 0.9, q1: 0.89, q3: 0.91, rounds: 5 }, 0.03, 5)).toBe(true)
    expect(isSettled({ median: 0.9, q1: 0.85, q3: 0.91, rounds: 9 }, 0.03, 5)).toBe(false)
    expect(isSettled({ median: 0.9, q1: 0.89, q3: 0.95, rounds: 9 }, 0.03, 5)).toBe(false)
  })

  it('reruns the unsettled cases with their ceilings, and nothing once every case is settled', () => {
    const tight = [1, 2, 3].flatMap((round) => [result('raw', round, 100), result('ours', round, 90)])
    const loose = [1, 2, 3].map((round) => result('other', round, [60, 90, 120][round - 1]!))
    expect(casesToRepeat([ceiling, ours, other], [...tight, ...loose], 0.03, 3).map((d) => d.name)).toEqual([
      'raw',
      'other',
    ])
    expect(casesToRepeat([ceiling, ours], tight, 0.03, 3)).toEqual([])
    expect(casesToRepeat([ceiling, ours], tight, 0.03, 4).map((d) => d.name)).toEqual(['raw', 'ours'])
  })
})
