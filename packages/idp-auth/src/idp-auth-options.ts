import { describeKind, invalidConfigError, redactUrl } from '@x/errors'
import { createTlsTransport, type TlsOptions } from '@x/registry-client/tls'
import { type ResolvedTokenRetry, resolveTokenRetry, type TokenRetryOptions } from './token-retry.js'

/**
 * How the client authenticates at the token endpoint (the two methods OAuth2 and OpenID Connect name so).
 * - `client_secret_post`: `client_id` and `client_secret` travel in the form body.
 * - `client_secret_basic`: HTTP Basic, with both values form-encoded before base64; the body then holds neither.
 */
export type TokenEndpointAuthMethod = 'client_secret_post' | 'client_secret_basic'

/** Options of `new IdpAuth(options)`. */
export interface IdpAuthOptions {
  /**
   * The OAuth2 token endpoint, an `http:` or `https:` URL without user info, e.g. for Keycloak
   * `https://kc.example/realms/<realm>/protocol/openid-connect/token`.
   */
  tokenUrl: string | URL
  /** The client identifier registered at the identity provider. */
  clientId: string
  /** The client secret. It never appears in a message, `String(auth)`, `JSON.stringify(auth)` or `util.inspect`. */
  clientSecret: string
  /**
   * Space-separated scopes to request, e.g. `'registry:read registry:write'`.
   * @default undefined (no `scope` parameter is sent: the provider's default scopes apply)
   */
  scope?: string
  /**
   * Time limit of one token exchange, in milliseconds: every attempt, the waits between them and reading the
   * answer. @default 10000
   */
  timeoutMs?: number
  /**
   * When a failed token request is sent again: after a transport error or an answer 408, 429 or 5xx, with
   * exponential backoff and full jitter, honouring `Retry-After`. Never after 400, 401 or another answer.
   * @default { limit: 2, delayMs: 200, maxDelayMs: 2000 }
   */
  retry?: TokenRetryOptions
  /**
   * The `fetch` implementation used for the token request. Not together with `tls`.
   * @default globalThis.fetch (or, with `tls`, a transport over `node:https` with those settings)
   */
  fetch?: typeof globalThis.fetch
  /**
   * TLS settings for an `https:` token endpoint: `ca` (PEM) to trust a private CA, `cert` + `key` (+ `passphrase`)
   * to present a client certificate, `rejectUnauthorized: false` for tests only; the same shape as the registry
   * client's `tls`. Token requests then go through `node:https` (Node's `fetch` takes no TLS settings). A TLS
   * failure is an `AuthenticationError` at once, not retried, naming the setting to look at. The key and passphrase
   * never appear in a message, `String(auth)`, `JSON.stringify(auth)` or `util.inspect`.
   * @default undefined (Node's TLS defaults: the public CAs, no client certificate)
   */
  tls?: TlsOptions
  /**
   * How the client authenticates at the token endpoint: `client_id` and `client_secret` in the form body
   * (`client_secret_post`), or HTTP Basic with both form-encoded first (`client_secret_basic`).
   * @default 'client_secret_post'
   */
  tokenEndpointAuthMethod?: 'client_secret_post' | 'client_secret_basic'
  /**
   * For tests: the clock that decides when a cached token is due for refresh, in milliseconds. Only differences
   * between two readings matter, so any origin works.
   * @default () => performance.now() (monotonic: a wall-clock change does not expire or revive a token)
   */
  now?: () => number
}

/** The options after validation, with every default applied. */
export interface ResolvedIdpAuthOptions {
  readonly tokenUrl: URL
  /** The endpoint as it may be shown: without user info, query or fragment. */
  readonly displayUrl: string
  readonly clientId: string
  readonly clientSecret: string
  readonly scope: string | undefined
  readonly timeoutMs: number
  readonly retry: ResolvedTokenRetry
  readonly fetch: typeof globalThis.fetch
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod
  readonly now: () => number
}

/** The defaults of the optional fields of `IdpAuthOptions`. */
const IDP_AUTH_DEFAULTS = Object.freeze({
  timeoutMs: 10_000,
  tokenEndpointAuthMethod: 'client_secret_post' as TokenEndpointAuthMethod,
})

const AUTH_METHODS: readonly string[] = ['client_secret_post', 'client_secret_basic']

/** Only `undefined` means "not given": a `null` is a mistake worth reporting, not a request for the default. */
function orDefault<T>(value: T | undefined, fallback: T): T {
  return value === undefined ? fallback : value
}

function parseTokenUrl(value: unknown): URL {
  if (typeof value !== 'string' && !(value instanceof URL)) {
    throw invalidConfigError(
      `IdpAuth: tokenUrl must be an http(s) URL string or URL, got ${describeKind(value)}`,
    )
  }
  let url: URL
  try {
    url = new URL(String(value))
  } catch {
    throw invalidConfigError(
      'IdpAuth: tokenUrl must be an absolute http(s) URL, got a string that is not a URL',
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidConfigError(
      `IdpAuth: tokenUrl must use http: or https:, got ${url.protocol} (${redactUrl(url)})`,
    )
  }
  if (url.username !== '' || url.password !== '') {
    throw invalidConfigError(
      `IdpAuth: tokenUrl must not contain user info (${redactUrl(url)}); pass the credentials as clientId and clientSecret`,
    )
  }
  return url
}

function requireNonEmptyString(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw invalidConfigError(`IdpAuth: ${name} must be a non-empty string, got ${describeKind(value)}`)
  }
  return value
}

/** The `fetch` of a `node:https` transport with the `tls` settings, when there are some. */
function tlsTransport(options: IdpAuthOptions, tokenUrl: URL): typeof globalThis.fetch | undefined {
  if (options.tls === undefined) return undefined
  if (tokenUrl.protocol !== 'https:') {
    throw invalidConfigError(`IdpAuth: tls applies to an https: tokenUrl, got ${redactUrl(tokenUrl)}`)
  }
  if (options.fetch !== undefined) {
    throw invalidConfigError(
      'IdpAuth: tls and fetch cannot be used together: a fetch of your own makes its own connections (configure TLS in it, or leave fetch out)',
    )
  }
  // Token requests are few: no connection is kept open between them (IdpAuth has nothing to close).
  return createTlsTransport('IdpAuth', options.tls, false).fetch
}

/**
 * Validates `options` and applies the defaults. Every problem is a `TypeError` with code `INVALID_CONFIG`; no
 * message ever repeats the client secret (nor, for `clientId`, anything but its type).
 */
export function resolveIdpAuthOptions(options: IdpAuthOptions): ResolvedIdpAuthOptions {
  if (typeof options !== 'object' || options === null) {
    throw invalidConfigError(`IdpAuth: options must be an object, got ${describeKind(options)}`)
  }
  const tokenUrl = parseTokenUrl(options.tokenUrl)
  const clientId = requireNonEmptyString('clientId', options.clientId)
  const clientSecret = requireNonEmptyString('clientSecret', options.clientSecret)

  const { scope } = options
  if (scope !== undefined && (typeof scope !== 'string' || scope.trim() === '')) {
    throw invalidConfigError(
      `IdpAuth: scope must be a non-blank string when given, got ${describeKind(scope)}`,
    )
  }

  const timeoutMs = orDefault(options.timeoutMs, IDP_AUTH_DEFAULTS.timeoutMs)
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw invalidConfigError(`IdpAuth: timeoutMs must be a finite number > 0, got ${describeKind(timeoutMs)}`)
  }

  // ky, which sends the request, takes at most 2^31 - 1 ms.
  if (timeoutMs > 2_147_483_647) {
    throw invalidConfigError(
      `IdpAuth: timeoutMs must be at most 2147483647 (about 24.8 days), got ${timeoutMs}`,
    )
  }
  const retry = resolveTokenRetry(options.retry)

  const method = orDefault(options.tokenEndpointAuthMethod, IDP_AUTH_DEFAULTS.tokenEndpointAuthMethod)
  if (!AUTH_METHODS.includes(method)) {
    throw invalidConfigError(
      `IdpAuth: tokenEndpointAuthMethod must be 'client_secret_post' or 'client_secret_basic', got ${
        typeof method === 'string' ? `'${method}'` : describeKind(method)
      }`,
    )
  }

  const fetchImpl = orDefault(options.fetch, globalThis.fetch)
  if (typeof fetchImpl !== 'function') {
    throw invalidConfigError(`IdpAuth: fetch must be a function, got ${describeKind(fetchImpl)}`)
  }
  const tlsFetch = tlsTransport(options, tokenUrl)
  const now = orDefault(options.now, () => performance.now())
  if (typeof now !== 'function') {
    throw invalidConfigError(
      `IdpAuth: now must be a function returning milliseconds, got ${describeKind(now)}`,
    )
  }

  return {
    tokenUrl,
    displayUrl: redactUrl(tokenUrl),
    clientId,
    clientSecret,
    scope: scope?.trim().split(/\s+/).join(' '),
    timeoutMs,
    retry,
    fetch: tlsFetch ?? fetchImpl,
    tokenEndpointAuthMethod: method,
    now,
  }
}
