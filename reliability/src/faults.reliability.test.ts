import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { RegistryClient, type RegistryClientOptions } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { count, recordFigures } from './support/scale.js'

// Registry faults a long-running consumer meets: outages (warm, cold, during a TTL expiry), 503 storms with and
// without Retry-After, answers slower than timeoutMs, connections reset in the middle of a body, close() while calls
// are in flight, and a thundering herd of cold calls over a flapping registry. Each with the request counts and time
// bounds the library promises.

const ctx = new SerializationContext('faults')
const SCHEMA = { type: 'record', name: 'Event', namespace: 'faults', fields: [{ name: 'id', type: 'long' }] }
const figures: Record<string, string | number> = {}
let registry: InMemoryRegistry
const clients: RegistryClient[] = []
const servers: Server[] = []

function client(options: Partial<RegistryClientOptions> = {}): RegistryClient {
  const made = new RegistryClient({
    url: registry.url,
    groupId: 'default',
    maxRetries: 2,
    retryBackoffMs: 10,
    retryMaxBackoffMs: 50,
    timeoutMs: 1_000,
    ...options,
  })
  clients.push(made)
  return made
}

async function frameFor(artifactId: string, id: number): Promise<{ frame: Uint8Array; globalId: number }> {
  const serializer = new AvroSerializer(client(), artifactId, { autoRegister: true, schema: SCHEMA })
  const frame = await serializer.serialize({ id }, ctx)
  return { frame, globalId: Buffer.from(frame).readUInt32BE(1) }
}

/** An HTTP server on 127.0.0.1 that answers every request with `handler`. */
async function server(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const made = createServer(handler)
  servers.push(made)
  made.listen(0, '127.0.0.1')
  await new Promise((resolve) => made.once('listening', resolve))
  return `http://127.0.0.1:${(made.address() as AddressInfo).port}/apis/registry/v3`
}

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
})

afterEach(() => registry.clearFaults())

afterAll(async () => {
  for (const made of clients) await made.close()
  for (const made of servers) {
    made.closeAllConnections()
    await new Promise((resolve) => made.close(resolve))
  }
  await registry.close()
  recordFigures('faults', figures)
})

describe('outages', () => {
  it('with warm caches, 20 000 round trips during an outage send no request at all', async () => {
    const { frame, globalId } = await frameFor('warm', 1)
    const warm = client()
    const serializer = new AvroSerializer(warm, 'warm')
    const deserializer = new AvroDeserializer(warm)
    await serializer.prepare(ctx)
    await deserializer.prepare(globalId)
    registry.inject({ status: 503, times: Number.POSITIVE_INFINITY })
    registry.clearRequests()
    for (let i = 0; i < 10_000; i++) {
      deserializer.deserializeSync(serializer.serializeSync({ id: i }, ctx), ctx)
      await deserializer.deserialize(frame, ctx)
    }
    expect(registry.requests).toHaveLength(0)
    figures['round trips during an outage, warm (requests sent)'] = '20,000 (0)'
  })

  it('a cold id during an outage fails with RegistryConnectionError within the retry bound', async () => {
    const { frame } = await frameFor('cold', 1)
    const down = await server((_, res) => {
      res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"status":503}')
    })
    const cold = client({ url: down })
    const started = performance.now()
    await expect(new AvroDeserializer(cold).deserialize(frame, ctx)).rejects.toMatchObject({
      name: 'RegistryConnectionError',
      status: 503,
    })
    const ms = performance.now() - started
    // 3 attempts, at most 2 waits of min(10·2^k, 50) ms.
    expect(ms).toBeLessThan(1_000)
    figures['cold id during an outage: failed after (ms)'] = Math.round(ms)
  })

  it('an expired latest version is served stale during an outage and replaced once the registry is back', async () => {
    await frameFor('ttl', 1)
    const ttl = client({ cacheTtlMs: 100 })
    const serializer = new AvroSerializer(ttl, 'ttl')
    const first = Buffer.from(await serializer.serialize({ id: 1 }, ctx)).readUInt32BE(1)
    registry.inject({ status: 503, times: Number.POSITIVE_INFINITY })
    await new Promise((resolve) => setTimeout(resolve, 150))
    for (let i = 0; i < 50; i++) {
      const during = Buffer.from(await serializer.serialize({ id: i }, ctx)).readUInt32BE(1)
      expect(during).toBe(first)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    registry.clearFaults()
    const admin = client()
    const next = await admin.registerSchema(
      'ttl',
      { ...SCHEMA, fields: [...SCHEMA.fields, { name: 'x', type: 'int', default: 0 }] },
      { ifExists: 'CREATE_VERSION' },
    )
    let current = first
    const deadline = Date.now() + 10_000
    while (current !== Number(next.globalId) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50))
      current = Buffer.from(await serializer.serialize({ id: 0 }, ctx)).readUInt32BE(1)
    }
    expect(current).toBe(Number(next.globalId))
    figures['latest version expired during an outage'] = 'served stale, replaced after the outage'
  })
})

describe('slow, failing and broken answers', () => {
  it('rides out a 503 storm within the retries, honouring Retry-After up to its cap', async () => {
    const { frame } = await frameFor('storm', 1)
    const retrying = client({ maxRetries: 3, retryBackoffMs: 1, retryMaxBackoffMs: 80 })
    registry.inject({ path: /\/ids\//, status: 503, times: 3 })
    registry.clearRequests()
    await expect(new AvroDeserializer(retrying).deserialize(frame, ctx)).resolves.toEqual({ id: 1 })
    expect(registry.requests).toHaveLength(4)

    const after = client({ maxRetries: 2, retryBackoffMs: 1, retryMaxBackoffMs: 80 })
    registry.inject({ path: /\/ids\//, status: 503, times: 2, headers: { 'Retry-After': '3600' } })
    const started = performance.now()
    await expect(new AvroDeserializer(after).deserialize(frame, ctx)).resolves.toEqual({ id: 1 })
    const ms = performance.now() - started
    // Two waits, each Retry-After capped at retryMaxBackoffMs (80 ms), not an hour.
    expect(ms).toBeGreaterThanOrEqual(150)
    expect(ms).toBeLessThan(2_000)
    figures['503 storm (3 in a row) survived with requests'] = 4
  })

  it('gives up on answers slower than timeoutMs after its attempts', async () => {
    const { frame } = await frameFor('slow', 1)
    const impatient = client({ timeoutMs: 100, maxRetries: 1 })
    registry.inject({ path: /\/ids\//, delayMs: 2_000, times: Number.POSITIVE_INFINITY })
    const started = performance.now()
    await expect(new AvroDeserializer(impatient).deserialize(frame, ctx)).rejects.toMatchObject({
      name: 'RegistryConnectionError',
    })
    const ms = performance.now() - started
    expect(ms).toBeLessThan(1_000)
    figures['answers past timeoutMs (100 ms × 2 attempts): failed after (ms)'] = Math.round(ms)
  })

  it('retries a connection reset in the middle of a body, and reports it when it persists', async () => {
    let requests = 0
    const resetting = await server((_, res) => {
      requests += 1
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' })
      res.write('{"type":"rec')
      setTimeout(() => res.socket?.resetAndDestroy(), 5)
    })
    const broken = client({ url: resetting, maxRetries: 2 })
    await expect(broken.getSchemaByGlobalId(1)).rejects.toMatchObject({ name: 'RegistryConnectionError' })
    expect(requests).toBe(3)
    figures['resets mid-body: attempts before giving up'] = requests
  })

  it('close() with calls in flight rejects them at once, and nothing is left pending', async () => {
    const { frame } = await frameFor('closing', 1)
    const closing = client()
    registry.inject({ path: /\/ids\//, delayMs: 5_000, times: Number.POSITIVE_INFINITY })
    const deserializer = new AvroDeserializer(closing)
    const calls = Array.from({ length: 100 }, () => deserializer.deserialize(frame, ctx))
    await new Promise((resolve) => setTimeout(resolve, 50))
    const started = performance.now()
    await closing.close()
    const results = await Promise.allSettled(calls)
    const ms = performance.now() - started
    expect(results.every((result) => result.status === 'rejected')).toBe(true)
    expect(ms).toBeLessThan(500)
    figures['close() with 100 calls in flight: all rejected after (ms)'] = Math.round(ms)
  })
})

describe('a thundering herd', () => {
  it('10 000 concurrent cold calls over a flapping registry make at most 1 + retries requests', async () => {
    const { frame } = await frameFor('herd', 7)
    const herd = client({ maxRetries: 3, retryBackoffMs: 5 })
    registry.inject({ path: /\/ids\//, status: 503, times: 2 })
    registry.clearRequests()
    const n = count('concurrentColdCalls')
    const deserializer = new AvroDeserializer(herd)
    const started = performance.now()
    const values = await Promise.all(Array.from({ length: n }, () => deserializer.deserialize(frame, ctx)))
    const ms = performance.now() - started
    expect(values.every((value) => (value as { id: number }).id === 7)).toBe(true)
    expect(registry.requests.length).toBeLessThanOrEqual(1 + 3)
    figures[`${n} concurrent cold calls, 2 × 503: requests / time to all (ms)`] =
      `${registry.requests.length} / ${Math.round(ms)}`
  })
})
