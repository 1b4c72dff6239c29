import { CONSUMER_ROWS, type ConsumerRow, type Start } from './consumer-types.js'
import { pairSchedule } from './pair-schedule.js'
import type { Format } from './types.js'

/** One consumer process to run: a row of a format, cold or warm, in a round. */
export interface ConsumerJob {
  round: number
  format: Format
  start: Start
  row: ConsumerRow
}

/** The consumer processes of `rounds` rounds, in running order (see `pairSchedule`). */
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
  return pairSchedule(pairs, formats, rounds, keep)
}
