import { AuthenticationError } from '@x/errors'
import { tlsFailureHint } from '@x/registry-client/tls'
import type { HTTPError as KyHTTPError } from 'ky'
import {
  type IdpAuthOptions,
  type ResolvedIdpAuthOptions,
  resolveIdpAuthOptions,
} from './idp-auth-options.js'
import { type CachedToken, refreshRetryDelayMs, scheduleToken } from './refresh-rule.js'
import { buildTokenRequest } from './token-request.js'
import { parseTokenResponse, unexpectedStatusError } from './token-response.js'
import { isRetryableStatus, RETRYABLE_STATUSES, retryAfterMs } from './token-retry.js'

/**
 * One token request shared by every caller that asked while it ran.
 *
 * Hand-written on purpose, beside `@x/registry-client`'s `SingleFlightCache` (the one single flight of the client
 * and the serdes): it holds one slot (the token), not a keyed cache. The waiting logic (each caller may give up
 * with its own signal; the request is aborted when the last one has) is the same as the cache's.
 */
interface Flight {
  readonly promise: Promise<CachedToken>
  readonly controller: AbortController
  /** Callers still waiting; when the last one aborts, the request is aborted too. */
  waiters: number
}

const INSPECT = Symbol.for('nodejs.util.inspect.custom')

/**
 * ky, loaded with the first token request rather than with the package: an application that imports `@x/serde`
 * (which re-exports `IdpAuth`) without using it does not pay for loading ky at start-up.
 */
let kyModule: Promise<typeof import('ky')> | undefined
function loadKy(): Promise<typeof import('ky')> {
  kyModule ??= import('ky')
  return kyModule
}

/** A system error code such as `ECONNREFUSED` or `UND_ERR_CONNECT_TIMEOUT` from an error or its causes. */
function transportCode(error: unknown): string | undefined {
  return transportCodes(error)[0]
}

/** Every error code of a transport failure and its causes, outermost first. */
function transportCodes(error: unknown): string[] {
  const codes: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,60}$/.test(code)) codes.push(code)
    current = (current as { cause?: unknown }).cause
  }
  return codes
}

/** What a TLS failure means for the user (`undefined` for any other failure): it would fail again on a retry. */
function tlsHint(error: unknown): string | undefined {
  return tlsFailureHint(transportCodes(error), 'the token endpoint')
}

/**
 * OAuth2 client-credentials tokens (the client's own id and secret, no user) for registry calls, from Keycloak or any other provider.
 * It is a `TokenProvider` of `@x/registry-client`: pass it as the client's `auth`.
 *
 * - A token is reused until less than `min(30 s, 20 % of its lifetime)` is left, then replaced. When replacing it
 *   fails while it has not expired yet, it is still handed out (a token endpoint outage shorter than the margin is
 *   invisible), and the refresh is tried again after `min(5 s, a quarter of the time it has left)`; once it has
 *   expired, `getToken` fails with the endpoint's error.
 * - Any number of concurrent `getToken` calls share one request.
 * - `invalidate(token)` drops the cached token if it is still `token`, so the next `getToken` fetches a new one.
 *
 * The client secret and the tokens are held in private fields: `String(auth)`, `JSON.stringify(auth)` and
 * `util.inspect(auth)` show only the endpoint, the client id, the scope and the authentication method.
 */
export class IdpAuth {
  readonly #options: ResolvedIdpAuthOptions
  #token: CachedToken | undefined
  #flight: Flight | undefined
  /** After a failed refresh-ahead, the time (on `now`) before which the cached token is served without a request. */
  #retryRefreshAt = 0

  /** @throws {TypeError} code `INVALID_CONFIG` when an option is missing or malformed. */
  constructor(options: IdpAuthOptions) {
    this.#options = resolveIdpAuthOptions(options)
  }

  /**
   * A valid access token: the cached one while it is not due for refresh, else a new one from the token endpoint.
   *
   * @param signal aborts this caller's wait; the promise then rejects with `signal.reason`. The shared request
   *   is aborted only when every caller waiting for it has aborted.
   * @throws {AuthenticationError} the endpoint could not be reached or did not answer within `timeoutMs`, answered
   *   other than 200, or its answer lacks a non-empty string `access_token` or a positive `expires_in`, and no
   *   cached token is still valid (a cached token that is due for refresh but not expired is returned instead).
   *   Nothing is cached after a failure: a token cached before stays as it was.
   */
  async getToken(signal?: AbortSignal): Promise<string> {
    signal?.throwIfAborted()
    const cached = this.#token
    if (cached !== undefined) {
      const now = this.#options.now()
      // Before its refresh time; or refreshing failed lately and it has not expired: the cached token.
      if (now < cached.refreshAt || (now < this.#retryRefreshAt && now < cached.expiresAt))
        return cached.value
    }
    const flight = this.#flight ?? this.#startFlight()
    try {
      return await this.#wait(flight, signal)
    } catch (error) {
      if (signal?.aborted) throw error
      // A failed refresh-ahead: the token in hand is still good until it expires.
      const kept = this.#token
      if (kept !== undefined && this.#options.now() < kept.expiresAt) return kept.value
      throw error
    }
  }

  /**
   * Drops the cached token so that the next `getToken` fetches a new one. With `token`, only if the cached token is
   * still that one: a caller holding a token the registry refused (401) cannot throw away a newer token another
   * caller already fetched.
   */
  invalidate(token?: string): void {
    if (this.#token !== undefined && (token === undefined || token === this.#token.value))
      this.#token = undefined
  }

  /** The safe view of this object: endpoint (without user info and query), client id, scope and method. */
  toJSON(): Record<string, string> {
    const o = this.#options
    const out: Record<string, string> = { tokenUrl: o.displayUrl, clientId: o.clientId }
    if (o.scope !== undefined) out.scope = o.scope
    out.tokenEndpointAuthMethod = o.tokenEndpointAuthMethod
    return out
  }

  toString(): string {
    return `IdpAuth(${this.#options.displayUrl}, clientId=${JSON.stringify(this.#options.clientId)})`
  }

  [INSPECT](
    _depth: number,
    options: unknown,
    inspect?: (value: unknown, options?: unknown) => string,
  ): string {
    return `IdpAuth ${inspect ? inspect(this.toJSON(), options) : JSON.stringify(this.toJSON())}`
  }

  #startFlight(): Flight {
    const controller = new AbortController()
    const promise = this.#requestToken(controller.signal).then(
      (token) => {
        if (this.#flight === flight) {
          this.#token = token
          this.#retryRefreshAt = 0
        }
        return token
      },
      (error: unknown) => {
        // While a cached token is still valid, wait a little before trying again (no request storm).
        const kept = this.#token
        if (kept !== undefined && this.#flight === flight) {
          const now = this.#options.now()
          this.#retryRefreshAt = now + refreshRetryDelayMs(kept.expiresAt - now)
        }
        throw error
      },
    )
    const flight: Flight = { promise, controller, waiters: 0 }
    this.#flight = flight
    // Clears the slot however it ends; also keeps a request nobody waits for any more from an unhandled rejection.
    promise.then(
      () => this.#endFlight(flight),
      () => this.#endFlight(flight),
    )
    return flight
  }

  #endFlight(flight: Flight): void {
    if (this.#flight === flight) this.#flight = undefined
  }

  async #wait(flight: Flight, signal: AbortSignal | undefined): Promise<string> {
    flight.waiters++
    if (signal === undefined) return (await flight.promise).value
    return new Promise<string>((resolve, reject) => {
      const onAbort = (): void => {
        flight.waiters--
        if (flight.waiters === 0) {
          this.#endFlight(flight)
          flight.controller.abort(signal.reason)
        }
        reject(signal.reason)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      flight.promise.then(
        (token) => {
          signal.removeEventListener('abort', onAbort)
          resolve(token.value)
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort)
          reject(error)
        },
      )
    })
  }

  /**
   * One token exchange, its retries included, bounded by `timeoutMs` (for the answers and the body together) even
   * if the `fetch` implementation ignores its signal. Rejects with `abandon.reason` when every caller has gone.
   */
  async #requestToken(abandon: AbortSignal): Promise<CachedToken> {
    const o = this.#options
    const url = o.displayUrl
    const controller = new AbortController()
    let timer: ReturnType<typeof setTimeout> | undefined
    let onAbandon: (() => void) | undefined
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new AuthenticationError(
          `Token endpoint ${url} did not answer within ${o.timeoutMs} ms (timeoutMs)`,
          { url },
        )
        controller.abort(error)
        reject(error)
      }, o.timeoutMs)
      onAbandon = () => {
        controller.abort(abandon.reason)
        reject(abandon.reason)
      }
      abandon.addEventListener('abort', onAbandon, { once: true })
    })
    const exchange = this.#exchange(controller.signal)
    exchange.catch(() => {}) // when `stop` wins the race, the exchange's own failure is of no interest
    try {
      return await Promise.race([exchange, stop])
    } finally {
      clearTimeout(timer)
      if (onAbandon !== undefined) abandon.removeEventListener('abort', onAbandon)
    }
  }

  /**
   * The request on ky, with its retries. ky's own errors are never kept as `cause`: its `HTTPError` and
   * `TimeoutError` hold the request, whose headers carry the client secret with `client_secret_basic`.
   */
  async #exchange(signal: AbortSignal): Promise<CachedToken> {
    const o = this.#options
    const url = o.displayUrl
    const { headers, body } = buildTokenRequest(o)
    let requestedAt = o.now()
    const { default: ky, HTTPError, TimeoutError } = await loadKy()
    const isHttpError = (error: unknown): error is KyHTTPError => error instanceof HTTPError
    let response: Response
    try {
      response = await ky.post(o.tokenUrl, {
        headers,
        body,
        // A 307/308 would send the form, secret included, to wherever the Location points.
        redirect: 'manual',
        signal,
        timeout: o.timeoutMs,
        fetch: (input, init) => o.fetch(input, init),
        retry: {
          limit: o.retry.limit,
          methods: ['post'],
          statusCodes: [...RETRYABLE_STATUSES],
          afterStatusCodes: [...RETRYABLE_STATUSES],
          maxRetryAfter: o.retry.maxDelayMs,
          backoffLimit: o.retry.maxDelayMs,
          delay: (attempt) => o.retry.delayMs * 2 ** (attempt - 1),
          jitter: true,
          retryOnTimeout: false,
          shouldRetry: ({ error }) => {
            if (signal.aborted || error instanceof TimeoutError) return false
            if (!isHttpError(error)) return tlsHint(error) === undefined ? undefined : false
            if (!isRetryableStatus(error.response.status)) return false
            const wait = retryAfterMs(error.response.headers.get('retry-after'), Date.now())
            return wait !== undefined && wait > o.retry.maxDelayMs ? false : undefined
          },
        },
        hooks: {
          // The token's lifetime counts from the request that obtained it.
          beforeRequest: [
            () => {
              requestedAt = o.now()
            },
          ],
          // The answer of a failed attempt is not read: release its connection.
          beforeRetry: [
            ({ error }) => {
              if (isHttpError(error)) void error.response.body?.cancel().catch(() => {})
            },
          ],
        },
      })
    } catch (error) {
      if (signal.aborted) throw signal.reason
      if (isHttpError(error)) {
        response = error.response
      } else if (error instanceof TimeoutError) {
        throw new AuthenticationError(
          `Token endpoint ${url} did not answer within ${o.timeoutMs} ms (timeoutMs)`,
          { url },
        )
      } else {
        const code = transportCode(error)
        const tls = tlsHint(error)
        const why = tls === undefined ? (code === undefined ? '' : ` (${code})`) : `: ${tls}`
        throw new AuthenticationError(`Could not reach the token endpoint ${url}${why}`, {
          url,
          cause: error,
        })
      }
    }
    const status = response.status
    let text: string
    try {
      text = await response.text()
    } catch (error) {
      if (signal.aborted) throw signal.reason
      const code = transportCode(error)
      throw new AuthenticationError(
        `Could not read the answer of the token endpoint ${url}${code === undefined ? '' : ` (${code})`}`,
        { url, status, cause: error },
      )
    }
    if (status !== 200) throw unexpectedStatusError(status, text, url)
    const grant = parseTokenResponse(text, url)
    return scheduleToken(grant.accessToken, grant.lifetimeMs, requestedAt)
  }
}
