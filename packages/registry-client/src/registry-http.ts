import { AuthenticationError, isSerdeError, RegistryConnectionError, redactSecrets } from '@x/errors'
import pRetry, { AbortError } from 'p-retry'
import { isRedirect, nodeTransportFits, sendWithNode, type TransportResponse } from './node-transport.js'
import type { ResolvedOptions } from './registry-client-options.js'
import { parseRetryAfter, RETRYABLE_STATUSES, retryDelayMs } from './retry-policy.js'
import type { RequestFacts } from './telemetry.js'
import { tlsFailureHint } from './tls-failure.js'

/**
 * Which failures a request may be repeated after. `always`: any transport failure and 429/502/503/504 (reads, and a
 * registration with `FIND_OR_CREATE_VERSION`, where a repeat finds the version the first try created).
 * `unsent-only`: only a request that certainly never reached the registry (connection refused, DNS failure), for
 * registrations where a repeat could create a second version.
 */
export type RetryMode = 'always' | 'unsent-only'

/** One request to the registry. */
export interface RegistryRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  /** Path and query below the base URL, already percent-encoded, starting with `/`. */
  path: string
  /** The path template (`/ids/globalIds/{globalId}`) and what the request is about, for telemetry. */
  facts: RequestFacts
  body?: string
  headers?: Readonly<Record<string, string>>
  retry: RetryMode
}

/** The registry's answer, its body read as text whatever its Content-Type. */
export interface RegistryAnswer {
  status: number
  headers: Pick<Headers, 'get'>
  text: string
}

/** Header values Node's `http` refuses where `fetch` may not: such a request is sent with `fetch` instead. */
const HEADER_CODES = new Set(['ERR_INVALID_CHAR', 'ERR_INVALID_HTTP_TOKEN', 'ERR_HTTP_INVALID_HEADER_VALUE'])

/** Error codes of transport failures where the request certainly never reached the server. */
const UNSENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
])

/** A failed attempt that the retry policy may repeat. Internal: never reaches a caller. */
class AttemptFailure extends Error {
  override name = 'AttemptFailure'
  /** `unsent`: never reached the server; `ambiguous`: may have been processed; `status`: a retryable status. */
  readonly kind: 'unsent' | 'ambiguous' | 'status'
  readonly answer: RegistryAnswer | undefined
  readonly code: string | undefined

  constructor(
    kind: 'unsent' | 'ambiguous' | 'status',
    message: string,
    answer?: RegistryAnswer,
    code?: string,
  ) {
    super(message)
    this.kind = kind
    this.answer = answer
    this.code = code
  }
}

/** The cause attached to the library's errors: a plain description, never the request or its headers. */
export class RegistryFailureCause extends Error {
  override name = 'RegistryFailureCause'
  declare readonly code?: string
  declare readonly status?: number

  constructor(message: string, details: { code?: string | undefined; status?: number | undefined } = {}) {
    super(message)
    if (details.code !== undefined) this.code = details.code
    if (details.status !== undefined) this.status = details.status
  }
}

function errorCodes(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 4) return []
  const found: string[] = []
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown }
  if (typeof code === 'string') found.push(code)
  found.push(...errorCodes(cause, depth + 1))
  if (Array.isArray(errors)) for (const inner of errors) found.push(...errorCodes(inner, depth + 1))
  return found
}

/** The innermost message of a transport error (`connect ECONNREFUSED 127.0.0.1:8080` rather than `fetch failed`). */
function transportMessage(error: unknown): string {
  let current: unknown = error
  let message = 'transport failure'
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const text = (current as { message?: unknown }).message
    if (typeof text === 'string' && text !== '') message = text
    current = (current as { cause?: unknown }).cause
  }
  return message.length > 200 ? `${message.slice(0, 200)}…` : message
}

/**
 * The `title` of the registry's ProblemDetails body (which holds no secret), for messages. Never the raw body.
 */
export function problemTitle(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as unknown
    if (
      typeof body === 'object' &&
      body !== null &&
      typeof (body as { title?: unknown }).title === 'string'
    ) {
      const title = (body as { title: string }).title
      return title.length > 300 ? `${title.slice(0, 300)}…` : title
    }
  } catch {
    // Not JSON: nothing to show.
  }
  return undefined
}

/** `HTTP 503` or `HTTP 503 (No version with global ID '5' found.)`. */
export function describeStatus(answer: RegistryAnswer): string {
  const title = problemTitle(answer.text)
  return title === undefined ? `HTTP ${answer.status}` : `HTTP ${answer.status} (${title})`
}

function isAuthStatus(status: number): boolean {
  return status === 401 || status === 403
}

/**
 * Sends requests to the registry: authentication (bearer token or Basic), a time limit per attempt, retries with
 * full-jitter backoff and `Retry-After`, and one repeat with a fresh token after 401/403. Answers every status
 * except those it handles itself; throws `RegistryConnectionError` for transport failures and retries used up,
 * `AuthenticationError` for credentials the registry refuses, and the abort reason when `signal` aborts.
 */
export class RegistryHttp {
  readonly #options: ResolvedOptions

  constructor(options: ResolvedOptions) {
    this.#options = options
  }

  /**
   * Sends `request` (with retries and the auth repeat) and returns the final answer.
   *
   * Worst case, without the time to get tokens: `(1 + maxRetries) × timeoutMs` plus the waits between attempts
   * (each at most `min(retryBackoffMs × 2^k, retryMaxBackoffMs)`, or `retryMaxBackoffMs` when the registry sends a
   * `Retry-After`), doubled by the one repeat after a 401/403 when `auth` is set.
   */
  send(request: RegistryRequest, signal: AbortSignal): Promise<RegistryAnswer> {
    const telemetry = this.#options.telemetry
    if (telemetry === undefined) return this.#send(request, signal)
    return telemetry.request(request.facts, () => this.#send(request, signal))
  }

  async #send(request: RegistryRequest, signal: AbortSignal): Promise<RegistryAnswer> {
    const first = await this.#sendWithRetries(request, signal)
    if (!isAuthStatus(first.answer.status)) return first.answer
    const auth = this.#options.auth
    if (auth === undefined) throw this.#refused(first.answer, false)
    try {
      auth.invalidate?.(first.token)
    } catch {
      // A provider that cannot invalidate still gets asked for a token again.
    }
    const second = await this.#sendWithRetries(request, signal)
    if (isAuthStatus(second.answer.status)) throw this.#refused(second.answer, true)
    return second.answer
  }

  #refused(answer: RegistryAnswer, repeated: boolean): AuthenticationError {
    const url = this.#options.displayUrl
    const hint = repeated
      ? ' even with a fresh token'
      : this.#options.basicAuthorization === undefined
        ? ' (no auth is set: pass a token provider as `auth`)'
        : " (with the user name and password of the URL's userinfo)"
    return new AuthenticationError(
      `The registry at ${url} refused the request: ${describeStatus(answer)}${hint}`,
      {
        url,
        status: answer.status,
        cause: new RegistryFailureCause(describeStatus(answer), { status: answer.status }),
      },
    )
  }

  async #sendWithRetries(
    request: RegistryRequest,
    signal: AbortSignal,
  ): Promise<{ answer: RegistryAnswer; token: string | undefined }> {
    const options = this.#options
    let fatal: { error: unknown } | undefined
    let attempts = 0
    const retryable = (failure: AttemptFailure): boolean =>
      request.retry === 'always' || failure.kind === 'unsent'
    try {
      return await pRetry(
        async () => {
          attempts += 1
          try {
            return await this.#attempt(request, signal)
          } catch (error) {
            if (error instanceof AttemptFailure) throw error
            fatal = { error }
            throw new AbortError('not retried')
          }
        },
        {
          retries: options.maxRetries,
          minTimeout: 0,
          maxTimeout: 0,
          signal,
          shouldRetry: ({ error }) => error instanceof AttemptFailure && retryable(error),
          onFailedAttempt: async ({ error, retriesLeft, retriesConsumed }) => {
            if (!(error instanceof AttemptFailure) || retriesLeft <= 0 || !retryable(error)) return
            const retryAfter =
              error.answer === undefined
                ? undefined
                : parseRetryAfter(error.answer.headers.get('retry-after'), Date.now())
            await options.sleep(retryDelayMs(retriesConsumed, options, retryAfter), signal)
          },
        },
      )
    } catch (error) {
      if (fatal !== undefined) throw fatal.error
      if (signal.aborted) throw signal.reason
      if (error instanceof AttemptFailure) throw this.#givenUp(error, attempts)
      throw error
    }
  }

  #givenUp(failure: AttemptFailure, attempts: number): RegistryConnectionError {
    const url = this.#options.displayUrl
    const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`
    if (failure.answer !== undefined) {
      const status = failure.answer.status
      return new RegistryConnectionError(
        `The registry at ${url} answered ${describeStatus(failure.answer)} after ${tries}`,
        {
          url,
          status,
          cause: new RegistryFailureCause(describeStatus(failure.answer), { status }),
        },
      )
    }
    return new RegistryConnectionError(
      `Unable to reach the registry at ${url} after ${tries}: ${failure.message}`,
      {
        url,
        cause: new RegistryFailureCause(failure.message, { code: failure.code }),
      },
    )
  }

  #tlsFailure(hint: string, error: unknown, code: string | undefined): RegistryConnectionError {
    const url = this.#options.displayUrl
    return new RegistryConnectionError(`Unable to reach the registry at ${url}: ${hint}`, {
      url,
      cause: new RegistryFailureCause(transportMessage(error), { code }),
    })
  }

  async #headers(
    request: RegistryRequest,
    signal: AbortSignal,
  ): Promise<{ headers: Record<string, string>; token?: string }> {
    // Names in lower case, so that a later one replaces an earlier one whatever its case (as `Headers.set` does).
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(this.#options.headers)) headers[name.toLowerCase()] = value
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value
    const auth = this.#options.auth
    if (auth === undefined) {
      if (this.#options.basicAuthorization !== undefined)
        headers.authorization = this.#options.basicAuthorization
      return { headers }
    }
    let token: string
    try {
      token = await auth.getToken(signal)
    } catch (error) {
      if (signal.aborted) throw signal.reason
      if (isSerdeError(error)) throw error
      throw new AuthenticationError('The token provider failed to hand out a token', {
        url: this.#options.displayUrl,
        cause: error,
      })
    }
    if (typeof token !== 'string' || token === '') {
      throw new AuthenticationError('The token provider handed out no token (expected a non-empty string)', {
        url: this.#options.displayUrl,
      })
    }
    headers.authorization = `Bearer ${token}`
    return { headers, token }
  }

  /**
   * Sends with `fetch`, or, when that has the same meaning, with `node:http` (which spares a short-lived process
   * loading Node's bundled undici for its first request). A redirect, or a header value only `fetch` accepts, goes
   * to `fetch` as it always did. With `tls`, every request goes through `node:https` with its agent, and a 3xx is
   * the answer.
   */
  async #transport(
    url: string,
    init: { method: string; headers: Record<string, string>; body: string | null; signal: AbortSignal },
  ): Promise<TransportResponse> {
    const options = this.#options
    if (options.tlsAgent !== undefined) return sendWithNode(url, init, options.tlsAgent)
    if (nodeTransportFits(options.defaultFetch)) {
      let response: TransportResponse | undefined
      try {
        response = await sendWithNode(url, init)
      } catch (error) {
        if (!HEADER_CODES.has((error as { code?: unknown }).code as string)) throw error
      }
      if (response !== undefined && !isRedirect(response.status, response.headers)) return response
    }
    return options.fetch(url, init)
  }

  /** One attempt: returns the answer, or throws an `AttemptFailure` (retryable) or anything else (not retried). */
  async #attempt(
    request: RegistryRequest,
    signal: AbortSignal,
  ): Promise<{ answer: RegistryAnswer; token: string | undefined }> {
    const options = this.#options
    const { headers, token } = await this.#headers(request, signal)
    // An abort (or close) while the headers were made has already fired: the request must not be sent at all.
    signal.throwIfAborted()
    const controller = new AbortController()
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      controller.abort()
    }, options.timeoutMs)
    const relay = (): void => controller.abort(signal.reason)
    signal.addEventListener('abort', relay, { once: true })
    let answer: RegistryAnswer
    try {
      // `fetch` itself, not a wrapper: a wrapper that links its own signal to ours (`AbortSignal.any`, as ky does)
      // left a registration per request in Node 24's signal cleanup registry (see linked-signal.ts).
      const response = await this.#transport(options.baseUrl + request.path, {
        method: request.method,
        headers,
        body: request.body ?? null,
        signal: controller.signal,
      })
      const text = await response.text()
      // An error body may quote the request's credentials (a registry or proxy echoing `Authorization`): every
      // message and cause built from it must not.
      answer = {
        status: response.status,
        headers: response.headers,
        text: response.ok
          ? text
          : redactSecrets(text, token === undefined ? options.secrets : [...options.secrets, token]),
      }
    } catch (error) {
      if (signal.aborted) throw signal.reason
      if (timedOut)
        throw new AttemptFailure('ambiguous', `no complete answer within timeoutMs (${options.timeoutMs} ms)`)
      const codes = errorCodes(error)
      const tls = tlsFailureHint(codes, 'the registry')
      // A TLS failure comes back on every attempt: it is reported at once, not retried.
      if (tls !== undefined) throw this.#tlsFailure(tls, error, codes[0])
      const unsent = codes.some((code) => UNSENT_CODES.has(code))
      throw new AttemptFailure(unsent ? 'unsent' : 'ambiguous', transportMessage(error), undefined, codes[0])
    } finally {
      clearTimeout(timer)
      signal.removeEventListener('abort', relay)
    }
    if (RETRYABLE_STATUSES.has(answer.status))
      throw new AttemptFailure('status', describeStatus(answer), answer)
    return { answer, token }
  }
}
