import { setTimeout as sleep } from 'node:timers/promises'
import type { Admin } from 'kafkajs'
import { forkOnce } from './fork-once.js'
import type { ProducerJob } from './producer-schedule.js'
import type { ProducerResult, ProducerSetup } from './producer-types.js'
import type { Format } from './types.js'

const PRODUCER = new URL('./producer.js', import.meta.url)

/** The topics of one format and row: the timed one and the warm-up one, written to by every round. */
export interface ProducerTopics {
  topic: string
  warmTopic: string
}

/** The topics of a format's row in a run (every round appends to them). */
export function producerTopics(run: string, format: Format, row: string): ProducerTopics {
  const topic = `bench-e2e-${run}-producers-${format}-${row.replace('+', '-')}`
  return { topic, warmTopic: `${topic}-warm` }
}

/** A producer process's limit: a minute, plus 5 ms per message written. */
function limitOf(setup: ProducerSetup): number {
  return 60_000 + (setup.messages + (setup.start === 'warm' ? setup.warmup : 0)) * 5
}

/**
 * The end offset of a one-partition topic. A topic just made can be refused as led by no broker the admin's metadata
 * knows yet (a retriable error): it is asked again, up to five times, a little later each time.
 */
async function endOf(admin: Admin, topic: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      const offsets = await admin.fetchTopicOffsets(topic)
      return offsets.reduce((sum, partition) => sum + Number(partition.high), 0)
    } catch (error) {
      if (attempt === 5 || (error as { retriable?: unknown }).retriable !== true) throw error
      await sleep(200 * attempt)
    }
  }
}

/**
 * Runs the jobs in order, each in a fresh process, and checks after each that its topic grew by exactly the messages
 * it says it produced; `progress` hears of each result.
 */
export async function runProducerJobs(
  jobs: readonly ProducerJob[],
  admin: Admin,
  base: Omit<
    ProducerSetup,
    'row' | 'format' | 'start' | 'topic' | 'warmTopic' | 'artifactId' | 'globalId' | 'contentId'
  >,
  formatOf: (format: Format) => { artifactId: string; globalId: number; contentId: number },
  run: string,
  progress: (job: ProducerJob, result: ProducerResult) => void,
  execArgv: readonly string[] = [],
): Promise<ProducerResult[]> {
  const results: ProducerResult[] = []
  for (const job of jobs) {
    const topics = producerTopics(run, job.format, job.row.name)
    const before = await endOf(admin, topics.topic)
    const setup: ProducerSetup = {
      ...base,
      ...formatOf(job.format),
      ...topics,
      row: job.row.name,
      format: job.format,
      start: job.start,
    }
    const what = `${job.format}/${job.row.name} (${job.start})`
    const result = await forkOnce<ProducerSetup, ProducerResult>(
      PRODUCER,
      setup,
      limitOf(setup),
      what,
      execArgv,
    )
    const grew = (await endOf(admin, topics.topic)) - before
    if (grew !== setup.messages || result.messages !== setup.messages) {
      throw new Error(
        `${what} produced ${result.messages} messages, the topic grew by ${grew}; expected ${setup.messages}`,
      )
    }
    result.round = job.round
    results.push(result)
    progress(job, result)
  }
  return results
}
