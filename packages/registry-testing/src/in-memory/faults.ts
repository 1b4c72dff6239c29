import { invalidConfigError } from '@x/errors'
import { API_BASE } from './router.js'

/**
 * A fault for {@link InMemoryRegistry.inject}: which requests it matches and what happens to them instead of (or
 * before) the registry's own answer. Give at least one of `status`, `delayMs` and `reset`.
 */
export interface FaultOptions {
  /**
   * The HTTP method to match, in any letter case.
   * @default every method
   */
  method?: string
  /**
   * The path to match. A string is compared with the request's raw path (as sent, percent-encoded, without the
   * query), with or without the `/apis/registry/v3` prefix: `'/ids/globalIds/1'` and
   * `'/apis/registry/v3/ids/globalIds/1'` are the same. A `RegExp` is tested against the full raw path.
   * @default every path
   */
  path?: string | RegExp
  /**
   * Answer with this status instead of the registry's answer (the registry never sees the request, so nothing is
   * stored and no id is drawn).
   * @default the registry answers
   */
  status?: number
  /**
   * Headers of the injected answer, e.g. `{ 'Retry-After': '2' }`; only with `status`.
   * @default `Content-Type: application/json`
   */
  headers?: Record<string, string>
  /**
   * Body of the injected answer, only with `status`: a string is sent as is, anything else as JSON.
   * @default a ProblemDetails body for a status of 400 or more (`"name":"InjectedFault"`), else empty
   */
  body?: unknown
  /**
   * Wait this long before answering. Alone, it delays the registry's own answer; with `status` or `reset`, the
   * injected one.
   * @default 0
   */
  delayMs?: number
  /**
   * Reset the connection (TCP RST) once the request has been read, instead of answering: the client sees a
   * transport failure after sending.
   * @default false
   */
  reset?: boolean
  /**
   * How many matching requests the fault applies to; `Infinity` for all of them.
   * @default 1
   */
  times?: number
}

/** A fault added by {@link InMemoryRegistry.inject}: how often it applied, and a way to take it back. */
export interface InjectedFault {
  /** How many requests the fault has applied to so far. */
  readonly hits: number
  /** How many more requests it will apply to (`Infinity` for an unlimited fault, `0` once used up or removed). */
  readonly remaining: number
  /** The options it was made with. */
  readonly options: Readonly<FaultOptions>
  /** Takes the fault back: it applies to no further request. */
  remove(): void
}

/** InMemoryRegistry's own side of an {@link InjectedFault}. */
export class Fault implements InjectedFault {
  readonly #options: Readonly<FaultOptions>
  readonly #onRemove: (fault: Fault) => void
  #hits = 0
  #removed = false

  constructor(options: Readonly<FaultOptions>, onRemove: (fault: Fault) => void) {
    this.#options = options
    this.#onRemove = onRemove
  }

  get hits(): number {
    return this.#hits
  }

  get remaining(): number {
    return this.#removed ? 0 : Math.max(0, (this.#options.times ?? 1) - this.#hits)
  }

  get options(): Readonly<FaultOptions> {
    return this.#options
  }

  remove(): void {
    this.#removed = true
    this.#onRemove(this)
  }

  /** Whether the fault applies to this request (and still has uses left). */
  matches(method: string, rawPath: string): boolean {
    if (this.remaining === 0) return false
    const { method: wanted, path } = this.#options
    if (wanted !== undefined && wanted.toUpperCase() !== method.toUpperCase()) return false
    if (path === undefined) return true
    if (path instanceof RegExp) {
      path.lastIndex = 0
      return path.test(rawPath)
    }
    return path === rawPath || `${API_BASE}${path}` === rawPath
  }

  /** Counts one use. */
  hit(): void {
    this.#hits += 1
  }
}

/** Checks `inject()`'s options; misuse is a `TypeError` with code `INVALID_CONFIG`. */
export function checkFaultOptions(options: FaultOptions): Readonly<FaultOptions> {
  if (typeof options !== 'object' || options === null) {
    throw invalidConfigError(
      `inject() expects an options object, got ${options === null ? 'null' : typeof options}.`,
    )
  }
  const { method, path, status, headers, body, delayMs, reset, times } = options
  if (method !== undefined && (typeof method !== 'string' || method === '')) {
    throw invalidConfigError(`inject(): method must be a non-empty string, got ${String(method)}.`)
  }
  if (path !== undefined && typeof path !== 'string' && !(path instanceof RegExp)) {
    throw invalidConfigError(`inject(): path must be a string or a RegExp, got ${typeof path}.`)
  }
  if (status !== undefined && (!Number.isInteger(status) || status < 100 || status > 599)) {
    throw invalidConfigError(`inject(): status must be an integer from 100 to 599, got ${String(status)}.`)
  }
  if (delayMs !== undefined && (typeof delayMs !== 'number' || !Number.isFinite(delayMs) || delayMs < 0)) {
    throw invalidConfigError(
      `inject(): delayMs must be a finite number of at least 0, got ${String(delayMs)}.`,
    )
  }
  if (reset !== undefined && typeof reset !== 'boolean') {
    throw invalidConfigError(`inject(): reset must be a boolean, got ${typeof reset}.`)
  }
  if (times !== undefined && times !== Number.POSITIVE_INFINITY && (!Number.isInteger(times) || times < 1)) {
    throw invalidConfigError(`inject(): times must be a positive integer or Infinity, got ${String(times)}.`)
  }
  if (status === undefined && (headers !== undefined || body !== undefined)) {
    throw invalidConfigError('inject(): headers and body need a status to answer with.')
  }
  if (status !== undefined && reset === true) {
    throw invalidConfigError('inject(): give status or reset, not both.')
  }
  if (status === undefined && reset !== true && delayMs === undefined) {
    throw invalidConfigError('inject(): give at least one of status, delayMs and reset.')
  }
  if (headers !== undefined && (typeof headers !== 'object' || headers === null)) {
    throw invalidConfigError(`inject(): headers must be an object of strings, got ${typeof headers}.`)
  }
  const copy: FaultOptions = { ...options }
  if (headers !== undefined) copy.headers = { ...headers }
  return Object.freeze(copy)
}
