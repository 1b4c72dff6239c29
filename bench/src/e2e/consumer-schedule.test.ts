import { describe, expect, it } from 'vitest'
import { consumerSchedule } from './consumer-schedule.js'

const names = (jobs: ReturnType<typeof consumerSchedule>) =>
  jobs.map((job) => `${job.round} ${job.format}/${job.row.name}/${job.start}`)

describe('consumer rounds', () => {
  it('runs ours and theirs of a pair one after the other, ours first in odd rounds, theirs in even ones', () => {
    const jobs = consumerSchedule(['avro'], 2, (job) => job.row.pair === 'kafkajs-each-batch')
    expect(names(jobs)).toEqual([
      '1 avro/kafkajs-batch+ours/cold',
      '1 avro/kafkajs-batch+kafkajs-sr/cold',
      '1 avro/kafkajs-batch+ours/warm',
      '1 avro/kafkajs-batch+kafkajs-sr/warm',
      '2 avro/kafkajs-batch+kafkajs-sr/cold',
      '2 avro/kafkajs-batch+ours/cold',
      '2 avro/kafkajs-batch+kafkajs-sr/warm',
      '2 avro/kafkajs-batch+ours/warm',
    ])
  })

  it('starts each round one pair further along, every row of every format and start once a round', () => {
    const jobs = consumerSchedule(['avro', 'json'], 5)
    expect(jobs).toHaveLength(5 * 2 * 2 * 6)
    const firsts = [1, 2, 3, 4, 5].map((round) => {
      const first = jobs.find((job) => job.round === round)!
      return `${first.format}/${first.row.pair}/${first.start}`
    })
    expect(firsts).toEqual([
      'avro/platformatic/cold',
      'avro/kafkajs-each-message/cold',
      'avro/kafkajs-each-batch/cold',
      'avro/platformatic/warm',
      'avro/kafkajs-each-message/warm',
    ])
    for (const round of [1, 2, 3, 4, 5]) {
      const mine = names(jobs.filter((job) => job.round === round)).map((name) => name.slice(2))
      expect(new Set(mine).size).toBe(24)
    }
  })
})
