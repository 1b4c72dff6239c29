import { fork } from 'node:child_process'

/** What a forked bench process answers: its result, or the error that stopped it. */
export type ForkAnswer<R> = { type: 'result'; result: R } | { type: 'error'; message: string }

/**
 * Runs `module` in a fresh `node` process, hands it `setup`, and gives the result it sends back; an error it sends,
 * an exit before answering, or no answer within `limitMs` rejects (and kills it). `what` names it in those errors.
 */
export function forkOnce<S, R>(
  module: URL,
  setup: S,
  limitMs: number,
  what: string,
  execArgv: readonly string[] = [],
): Promise<R> {
  // --no-warnings: Platformatic warns that its registry API is experimental, KafkaJS about timers.
  const child = fork(module, [], {
    execArgv: ['--no-warnings', ...execArgv],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    let settled = false
    const finish = (error: Error | undefined, result?: R) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (error !== undefined) {
        child.kill()
        reject(error)
      } else resolve(result!)
    }
    const timer = setTimeout(() => finish(new Error(`${what} took over ${limitMs} ms`)), limitMs)
    child.on('message', (message: ForkAnswer<R>) => {
      if (message.type === 'result') finish(undefined, message.result)
      else finish(new Error(`${what} failed:\n${message.message}`))
    })
    child.on('error', (error) => finish(error))
    child.on('exit', (code, signal) => finish(new Error(`${what} exited early (${signal ?? code})`)))
    child.send(setup as object)
  })
}

/**
 * The forked side of {@link forkOnce}: takes the one setup the parent sends, runs `run` on it, sends back its result
 * or the error's stack (then exits with 1), and disconnects.
 */
export function answerOnce<S, R>(run: (setup: S) => Promise<R>): void {
  const send = (answer: ForkAnswer<R>) =>
    new Promise<void>((resolve, reject) => {
      process.send!(answer, undefined, {}, (error) => (error ? reject(error) : resolve()))
    })
  process.once('message', async (setup: S) => {
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
}
