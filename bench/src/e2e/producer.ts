import { answerOnce } from './fork-once.js'
import type { ClientRun } from './platformatic-client.js'
import type { ProducerResult, ProducerSetup } from './producer-types.js'
import { ROWS } from './types.js'

/**
 * One producer of the producer rounds in a fresh process (forked by producer-runs.ts): the row's client and registry
 * support are loaded (only those, as an application of the row loads: not the other client, the other support or
 * another format's serde) and made (KafkaJS connected; Platformatic connects on its first send), then
 * (`start: 'warm'`) the warm-up messages are produced to a topic of their own, and the timed messages are produced in
 * batches of 1 000, timed from the first batch's encoding to the last send acknowledged. What a cold start costs the support (lazy loading, the
 * schema's lookup, preparing its writer, compiling) falls inside that window.
 */

async function run(setup: ProducerSetup): Promise<ProducerResult> {
  const row = ROWS.find((r) => r.name === setup.row)
  if (row === undefined) throw new TypeError(`no end-to-end row named '${setup.row}'`)
  const client: ClientRun =
    row.client === 'platformatic'
      ? await (await import('./platformatic-client.js')).platformaticRun(setup, row.support)
      : await (await import('./kafkajs-client.js')).kafkajsRun(setup, row.support)
  try {
    if (setup.start === 'warm') await client.produce(setup.warmTopic, setup.warmup)
    const phase = await client.produce(setup.topic, setup.messages)
    return { row: setup.row, format: setup.format, start: setup.start, round: 0, ...phase }
  } finally {
    await client.close()
  }
}

answerOnce(run)
