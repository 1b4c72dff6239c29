import type { Start } from './consumer-types.js'
import { pairSchedule } from './pair-schedule.js'
import { PRODUCER_PAIRS } from './producer-types.js'
import type { Format, Row } from './types.js'

/** One producer process to run: a row of a format, cold or warm, in a round. */
export interface ProducerJob {
  round: number
  format: Format
  start: Start
  row: Row
}

/**
 * The producer processes of `rounds` rounds, in running order: ours and theirs of each client side by side, ours
 * first in odd rounds and theirs first in even ones, each round starting one pair further along (see `pairSchedule`).
 */
export function producerSchedule(
  formats: readonly Format[],
  rounds: number,
  keep: (job: Omit<ProducerJob, 'round'>) => boolean = () => true,
): ProducerJob[] {
  return pairSchedule(PRODUCER_PAIRS, formats, rounds, keep)
}
