import { metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { RegistryClient } from './index.js'
import { loadOpenTelemetry } from './telemetry.js'

// A real OpenTelemetry SDK (traces and metrics) in process, registered globally as an application would.

class TestReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

const spans = new InMemorySpanExporter()
const reader = new TestReader()
let registry: InMemoryRegistry
const clients: RegistryClient[] = []

beforeAll(async () => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }))
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }))
  registry = await InMemoryRegistry.start({ firstGlobalId: 40, firstContentId: 60 })
})

afterAll(async () => {
  for (const client of clients) await client.close()
  await registry.close()
  trace.disable()
  metrics.disable()
})

afterEach(() => spans.reset())

function client(options: Partial<ConstructorParameters<typeof RegistryClient>[0]> = {}): RegistryClient {
  const made = new RegistryClient({ url: registry.url, groupId: 'otel', maxRetries: 0, ...options })
  clients.push(made)
  return made
}

/** The current value of a counter (sum over points matching `attributes`). */
async function counter(name: string, attributes: Record<string, unknown> = {}): Promise<number> {
  const { resourceMetrics } = await reader.collect()
  let total = 0
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      if (metric.descriptor.name !== name) continue
      for (const point of metric.dataPoints) {
        const matches = Object.entries(attributes).every(([key, value]) => point.attributes[key] === value)
        if (matches)
          total += typeof point.value === 'number' ? point.value : (point.value as { count: number }).count
      }
    }
  }
  return total
}

describe('OpenTelemetry (when @opentelemetry/api is installed)', () => {
  it('makes one CLIENT span per registry request, named by its route, with Apicurio attribute names', async () => {
    const admin = client({ telemetry: false })
    const registered = await admin.registerSchema('spanned', '"string"')
    const c = client()
    await c.getSchema('spanned')
    await c.getSchema('spanned')
    const finished = spans.getFinishedSpans()
    expect(finished.map((span) => span.name)).toEqual([
      'GET /groups/{groupId}/artifacts/{artifactId}/versions/{versionExpression}',
      'GET /ids/globalIds/{globalId}',
    ])
    expect(finished.every((span) => span.kind === SpanKind.CLIENT)).toBe(true)
    expect(finished[0]!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'apicurio.groupId': 'otel',
      'apicurio.artifactId': 'spanned',
      'apicurio.version': 'branch=latest',
      'server.address': '127.0.0.1',
    })
    expect(finished[1]!.attributes).toMatchObject({ 'apicurio.globalId': String(registered.globalId) })
    expect(await counter('xserde.registry.cache.hits', { 'xserde.cache': 'version' })).toBe(1)
    expect(await counter('xserde.registry.cache.misses', { 'xserde.cache': 'version' })).toBe(1)
    expect(await counter('xserde.registry.cache.misses', { 'xserde.cache': 'globalId' })).toBe(1)
    expect(
      await counter('xserde.registry.request.duration', { 'url.template': '/ids/globalIds/{globalId}' }),
    ).toBe(1)
  })

  it('counts a failed lookup once by its error class, however many callers share it, and marks its span', async () => {
    const c = client()
    const before = await counter('xserde.registry.errors', { 'error.type': 'SchemaNotFoundError' })
    const calls = Array.from({ length: 5 }, () => c.getSchemaByGlobalId(987_654))
    for (const call of calls) await expect(call).rejects.toMatchObject({ name: 'SchemaNotFoundError' })
    expect(await counter('xserde.registry.errors', { 'error.type': 'SchemaNotFoundError' })).toBe(before + 1)
    const [span] = spans.getFinishedSpans()
    expect(spans.getFinishedSpans()).toHaveLength(1)
    expect(span!.status.code).toBe(SpanStatusCode.ERROR)
    expect(span!.attributes['error.type']).toBe('404')
  })

  it('names the class of a transport failure, and never puts credentials of the URL in a span', async () => {
    const c = client({ url: `http://user:s3cret-pass@127.0.0.1:9/apis/registry/v3`, timeoutMs: 2_000 })
    await expect(c.getSchemaByContentId(1)).rejects.toMatchObject({ name: 'RegistryConnectionError' })
    const [span] = spans.getFinishedSpans()
    expect(span!.attributes['error.type']).toBe('RegistryConnectionError')
    expect(JSON.stringify(span!.attributes)).not.toContain('s3cret')
    expect(await counter('xserde.registry.errors', { 'error.type': 'RegistryConnectionError' })).toBe(1)
  })

  it('records nothing with telemetry: false', async () => {
    const c = client({ telemetry: false })
    await expect(c.getSchemaByGlobalId(987_655)).rejects.toMatchObject({ name: 'SchemaNotFoundError' })
    expect(spans.getFinishedSpans()).toEqual([])
  })

  it('refuses a telemetry option that is not a boolean', () => {
    expect(() => client({ telemetry: 'yes' as never })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }),
    )
  })
})

describe('without @opentelemetry/api', () => {
  it('finds nothing when the package cannot be loaded', () => {
    const missing = (id: string): never => {
      throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' })
    }
    expect(loadOpenTelemetry(missing)).toBeNull()
  })
})
