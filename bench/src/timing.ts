/**
 * The measuring loop: `process.hrtime.bigint()` around batches of calls that double (from 256 up
 * to 65 536) during the first twentieth of the budget, every result folded into a sink so nothing is dead code.
 * Each case gets its own loop function, compiled with `new Function`, so its call site only ever sees that case's
 * function (monomorphic) even if two cases ran in one process (the bench runs one case per process anyway).
 */

/** A case measured by calling it in a plain loop; it returns a number derived from its result. */
export type SyncBody = () => number

/**
 * A case whose calls return a Promise: the loop awaits each call before the next (as a producer awaiting every
 * `serialize` would), so the Promise and the microtask hop of every call are part of the cost.
 */
export interface AsyncBody<R> {
  call: () => Promise<R>
  pick: (result: R) => number
}

export interface Timing {
  /** Calls made. */
  ops: number
  /** Nanoseconds taken by them. */
  ns: number
}

const FIRST_BATCH = 256
const LAST_BATCH = 65_536

type SyncLoop = (fn: SyncBody, n: number) => number
type AsyncLoop = <R>(call: () => Promise<R>, pick: (result: R) => number, n: number) => Promise<number>

function syncLoop(): SyncLoop {
  return new Function(
    'fn',
    'n',
    'let s = 0; for (let i = 0; i < n; i++) s = (s + fn()) | 0; return s',
  ) as SyncLoop
}

function asyncLoop(): AsyncLoop {
  return new Function(
    'call',
    'pick',
    'n',
    'return (async () => { let s = 0; for (let i = 0; i < n; i++) s = (s + pick(await call())) | 0; return s })()',
  ) as AsyncLoop
}

/** Folds every loop result so the optimiser cannot drop the calls; read once at the end. */
let sink = 0

/** The sink, for the worker to report (proves the results were used). */
export function sinkValue(): number {
  return sink
}

/** Runs `body` for about `seconds`, returning the calls made and the time they took. */
export function timeSync(body: SyncBody, seconds: number, loop: SyncLoop = syncLoop()): Timing {
  const budget = BigInt(Math.round(seconds * 1e9))
  const ramp = budget / 20n
  let batch = FIRST_BATCH
  let ops = 0
  const t0 = process.hrtime.bigint()
  let t = t0
  while (t - t0 < budget) {
    sink ^= loop(body, batch)
    ops += batch
    t = process.hrtime.bigint()
    if (batch < LAST_BATCH && t - t0 < ramp) batch *= 2
  }
  return { ops, ns: Number(t - t0) }
}

/** {@link timeSync} for a case that returns a Promise: each call is awaited before the next. */
export async function timeAsync<R>(
  body: AsyncBody<R>,
  seconds: number,
  loop: AsyncLoop = asyncLoop(),
): Promise<Timing> {
  const budget = BigInt(Math.round(seconds * 1e9))
  const ramp = budget / 20n
  let batch = FIRST_BATCH
  let ops = 0
  const t0 = process.hrtime.bigint()
  let t = t0
  while (t - t0 < budget) {
    sink ^= await loop(body.call, body.pick, batch)
    ops += batch
    t = process.hrtime.bigint()
    if (batch < LAST_BATCH && t - t0 < ramp) batch *= 2
  }
  return { ops, ns: Number(t - t0) }
}

/** A case's body, sync or async, and how it is timed: warm-up, then the measured run, with one loop function. */
export type Body = { kind: 'sync'; body: SyncBody } | { kind: 'async'; body: AsyncBody<any> }

export async function warmUp(body: Body, seconds: number): Promise<LoopOf> {
  if (body.kind === 'sync') {
    const loop = syncLoop()
    timeSync(body.body, seconds, loop)
    return { kind: 'sync', loop }
  }
  const loop = asyncLoop()
  await timeAsync(body.body, seconds, loop)
  return { kind: 'async', loop }
}

/** The loop a warm-up compiled, reused for the measured run so that run starts on optimised code. */
export type LoopOf = { kind: 'sync'; loop: SyncLoop } | { kind: 'async'; loop: AsyncLoop }

export function measure(body: Body, seconds: number, loop: LoopOf): Timing | Promise<Timing> {
  if (body.kind === 'sync' && loop.kind === 'sync') return timeSync(body.body, seconds, loop.loop)
  if (body.kind === 'async' && loop.kind === 'async') return timeAsync(body.body, seconds, loop.loop)
  throw new TypeError('measure: the loop was compiled for the other kind of body')
}
