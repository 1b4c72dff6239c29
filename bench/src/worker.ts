import { type BenchEnv, caseNamed } from './cases.js'
import { measure, sinkValue, type Timing, warmUp } from './timing.js'

/**
 * One case in a fresh process (forked by main.ts): prepare it (the registry calls happen here), check one call's
 * result, warm up, tell the parent (which notes the registry's request count), wait for its go, measure in slices
 * (the parent takes their median, so a short burst of other load on the machine moves it little), report.
 */

export interface RunMessage {
  type: 'run'
  caseName: string
  env: BenchEnv
  warmupSeconds: number
  /** Measured seconds in all, split into `slices` equal slices. */
  seconds: number
  slices: number
}

export type WorkerMessage =
  | { type: 'warmed' }
  | { type: 'result'; slices: Timing[]; cpuNs: number; sink: number }
  | { type: 'error'; message: string }

function send(message: WorkerMessage): Promise<void> {
  return new Promise((resolve, reject) => {
    process.send!(message, undefined, {}, (error) => (error ? reject(error) : resolve()))
  })
}

function nextMessage(): Promise<unknown> {
  return new Promise((resolve) => process.once('message', resolve))
}

async function run(message: RunMessage): Promise<void> {
  const def = caseNamed(message.caseName)
  const prepared = await def.prepare(message.env)
  try {
    const body = prepared.body
    const first = body.kind === 'sync' ? body.body() : body.body.pick(await body.body.call())
    if (first !== prepared.expect) {
      throw new Error(`${def.name}: one call returned ${first}, expected ${prepared.expect}`)
    }
    const loop = await warmUp(body, message.warmupSeconds)
    await send({ type: 'warmed' })
    const go = await nextMessage()
    if ((go as { type?: string }).type !== 'go') throw new Error('expected the parent to say go')
    const slices: Timing[] = []
    const cpuBefore = process.cpuUsage()
    for (let i = 0; i < message.slices; i++)
      slices.push(await measure(body, message.seconds / message.slices, loop))
    const cpu = process.cpuUsage(cpuBefore)
    const cpuNs = (cpu.user + cpu.system) * 1000
    await send({ type: 'result', slices, cpuNs, sink: sinkValue() })
  } finally {
    await prepared.close?.()
  }
}

const first = (await nextMessage()) as RunMessage
try {
  if (first.type !== 'run') throw new Error('expected a run message first')
  await run(first)
} catch (error) {
  await send({
    type: 'error',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  })
  process.exitCode = 1
} finally {
  process.disconnect()
}
