import {
  AuthenticationError,
  RegistryConnectionError,
  SchemaNotFoundError,
  SchemaRegistrationError,
} from '@x/errors'
import { InMemoryRegistry, type InMemoryRegistryOptions } from '@x/registry-testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RegistryClient, type RegistryClientOptions, type TokenProvider } from './index.js'
import { recordingSleep } from './test-support/http-fixture.js'

const USER = {
  type: 'record',
  name: 'User',
  namespace: 'com.example',
  fields: [{ name: 'id', type: 'long' }],
}
const USER_TEXT = JSON.stringify(USER)
const API = '/apis/registry/v3'

let registry: InMemoryRegistry
const clients: RegistryClient[] = []

async function startRegistry(options: InMemoryRegistryOptions = {}): Promise<void> {
  await registry?.close()
  registry = await InMemoryRegistry.start(options)
}

beforeEach(async () => {
  registry = await InMemoryRegistry.start()
})

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  await registry.close()
})

function newClient(options: Partial<RegistryClientOptions> = {}): RegistryClient {
  const client = new RegistryClient({ url: registry.url, groupId: 'orders', ...options })
  clients.push(client)
  return client
}

/** The requests the registry saw, as `METHOD path` (path below the API root). */
function seen(): string[] {
  return registry.requests.map((r) => `${r.method} ${r.path.slice(API.length)}`)
}

describe('RegistryClient against InMemoryRegistry', () => {
  it('registers a schema and reads it back by latest version, globalId and contentId', async () => {
    const registered = await newClient().registerSchema('user', USER)
    expect(registered).toMatchObject({
      schema: USER_TEXT,
      groupId: 'orders',
      artifactId: 'user',
      version: '1',
    })
    registry.clearRequests()

    const reader = newClient()
    const latest = await reader.getSchema('user')
    expect(latest).toEqual({
      schema: USER_TEXT,
      globalId: registered.globalId,
      contentId: registered.contentId,
      groupId: 'orders',
      artifactId: 'user',
      version: '1',
      artifactType: 'AVRO',
      references: [],
    })
    expect(seen()).toEqual([
      'GET /groups/orders/artifacts/user/versions/branch=latest',
      `GET /ids/globalIds/${registered.globalId}`,
    ])
    await expect(reader.getSchemaByGlobalId(registered.globalId ?? 0)).resolves.toEqual(latest)
    await expect(reader.getSchemaByContentId(registered.contentId ?? 0)).resolves.toEqual({
      schema: USER_TEXT,
      contentId: registered.contentId,
      references: [],
    })
    expect(registry.requests).toHaveLength(2)
    // One content lookup tells the format too: the reader of any format needs no other request.
    expect(registry.requests[1]?.query).toEqual({ returnArtifactType: 'true' })
  })

  it('finds the same version again with FIND_OR_CREATE_VERSION, adds one with CREATE_VERSION, refuses with FAIL', async () => {
    const client = newClient()
    const first = await client.registerSchema('user', USER)
    const again = await client.registerSchema('user', USER_TEXT)
    expect(again.globalId).toBe(first.globalId)
    expect(again.version).toBe('1')
    const second = await client.registerSchema('user', USER, { ifExists: 'CREATE_VERSION' })
    expect(second.version).toBe('2')
    expect(second.globalId).not.toBe(first.globalId)
    expect(second.contentId).toBe(first.contentId)
    const error = await client.registerSchema('user', USER, { ifExists: 'FAIL' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SchemaRegistrationError)
    expect(error).toMatchObject({ artifactId: 'user', status: 409 })
    // CREATE_VERSION made version 2 the latest, and the client knows it without asking.
    registry.clearRequests()
    await expect(client.getSchema('user')).resolves.toEqual(second)
    expect(registry.requests).toHaveLength(0)
  })

  it('round-trips group and artifact ids that need percent-encoding', async () => {
    // Apicurio itself refuses `%` and non-ASCII characters in artifact ids (400), so they are left out here.
    const client = newClient({ groupId: 'a/b c' })
    const registered = await client.registerSchema('x/y z?#&', '"string"')
    const latest = await newClient({ groupId: 'a/b c' }).getSchema('x/y z?#&')
    expect(latest).toMatchObject({
      schema: '"string"',
      globalId: registered.globalId,
      artifactId: 'x/y z?#&',
      groupId: 'a/b c',
    })
    expect(registry.requests.at(-2)?.path).toBe(
      `${API}/groups/a%2Fb%20c/artifacts/x%2Fy%20z%3F%23%26/versions/branch=latest`,
    )
  })

  it('keeps ids beyond 2^53 and up to 2^63 - 1 exact', async () => {
    await startRegistry({ firstGlobalId: 2n ** 53n + 1n, firstContentId: 2n ** 63n - 1n })
    const registered = await newClient().registerSchema('big', USER)
    expect(registered.globalId).toBe(9007199254740993n)
    expect(registered.contentId).toBe(9223372036854775807n)
    const reader = newClient()
    await expect(reader.getSchema('big')).resolves.toMatchObject({
      globalId: 9007199254740993n,
      contentId: 9223372036854775807n,
    })
    await expect(reader.getSchemaByContentId(9223372036854775807n)).resolves.toMatchObject({
      schema: USER_TEXT,
    })
    expect(seen()).toContain('GET /ids/globalIds/9007199254740993')
  })

  it('registers with references and reads them and the referenced version in another group', async () => {
    const address = {
      type: 'record',
      name: 'Address',
      namespace: 'com.example',
      fields: [{ name: 'street', type: 'string' }],
    }
    const common = newClient({ groupId: 'common' })
    const registeredAddress = await common.registerSchema('com.example.Address', address)
    const references = [
      {
        groupId: 'common',
        artifactId: 'com.example.Address',
        version: registeredAddress.version ?? '1',
        name: 'com.example.Address',
      },
    ]
    const customer = {
      type: 'record',
      name: 'Customer',
      namespace: 'com.example',
      fields: [{ name: 'home', type: 'com.example.Address' }],
    }
    const registered = await newClient().registerSchema('customer', customer, { references })
    expect(registered.references).toEqual(references)

    const reader = newClient()
    const found = await reader.getReferencesByGlobalId(registered.globalId ?? 0)
    expect(found).toEqual(references)
    await expect(reader.getReferencesByContentId(registered.contentId ?? 0)).resolves.toEqual(references)
    const [reference] = found
    const resolved = await reader.getSchemaVersion(reference?.artifactId ?? '', reference?.version ?? '', {
      groupId: reference?.groupId ?? '',
    })
    expect(resolved).toMatchObject({
      schema: JSON.stringify(address),
      globalId: registeredAddress.globalId,
      groupId: 'common',
    })
  })

  it('finds where an id lives with one search per id, shared by concurrent callers, and says when none has it', async () => {
    const registered = await newClient().registerSchema('user', USER)
    registry.clearRequests()
    const reader = newClient()
    const found = await Promise.all([1, 2, 3].map(() => reader.findVersionOfId(registered.globalId ?? 0)))
    expect(found).toEqual([1, 2, 3].map(() => ({ groupId: 'orders', artifactId: 'user', version: '1' })))
    await expect(reader.findVersionOfId(registered.contentId ?? 0, 'contentId')).resolves.toEqual({
      groupId: 'orders',
      artifactId: 'user',
      version: '1',
    })
    await expect(reader.findVersionOfId(987654321)).resolves.toBeUndefined()
    await expect(reader.findVersionOfId(987654321)).resolves.toBeUndefined()
    await expect(reader.findVersionOfId(registered.globalId ?? 0)).resolves.toMatchObject({
      artifactId: 'user',
    })
    expect(registry.requests.map((r) => [r.path.slice(API.length), r.query])).toEqual([
      ['/search/versions', { globalId: String(registered.globalId), limit: '1' }],
      ['/search/versions', { contentId: String(registered.contentId), limit: '1' }],
      ['/search/versions', { globalId: '987654321', limit: '1' }],
    ])
    await expect(reader.findVersionOfId(1.5)).rejects.toBeInstanceOf(RangeError)
    await expect(reader.findVersionOfId(1, 'nonsense' as never)).rejects.toBeInstanceOf(TypeError)
  })

  it('makes exactly one request for 1000 concurrent lookups of one globalId', async () => {
    const { globalId } = await newClient().registerSchema('user', USER)
    registry.clearRequests()
    registry.inject({ path: `/ids/globalIds/${globalId}`, delayMs: 20 })
    const reader = newClient()
    const results = await Promise.all(
      Array.from({ length: 1000 }, () => reader.getSchemaByGlobalId(globalId ?? 0)),
    )
    expect(registry.requests).toHaveLength(1)
    expect(new Set(results).size).toBe(1)
  })

  it('makes one metadata and one content request for 100 concurrent getSchema calls', async () => {
    await newClient().registerSchema('user', USER)
    registry.clearRequests()
    const reader = newClient()
    await Promise.all(Array.from({ length: 100 }, () => reader.getSchema('user')))
    expect(registry.requests).toHaveLength(2)
  })

  it('runs 50 concurrent registrations of different artifacts without a listener-leak warning', async () => {
    const warnings: Error[] = []
    const onWarning = (warning: Error): void => {
      warnings.push(warning)
    }
    process.on('warning', onWarning)
    try {
      const client = newClient()
      const names = Array.from({ length: 50 }, (_, i) => `Concurrent${i}`)
      const answers = await Promise.all(names.map((name) => client.registerSchema(name, { ...USER, name })))
      expect(new Set(answers.map((a) => a.globalId)).size).toBe(50)
      await new Promise((resolve) => setImmediate(resolve))
      expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning')
    } finally {
      process.off('warning', onWarning)
    }
  })

  it('sends nothing when the call is aborted right after it was made', async () => {
    const client = newClient()
    const controller = new AbortController()
    const call = client.registerSchema('aborted', USER, { signal: controller.signal })
    controller.abort(new Error('changed my mind'))
    await expect(call).rejects.toThrow('changed my mind')
    expect(registry.requests).toHaveLength(0)
  })

  it('answers a fast key while a slow one is still waiting', async () => {
    const client = newClient()
    const slowId = (await client.registerSchema('slow', USER)).globalId ?? 0
    const fastId = (await client.registerSchema('fast', '"string"')).globalId ?? 0
    registry.inject({ path: `/ids/globalIds/${slowId}`, delayMs: 2000 })
    const reader = newClient()
    let slowDone = false
    const slow = reader.getSchemaByGlobalId(slowId).then(() => {
      slowDone = true
    })
    await expect(reader.getSchemaByGlobalId(fastId)).resolves.toMatchObject({ schema: '"string"' })
    expect(slowDone).toBe(false)
    await reader.close()
    await slow.catch(() => undefined)
  })

  it('is a true LRU counted by requests: with cacheMaxSize 2, A B A C evicts B and keeps A', async () => {
    const writer = newClient()
    const ids = []
    for (const name of ['a', 'b', 'c'])
      ids.push((await writer.registerSchema(name, { type: 'enum', name, symbols: ['X'] })).globalId ?? 0)
    const [a, b, c] = ids as [number, number, number]
    registry.clearRequests()
    const reader = newClient({ cacheMaxSize: 2 })
    for (const id of [a, b, a, c, a]) await reader.getSchemaByGlobalId(id)
    expect(seen()).toEqual([`GET /ids/globalIds/${a}`, `GET /ids/globalIds/${b}`, `GET /ids/globalIds/${c}`])
    await reader.getSchemaByGlobalId(b)
    expect(seen().at(-1)).toBe(`GET /ids/globalIds/${b}`)
    expect(registry.requests).toHaveLength(4)
  })

  it('sees a new latest version once cacheTtlMs has run out on the injected clock', async () => {
    const writer = newClient()
    await writer.registerSchema('user', USER)
    let now = 1000
    const reader = newClient({ cacheTtlMs: 30_000, timing: { now: () => now } })
    await expect(reader.getSchema('user')).resolves.toMatchObject({ version: '1' })
    await writer.registerSchema('user', '"string"', { ifExists: 'CREATE_VERSION' })
    now = 30_999
    await expect(reader.getSchema('user')).resolves.toMatchObject({ version: '1' })
    now = 31_000
    await expect(reader.getSchema('user')).resolves.toMatchObject({ version: '2', schema: '"string"' })
  })

  it('lists every artifact of the group over several pages', async () => {
    const writer = newClient()
    const names = Array.from({ length: 205 }, (_, i) => `artifact-${String(i).padStart(3, '0')}`)
    for (const name of names) await writer.registerSchema(name, '"int"')
    await newClient({ groupId: 'elsewhere' }).registerSchema('other', '"int"')
    registry.clearRequests()
    await expect(newClient().listArtifacts()).resolves.toEqual(names)
    expect(registry.requests.map((r) => r.query.offset)).toEqual(['0', '100', '200'])
  })

  it('maps 404s of the registry to SchemaNotFoundError', async () => {
    const client = newClient()
    await expect(client.getSchema('missing')).rejects.toMatchObject({
      name: 'SchemaNotFoundError',
      artifactId: 'missing',
    })
    const error = await client.getSchemaByGlobalId(424242).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SchemaNotFoundError)
    expect(error).toMatchObject({ idType: 'globalId', idValue: 424242 })
    await expect(client.getSchemaVersion('missing', '3')).rejects.toMatchObject({ version: '3' })
  })
})

describe('RegistryClient faults against InMemoryRegistry', () => {
  it('retries injected 503s and then succeeds, with the exact waits', async () => {
    const { globalId } = await newClient().registerSchema('user', USER)
    registry.clearRequests()
    registry.inject({ path: `/ids/globalIds/${globalId}`, status: 503, times: 2 })
    const sleeper = recordingSleep()
    const reader = newClient({ timing: { sleep: sleeper.sleep, random: () => 0.5 } })
    await expect(reader.getSchemaByGlobalId(globalId ?? 0)).resolves.toMatchObject({ schema: USER_TEXT })
    expect(registry.requests).toHaveLength(3)
    expect(sleeper.delays).toEqual([500, 1000])
  })

  it('gives up after 1 + maxRetries attempts with RegistryConnectionError', async () => {
    registry.inject({ status: 429, headers: { 'Retry-After': '2' }, times: Number.POSITIVE_INFINITY })
    const sleeper = recordingSleep()
    const client = newClient({ maxRetries: 2, timing: { sleep: sleeper.sleep } })
    const error = await client.getSchemaByContentId(1).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RegistryConnectionError)
    expect(error).toMatchObject({ status: 429 })
    expect(registry.requests).toHaveLength(3)
    expect(sleeper.delays).toEqual([2000, 2000])
  })

  it('repeats a registration reset after sending only with FIND_OR_CREATE_VERSION, creating one version', async () => {
    const sleeper = recordingSleep()
    const client = newClient({ timing: { sleep: sleeper.sleep } })
    registry.inject({ method: 'POST', reset: true })
    await expect(client.registerSchema('once', USER, { ifExists: 'FAIL' })).rejects.toBeInstanceOf(
      RegistryConnectionError,
    )
    expect(registry.requests).toHaveLength(1)
    registry.inject({ method: 'POST', reset: true })
    const registered = await client.registerSchema('twice', USER)
    expect(registered.version).toBe('1')
    expect(registry.requests).toHaveLength(3)
  })

  it('times out an attempt after timeoutMs and retries it', async () => {
    const { globalId } = await newClient().registerSchema('user', USER)
    registry.clearRequests()
    registry.inject({ path: `/ids/globalIds/${globalId}`, delayMs: 5000 })
    const reader = newClient({ timeoutMs: 100, timing: { sleep: recordingSleep().sleep } })
    await expect(reader.getSchemaByGlobalId(globalId ?? 0)).resolves.toMatchObject({ schema: USER_TEXT })
    expect(registry.requests).toHaveLength(2)
  })
})

describe('RegistryClient authentication against InMemoryRegistry', () => {
  function provider(tokens: string[]): TokenProvider & { invalidated: (string | undefined)[]; gets: number } {
    let index = 0
    const p = {
      invalidated: [] as (string | undefined)[],
      gets: 0,
      getToken: async () => {
        p.gets += 1
        return tokens[Math.min(index, tokens.length - 1)] ?? ''
      },
      invalidate: (token?: string) => {
        p.invalidated.push(token)
        index += 1
      },
    }
    return p
  }

  it('invalidates a refused token once and repeats once with a fresh one', async () => {
    await startRegistry({ auth: (token) => token === 'good' })
    const auth = provider(['expired', 'good'])
    await expect(newClient({ auth }).registerSchema('user', USER)).resolves.toMatchObject({ version: '1' })
    expect(auth.invalidated).toEqual(['expired'])
    expect(auth.gets).toBe(2)
    expect(registry.requests.map((r) => r.headers.authorization)).toEqual(['Bearer expired', 'Bearer good'])
  })

  it('rejects with AuthenticationError after exactly one repeat', async () => {
    await startRegistry({ auth: () => false })
    const auth = provider(['a', 'b', 'c'])
    const error = await newClient({ auth })
      .getSchema('user')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error).toMatchObject({ status: 401 })
    expect(auth.invalidated).toEqual(['a'])
    expect(registry.requests).toHaveLength(2)
  })

  it('rejects at once without auth', async () => {
    await startRegistry({ auth: () => true })
    await expect(newClient().getSchema('user')).rejects.toBeInstanceOf(AuthenticationError)
    expect(registry.requests).toHaveLength(1)
  })
})
