import { describeKind, invalidConfigError } from '@x/errors'

/**
 * When a failed token request is tried again. A request is retried after a transport error (refused, reset,
 * unreachable) or an answer 408, 429 or 5xx, at most `limit` times, and only while `timeoutMs` (which bounds the
 * whole exchange) lasts. A 400, 401 or any other answer is final at once: asking again with the same credentials
 * cannot change it.
 */
export interface TokenRetryOptions {
  /**
   * How many times a failed request may be sent again (so `limit + 1` requests at most). `0` sends one request only.
   * @default 2
   */
  limit?: number
  /**
   * The wait before the first retry, doubled for each further one; each wait is drawn at random between 0 and
   * that value ("full jitter"), so that many clients failing together do not come back together.
   * @default 200
   */
  delayMs?: number
  /**
   * The longest wait before a retry, in milliseconds. A `Retry-After` the endpoint sends (seconds or an HTTP date)
   * is waited for exactly, without jitter, when it is at most this long; a longer one ends the retries at once.
   * @default 2000
   */
  maxDelayMs?: number
}

/** `TokenRetryOptions` after validation, with the defaults applied. */
export interface ResolvedTokenRetry {
  readonly limit: number
  readonly delayMs: number
  readonly maxDelayMs: number
}

const RETRY_DEFAULTS: ResolvedTokenRetry = Object.freeze({ limit: 2, delayMs: 200, maxDelayMs: 2000 })

/** The statuses worth asking again for: the endpoint was slow, busy or broken, not the request wrong. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599)
}

/** Every status `isRetryableStatus` accepts, as the list ky wants. */
export const RETRYABLE_STATUSES: readonly number[] = Object.freeze([
  408,
  429,
  ...Array.from({ length: 100 }, (_, i) => 500 + i),
])

/**
 * The wait a `Retry-After` header asks for, in milliseconds: the header holds either a whole number of seconds or
 * an HTTP date, a date in the past meaning 0. `undefined` when the header is absent or unreadable.
 */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined
  const text = header.trim()
  if (/^[0-9]{1,10}$/.test(text)) return Number(text) * 1000
  const date = Date.parse(text)
  if (Number.isNaN(date) || !/[A-Za-z]/.test(text)) return undefined
  return Math.max(0, date - nowMs)
}

function nonNegativeInteger(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalidConfigError(`IdpAuth: retry.${name} must be an integer >= 0, got ${describeKind(value)}`)
  }
  return value
}

/** Validates `retry` and applies the defaults. Every problem is a `TypeError` with code `INVALID_CONFIG`. */
export function resolveTokenRetry(retry: TokenRetryOptions | undefined): ResolvedTokenRetry {
  if (retry === undefined) return RETRY_DEFAULTS
  if (typeof retry !== 'object' || retry === null) {
    throw invalidConfigError(`IdpAuth: retry must be an object, got ${describeKind(retry)}`)
  }
  const limit = nonNegativeInteger('limit', retry.limit ?? RETRY_DEFAULTS.limit)
  const delayMs = nonNegativeInteger('delayMs', retry.delayMs ?? RETRY_DEFAULTS.delayMs)
  const maxDelayMs = nonNegativeInteger('maxDelayMs', retry.maxDelayMs ?? RETRY_DEFAULTS.maxDelayMs)
  return { limit, delayMs, maxDelayMs }
}
