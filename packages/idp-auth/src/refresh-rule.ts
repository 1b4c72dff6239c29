/** The refresh-ahead margin never exceeds this many milliseconds. */
export const MAX_REFRESH_MARGIN_MS = 30_000

/** The refresh-ahead margin is at most this share of the token's lifetime. */
export const REFRESH_MARGIN_RATIO = 0.2

/**
 * How long before a token's end it is replaced: `min(30 s, 20 % of its lifetime)`. The 30 s cap keeps a 24-hour
 * token in use for 23 h 59 min 30 s (Apicurio's Java client also refreshes 30 s ahead); the 20 % share keeps
 * short tokens useful: a 60 s token is replaced after 48 s, a 2 s token after 1.6 s.
 */
export function refreshMarginMs(lifetimeMs: number): number {
  return Math.min(MAX_REFRESH_MARGIN_MS, REFRESH_MARGIN_RATIO * lifetimeMs)
}

/** A token together with the times (on the `now` clock) when it is due for refresh and when it ends. */
export interface CachedToken {
  readonly value: string
  /** From this time on, `getToken` fetches a new token. */
  readonly refreshAt: number
  /** The end of the lifetime, counted from when the request was sent (so never later than the provider's). */
  readonly expiresAt: number
}

/**
 * Schedules a token received for a request sent at `requestedAt`. The lifetime is counted from the moment the
 * request left, not from when the answer came, so network latency can only make the token be replaced earlier.
 */
export function scheduleToken(value: string, lifetimeMs: number, requestedAt: number): CachedToken {
  const expiresAt = requestedAt + lifetimeMs
  return { value, expiresAt, refreshAt: expiresAt - refreshMarginMs(lifetimeMs) }
}

/** The longest wait before a failed refresh-ahead is tried again. */
export const MAX_REFRESH_RETRY_MS = 5_000

/**
 * How long to keep serving a token whose refresh-ahead failed before trying again: `min(5 s, a quarter of the time
 * it has left)`, so a few more tries fit before it expires and a burst of callers sends no burst of requests.
 */
export function refreshRetryDelayMs(leftMs: number): number {
  return Math.max(0, Math.min(MAX_REFRESH_RETRY_MS, leftMs / 4))
}
