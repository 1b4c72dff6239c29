import { ClientClosedError } from '@x/errors'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RegistryClient } from './index.js'
import {
  createArtifactResponse,
  HttpFixture,
  problem,
  reply,
  routes,
  versionMetadata,
} from './test-support/http-fixture.js'

const SCHEMA = '{"type":"record","name":"User","fields":[{"name":"id","type":"long"}]}'

let fixture: HttpFixture
let client: RegistryClient

beforeEach(async () => {
  fixture = await HttpFixture.start()
})

afterEach(async () => {
  await client?.close()
  await fixture.close()
})

function newClient(options: Partial<ConstructorParameters<typeof RegistryClient>[0]> = {}): RegistryClient {
  client = new RegistryClient({ url: fixture.url, groupId: 'orders', maxRetries: 0, ...options })
  return client
}

describe('getSchema (latest version)', () => {
  it('asks for branch=latest metadata, then the content by globalId, and tells every field', async () => {
    fixture.handle(
      routes({
        'GET /groups/orders/artifacts/user/versions/branch=latest': {
          body: versionMetadata({
            groupId: 'orders',
            artifactId: 'user',
            version: '3',
            globalId: 47,
            contentId: 64,
          }),
        },
        'GET /ids/globalIds/47?returnArtifactType=true': { body: SCHEMA },
      }),
    )
    const schema = await newClient().getSchema('user')
    expect(schema).toEqual({
      schema: SCHEMA,
      globalId: 47,
      contentId: 64,
      groupId: 'orders',
      artifactId: 'user',
      version: '3',
      artifactType: 'AVRO',
      references: [],
    })
    expect(fixture.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /groups/orders/artifacts/user/versions/branch=latest',
      'GET /ids/globalIds/47?returnArtifactType=true',
    ])
  })

  it('percent-encodes group and artifact ids and keeps branch=latest literal', async () => {
    fixture.handle(
      routes({
        'GET /groups/a%2Fb%20c/artifacts/x%2Fy%20z%3F%23%25/versions/branch=latest': {
          body: versionMetadata({ groupId: 'a/b c', artifactId: 'x/y z?#%', globalId: 1, contentId: 2 }),
        },
        'GET /ids/globalIds/1?returnArtifactType=true': { body: SCHEMA },
      }),
    )
    const schema = await newClient({ groupId: 'a/b c' }).getSchema('x/y z?#%')
    expect(schema.artifactId).toBe('x/y z?#%')
    expect(fixture.requests).toHaveLength(2)
  })

  it('fills groupId from the request when the registry leaves it out (the default group)', async () => {
    fixture.handle(
      routes({
        'GET /groups/default/artifacts/user/versions/branch=latest': {
          body: versionMetadata({ artifactId: 'user', globalId: 5, contentId: 6 }),
        },
        'GET /ids/globalIds/5?returnArtifactType=true': { body: SCHEMA },
      }),
    )
    expect((await newClient({ groupId: 'default' }).getSchema('user')).groupId).toBe('default')
  })

  it('makes no content request when the globalId is already cached', async () => {
    fixture.handle(
      routes({
        'GET /ids/globalIds/47?returnArtifactType=true': { body: SCHEMA },
        'GET /groups/orders/artifacts/user/versions/branch=latest': {
          body: versionMetadata({ groupId: 'orders', artifactId: 'user', globalId: 47, contentId: 64 }),
        },
      }),
    )
    const c = newClient()
    await c.getSchemaByGlobalId(47)
    const latest = await c.getSchema('user')
    expect(latest.schema).toBe(SCHEMA)
    expect(fixture.count('/ids/globalIds/47?returnArtifactType=true')).toBe(1)
    expect(fixture.requests).toHaveLength(2)
    // The lookup by globalId now tells the coordinates learnt from the metadata.
    await expect(c.getSchemaByGlobalId(47)).resolves.toEqual(latest)
    expect(fixture.requests).toHaveLength(2)
  })

  it('makes one request per key while cached', async () => {
    fixture.handle(
      routes({
        'GET /groups/orders/artifacts/user/versions/branch=latest': {
          body: versionMetadata({ groupId: 'orders', artifactId: 'user', globalId: 47, contentId: 64 }),
        },
        'GET /ids/globalIds/47?returnArtifactType=true': { body: SCHEMA },
      }),
    )
    const c = newClient()
    for (let i = 0; i < 5; i += 1) await c.getSchema('user')
    await c.getSchemaByContentId(64)
    expect(fixture.requests).toHaveLength(2)
    expect(c.peekSchema('user')?.globalId).toBe(47)
    expect(c.peekSchemaById('contentId', 64)).toEqual({ schema: SCHEMA, contentId: 64, references: [] })
  })

  it('refetches the metadata (but not the content) once cacheTtlMs has run out on the injected clock', async () => {
    let globalId = 47
    fixture.handle(
      routes({
        'GET /groups/orders/artifacts/user/versions/branch=latest': () => ({
          body: versionMetadata({ groupId: 'orders', artifactId: 'user', globalId, contentId: 64 }),
        }),
        'GET /ids/globalIds/47?returnArtifactType=true': { body: SCHEMA },
        'GET /ids/globalIds/48?returnArtifactType=true': { body: '"string"' },
      }),
    )
    let now = 1_000
    const c = newClient({ cacheTtlMs: 60_000, timing: { now: () => now } })
    await c.getSchema('user')
    now = 60_999
    await c.getSchema('user')
    expect(fixture.count(/versions/)).toBe(1)
    now = 61_000
    await c.getSchema('user')
    expect(fixture.count(/versions/)).toBe(2)
    expect(fixture.count('/ids/globalIds/47?returnArtifactType=true')).toBe(1)
    globalId = 48
    now = 200_000
    const newer = await c.getSchema('user')
    expect(newer).toMatchObject({ schema: '"string"', globalId: 48 })
    // Entries by id never expire.
    now = 10 ** 12
    await c.getSchemaByGlobalId(47)
    expect(fixture.count('/ids/globalIds/47?returnArtifactType=true')).toBe(1)
  })

  it('serves an expired latest version while the registry is down, without waiting, and refreshes it when it is back', async () => {
    let globalId = 47
    let down = false
    const healthy = routes({
      'GET /groups/orders/artifacts/user/versions/branch=latest': () => ({
        body: versionMetadata({ groupId: 'orders', artifactId: 'user', globalId, contentId: 64 }),
      }),
      'GET /ids/globalIds/47?returnArtifactType=true': { body: SCHEMA },
      'GET /ids/globalIds/48?returnArtifactType=true': { body: '"string"' },
    })
    fixture.handle((request, res) =>
      down ? problem(res, 503, 'Down for maintenance') : healthy(request, res),
    )
    let now = 1_000
    const c = newClient({ cacheTtlMs: 60_000, timing: { now: () => now } })
    await c.getSchema('user')
    down = true
    now = 61_000
    // The refresh fails (one request, maxRetries 0): the stale version is the answer, not the 503.
    await expect(c.getSchema('user')).resolves.toMatchObject({ globalId: 47 })
    expect(fixture.requests).toHaveLength(3)
    // Served stale from then on without a request, until min(ttl, 5 s) has passed.
    now = 65_999
    await expect(c.getSchema('user')).resolves.toMatchObject({ globalId: 47 })
    expect(fixture.requests).toHaveLength(3)
    // Then one background refresh per call that finds it due; the caller still gets the stale version at once.
    globalId = 48
    down = false
    now = 66_000
    await expect(c.getSchema('user')).resolves.toMatchObject({ globalId: 47 })
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(fixture.requests).toHaveLength(5)
    await expect(c.getSchema('user')).resolves.toMatchObject({ schema: '"string"', globalId: 48 })
    expect(fixture.requests).toHaveLength(5)
  })

  it('does not serve an expired version stale when the artifact is gone (404) or the answer is unusable', async () => {
    let answer: 'ok' | 'gone' = 'ok'
    const healthy = routes({
      'GET /groups/orders/artifacts/user/versions/branch=latest': {
        body: versionMetadata({ groupId: 'orders', artifactId: 'user', globalId: 47, contentId: 64 }),
      },
      'GET /ids/globalIds/47?returnArtifactType=true': { body: SCHEMA },
    })
    fixture.handle((request, res) =>
      answer === 'gone' ? problem(res, 404, 'No artifact with ID user') : healthy(request, res),
    )
    let now = 1_000
    const c = newClient({ cacheTtlMs: 60_000, timing: { now: () => now } })
    await c.getSchema('user')
    answer = 'gone'
    now = 61_000
    await expect(c.getSchema('user')).rejects.toMatchObject({ name: 'SchemaNotFoundError' })
    expect(c.peekSchema('user')).toBeUndefined()
  })

  it('does not cache a failed lookup', async () => {
    fixture.handle((_, res) => problem(res, 404, 'No version found'))
    const c = newClient()
    await expect(c.getSchema('user')).rejects.toMatchObject({ name: 'SchemaNotFoundError' })
    await expect(c.getSchema('user')).rejects.toMatchObject({ name: 'SchemaNotFoundError' })
    expect(fixture.requests).toHaveLength(2)
  })
})

describe('getSchemaVersion', () => {
  it('reads a literal version of an artifact in another group, then its content by globalId', async () => {
    fixture.handle(
      routes({
        'GET /groups/common/artifacts/com.example.Address/versions/1.0%2Bb': {
          body: versionMetadata({
            groupId: 'common',
            artifactId: 'com.example.Address',
            version: '1.0+b',
            globalId: 9,
            contentId: 10,
          }),
        },
        'GET /ids/globalIds/9?returnArtifactType=true': {
          body: '{"type":"fixed","name":"Address","size":4}',
        },
      }),
    )
    const c = newClient()
    const schema = await c.getSchemaVersion('com.example.Address', '1.0+b', { groupId: 'common' })
    expect(schema).toEqual({
      schema: '{"type":"fixed","name":"Address","size":4}',
      globalId: 9,
      contentId: 10,
      groupId: 'common',
      artifactId: 'com.example.Address',
      version: '1.0+b',
      artifactType: 'AVRO',
      references: [],
    })
    await c.getSchemaVersion('com.example.Address', '1.0+b', { groupId: 'common' })
    expect(fixture.requests).toHaveLength(2)
  })

  it("defaults to the client's group and keeps branch expressions literal", async () => {
    fixture.handle(
      routes({
        'GET /groups/orders/artifacts/user/versions/branch=latest': {
          body: versionMetadata({ groupId: 'orders', artifactId: 'user', globalId: 3, contentId: 4 }),
        },
        'GET /ids/globalIds/3?returnArtifactType=true': { body: SCHEMA },
      }),
    )
    await expect(newClient().getSchemaVersion('user', 'branch=latest')).resolves.toMatchObject({
      globalId: 3,
    })
  })

  it('rejects an empty version or group with a TypeError', async () => {
    const c = newClient()
    await expect(c.getSchemaVersion('user', '')).rejects.toMatchObject({
      name: 'TypeError',
      code: 'INVALID_CONFIG',
    })
    await expect(c.getSchemaVersion('user', '1', { groupId: '' })).rejects.toThrow(TypeError)
    await expect(c.getSchema('')).rejects.toThrow('artifactId must be a non-empty string')
    expect(fixture.requests).toHaveLength(0)
  })
})

describe('lookups by identifier', () => {
  it('reads content by globalId and by contentId as text whatever the Content-Type', async () => {
    fixture.handle((request, res) => {
      if (request.path === '/ids/globalIds/7?returnArtifactType=true')
        reply(res, 200, SCHEMA, { 'content-type': 'application/octet-stream' })
      else if (request.path === '/ids/contentIds/8') reply(res, 200, SCHEMA, { 'content-type': 'text/plain' })
      else problem(res, 404, 'nope')
    })
    const c = newClient()
    await expect(c.getSchemaByGlobalId(7)).resolves.toEqual({ schema: SCHEMA, globalId: 7, references: [] })
    await expect(c.getSchemaByContentId(8)).resolves.toEqual({ schema: SCHEMA, contentId: 8, references: [] })
    expect(fixture.requests.map((r) => r.path)).toEqual([
      '/ids/globalIds/7?returnArtifactType=true',
      '/ids/contentIds/8',
    ])
  })

  it('makes exactly one request for 1000 concurrent lookups of one globalId', async () => {
    fixture.handle(async (_, res) => {
      await new Promise((resolve) => setTimeout(resolve, 20))
      reply(res, 200, SCHEMA)
    })
    const c = newClient()
    const results = await Promise.all(Array.from({ length: 1000 }, () => c.getSchemaByGlobalId(47)))
    expect(fixture.requests).toHaveLength(1)
    expect(new Set(results).size).toBe(1)
    expect(results[0]).toEqual({ schema: SCHEMA, globalId: 47, references: [] })
  })

  it('treats 5 and 5n as the same key', async () => {
    fixture.handle((_, res) => reply(res, 200, SCHEMA))
    const c = newClient()
    await c.getSchemaByGlobalId(5)
    await c.getSchemaByGlobalId(5n)
    expect(fixture.requests).toHaveLength(1)
    expect(c.peekSchemaById('globalId', 5n)).toEqual({ schema: SCHEMA, globalId: 5, references: [] })
  })

  it('does not hold up one key behind a slow one', async () => {
    fixture.handle(async (request, res) => {
      if (request.path === '/ids/globalIds/1?returnArtifactType=true') await fixture.hang()
      reply(res, 200, SCHEMA)
    })
    const c = newClient()
    const slow = c.getSchemaByGlobalId(1)
    slow.catch(() => undefined)
    await expect(c.getSchemaByGlobalId(2)).resolves.toEqual({ schema: SCHEMA, globalId: 2, references: [] })
    expect(fixture.requests.map((r) => r.path).sort()).toEqual([
      '/ids/globalIds/1?returnArtifactType=true',
      '/ids/globalIds/2?returnArtifactType=true',
    ])
  })

  it('is a true LRU: with cacheMaxSize 2, A B A C evicts B and keeps A', async () => {
    fixture.handle((_, res) => reply(res, 200, SCHEMA))
    const c = newClient({ cacheMaxSize: 2 })
    for (const id of [1, 2, 1, 3]) await c.getSchemaByGlobalId(id)
    expect(fixture.requests.map((r) => r.path)).toEqual([
      '/ids/globalIds/1?returnArtifactType=true',
      '/ids/globalIds/2?returnArtifactType=true',
      '/ids/globalIds/3?returnArtifactType=true',
    ])
    await c.getSchemaByGlobalId(1)
    expect(fixture.requests).toHaveLength(3)
    await c.getSchemaByGlobalId(2)
    expect(fixture.requests).toHaveLength(4)
    expect(fixture.requests[3]?.path).toBe('/ids/globalIds/2?returnArtifactType=true')
  })

  it('peekSchemaById answers from the cache only and promotes the entry', async () => {
    fixture.handle((_, res) => reply(res, 200, SCHEMA))
    const c = newClient({ cacheMaxSize: 2 })
    expect(c.peekSchemaById('globalId', 1)).toBeUndefined()
    await c.getSchemaByGlobalId(1)
    await c.getSchemaByGlobalId(2)
    expect(c.peekSchemaById('globalId', 1)?.globalId).toBe(1)
    await c.getSchemaByGlobalId(3)
    expect(c.peekSchemaById('globalId', 2)).toBeUndefined()
    expect(c.peekSchemaById('globalId', 1)?.globalId).toBe(1)
    expect(c.peekSchemaById('contentId', 1)).toBeUndefined()
    expect(() => c.peekSchemaById('version' as never, 1)).toThrow(TypeError)
    expect(fixture.requests).toHaveLength(3)
  })

  it('reads references once per id, also under concurrency', async () => {
    const refs =
      '[{"groupId":"common","artifactId":"addr","version":"1","name":"com.ex.Address"},{"artifactId":"x","name":"com.ex.X"}]'
    fixture.handle(
      routes({
        'GET /ids/globalIds/70/references': { body: refs },
        'GET /ids/contentIds/95/references': { body: '[]' },
      }),
    )
    const c = newClient()
    const all = await Promise.all(Array.from({ length: 50 }, () => c.getReferencesByGlobalId(70)))
    expect(all[0]).toEqual([
      { groupId: 'common', artifactId: 'addr', version: '1', name: 'com.ex.Address' },
      { artifactId: 'x', name: 'com.ex.X' },
    ])
    await c.getReferencesByGlobalId(70)
    await expect(c.getReferencesByContentId(95)).resolves.toEqual([])
    await c.getReferencesByContentId(95)
    expect(fixture.requests.map((r) => r.path)).toEqual([
      '/ids/globalIds/70/references',
      '/ids/contentIds/95/references',
    ])
  })
})

describe('identifiers are exact', () => {
  it('keeps globalId 9007199254740993 and 9223372036854775807 exact as bigints', async () => {
    fixture.handle(
      routes({
        'GET /groups/orders/artifacts/big/versions/branch=latest': {
          body: versionMetadata({
            groupId: 'orders',
            artifactId: 'big',
            globalId: '9007199254740993',
            contentId: '9223372036854775807',
          }),
        },
        'GET /ids/globalIds/9007199254740993?returnArtifactType=true': { body: SCHEMA },
      }),
    )
    const schema = await newClient().getSchema('big')
    expect(schema.globalId).toBe(9007199254740993n)
    expect(schema.contentId).toBe(9223372036854775807n)
    expect(fixture.requests[1]?.path).toBe('/ids/globalIds/9007199254740993?returnArtifactType=true')
  })

  it('refuses globalId 9223372036854775808 in metadata with a RangeError naming globalId', async () => {
    fixture.handle(
      routes({
        'GET /groups/orders/artifacts/big/versions/branch=latest': {
          body: versionMetadata({
            groupId: 'orders',
            artifactId: 'big',
            globalId: '9223372036854775808',
            contentId: 1,
          }),
        },
      }),
    )
    const error = await newClient()
      .getSchema('big')
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RangeError)
    expect(error).toMatchObject({ code: 'ID_OUT_OF_RANGE' })
    expect((error as Error).message).toContain('globalId 9223372036854775808')
  })

  it('refuses a contentId below signed 64-bit in a registration answer with a RangeError naming contentId', async () => {
    fixture.handle((_, res) =>
      reply(
        res,
        200,
        createArtifactResponse({ artifactId: 'a', globalId: 1, contentId: '-9223372036854775809' }),
      ),
    )
    const error = await newClient()
      .registerSchema('a', SCHEMA)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RangeError)
    expect((error as Error).message).toContain('contentId -9223372036854775809')
  })

  it('validates ids handed in: an unsafe number, a fraction, another type or a bigint beyond 64-bit', async () => {
    const c = newClient()
    const outOfRange = { name: 'RangeError', code: 'ID_OUT_OF_RANGE' }
    await expect(c.getSchemaByGlobalId(2 ** 60)).rejects.toMatchObject(outOfRange)
    await expect(c.getSchemaByGlobalId(1.5)).rejects.toMatchObject(outOfRange)
    await expect(c.getSchemaByContentId(null as never)).rejects.toMatchObject({
      name: 'TypeError',
      code: 'INVALID_CONFIG',
    })
    await expect(c.getSchemaByContentId('5x' as never)).rejects.toThrow(TypeError)
    expect(() => c.peekSchemaById('globalId', 2n ** 64n)).toThrow(RangeError)
    await expect(c.getReferencesByGlobalId(2n ** 63n)).rejects.toThrow('globalId 9223372036854775808')
    await expect(c.getReferencesByContentId(-(2n ** 63n) - 1n)).rejects.toThrow(RangeError)
    expect(fixture.requests).toHaveLength(0)
  })

  it('asks for a bigint id with its exact digits', async () => {
    fixture.handle((_, res) => reply(res, 200, SCHEMA))
    await expect(newClient().getSchemaByContentId(9223372036854775807n)).resolves.toEqual({
      schema: SCHEMA,
      contentId: 9223372036854775807n,
      references: [],
    })
    expect(fixture.requests[0]?.path).toBe('/ids/contentIds/9223372036854775807')
  })
})

describe('listArtifacts', () => {
  it('reads every page until count is reached', async () => {
    const all = Array.from({ length: 230 }, (_, i) => `artifact-${String(i).padStart(3, '0')}`)
    fixture.handle((request, res) => {
      const query = new URL(request.path, 'http://x').searchParams
      const offset = Number(query.get('offset'))
      const limit = Number(query.get('limit'))
      const page = all
        .slice(offset, offset + limit)
        .map((artifactId) => ({ artifactId, groupId: 'orders', artifactType: 'AVRO' }))
      reply(res, 200, JSON.stringify({ artifacts: page, count: all.length }))
    })
    await expect(newClient().listArtifacts()).resolves.toEqual(all)
    expect(fixture.requests.map((r) => r.path)).toEqual([
      '/groups/orders/artifacts?offset=0&limit=100&orderby=artifactId&order=asc',
      '/groups/orders/artifacts?offset=100&limit=100&orderby=artifactId&order=asc',
      '/groups/orders/artifacts?offset=200&limit=100&orderby=artifactId&order=asc',
    ])
  })

  it('returns an empty list for an empty group after one request', async () => {
    fixture.handle((_, res) => reply(res, 200, '{"artifacts":[],"count":0}'))
    await expect(newClient().listArtifacts()).resolves.toEqual([])
    expect(fixture.requests).toHaveLength(1)
  })

  it('stops at an empty page even if count promised more', async () => {
    fixture.handle((request, res) =>
      reply(
        res,
        200,
        request.path.includes('offset=0&')
          ? '{"artifacts":[{"artifactId":"a"}],"count":5}'
          : '{"artifacts":[],"count":5}',
      ),
    )
    await expect(newClient().listArtifacts()).resolves.toEqual(['a'])
    expect(fixture.requests).toHaveLength(2)
  })
})

describe('registerSchema', () => {
  function registration(version = '1', globalId: number | string = 80, contentId: number | string = 117) {
    return (_: unknown, res: Parameters<Parameters<HttpFixture['handle']>[0]>[1]) =>
      reply(
        res,
        200,
        createArtifactResponse({ groupId: 'orders', artifactId: 'user', version, globalId, contentId }),
      )
  }

  it('sends the v3 CreateArtifact body, the query and the headers exactly', async () => {
    fixture.handle(registration())
    const schemaObject = { type: 'record', name: 'User', fields: [{ name: 'id', type: 'long' }] }
    const result = await newClient().registerSchema('user', schemaObject)
    const [request] = fixture.requests
    expect(request?.method).toBe('POST')
    expect(request?.path).toBe('/groups/orders/artifacts?ifExists=FIND_OR_CREATE_VERSION')
    expect(request?.headers['content-type']).toBe('application/json')
    expect(request?.headers['x-registry-artifactid']).toBe('user')
    expect(request?.headers['x-registry-artifacttype']).toBe('AVRO')
    expect(request?.body).toBe(
      `{"artifactId":"user","artifactType":"AVRO","firstVersion":{"content":{"content":${JSON.stringify(SCHEMA)},"contentType":"application/json","references":[]}}}`,
    )
    expect(result).toEqual({
      schema: SCHEMA,
      globalId: 80,
      contentId: 117,
      groupId: 'orders',
      artifactId: 'user',
      version: '1',
      artifactType: 'AVRO',
      references: [],
    })
  })

  it('sends a string schema verbatim, the ifExists given, canonical=true and references', async () => {
    fixture.handle(registration())
    const text = '{ "type": "record", "name": "User", "fields": [ {"name":"a","type":"com.ex.Address"} ] }'
    const references = [{ groupId: 'common', artifactId: 'addr', version: '2', name: 'com.ex.Address' }]
    const result = await newClient().registerSchema('user', text, {
      ifExists: 'CREATE_VERSION',
      canonical: true,
      references,
    })
    const [request] = fixture.requests
    expect(request?.path).toBe('/groups/orders/artifacts?ifExists=CREATE_VERSION&canonical=true')
    expect(JSON.parse(request?.body ?? '')).toEqual({
      artifactId: 'user',
      artifactType: 'AVRO',
      firstVersion: { content: { content: text, contentType: 'application/json', references } },
    })
    expect(result.references).toEqual(references)
  })

  it.each([
    ['JSON', undefined, 'application/json'],
    ['PROTOBUF', undefined, 'application/x-protobuf'],
    ['AVRO', 'application/vnd.apache.avro+json', 'application/vnd.apache.avro+json'],
  ] as const)(
    'registers an artifactType %s with the content type %s → %s',
    async (artifactType, contentType, sent) => {
      fixture.handle(registration())
      const text =
        artifactType === 'PROTOBUF'
          ? 'syntax = "proto3";\nmessage M { string a = 1; }\n'
          : '{"type":"object"}'
      await newClient().registerSchema('m', text, { artifactType, ...(contentType ? { contentType } : {}) })
      const [request] = fixture.requests
      expect(request?.headers['x-registry-artifacttype']).toBe(artifactType)
      expect(JSON.parse(request?.body ?? '')).toEqual({
        artifactId: 'm',
        artifactType,
        firstVersion: { content: { content: text, contentType: sent, references: [] } },
      })
    },
  )

  it('refuses an unknown artifactType before any request', async () => {
    await expect(newClient().registerSchema('m', '{}', { artifactType: 'YAML' })).rejects.toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message: expect.stringContaining('artifactType must be one of AVRO, PROTOBUF, JSON'),
      }),
    )
    expect(fixture.requests).toHaveLength(0)
  })

  it('percent-encodes the group in the path and a non-ASCII artifact id in the header', async () => {
    fixture.handle((_, res) =>
      reply(
        res,
        200,
        createArtifactResponse({ groupId: 'a b', artifactId: 'näme/ü', globalId: 1, contentId: 2 }),
      ),
    )
    const result = await newClient({ groupId: 'a b' }).registerSchema('näme/ü', '"string"', {
      ifExists: 'FAIL',
    })
    const [request] = fixture.requests
    expect(request?.path).toBe('/groups/a%20b/artifacts?ifExists=FAIL')
    expect(request?.headers['x-registry-artifactid']).toBe(encodeURIComponent('näme/ü'))
    expect(JSON.parse(request?.body ?? '').artifactId).toBe('näme/ü')
    expect(result.artifactId).toBe('näme/ü')
  })

  it('caches the registered schema by both ids and as the latest version after CREATE_VERSION', async () => {
    fixture.handle(registration('4'))
    const c = newClient()
    const registered = await c.registerSchema('user', SCHEMA, { ifExists: 'CREATE_VERSION' })
    await expect(c.getSchemaByGlobalId(80)).resolves.toEqual(registered)
    await expect(c.getSchemaByContentId(117)).resolves.toEqual({
      schema: SCHEMA,
      contentId: 117,
      references: [],
    })
    await expect(c.getSchema('user')).resolves.toEqual(registered)
    await expect(c.getSchemaVersion('user', '4')).resolves.toEqual(registered)
    await expect(c.getReferencesByGlobalId(80)).resolves.toEqual([])
    expect(fixture.requests).toHaveLength(1)
  })

  it('with FIND_OR_CREATE_VERSION (which may answer an older version) asks for the latest metadata but not the content', async () => {
    const c = newClient()
    fixture.handle(registration('1'))
    await c.registerSchema('user', SCHEMA)
    fixture.handle(
      routes({
        'GET /groups/orders/artifacts/user/versions/branch=latest': {
          body: versionMetadata({
            groupId: 'orders',
            artifactId: 'user',
            version: '1',
            globalId: 80,
            contentId: 117,
          }),
        },
      }),
    )
    await expect(c.getSchema('user')).resolves.toMatchObject({ schema: SCHEMA, globalId: 80, version: '1' })
    await c.getSchemaByGlobalId(80)
    expect(fixture.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /groups/orders/artifacts?ifExists=FIND_OR_CREATE_VERSION',
      'GET /groups/orders/artifacts/user/versions/branch=latest',
    ])
  })

  it('caches nothing with canonical=true (the registry may hold another text for the ids)', async () => {
    const c = newClient()
    fixture.handle(registration())
    await c.registerSchema('user', SCHEMA, { canonical: true })
    expect(c.peekSchemaById('globalId', 80)).toBeUndefined()
    expect(c.peekSchemaById('contentId', 117)).toBeUndefined()
  })

  it('takes ids from the globalId/contentId headers when the body lacks them, and the body wins when both have them', async () => {
    fixture.handle((request, res) => {
      const body = request.body.includes('"artifactId":"bare"')
        ? '{"artifact":{"artifactId":"bare"}}'
        : createArtifactResponse({ artifactId: 'both', globalId: 5, contentId: 6 })
      reply(res, 200, body, { globalId: '9007199254740993', contentId: '77' })
    })
    const c = newClient()
    await expect(c.registerSchema('bare', SCHEMA)).resolves.toMatchObject({
      globalId: 9007199254740993n,
      contentId: 77,
    })
    await expect(c.registerSchema('both', SCHEMA)).resolves.toMatchObject({ globalId: 5, contentId: 6 })
  })

  it('validates its arguments before any request', async () => {
    const c = newClient()
    const invalid = { name: 'TypeError', code: 'INVALID_CONFIG' }
    await expect(c.registerSchema('user', SCHEMA, { ifExists: 'UPDATE' as never })).rejects.toMatchObject(
      invalid,
    )
    await expect(c.registerSchema('user', SCHEMA, { ifExists: 'UPDATE' as never })).rejects.toThrow(
      'ifExists must be one of FAIL, CREATE_VERSION, FIND_OR_CREATE_VERSION',
    )
    await expect(c.registerSchema('', SCHEMA)).rejects.toMatchObject(invalid)
    await expect(c.registerSchema('user', 42 as never)).rejects.toMatchObject(invalid)
    await expect(c.registerSchema('user', '  ')).rejects.toMatchObject(invalid)
    await expect(c.registerSchema('user', SCHEMA, { canonical: 'yes' as never })).rejects.toMatchObject(
      invalid,
    )
    await expect(c.registerSchema('user', SCHEMA, { references: {} as never })).rejects.toMatchObject(invalid)
    await expect(
      c.registerSchema('user', SCHEMA, { references: [{ artifactId: 'a' } as never] }),
    ).rejects.toThrow('references[0].name must be a non-empty string')
    expect(fixture.requests).toHaveLength(0)
  })

  it('accepts a union schema given as an array', async () => {
    fixture.handle(registration())
    const result = await newClient().registerSchema('user', ['null', 'string'])
    expect(result.schema).toBe('["null","string"]')
  })
})

describe('headers option', () => {
  it('adds the extra headers to every request', async () => {
    fixture.handle((request, res) =>
      request.method === 'POST'
        ? reply(res, 200, createArtifactResponse({ artifactId: 'a', globalId: 1, contentId: 2 }))
        : reply(res, 200, SCHEMA),
    )
    const c = newClient({ headers: { 'X-Tenant': 'blue', 'X-Trace': 't-1' } })
    await c.getSchemaByGlobalId(1)
    await c.registerSchema('a', SCHEMA)
    for (const request of fixture.requests) {
      expect(request.headers['x-tenant']).toBe('blue')
      expect(request.headers['x-trace']).toBe('t-1')
    }
    expect(fixture.requests).toHaveLength(2)
  })
})

describe('close', () => {
  it('makes every later call reject with ClientClosedError, even for cached keys', async () => {
    fixture.handle((_, res) => reply(res, 200, SCHEMA))
    const c = newClient()
    await c.getSchemaByGlobalId(1)
    expect(c.closed).toBe(false)
    await c.close()
    await c.close()
    expect(c.closed).toBe(true)
    const calls = [
      () => c.getSchemaByGlobalId(1),
      () => c.getSchemaByContentId(1),
      () => c.getSchema('a'),
      () => c.getSchemaVersion('a', '1'),
      () => c.getReferencesByGlobalId(1),
      () => c.getReferencesByContentId(1),
      () => c.listArtifacts(),
      () => c.registerSchema('a', SCHEMA),
    ]
    for (const call of calls) {
      const error = await call().catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ClientClosedError)
      expect((error as Error).message).toContain('closed')
    }
    expect(() => c.peekSchemaById('globalId', 1)).toThrow(ClientClosedError)
    expect(() => c.peekSchema('a')).toThrow(ClientClosedError)
    expect(fixture.requests).toHaveLength(1)
  })

  it('aborts requests under way: their callers get ClientClosedError', async () => {
    fixture.handle(async () => {
      await fixture.hang()
    })
    const c = newClient()
    const lookup = c.getSchemaByGlobalId(1).catch((e: unknown) => e)
    const registration = c.registerSchema('a', SCHEMA).catch((e: unknown) => e)
    while (fixture.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    await c.close()
    expect(await lookup).toBeInstanceOf(ClientClosedError)
    expect(await registration).toBeInstanceOf(ClientClosedError)
  })

  it('closes at the end of an await using block', async () => {
    let escaped: RegistryClient | undefined
    {
      await using scoped = new RegistryClient({ url: fixture.url, groupId: 'g' })
      escaped = scoped
      expect(scoped.closed).toBe(false)
    }
    expect(escaped.closed).toBe(true)
  })
})
