import { describe, expect, it } from 'vitest'
import { producerSchedule } from './producer-schedule.js'

const names = (jobs: ReturnType<typeof producerSchedule>) =>
  jobs.map((job) => `${job.round} ${job.format}/${job.row.name}/${job.start}`)

describe('producer rounds', () => {
  it('runs ours and theirs of a client one after the other, ours first in odd rounds, theirs in even ones', () => {
    const jobs = producerSchedule(['avro'], 2, (job) => job.row.client === 'kafkajs')
    expect(names(jobs)).toEqual([
      '1 avro/kafkajs+ours/cold',
      '1 avro/kafkajs+kafkajs-sr/cold',
      '1 avro/kafkajs+ours/warm',
      '1 avro/kafkajs+kafkajs-sr/warm',
      '2 avro/kafkajs+kafkajs-sr/cold',
      '2 avro/kafkajs+ours/cold',
      '2 avro/kafkajs+kafkajs-sr/warm',
      '2 avro/kafkajs+ours/warm',
    ])
  })

  it('starts each round one pair further along, every row of every format and start once a round', () => {
    const jobs = producerSchedule(['avro', 'json'], 5)
    expect(jobs).toHaveLength(5 * 2 * 2 * 4)
    const firsts = [1, 2, 3, 4, 5].map((round) => {
      const first = jobs.find((job) => job.round === round)!
      return `${first.format}/${first.row.client}/${first.start}`
    })
    expect(firsts).toEqual([
      'avro/platformatic/cold',
      'avro/kafkajs/cold',
      'avro/platformatic/warm',
      'avro/kafkajs/warm',
      'json/platformatic/cold',
    ])
    for (const round of [1, 2, 3, 4, 5]) {
      const mine = names(jobs.filter((job) => job.round === round)).map((name) => name.slice(2))
      expect(new Set(mine).size).toBe(16)
    }
    // Within a round, the two rows of a pair are next to each other.
    for (let i = 0; i < jobs.length; i += 2) {
      expect(jobs[i]!.row.client).toBe(jobs[i + 1]!.row.client)
      expect(jobs[i]!.row.support).not.toBe(jobs[i + 1]!.row.support)
      expect(`${jobs[i]!.format}/${jobs[i]!.start}`).toBe(`${jobs[i + 1]!.format}/${jobs[i + 1]!.start}`)
    }
  })
})
