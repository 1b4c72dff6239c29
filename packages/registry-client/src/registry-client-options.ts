import type { Agent } from 'node:https'
import { describeValue, invalidConfigError, redactUrl } from '@x/errors'
import type { SchemaSnapshot } from './schema-snapshot.js'
import { type ClientTelemetry, LazyTelemetry } from './telemetry.js'
import type { TlsOptions } from './tls-options.js'
import { createTlsAgent } from './tls-transport.js'
import type { TokenProvider } from './types.js'

/**
 * Seams for tests: the random source of the backoff jitter, the sleep between attempts and the clock of the cache
 * expiry. Not needed in production.
 */
export interface RegistryClientTiming {
  /** Returns a number in [0, 1) for the full-jitter backoff. @default Math.random */
  random?: () => number
  /** Waits `ms` milliseconds; rejects with `signal.reason` as soon as `signal` aborts. @default a `setTimeout` sleep */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
  /** A monotonic clock in milliseconds, for `cacheTtlMs`. @default performance.now */
  now?: () => number
}

/** Options of `RegistryClient`. */
export interface RegistryClientOptions {
  /**
   * The v3 API root of the registry, e.g. `http://localhost:8080/apis/registry/v3` (a URL without that path is a
   * common cause of errors). `http:` or `https:`, no query or fragment. A user name and password in the URL
   * (`https://user:pass@host/...`) become HTTP Basic authentication when `auth` is not set; they never appear in a
   * message, an error, `util.inspect` or `JSON.stringify` of the client.
   */
  url: string | URL
  /** The group of every artifact lookup and registration (`default` is the registry's default group). */
  groupId: string
  /** Retries after the first attempt of a request; 0 disables retrying. @default 3 */
  maxRetries?: number
  /** Base of the exponential backoff before the first retry, in milliseconds. @default 1000 */
  retryBackoffMs?: number
  /** Cap of every wait between attempts (also of a `Retry-After` the registry sends), in milliseconds. @default 20000 */
  retryMaxBackoffMs?: number
  /** Time limit of one HTTP attempt (sending and reading the whole answer), in milliseconds. @default 10000 */
  timeoutMs?: number
  /**
   * Hands out bearer tokens (`IdpAuth` from `@x/idp-auth` is one). On 401/403 the client invalidates the token,
   * takes a fresh one and repeats the request once. @default no bearer token (Basic from the URL's userinfo, if any)
   */
  auth?: TokenProvider
  /** Extra headers on every request. An `Authorization` here is replaced by `auth` or the URL's userinfo. @default {} */
  headers?: Record<string, string>
  /**
   * The `fetch` implementation. Not together with `tls` (a `fetch` of your own makes its own connections). Left
   * unset, requests have the meaning of `globalThis.fetch`; while that is Node's own (not replaced, no undici dispatcher
   * installed globally, no proxy taken from the environment), they are sent with `node:http`/`node:https`, which do not
   * load Node's bundled undici in a process that has not; with `tls`, through `node:https` with those settings.
   * @default globalThis.fetch
   */
  fetch?: typeof globalThis.fetch
  /**
   * TLS settings for an `https:` registry: `ca` (PEM) to trust a private CA, `cert` + `key` (+ `passphrase`) to
   * present a client certificate (mutual TLS), `rejectUnauthorized: false` for tests only. Requests then go through
   * `node:https` (Node's `fetch` takes no TLS settings), with connections kept open until `close()`. A TLS failure
   * (untrusted certificate, client certificate refused) is a `RegistryConnectionError` at once, without retries,
   * whose message says which setting to look at. The key and passphrase never appear in a message or a log.
   * @default undefined (Node's TLS defaults: the public CAs, no client certificate)
   */
  tls?: TlsOptions
  /**
   * Names this application to the registry's usage telemetry (Apicurio Registry 3.3 and newer, with
   * `apicurio.usage.telemetry.enabled`): id lookups then carry `X-Registry-Client-Id: <clientId>` and, when the
   * lookup is made to serialize or deserialize a message, `X-Registry-Operation: SERIALIZE` or `DESERIALIZE`, as
   * Apicurio's Java serdes send them. Letters, digits, `.`, `_` and `-`, at most 256 characters (the registry ignores
   * any other name). @default undefined (no telemetry headers)
   */
  clientId?: string
  /** Most entries of each cache (schemas by globalId, by contentId, by artifact version, references). @default 1000 */
  cacheMaxSize?: number
  /**
   * Lifetime of latest-version entries (`getSchema`), in milliseconds, counted from when they were fetched.
   * Entries by identifier (and by literal version) never expire: their content is immutable.
   * @default undefined (latest-version entries never expire)
   */
  cacheTtlMs?: number
  /**
   * OpenTelemetry, when `@opentelemetry/api` is installed (an optional peer): a CLIENT span per registry request
   * and the metrics `xserde.registry.request.duration`, `xserde.registry.errors` (by `error.type`, the error
   * class), `xserde.registry.cache.hits` and `.misses` (by `xserde.cache`). `false` records nothing even when it
   * is installed. Without the package nothing is loaded and nothing is recorded. The package is loaded only once
   * the application has registered something with it (a tracer or meter provider, as an OpenTelemetry SDK does at
   * its start), before the client was made or after: until then it would record nowhere.
   * @default true
   */
  telemetry?: boolean
  /** Seams for tests (random source, sleep, clock). @default the real ones */
  timing?: RegistryClientTiming
  /**
   * Schemas answered with no request (`readSnapshot` of a file `x-serde pull --snapshot` or `takeSnapshot` wrote):
   * lookups by globalId and contentId, by artifact version, the latest version of the artifacts whose latest it
   * holds (the snapshot's: it pins them), and the references of each. Never evicted, never expired. What it lacks is
   * looked up in the registry as without it, unless `offline`.
   * @default none
   */
  snapshot?: SchemaSnapshot
  /**
   * Make no request at all: a lookup the `snapshot` cannot answer (and any other call) fails with a
   * `RegistryConnectionError` saying the client is offline and what was needed. An outage to `readErrorKind`: the
   * record is retried, never dead-lettered, since the registry may well hold what the snapshot lacks.
   * @default false
   */
  offline?: boolean
}

/** The options after validation, with every default filled in. */
export interface ResolvedOptions {
  /** The base URL without credentials and without a trailing slash. */
  baseUrl: string
  /** The base URL as it may appear in messages. */
  displayUrl: string
  groupId: string
  maxRetries: number
  retryBackoffMs: number
  retryMaxBackoffMs: number
  timeoutMs: number
  auth: TokenProvider | undefined
  /** `Basic …` from the URL's userinfo, when there was one and no `auth`. */
  basicAuthorization: string | undefined
  headers: Record<string, string>
  /**
   * The credentials the client sends on its own (URL userinfo in every spelling, `Authorization` and other
   * credential-like extra headers): redacted from any registry text quoted in an error. Tokens of `auth` are added
   * per request.
   */
  secrets: readonly string[]
  fetch: typeof globalThis.fetch
  /** The `https.Agent` made for `tls`: every request goes through it; the client destroys it with itself. */
  tlsAgent: Agent | undefined
  /** The usage-telemetry name sent as `X-Registry-Client-Id` on id lookups. */
  clientId: string | undefined
  /**
   * `globalThis.fetch` as it was when the client was made, when no `fetch` was given: while it is Node's own, a
   * request may go through `node:http` with the same meaning (see node-transport.ts).
   */
  defaultFetch: unknown
  cacheMaxSize: number
  cacheTtlMs: number | undefined
  random: () => number
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
  now: () => number
  /** Spans and metrics, unless `telemetry` is `false` (they start once OpenTelemetry has something registered). */
  telemetry: ClientTelemetry | undefined
}

/** Every option the client knows, with its default. */
export const DEFAULTS = Object.freeze({
  maxRetries: 3,
  retryBackoffMs: 1000,
  retryMaxBackoffMs: 20_000,
  timeoutMs: 10_000,
  cacheMaxSize: 1000,
})

/** The longest delay `setTimeout` accepts. */
const MAX_TIMER_MS = 2_147_483_647

function integerOption(name: string, value: unknown, fallback: number, min: number): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    throw invalidConfigError(`${name} must be an integer ≥ ${min}, got ${describeValue(value)}`)
  }
  return value
}

function delayOption(
  name: string,
  value: unknown,
  fallback: number,
  positive: boolean,
  max = MAX_TIMER_MS,
): number {
  if (value === undefined) return fallback
  const ok = typeof value === 'number' && Number.isFinite(value) && (positive ? value > 0 : value >= 0)
  if (!ok || value > max) {
    const wanted = positive ? '> 0' : '≥ 0'
    const limit = Number.isFinite(max) ? ` and ≤ ${max}` : ''
    throw invalidConfigError(
      `${name} must be a number of milliseconds ${wanted}${limit}, got ${describeValue(value)}`,
    )
  }
  return value
}

function parseUrl(value: unknown): {
  baseUrl: string
  displayUrl: string
  basic: string | undefined
  secrets: string[]
} {
  if (typeof value !== 'string' && !(value instanceof URL)) {
    throw invalidConfigError(`url must be a string or a URL, got ${describeValue(value)}`)
  }
  let url: URL
  try {
    url = new URL(String(value))
  } catch {
    // Never echo the text: it may hold a password.
    throw invalidConfigError(
      'url must be an absolute http(s) URL such as http://localhost:8080/apis/registry/v3',
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidConfigError(`url must use http: or https:, got ${url.protocol}`)
  }
  if (url.search !== '' || url.hash !== '') {
    throw invalidConfigError(`url must not have a query or a fragment: ${redactUrl(url)}`)
  }
  let basic: string | undefined
  const secrets: string[] = []
  if (url.username !== '' || url.password !== '') {
    let user: string
    let password: string
    try {
      user = decodeURIComponent(url.username)
      password = decodeURIComponent(url.password)
    } catch {
      // Never echo the text, nor decodeURIComponent's error: the userinfo is a credential.
      throw invalidConfigError(
        `url has a user name or password that is not valid percent-encoding (a '%' must start %XX): ${redactUrl(url)}`,
      )
    }
    const credentials = `${user}:${password}`
    const encoded = Buffer.from(credentials, 'utf8').toString('base64')
    basic = `Basic ${encoded}`
    secrets.push(encoded, credentials, password, url.password, url.username, user)
    url.username = ''
    url.password = ''
  }
  const baseUrl = url.toString().replace(/\/+$/, '')
  return { baseUrl, displayUrl: redactUrl(baseUrl), basic, secrets }
}

/** Header names whose values are credentials (`Authorization`, `X-Api-Key`, `Cookie`, `X-Auth-Token`, …). */
const CREDENTIAL_HEADER = /authorization|token|secret|key|cookie|password|credential/i

/** The values of the extra headers that are credentials, with and without their scheme (`Bearer x` and `x`). */
function headerSecrets(headers: Record<string, string>): string[] {
  const out: string[] = []
  for (const [name, value] of Object.entries(headers)) {
    if (!CREDENTIAL_HEADER.test(name)) continue
    out.push(value)
    const space = value.indexOf(' ')
    if (space > 0) out.push(value.slice(space + 1).trim())
  }
  return out
}

/** An HTTP token: what a header name may be. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
/** What the Fetch API's `Headers` refuses in a value: NUL, CR, LF, and anything beyond one byte. */
const FORBIDDEN_VALUE = /[\0\r\n\u0100-\uffff]/

/** A header value as `Headers` stores it: leading and trailing HTTP whitespace removed. */
export function normalizeHeaderValue(value: string): string {
  return value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')
}

/**
 * Whether `new Headers([[name, value]])` would accept the pair, checked without it (`Headers` loads Node's bundled
 * undici).
 */
export function isFetchHeader(name: string, value: string): boolean {
  return TOKEN.test(name) && !FORBIDDEN_VALUE.test(normalizeHeaderValue(value))
}

function parseHeaders(value: unknown): Record<string, string> {
  if (value === undefined) return {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidConfigError(
      `headers must be an object of header names to strings, got ${describeValue(value)}`,
    )
  }
  const out: Record<string, string> = {}
  for (const [name, headerValue] of Object.entries(value)) {
    if (typeof headerValue !== 'string') {
      throw invalidConfigError(`headers.${name} must be a string, got ${describeValue(headerValue)}`)
    }
    if (!isFetchHeader(name, headerValue)) {
      // The value is not echoed: it may be a credential.
      throw invalidConfigError(
        `headers.${name} is not a valid HTTP header (name or value has forbidden characters)`,
      )
    }
    out[name] = normalizeHeaderValue(headerValue)
  }
  return out
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason)
      return
    }
    const onAbort = (): void => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** What the registry accepts as a client id in its usage telemetry. */
const CLIENT_ID = /^[a-zA-Z0-9._-]{1,256}$/

function parseClientId(value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || !CLIENT_ID.test(value)) {
    throw invalidConfigError(
      `clientId must be 1 to 256 letters, digits, '.', '_' or '-' (the names Apicurio's usage telemetry records), got ${describeValue(value)}`,
    )
  }
  return value
}

function tlsAgent(options: RegistryClientOptions, baseUrl: string): Agent | undefined {
  if (options.tls === undefined) return undefined
  if (!baseUrl.startsWith('https:')) {
    throw invalidConfigError(`tls applies to an https: registry, but url is ${redactUrl(baseUrl)}`)
  }
  if (options.fetch !== undefined) {
    throw invalidConfigError(
      'tls and fetch cannot be used together: a fetch of your own makes its own connections (configure TLS in it, or leave fetch out)',
    )
  }
  return createTlsAgent('RegistryClient', options.tls, true)
}

/**
 * Validates the options and fills in the defaults.
 *
 * @throws TypeError (code `INVALID_CONFIG`) naming the first option that is wrong.
 */
export function resolveOptions(options: RegistryClientOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw invalidConfigError(
      `RegistryClient needs an options object with url and groupId, got ${describeValue(options)}`,
    )
  }
  const { baseUrl, displayUrl, basic, secrets } = parseUrl(options.url)
  const headers = parseHeaders(options.headers)
  if (typeof options.groupId !== 'string' || options.groupId === '') {
    throw invalidConfigError(`groupId must be a non-empty string, got ${describeValue(options.groupId)}`)
  }
  const auth = options.auth
  if (
    auth !== undefined &&
    (typeof auth !== 'object' || auth === null || typeof auth.getToken !== 'function')
  ) {
    throw invalidConfigError(
      `auth must be a token provider with a getToken() method, got ${describeValue(auth)}`,
    )
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw invalidConfigError(`fetch must be a function, got ${describeValue(options.fetch)}`)
  }
  if (options.telemetry !== undefined && typeof options.telemetry !== 'boolean') {
    throw invalidConfigError(`telemetry must be true or false, got ${describeValue(options.telemetry)}`)
  }
  const clientId = parseClientId(options.clientId)
  const timing = options.timing ?? {}
  for (const name of ['random', 'sleep', 'now'] as const) {
    if (timing[name] !== undefined && typeof timing[name] !== 'function') {
      throw invalidConfigError(`timing.${name} must be a function, got ${describeValue(timing[name])}`)
    }
  }
  // Last: the agent opens nothing yet, but there is no point in making it for options that are wrong.
  const agent = tlsAgent(options, baseUrl)
  return {
    baseUrl,
    displayUrl,
    groupId: options.groupId,
    maxRetries: integerOption('maxRetries', options.maxRetries, DEFAULTS.maxRetries, 0),
    retryBackoffMs: delayOption('retryBackoffMs', options.retryBackoffMs, DEFAULTS.retryBackoffMs, false),
    retryMaxBackoffMs: delayOption(
      'retryMaxBackoffMs',
      options.retryMaxBackoffMs,
      DEFAULTS.retryMaxBackoffMs,
      false,
    ),
    timeoutMs: delayOption('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs, true),
    auth,
    basicAuthorization: auth === undefined ? basic : undefined,
    headers,
    secrets: [...secrets, ...headerSecrets(headers)],
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    tlsAgent: agent,
    clientId,
    defaultFetch: options.fetch === undefined && agent === undefined ? globalThis.fetch : undefined,
    cacheMaxSize: integerOption('cacheMaxSize', options.cacheMaxSize, DEFAULTS.cacheMaxSize, 1),
    cacheTtlMs:
      options.cacheTtlMs === undefined
        ? undefined
        : delayOption('cacheTtlMs', options.cacheTtlMs, 0, true, Number.POSITIVE_INFINITY),
    random: timing.random ?? Math.random,
    sleep: timing.sleep ?? defaultSleep,
    now: timing.now ?? (() => performance.now()),
    telemetry: options.telemetry === false ? undefined : new LazyTelemetry(new URL(baseUrl)),
  }
}
