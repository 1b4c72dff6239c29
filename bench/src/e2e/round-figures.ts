import { median } from '../median.js'
import { type MedianInterval, medianInterval } from './median-interval.js'

/** What one process of a round measured, as the producer and consumer rounds both record it. */
export interface RoundResult {
  row: string
  format: string
  start: string
  round: number
  messages: number
  seconds: number
  cpuMicros: number
}

/** Each side's medians of a pair of rows in a format and start, and ours ÷ theirs taken round by round. */
export interface RoundFigures<R extends RoundResult> {
  /** Our side's results and theirs, as they ran. */
  mine: R[]
  peer: R[]
  oursRate: number
  theirsRate: number
  oursCpu: number
  theirsCpu: number
  /** Ours ÷ theirs in messages/s, taken within each round that ran both, then the median over those rounds. */
  ratio: number
  /** The per-round ratios, in round order. */
  ratios: number[]
  /** The 95 % confidence interval of the ratios' median (`undefined` under 6 rounds). */
  interval: MedianInterval | undefined
}

const rate = (r: RoundResult) => r.messages / r.seconds

/** The figures of the rows `ours` and `theirs` in a format and start, or `undefined` when either side did not run. */
export function roundFigures<R extends RoundResult>(
  results: readonly R[],
  ours: string,
  theirs: string,
  format: string,
  start: string,
): RoundFigures<R> | undefined {
  const of = (name: string) =>
    results.filter((r) => r.row === name && r.format === format && r.start === start)
  const mine = of(ours)
  const peer = of(theirs)
  if (mine.length === 0 || peer.length === 0) return undefined
  const ratios: number[] = []
  for (const o of [...mine].sort((a, b) => a.round - b.round)) {
    const t = peer.find((r) => r.round === o.round)
    if (t !== undefined) ratios.push(rate(o) / rate(t))
  }
  return {
    mine,
    peer,
    oursRate: median(mine.map(rate)),
    theirsRate: median(peer.map(rate)),
    oursCpu: median(mine.map((r) => r.cpuMicros / r.messages)),
    theirsCpu: median(peer.map((r) => r.cpuMicros / r.messages)),
    ratio: median(ratios),
    ratios,
    interval: medianInterval(ratios),
  }
}
