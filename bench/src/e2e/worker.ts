import { answerOnce } from './fork-once.js'
import { kafkajsRun } from './kafkajs-client.js'
import { type ClientRun, type ConsumeMode, platformaticRun } from './platformatic-client.js'
import { ROWS, type RowResult, type WorkerSetup } from './types.js'

/**
 * One row and format of the end-to-end bench in a fresh process (forked by e2e/main.ts): warm up (produce and consume
 * `warmup` messages on a topic of their own: schema lookups, connections, JIT), then produce `messages` messages
 * (timed), consume them with the registry support (timed from the first message to the last), and consume them again
 * without decoding in a new group (the baseline of the serde's share).
 */

async function run(setup: WorkerSetup): Promise<RowResult> {
  const row = ROWS.find((r) => r.name === setup.row)
  if (row === undefined) throw new TypeError(`no end-to-end row named '${setup.row}'`)
  const client: ClientRun =
    row.client === 'platformatic'
      ? await platformaticRun(setup, row.support)
      : await kafkajsRun(setup, row.support)
  try {
    await client.produce(setup.warmTopic, setup.warmup)
    // Our rows also read the topic with the engine by hand (it holds our frames): the floor of the serde's share.
    const modes: ConsumeMode[] = row.support === 'ours' ? ['serde', 'raw', 'hand'] : ['serde', 'raw']
    for (const mode of modes) await client.consume(setup.warmTopic, setup.warmup, mode)
    const produce = await client.produce(setup.topic, setup.messages)
    const consume = await client.consume(setup.topic, setup.messages, 'serde')
    const raw = await client.consume(setup.topic, setup.messages, 'raw')
    const hand = modes.includes('hand')
      ? await client.consume(setup.topic, setup.messages, 'hand')
      : undefined
    if (hand !== undefined && hand.lastSeq !== setup.messages - 1) {
      throw new Error(`the engine by hand read seq ${hand.lastSeq} last, expected ${setup.messages - 1}`)
    }
    if (consume.lastSeq !== setup.messages - 1) {
      throw new Error(`the last message read back has seq ${consume.lastSeq}, expected ${setup.messages - 1}`)
    }
    const { lastSeq, ...decoded } = consume
    const result: RowResult = {
      row: setup.row,
      format: setup.format,
      produce,
      consume: decoded,
      raw,
      lastSeq,
    }
    if (hand !== undefined)
      result.hand = { messages: hand.messages, seconds: hand.seconds, cpuMicros: hand.cpuMicros }
    return result
  } finally {
    await client.close()
  }
}

answerOnce(run)
