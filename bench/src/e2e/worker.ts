import { kafkajsRun } from './kafkajs-client.js'
import { type ClientRun, platformaticRun } from './platformatic-client.js'
import { ROWS, type RowResult, type WorkerMessage, type WorkerSetup } from './types.js'

/**
 * One row and format of the end-to-end bench in a fresh process (forked by e2e/main.ts): warm up (produce and consume
 * `warmup` messages on a topic of their own: schema lookups, connections, JIT), then produce `messages` messages
 * (timed), consume them with the registry support (timed from the first message to the last), and consume them again
 * without decoding in a new group (the baseline of the serde's share).
 */

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    process.send!(message, undefined, {}, (error) => (error ? reject(error) : resolve()))
  })
}

async function run(setup: WorkerSetup): Promise<RowResult> {
  const row = ROWS.find((r) => r.name === setup.row)
  if (row === undefined) throw new TypeError(`no end-to-end row named '${setup.row}'`)
  const client: ClientRun =
    row.client === 'platformatic'
      ? await platformaticRun(setup, row.support)
      : await kafkajsRun(setup, row.support)
  try {
    await client.produce(setup.warmTopic, setup.warmup)
    await client.consume(setup.warmTopic, setup.warmup, true)
    await client.consume(setup.warmTopic, setup.warmup, false)
    const produce = await client.produce(setup.topic, setup.messages)
    const consume = await client.consume(setup.topic, setup.messages, true)
    const raw = await client.consume(setup.topic, setup.messages, false)
    if (consume.lastSeq !== setup.messages - 1) {
      throw new Error(`the last message read back has seq ${consume.lastSeq}, expected ${setup.messages - 1}`)
    }
    const { lastSeq, ...decoded } = consume
    return { row: setup.row, format: setup.format, produce, consume: decoded, raw, lastSeq }
  } finally {
    await client.close()
  }
}

process.once('message', async (setup: WorkerSetup) => {
  try {
    await send({ type: 'result', result: await run(setup) })
  } catch (error) {
    await send({
      type: 'error',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    })
    process.exitCode = 1
  } finally {
    process.disconnect()
  }
})
