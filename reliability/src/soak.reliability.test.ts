import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { count, heapAfterGc, MB, recordFigures, turn } from './support/scale.js'
import { RICH_SCHEMA, richValue } from './support/schemas.js'

// A soak: many round trips on one serializer/deserializer pair, and many distinct schema ids through bounded caches.
// The heap is measured after full collections: what stays must be bounded by the caches, not by the traffic.
// V8's own cache of compiled `new Function` sources is off in this stage (vitest.reliability.config.ts says why), so
// the growth measured is what the library retains.

const ctx = new SerializationContext('soak')
const figures: Record<string, string | number> = {}
let registry: InMemoryRegistry

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
})

afterAll(async () => {
  await registry.close()
  recordFigures('soak', figures)
})

it('round trips of a record with every Avro type leave the heap flat', async () => {
  await using client = new RegistryClient({ url: registry.url, groupId: 'default' })
  const serializer = new AvroSerializer(client, 'soak', { autoRegister: true, schema: RICH_SCHEMA })
  const deserializer = new AvroDeserializer(client)
  const values = Array.from({ length: 64 }, (_, i) => richValue(i))
  const first = await serializer.serialize(values[0], ctx)
  await deserializer.deserialize(first, ctx)
  const n = count('soakRoundTrips')
  for (let i = 0; i < 10_000; i++)
    deserializer.deserializeSync(serializer.serializeSync(values[i & 63], ctx), ctx)
  const before = await heapAfterGc()
  const started = performance.now()
  for (let i = 0; i < n; i++) {
    if (i % 10_000 === 0) await turn()
    deserializer.deserializeSync(Buffer.from(serializer.serializeSync(values[i & 63], ctx)), ctx)
  }
  const seconds = (performance.now() - started) / 1000
  const growth = (await heapAfterGc()) - before
  expect(growth).toBeLessThan(8 * MB)
  Object.assign(figures, {
    'round trips (serializeSync + deserializeSync of a copy)': n,
    'round trips per second': Math.round(n / seconds),
    'heap growth after them (MB)': Number((growth / MB).toFixed(2)),
  })
})

it('distinct schema ids far beyond the cache bound keep the heap bounded by the caches', async () => {
  const schemaOf = (id: number) =>
    JSON.stringify({
      type: 'record',
      name: `R${id}`,
      namespace: 'soak',
      fields: [{ name: 'v', type: 'long' }],
    })
  let requests = 0
  // The registry answers in process (a fetch, no sockets), so that 100 000 lookups measure the caches, not the network.
  const fetch = async (input: string | URL | Request): Promise<Response> => {
    requests += 1
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url)
    const id = /\/ids\/globalIds\/(\d+)$/.exec(url.pathname)?.[1]
    if (id === undefined) return new Response('{"status":404}', { status: 404 })
    return new Response(schemaOf(Number(id)), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    })
  }
  const bound = 1_000
  await using client = new RegistryClient({
    url: 'http://soak.invalid/apis/registry/v3',
    groupId: 'g',
    fetch,
    cacheMaxSize: bound,
  })
  const deserializer = new AvroDeserializer(client)
  const frame = (id: number) =>
    Buffer.from([0, (id >>> 24) & 0xff, (id >>> 16) & 0xff, (id >>> 8) & 0xff, id & 0xff, 2])
  const n = count('soakArtifacts')
  for (let id = 1; id <= 2 * bound; id++) await deserializer.deserialize(frame(id), ctx)
  const full = await heapAfterGc()
  const started = performance.now()
  for (let id = 2 * bound + 1; id <= n; id++) {
    if (id % 100 === 0) await turn()
    const value = (await deserializer.deserialize(frame(id), ctx)) as { v: number }
    if (value.v !== 1) throw new Error(`id ${id} read ${JSON.stringify(value)}`)
  }
  const seconds = (performance.now() - started) / 1000
  const growth = (await heapAfterGc()) - full
  expect(requests).toBe(n)
  expect(growth).toBeLessThan(16 * MB)
  Object.assign(figures, {
    'distinct schema ids read (cache bound 1 000)': n,
    'ids per second (each a lookup and a parse)': Math.round((n - 2 * bound) / seconds),
    'heap growth once the caches were full (MB)': Number((growth / MB).toFixed(2)),
  })
})
