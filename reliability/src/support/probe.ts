import { readErrorKind } from '@x/message-contract'
import { KIB64, preview } from './hostile.js'
import { describeError, isLibraryError, SCALE } from './scale.js'

/**
 * The properties every public entry point keeps for any input:
 * - `error`: the call gives a value or one of the library's errors (a `SerdeError`, or a `TypeError`/`RangeError`
 *   carrying one of its codes), never a bare error from deep inside a library;
 * - `poison`: on a read path, an error about the data is classified as poison by `readErrorKind`, never as an outage
 *   (an outage makes a consumer retry the same message for ever);
 * - `time`: an input up to 64 KiB does not hold the event loop longer than {@link TIME_LIMIT_MS};
 * - `roundTrip`: what is written reads back exactly;
 * - `prototype`: `Object.prototype` is as it was.
 */
export type PropertyName = 'error' | 'poison' | 'time' | 'roundTrip' | 'prototype'

/**
 * The event-loop bound of one call. A call is timed with `performance.now()` from the call until it settles (for an
 * async entry point with its caches warm that is the time it holds the loop, plus at most a request to the
 * in-process registry, so it over-counts, never under-counts); a call over the bound is timed twice more and its
 * fastest time counts: a slow input is slow every time, whereas a pause of the machine (a major GC, another process
 * on a loaded 2-core box, the OS preempting the worker) rarely hits the same input three times in a row (a call over
 * four times the bound is not timed again: no pause of the machine is that long). The long
 * form holds the promise itself, 100 ms; the short form, run in CI on shared runners, 250 ms, so a noisy runner does
 * not fail a build while an input that takes seconds still does.
 */
export const TIME_LIMIT_MS = SCALE === 'long' ? 100 : 250

const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort().join(',')
const prototypeMembers = new Map(
  Object.getOwnPropertyNames(Object.prototype).map((name) => [
    name,
    Object.getOwnPropertyDescriptor(Object.prototype, name)?.value,
  ]),
)

/** Whether Object.prototype has exactly the members (and the values) it had when the suite loaded. */
export function prototypeIntact(): boolean {
  if (Object.getPrototypeOf(Object.prototype) !== null) return false
  if (Object.getOwnPropertyNames(Object.prototype).sort().join(',') !== prototypeNames) return false
  for (const [name, value] of prototypeMembers) {
    if (Object.getOwnPropertyDescriptor(Object.prototype, name)?.value !== value) return false
  }
  return true
}

export interface Finding {
  input: string
  outcome: string
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown }

/** The tally of one entry point: inputs, outcomes, the slowest call, and the first findings of each property. */
export class EntryPoint {
  readonly name: string
  /** Whether this is a read path, where errors are classified by `readErrorKind`. */
  readonly read: boolean
  inputs = 0
  values = 0
  errors = 0
  slowestMs = 0
  /** The slowest call that ran several inputs together ({@link probeMany}), and the most inputs one such call held. */
  slowestGroupMs = 0
  largestGroup = 0
  readonly findings: Record<PropertyName, Finding[]> = {
    error: [],
    poison: [],
    time: [],
    roundTrip: [],
    prototype: [],
  }

  readonly #excuse: ((error: unknown) => boolean) | undefined
  /** How many findings were made, kept or not. */
  #found = 0

  /** `excuse`: errors of a read path that are not about the data (misuse the caller answers), left out of poison. */
  constructor(name: string, options: { read: boolean; excuse?: (error: unknown) => boolean }) {
    this.name = name
    this.read = options.read
    this.#excuse = options.excuse
  }

  /** Keeps the shortest five findings of `property` (the shortest input is the one to reproduce). */
  find(property: PropertyName, input: unknown, outcome: string): void {
    this.#found += 1
    const list = this.findings[property]
    const text = typeof input === 'string' ? input : preview(input)
    if (list.some((finding) => finding.outcome === outcome && finding.input.length <= text.length)) return
    list.push({ input: text, outcome })
    list.sort((a, b) => a.input.length - b.input.length)
    if (list.length > 5) list.length = 5
  }

  /**
   * Calls `call` on `input` (of about `size` bytes), checking the error, poison, time and prototype properties;
   * returns what it gave so the caller can check a round trip.
   */
  async probe<T>(input: unknown, size: number, call: () => T | Promise<T>): Promise<Outcome<T>> {
    this.inputs += 1
    let settled: Outcome<T> | undefined
    let elapsed = await timed(call, (result) => {
      settled = result
    })
    const outcome: Outcome<T> = settled ?? { ok: false, error: new Error('not settled') }
    if (size <= KIB64) {
      // four times the bound is no pause of the machine: such an input is not timed again
      for (let again = 0; again < 2 && elapsed > TIME_LIMIT_MS && elapsed < 4 * TIME_LIMIT_MS; again++) {
        elapsed = Math.min(elapsed, await timed(call, () => {}))
      }
      this.slowestMs = Math.max(this.slowestMs, elapsed)
      if (elapsed > TIME_LIMIT_MS) this.find('time', input, `took ${elapsed.toFixed(0)} ms`)
    }
    if (!prototypeIntact()) {
      this.find('prototype', input, 'Object.prototype changed')
      restorePrototype()
    }
    if (outcome.ok) {
      this.values += 1
      return outcome
    }
    this.errors += 1
    const { error } = outcome
    if (!isLibraryError(error)) this.find('error', input, describeError(error))
    else if (this.read && readErrorKind(error) !== 'poison' && this.#excuse?.(error) !== true) {
      this.find('poison', input, `classified as an outage: ${describeError(error)}`)
    }
    return outcome
  }

  /**
   * Runs `inputs` in one call, each counted as an input: one CLI run over many JSON lines, say, where each line is
   * judged on its own. When the call settles in a way `problem` finds nothing wrong with, within the time bound (if
   * `bounded`: every input is up to 64 KiB), and leaves Object.prototype alone, each input kept every property (its
   * part of the call did less work than the whole call, so it took less time). Otherwise each input runs alone
   * through `alone`, which probes it as {@link probe} does, so that a finding names the input that caused it; a call
   * with a problem while every input alone had none is itself a finding.
   */
  async probeMany<T>(
    inputs: readonly unknown[],
    bounded: boolean,
    call: () => T | Promise<T>,
    problem: (outcome: Outcome<T>) => [PropertyName, string] | undefined,
    alone: (index: number) => Promise<void>,
  ): Promise<void> {
    let settled: Outcome<T> | undefined
    const elapsed = await timed(call, (result) => {
      settled = result
    })
    const outcome: Outcome<T> = settled ?? { ok: false, error: new Error('not settled') }
    const intact = prototypeIntact()
    if (!intact) restorePrototype()
    const found: [PropertyName, string] | undefined = intact
      ? problem(outcome)
      : ['prototype', 'Object.prototype changed']
    if (found === undefined && (!bounded || elapsed <= TIME_LIMIT_MS)) {
      this.inputs += inputs.length
      if (outcome.ok) this.values += inputs.length
      else this.errors += inputs.length
      if (bounded) {
        this.slowestGroupMs = Math.max(this.slowestGroupMs, elapsed)
        this.largestGroup = Math.max(this.largestGroup, inputs.length)
      }
      return
    }
    const before = this.#found
    for (let index = 0; index < inputs.length; index++) await alone(index)
    if (found !== undefined && this.#found === before) {
      this.find(found[0], `${inputs.length} inputs together, from ${preview(inputs.slice(0, 3))}`, found[1])
    }
  }

  /** A summary line for the figures: inputs, values / errors, the slowest call. */
  figures(): Record<string, string | number> {
    const slowest =
      this.largestGroup > 0
        ? {
            // a call of several inputs took longer than any of them would alone
            [`${this.name}: slowest call, of up to ${this.largestGroup} inputs up to 64 KiB each (ms)`]:
              Number(Math.max(this.slowestMs, this.slowestGroupMs).toFixed(1)),
          }
        : { [`${this.name}: slowest input up to 64 KiB (ms)`]: Number(this.slowestMs.toFixed(1)) }
    return {
      [`${this.name}: inputs (values / library errors)`]: `${this.inputs.toLocaleString('en-US')} (${this.values} / ${this.errors})`,
      ...slowest,
    }
  }

  /** The findings of `property` as text for an assertion message. */
  report(property: PropertyName): string {
    return this.findings[property].map((f) => `${f.outcome}\n    for ${f.input}`).join('\n')
  }
}

async function timed<T>(call: () => T | Promise<T>, settle: (outcome: Outcome<T>) => void): Promise<number> {
  const started = performance.now()
  try {
    const result = call()
    const value = result instanceof Promise ? await result : result
    const elapsed = performance.now() - started
    settle({ ok: true, value })
    return elapsed
  } catch (error) {
    const elapsed = performance.now() - started
    settle({ ok: false, error })
    return elapsed
  }
}

/** Puts Object.prototype back as it was, so one finding does not become every later input's. */
function restorePrototype(): void {
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    if (!prototypeMembers.has(name)) delete (Object.prototype as Record<string, unknown>)[name]
  }
  for (const [name, value] of prototypeMembers) {
    const descriptor = Object.getOwnPropertyDescriptor(Object.prototype, name)
    if (descriptor !== undefined && 'value' in descriptor && descriptor.value !== value) {
      Object.defineProperty(Object.prototype, name, { ...descriptor, value })
    }
  }
}
