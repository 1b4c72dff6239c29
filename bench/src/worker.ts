import { type BenchEnv, caseNamed } from './cases.js'
import { measure, sinkValue, warmUp } from './timing.js'

/**
 * One case in a fresh process (forked by main.ts): prepare it (the registry calls happen here), check one call's
 * result, warm up, tell the parent (which notes the registry's request count), wait for its go, measure, report.
 */

export interface RunMessage {
  type: 'run'
  caseName: string
  env: BenchEnv
  warmupSeconds: number
  seconds: number
}

export type WorkerMessage =
  | { type: 'warmed' }
  | { type: 'result'; ops: number; ns: number; cpuNs: number; sink: number }
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
    const cpuBefore = process.cpuUsage()
    const timing = await measure(body, message.seconds, loop)
    const cpu = process.cpuUsage(cpuBefore)
    const cpuNs = (cpu.user + cpu.system) * 1000
    await send({ type: 'result', ops: timing.ops, ns: timing.ns, cpuNs, sink: sinkValue() })
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
