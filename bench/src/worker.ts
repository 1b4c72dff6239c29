import { type BenchEnv, caseNamed } from './cases.js'
import { measure, sinkValue, type Timing, warmUp } from './timing.js'

/**
 * A case in a fresh process (forked by main.ts): prepare it (the registry calls happen here), check one call's
 * result, warm up, tell the parent (which notes the registry's request count), wait for its go, measure in slices
 * (the parent takes their median, so a short burst of other load on the machine moves it little), report. A full
 * run gives each case a process of its own; `--quick` runs every case in turn in one process, until told to exit.
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

/** Ends a worker that runs cases in turn. */
export interface ExitMessage {
  type: 'exit'
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

// Every message from the parent is queued as it arrives, so that none is lost between two cases.
const queued: unknown[] = []
const waiting: ((message: unknown) => void)[] = []
process.on('message', (message) => {
  const resolve = waiting.shift()
  if (resolve === undefined) queued.push(message)
  else resolve(message)
})

function nextMessage(): Promise<unknown> {
  if (queued.length > 0) return Promise.resolve(queued.shift())
  return new Promise((resolve) => waiting.push(resolve))
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

try {
  for (;;) {
    const message = (await nextMessage()) as RunMessage | ExitMessage
    if (message.type === 'exit') break
    if (message.type !== 'run') throw new Error('expected a run or exit message')
    await run(message)
  }
} catch (error) {
  await send({
    type: 'error',
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  })
  process.exitCode = 1
} finally {
  process.disconnect()
}
