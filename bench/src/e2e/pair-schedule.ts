import { STARTS, type Start } from './consumer-types.js'
import type { Format } from './types.js'

/** One process to run: a row of a format, cold or warm, in a round. */
export interface PairJob<R> {
  round: number
  format: Format
  start: Start
  row: R
}

/**
 * The processes of `rounds` rounds of ours-vs-theirs pairs, in running order. Ours and theirs of a pair run one after
 * the other (their ratio is taken within a round, so that a change of load between rounds weighs on both), ours
 * first in odd rounds and theirs first in even ones; and each round starts one pair further along the list, so that
 * no pair always runs first or last. `keep` drops jobs (a filter) without changing the order of the others.
 */
export function pairSchedule<R>(
  pairs: readonly (readonly [R, R])[],
  formats: readonly Format[],
  rounds: number,
  keep: (job: Omit<PairJob<R>, 'round'>) => boolean = () => true,
): PairJob<R>[] {
  const slots: { format: Format; start: Start; rows: readonly [R, R] }[] = []
  for (const format of formats)
    for (const start of STARTS) for (const rows of pairs) slots.push({ format, start, rows })
  const jobs: PairJob<R>[] = []
  for (let round = 1; round <= rounds; round++) {
    for (let i = 0; i < slots.length; i++) {
      const { format, start, rows } = slots[(i + round - 1) % slots.length]!
      const ordered = round % 2 === 1 ? rows : ([rows[1], rows[0]] as const)
      for (const row of ordered) if (keep({ format, start, row })) jobs.push({ round, format, start, row })
    }
  }
  return jobs
}
