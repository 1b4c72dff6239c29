import { createRequire } from 'node:module'
import { isSerdeError } from '@x/errors'

/**
 * The parts of `@opentelemetry/api` the client uses, declared structurally: the package is an optional peer, so
 * nothing here may import it.
 */
interface OtelSpan {
  setAttribute(key: string, value: string | number): unknown
  setStatus(status: { code: number; message?: string }): unknown
  end(): void
}
interface OtelTracer {
  startSpan(name: string, options: { kind: number; attributes: Attributes }, context?: unknown): OtelSpan
}
interface OtelCounter {
  add(value: number, attributes?: Attributes): void
}
interface OtelHistogram {
  record(value: number, attributes?: Attributes): void
}
interface OtelMeter {
  createCounter(name: string, options: { description: string; unit?: string }): OtelCounter
  createHistogram(name: string, options: { description: string; unit: string }): OtelHistogram
}
/** @internal */
export interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): OtelTracer
    setSpan(context: unknown, span: OtelSpan): unknown
  }
  metrics: { getMeter(name: string, version?: string): OtelMeter }
  context: { active(): unknown; with<R>(context: unknown, fn: () => R): R }
  SpanKind: { CLIENT: number }
  SpanStatusCode: { ERROR: number }
}

type Attributes = Record<string, string | number>

/** What one registry request is, for its span and metrics. */
export interface RequestFacts {
  method: string
  /** The path template, low in cardinality: `/ids/globalIds/{globalId}`. */
  route: string
  /** Apicurio's names for what the request is about: `apicurio.groupId`, `apicurio.artifactId`, … */
  attributes: Attributes
}

const SCOPE = '@x/registry-client'

/** The metric names (OpenTelemetry instruments) the client records. */
export const METRICS = Object.freeze({
  duration: 'xserde.registry.request.duration',
  errors: 'xserde.registry.errors',
  cacheHits: 'xserde.registry.cache.hits',
  cacheMisses: 'xserde.registry.cache.misses',
})

let loaded: OtelApi | null | undefined

/**
 * Where `@opentelemetry/api` 1.x keeps what an application registers (a tracer or meter provider, a context
 * manager, a propagator, a diagnostic logger): a global under this symbol, absent until something is registered.
 * It is not documented API; `telemetry.test.ts` checks it against the installed package.
 *
 * @internal
 */
export const OTEL_GLOBAL = Symbol.for('opentelemetry.js.api.1')

/**
 * Whether an application has registered anything with `@opentelemetry/api`. Until then every span would be a no-op
 * and every instrument would record nowhere, so the package need not be loaded (about 40 modules, tens of
 * milliseconds of a process's start).
 *
 * @internal
 */
export function openTelemetryRegistered(): boolean {
  return (globalThis as Record<symbol, unknown>)[OTEL_GLOBAL] !== undefined
}

/**
 * `@opentelemetry/api` when it is installed, else `null`, looked for once per process. Without it, or with
 * `telemetry: false`, the client records nothing and pays one `undefined` test per request and per cache lookup.
 *
 * @internal
 */
export function findOpenTelemetry(): OtelApi | null {
  if (loaded === undefined) loaded = loadOpenTelemetry(createRequire(import.meta.url))
  return loaded
}

/** @internal `@opentelemetry/api` through `require`, or `null` when it cannot be loaded. */
export function loadOpenTelemetry(require: (id: string) => unknown): OtelApi | null {
  try {
    return require('@opentelemetry/api') as OtelApi
  } catch {
    return null
  }
}

/** @internal What the client asks of its telemetry: {@link RegistryTelemetry}, or nothing yet. */
export interface ClientTelemetry {
  request<A extends { status: number }>(facts: RequestFacts, send: () => Promise<A>): Promise<A>
  failed(error: unknown): void
  cache(name: string, hit: boolean): void
}

/**
 * @internal A client's telemetry, started once an application has registered with OpenTelemetry: until then
 * requests are sent as they are and nothing is counted (as with the API's own no-op providers), and
 * `@opentelemetry/api` is not loaded. Once something is registered (before the client was made or after), the API
 * is loaded, once per process, and {@link RegistryTelemetry} records from then on.
 */
export class LazyTelemetry implements ClientTelemetry {
  readonly #url: URL
  readonly #find: () => OtelApi | null
  #started: RegistryTelemetry | null | undefined

  constructor(url: URL, find: () => OtelApi | null = findOpenTelemetry) {
    this.#url = url
    this.#find = find
  }

  #telemetry(): RegistryTelemetry | null | undefined {
    if (this.#started !== undefined || !openTelemetryRegistered()) return this.#started
    const api = this.#find()
    this.#started = api === null ? null : new RegistryTelemetry(api, this.#url)
    return this.#started
  }

  request<A extends { status: number }>(facts: RequestFacts, send: () => Promise<A>): Promise<A> {
    const telemetry = this.#telemetry()
    return telemetry ? telemetry.request(facts, send) : send()
  }

  failed(error: unknown): void {
    this.#telemetry()?.failed(error)
  }

  cache(name: string, hit: boolean): void {
    this.#telemetry()?.cache(name, hit)
  }
}

/**
 * @internal Spans and metrics of one client: a CLIENT span per registry request (retries and the repeat after a
 * 401 included: one logical request, one span), its duration in seconds, failed registry interactions counted by
 * error class (`error.type`), and the hits and misses of the client's caches.
 */
export class RegistryTelemetry implements ClientTelemetry {
  readonly #api: OtelApi
  readonly #tracer: OtelTracer
  readonly #duration: OtelHistogram
  readonly #errors: OtelCounter
  readonly #hits: OtelCounter
  readonly #misses: OtelCounter
  readonly #server: Attributes
  readonly #counted = new WeakSet<object>()

  constructor(api: OtelApi, url: URL) {
    this.#api = api
    this.#tracer = api.trace.getTracer(SCOPE)
    const meter = api.metrics.getMeter(SCOPE)
    this.#duration = meter.createHistogram(METRICS.duration, {
      description: 'Duration of registry requests, retries included',
      unit: 's',
    })
    this.#errors = meter.createCounter(METRICS.errors, {
      description: 'Registry requests and lookups that failed, by error class (error.type)',
    })
    this.#hits = meter.createCounter(METRICS.cacheHits, {
      description: 'Lookups answered from the client cache, by cache (xserde.cache)',
    })
    this.#misses = meter.createCounter(METRICS.cacheMisses, {
      description: 'Lookups the client cache could not answer, by cache (xserde.cache)',
    })
    this.#server = { 'server.address': url.hostname }
    if (url.port !== '') this.#server['server.port'] = Number(url.port)
  }

  /**
   * Runs one registry request inside its span (the active context while it runs, so an HTTP instrumentation nests
   * under it), recording its duration and outcome: its status, or the class of the error it threw.
   */
  async request<A extends { status: number }>(facts: RequestFacts, send: () => Promise<A>): Promise<A> {
    const api = this.#api
    const attributes: Attributes = {
      ...this.#server,
      'http.request.method': facts.method,
      'url.template': facts.route,
      ...facts.attributes,
    }
    const span = this.#tracer.startSpan(
      `${facts.method} ${facts.route}`,
      { kind: api.SpanKind.CLIENT, attributes },
      api.context.active(),
    )
    const started = performance.now()
    const metric: Attributes = { 'http.request.method': facts.method, 'url.template': facts.route }
    try {
      const answer = await api.context.with(api.trace.setSpan(api.context.active(), span), send)
      span.setAttribute('http.response.status_code', answer.status)
      metric['http.response.status_code'] = answer.status
      if (answer.status >= 400) {
        const type = String(answer.status)
        span.setAttribute('error.type', type)
        span.setStatus({ code: api.SpanStatusCode.ERROR })
        metric['error.type'] = type
      }
      return answer
    } catch (error) {
      const type = errorType(error)
      span.setAttribute('error.type', type)
      span.setStatus({ code: api.SpanStatusCode.ERROR, message: type })
      metric['error.type'] = type
      throw error
    } finally {
      this.#duration.record((performance.now() - started) / 1000, metric)
      span.end()
    }
  }

  /**
   * Counts a registry interaction (a lookup or a registration, shared by every caller waiting for it) that failed
   * with a library error, once per error object however many layers it passes.
   */
  failed(error: unknown): void {
    if (!isSerdeError(error) || this.#counted.has(error)) return
    this.#counted.add(error)
    this.#errors.add(1, { 'error.type': error.name })
  }

  /** Counts one lookup of a client cache. */
  cache(name: string, hit: boolean): void {
    ;(hit ? this.#hits : this.#misses).add(1, { 'xserde.cache': name })
  }
}

/** The class name of an error (`RegistryConnectionError`), never its message (which may quote a registry). */
function errorType(error: unknown): string {
  if (error instanceof Error) return error.name
  return typeof error
}
