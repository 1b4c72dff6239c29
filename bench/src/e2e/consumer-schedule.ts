import { CONSUMER_ROWS, type ConsumerRow, STARTS, type Start } from './consumer-types.js'
import type { Format } from './types.js'

/** One consumer process to run: a row of a format, cold or warm, in a round. */
export interface ConsumerJob {
  round: number
  format: Format
  start: Start
  row: ConsumerRow
}

/**
 * The consumer processes of `rounds` rounds, in running order. Ours and theirs of a pair run one after the other
 * (their ratio is taken within a round, so that a change of load between rounds weighs on both), ours first in odd
 * rounds and theirs first in even ones; and each round starts one pair further along the list, so that no pair always
 * runs first or last.
 */
export function consumerSchedule(
  formats: readonly Format[],
  rounds: number,
  keep: (job: Omit<ConsumerJob, 'round'>) => boolean = () => true,
): ConsumerJob[] {
  const pairs: [ConsumerRow, ConsumerRow][] = []
  for (const ours of CONSUMER_ROWS.filter((row) => row.support === 'ours')) {
    const theirs = CONSUMER_ROWS.find((row) => row.pair === ours.pair && row.support === 'theirs')
    if (theirs === undefined) throw new TypeError(`the pair ${ours.pair} has no row of theirs`)
    pairs.push([ours, theirs])
  }
  const slots: { format: Format; start: Start; rows: [ConsumerRow, ConsumerRow] }[] = []
  for (const format of formats)
    for (const start of STARTS) for (const rows of pairs) slots.push({ format, start, rows })
  const jobs: ConsumerJob[] = []
  for (let round = 1; round <= rounds; round++) {
    for (let i = 0; i < slots.length; i++) {
      const { format, start, rows } = slots[(i + round - 1) % slots.length]!
      const ordered = round % 2 === 1 ? rows : ([rows[1], rows[0]] as const)
      for (const row of ordered) if (keep({ format, start, row })) jobs.push({ round, format, start, row })
    }
  }
  return jobs
}
