import type { CaseDef } from './cases.js'
import { median } from './median.js'
import type { RoundResult } from './report.js'

/**
 * `--repeat`: which cases need more paired rounds before their ratio can be compared. A ratio is taken per round
 * (the case ÷ its ceiling measured in the same round), so the rounds are paired; a case is settled when the middle
 * half of its paired ratios (the interquartile range) lies within ±`tolerance` of their median, over at least
 * `minRounds` rounds. Min–max only widens as rounds are added; the interquartile range narrows as they agree.
 */
export interface Spread {
  readonly median: number
  /** First and third quartiles of the paired ratios. */
  readonly q1: number
  readonly q3: number
  readonly rounds: number
}

/** The paired ratios of `def` (one per round in which both it and its ceiling ran). */
export function pairedRatios(def: CaseDef, results: readonly RoundResult[]): number[] {
  if (def.ceiling === undefined) return []
  const ceilings = new Map<number, number>()
  for (const r of results) if (r.caseName === def.ceiling) ceilings.set(r.round, r.opsPerSec)
  const ratios: number[] = []
  for (const r of results) {
    if (r.caseName !== def.name) continue
    const ceiling = ceilings.get(r.round)
    if (ceiling !== undefined) ratios.push(r.opsPerSec / ceiling)
  }
  return ratios
}

/** Quartiles by linear interpolation between closest ranks. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN
  const at = (sorted.length - 1) * q
  const low = Math.floor(at)
  const high = Math.ceil(at)
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low)
}

export function spreadOf(ratios: readonly number[]): Spread {
  const sorted = [...ratios].sort((a, b) => a - b)
  return {
    median: median(sorted),
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
    rounds: sorted.length,
  }
}

/** Whether a case's paired ratios are tight enough to compare. */
export function isSettled(spread: Spread, tolerance: number, minRounds: number): boolean {
  if (spread.rounds < minRounds) return false
  return spread.q1 >= spread.median * (1 - tolerance) && spread.q3 <= spread.median * (1 + tolerance)
}

/**
 * The cases to run again in the next round: each unsettled case with a ceiling, and the ceilings they are divided by
 * (so the new round is paired), in the order of `cases`.
 */
export function casesToRepeat(
  cases: readonly CaseDef[],
  results: readonly RoundResult[],
  tolerance: number,
  minRounds: number,
): CaseDef[] {
  const wanted = new Set<string>()
  for (const def of cases) {
    if (def.ceiling === undefined) continue
    if (isSettled(spreadOf(pairedRatios(def, results)), tolerance, minRounds)) continue
    wanted.add(def.name)
    wanted.add(def.ceiling)
  }
  return cases.filter((def) => wanted.has(def.name))
}

/** A table of each ratio's median, interquartile range and rounds, and whether it settled. */
export function renderSpreads(
  cases: readonly CaseDef[],
  results: readonly RoundResult[],
  tolerance: number,
  minRounds: number,
): string {
  const lines = [
    `Paired ratios after --repeat (settled: interquartile range within ±${(tolerance * 100).toFixed(0)} % of the median):`,
    '',
    '| case | ratio (median) | interquartile range | rounds | settled |',
    '| --- | ---: | --- | ---: | --- |',
  ]
  for (const def of cases) {
    if (def.ceiling === undefined) continue
    const spread = spreadOf(pairedRatios(def, results))
    if (spread.rounds === 0) continue
    lines.push(
      `| \`${def.name}\` ÷ \`${def.ceiling}\` | ${spread.median.toFixed(2)} | ${spread.q1.toFixed(2)} – ${spread.q3.toFixed(2)} | ${spread.rounds} | ${isSettled(spread, tolerance, minRounds) ? 'yes' : 'no'} |`,
    )
  }
  return `${lines.join('\n')}\n`
}
