import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LazyTelemetry, OTEL_GLOBAL, type OtelApi, openTelemetryRegistered } from './telemetry.js'

// Nothing is registered with OpenTelemetry in this file until a test says so: `@opentelemetry/api` is installed
// here, as in an application that has it in its tree but no SDK started.

const require = createRequire(import.meta.url)
const facts = { method: 'GET', route: '/ids/globalIds/{globalId}', attributes: {} }
const answer = async () => ({ status: 200 })

let registry: InMemoryRegistry
beforeAll(async () => {
  registry = await InMemoryRegistry.start()
})
afterAll(async () => {
  await registry.close()
})

describe('telemetry before anything is registered with OpenTelemetry', () => {
  it('sends requests and counts lookups without loading @opentelemetry/api', async () => {
    let looked = 0
    const telemetry = new LazyTelemetry(new URL(registry.url), () => {
      looked++
      return null
    })
    expect(openTelemetryRegistered()).toBe(false)
    await expect(telemetry.request(facts, answer)).resolves.toEqual({ status: 200 })
    telemetry.cache('ids', true)
    telemetry.failed(new Error('not counted'))
    expect(looked).toBe(0)
  })

  it('leaves the package unloaded in a process whose client fetched a schema', async () => {
    const client = fileURLToPath(new URL('../dist/index.js', import.meta.url))
    const script = `import { createRequire } from 'node:module'
const { RegistryClient } = await import(${JSON.stringify(client)})
const c = new RegistryClient({ url: ${JSON.stringify(registry.url)}, groupId: 'lazy-otel' })
const found = await c.getSchemaByGlobalId(424242).then(() => 'found', (error) => error.name)
await c.close()
const loaded = Object.keys(createRequire(${JSON.stringify(client)}).cache).filter((f) => f.includes('@opentelemetry'))
process.stdout.write(JSON.stringify({ found, loaded }))`
    // Asynchronously: the registry answering the child runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])
    expect(JSON.parse(stdout)).toEqual({ found: 'SchemaNotFoundError', loaded: [] })
  })

  it('starts recording at the first request after an application registers a tracer provider', async () => {
    const api = require('@opentelemetry/api') as OtelApi & {
      trace: { setGlobalTracerProvider(provider: unknown): boolean; disable(): void }
    }
    const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } =
      require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base')
    const spans = new InMemorySpanExporter()
    let looked = 0
    const telemetry = new LazyTelemetry(new URL(registry.url), () => {
      looked++
      return api
    })
    await telemetry.request(facts, answer)
    expect(looked).toBe(0)
    api.trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }),
    )
    try {
      // The symbol is where the installed API keeps what is registered: the guard on an undocumented detail.
      expect((globalThis as Record<symbol, { version?: string }>)[OTEL_GLOBAL]?.version).toMatch(/^1\./)
      expect(openTelemetryRegistered()).toBe(true)
      await telemetry.request(facts, answer)
      await telemetry.request(facts, answer)
      expect(looked).toBe(1)
      expect(spans.getFinishedSpans().map((span) => span.name)).toEqual([
        'GET /ids/globalIds/{globalId}',
        'GET /ids/globalIds/{globalId}',
      ])
    } finally {
      api.trace.disable()
    }
  })
})
