/** HTTP statuses the client retries (besides transport failures): rate limiting and gateway trouble. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504])

/** The settings that decide how long the client waits between two attempts. */
export interface BackoffSettings {
  retryBackoffMs: number
  retryMaxBackoffMs: number
  /** Returns a number in [0, 1). */
  random: () => number
}

/**
 * The wait before retry number `retryIndex` (0 for the first retry): full jitter,
 * `random() × min(retryBackoffMs × 2^retryIndex, retryMaxBackoffMs)`. A `Retry-After` the registry sent raises
 * the wait to at least that long, and the result never exceeds `retryMaxBackoffMs`.
 */
export function retryDelayMs(
  retryIndex: number,
  settings: BackoffSettings,
  retryAfterMs: number | undefined,
): number {
  const ceiling = Math.min(settings.retryBackoffMs * 2 ** retryIndex, settings.retryMaxBackoffMs)
  const jitter = settings.random() * ceiling
  const wanted = retryAfterMs === undefined ? jitter : Math.max(jitter, retryAfterMs)
  return Math.min(Math.max(0, wanted), settings.retryMaxBackoffMs)
}

/**
 * Reads a `Retry-After` header: delay-seconds (`"120"`) or an HTTP date. Returns milliseconds from `nowMs` (0 for a
 * date in the past), or `undefined` when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  if (!/[a-z]/i.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - nowMs)
}
