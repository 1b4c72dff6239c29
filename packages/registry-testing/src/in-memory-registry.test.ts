import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { call, createArtifactBody, json, record, register } from './in-memory/test-support/http.js'
import { InMemoryRegistry } from './in-memory-registry.js'

let registry: InMemoryRegistry
let url: string

beforeEach(async () => {
  registry = await InMemoryRegistry.start()
  url = registry.url
})

afterEach(async () => {
  await registry.close()
})

const A = record('A')

describe('starting and closing', () => {
  it('listens on 127.0.0.1 on a free port and gives the v3 base URL', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/apis\/registry\/v3$/)
    expect(url).not.toMatch(/:0\//)
  })

  it('refuses connections once closed, and closing twice is fine', async () => {
    const other = await InMemoryRegistry.start()
    await other.close()
    await other.close()
    await expect(fetch(`${other.url}/system/info`)).rejects.toMatchObject({
      name: 'TypeError',
      cause: { code: 'ECONNREFUSED' },
    })
  })

  it('closes at the end of an await using block', async () => {
    let closedUrl = ''
    {
      await using scoped = await InMemoryRegistry.start()
      closedUrl = scoped.url
      expect((await call(closedUrl, 'GET', '/system/info')).status).toBe(200)
    }
    await expect(fetch(`${closedUrl}/system/info`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } })
  })

  it.each([
    [{ port: -1 }, 'port must be an integer from 0 to 65535, got -1.'],
    [{ port: 1.5 }, 'port must be an integer from 0 to 65535, got 1.5.'],
    [{ firstGlobalId: 0 }, 'firstGlobalId must be between 1 and 2^63 - 1, got 0.'],
    [{ firstGlobalId: 2n ** 63n }, 'firstGlobalId must be between 1 and 2^63 - 1, got 9223372036854775808.'],
    [{ firstContentId: 2 ** 53 }, 'firstContentId must be a safe integer or a bigint, got 9007199254740992.'],
    [{ auth: 'secret' as never }, 'auth must be a function (token) => boolean, got string.'],
    [
      { deletion: null as never },
      'deletion must be a boolean or { artifact?, artifactVersion?, group? } of booleans, got null.',
    ],
    [
      { deletion: { artifact: 'yes' } as never },
      'deletion must be a boolean or { artifact?, artifactVersion?, group? } of booleans, got an object.',
    ],
  ])('refuses %o with a TypeError coded INVALID_CONFIG', async (options, message) => {
    await expect(InMemoryRegistry.start(options)).rejects.toMatchObject({
      name: 'TypeError',
      code: 'INVALID_CONFIG',
      message,
    })
  })
})

it('checks every option before it listens, so a refused start leaves no server open', async () => {
  const { getActiveResourcesInfo } = process
  const servers = () => getActiveResourcesInfo().filter((name) => name === 'TCPServerWrap').length
  const before = servers()
  await expect(InMemoryRegistry.start({ deletion: null as never })).rejects.toMatchObject({
    code: 'INVALID_CONFIG',
  })
  expect(servers()).toBe(before)
})

describe('request log', () => {
  it('records method, raw path, decoded query, headers and body of every request', async () => {
    const body = createArtifactBody('a b', A)
    await call(url, 'POST', '/groups/g/artifacts?ifExists=FIND_OR_CREATE_VERSION&canonical=true', body, {
      'X-Trace': 't1',
    })
    await call(url, 'GET', '/groups/g/artifacts/a%20b/versions/branch=latest')
    expect(registry.requests).toHaveLength(2)
    const [post, get] = registry.requests
    expect(post).toMatchObject({
      method: 'POST',
      path: '/apis/registry/v3/groups/g/artifacts',
      query: { ifExists: 'FIND_OR_CREATE_VERSION', canonical: 'true' },
      body: JSON.stringify(body),
    })
    expect(post?.headers['content-type']).toBe('application/json')
    expect(post?.headers['x-trace']).toBe('t1')
    expect(get).toMatchObject({
      method: 'GET',
      path: '/apis/registry/v3/groups/g/artifacts/a%20b/versions/branch=latest',
      query: {},
      body: '',
    })
  })

  it('is a frozen snapshot, emptied by clearRequests()', async () => {
    await call(url, 'GET', '/system/info')
    const snapshot = registry.requests
    expect(Object.isFrozen(snapshot)).toBe(true)
    expect(Object.isFrozen(snapshot[0])).toBe(true)
    registry.clearRequests()
    expect(registry.requests).toEqual([])
    expect(snapshot).toHaveLength(1)
  })
})

describe('fault injection', () => {
  it('answers a matching request with the injected status and headers, once by default', async () => {
    await register(url, 'g', 'a', A)
    const fault = registry.inject({ path: '/ids/globalIds/1', status: 503, headers: { 'Retry-After': '2' } })
    const first = await call(url, 'GET', '/ids/globalIds/1')
    expect([first.status, first.headers.get('retry-after'), first.headers.get('content-type')]).toEqual([
      503,
      '2',
      'application/json',
    ])
    expect(json(first)).toEqual({
      detail: 'InjectedFault: Fault injected by InMemoryRegistry (status 503).',
      title: 'Fault injected by InMemoryRegistry (status 503).',
      status: 503,
      name: 'InjectedFault',
    })
    const second = await call(url, 'GET', '/ids/globalIds/1')
    expect([second.status, second.text]).toEqual([200, A])
    expect([fault.hits, fault.remaining]).toEqual([1, 0])
  })

  it('applies `times` times, or to every request with Infinity', async () => {
    registry.inject({ path: '/system/info', status: 429, times: 2 })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await call(url, 'GET', '/system/info')).status)
    expect(statuses).toEqual([429, 429, 200])
    const always = registry.inject({ path: '/system/info', status: 502, times: Number.POSITIVE_INFINITY })
    for (let i = 0; i < 3; i++) expect((await call(url, 'GET', '/system/info')).status).toBe(502)
    expect([always.hits, always.remaining]).toEqual([3, Number.POSITIVE_INFINITY])
  })

  it('matches on method (any case) and on a path with or without the API prefix, or a RegExp', async () => {
    registry.inject({ method: 'post', status: 500 })
    expect((await call(url, 'GET', '/system/info')).status).toBe(200)
    expect((await call(url, 'POST', '/groups/g/artifacts', createArtifactBody('a', A))).status).toBe(500)
    registry.inject({ path: '/apis/registry/v3/system/info', status: 504 })
    expect((await call(url, 'GET', '/system/info')).status).toBe(504)
    registry.inject({ path: /\/ids\/contentIds\/\d+$/, status: 418 })
    expect((await call(url, 'GET', '/ids/globalIds/7')).status).toBe(404)
    expect((await call(url, 'GET', '/ids/contentIds/7')).status).toBe(418)
  })

  it('keeps the request from the registry: nothing stored, no id drawn', async () => {
    registry.inject({ method: 'POST', status: 503 })
    expect((await call(url, 'POST', '/groups/g/artifacts', createArtifactBody('a', A))).status).toBe(503)
    expect(await register(url, 'g', 'a', A)).toEqual([1, 1, '1'])
    expect(registry.requests.map((r) => r.method)).toEqual(['POST', 'POST'])
  })

  it('sends a given body: a string as is, anything else as JSON, with a given Content-Type', async () => {
    registry.inject({
      path: '/system/info',
      status: 200,
      body: 'not json',
      headers: { 'content-type': 'text/plain' },
    })
    const text = await call(url, 'GET', '/system/info')
    expect([text.status, text.text, text.headers.get('content-type')]).toEqual([
      200,
      'not json',
      'text/plain',
    ])
    registry.inject({ path: '/system/info', status: 200, body: { version: { globalId: 5 } } })
    const object = await call(url, 'GET', '/system/info')
    expect([object.text, object.headers.get('content-type')]).toEqual([
      '{"version":{"globalId":5}}',
      'application/json',
    ])
  })

  it('writes a bigint in an injected body as exact integer text', async () => {
    registry.inject({ path: '/system/info', status: 200, body: { version: { globalId: 2n ** 60n + 1n } } })
    const answer = await call(url, 'GET', '/system/info')
    expect([answer.status, answer.text]).toEqual([200, '{"version":{"globalId":1152921504606846977}}'])
  })

  it('resets the connection after reading the request', async () => {
    registry.inject({ path: '/system/info', reset: true })
    await expect(fetch(`${url}/system/info`)).rejects.toMatchObject({
      name: 'TypeError',
      cause: { code: 'ECONNRESET' },
    })
    expect(registry.requests).toHaveLength(1)
    expect((await call(url, 'GET', '/system/info')).status).toBe(200)
  })

  it('delays the registry answer with delayMs alone', async () => {
    registry.inject({ path: '/system/info', delayMs: 60_000 })
    const aborted = fetch(`${url}/system/info`, { signal: AbortSignal.timeout(100) })
    await expect(aborted).rejects.toMatchObject({ name: 'TimeoutError' })
    expect((await call(url, 'GET', '/system/info')).status).toBe(200)
  })

  it('answers a delayed request after a later undelayed one', async () => {
    registry.inject({ path: '/ids/globalIds/1', delayMs: 300 })
    const order: string[] = []
    const slow = call(url, 'GET', '/ids/globalIds/1').then((r) => order.push(`slow ${r.status}`))
    const fast = call(url, 'GET', '/ids/contentIds/1').then((r) => order.push(`fast ${r.status}`))
    await Promise.all([slow, fast])
    expect(order).toEqual(['fast 404', 'slow 404'])
  })

  it('ends pending delays when closed, so close() does not wait for them', async () => {
    const other = await InMemoryRegistry.start()
    other.inject({ delayMs: 3_600_000 })
    const pending = fetch(`${other.url}/system/info`)
    while (other.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    await other.close()
    await expect(pending).rejects.toMatchObject({ name: 'TypeError' })
  })

  it('takes faults back with remove() and clearFaults()', async () => {
    const fault = registry.inject({ status: 500, times: Number.POSITIVE_INFINITY })
    fault.remove()
    expect(fault.remaining).toBe(0)
    expect((await call(url, 'GET', '/system/info')).status).toBe(200)
    registry.inject({ status: 500 })
    registry.inject({ status: 501 })
    registry.clearFaults()
    expect((await call(url, 'GET', '/system/info')).status).toBe(200)
  })

  it.each([
    [{}, 'inject(): give at least one of status, delayMs and reset.'],
    [{ body: 'x' }, 'inject(): headers and body need a status to answer with.'],
    [{ status: 503, reset: true }, 'inject(): give status or reset, not both.'],
    [{ status: 99 }, 'inject(): status must be an integer from 100 to 599, got 99.'],
    [{ status: 500, times: 0 }, 'inject(): times must be a positive integer or Infinity, got 0.'],
    [{ delayMs: -1 }, 'inject(): delayMs must be a finite number of at least 0, got -1.'],
    [{ status: 500, path: 5 as never }, 'inject(): path must be a string or a RegExp, got number.'],
  ])('refuses inject(%o) with a TypeError coded INVALID_CONFIG', (options, message) => {
    expect(() => registry.inject(options)).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG', message }),
    )
  })
})

describe('bearer authentication', () => {
  let secured: InMemoryRegistry
  beforeEach(async () => {
    secured = await InMemoryRegistry.start({ auth: async (token) => token === 'good' })
  })
  afterEach(async () => {
    await secured.close()
  })

  it('answers a request without a bearer token with Apicurio 401 body', async () => {
    for (const headers of [{}, { Authorization: 'Basic dTpw' }]) {
      const result = await call(secured.url, 'GET', '/groups/g/artifacts', undefined, headers)
      expect([result.status, result.headers.get('content-type')]).toEqual([401, 'application/json'])
      expect(result.text).toBe(
        '{"detail":"UnauthorizedException: User is not authenticated.","title":"User is not authenticated.",' +
          '"status":401,"name":"UnauthorizedException"}',
      )
    }
  })

  it('answers a refused token as Quarkus does: empty 401 with www-authenticate: Bearer', async () => {
    const result = await call(secured.url, 'GET', '/ids/globalIds/1', undefined, {
      Authorization: 'Bearer bad',
    })
    expect([result.status, result.text, result.headers.get('www-authenticate')]).toEqual([401, '', 'Bearer'])
  })

  it('serves requests with an accepted token, and system info and unknown paths without one', async () => {
    const good = { Authorization: 'Bearer good' }
    const created = await call(secured.url, 'POST', '/groups/g/artifacts', createArtifactBody('a', A), good)
    expect(created.status).toBe(200)
    expect((await call(secured.url, 'GET', '/system/info')).status).toBe(200)
    expect((await call(secured.url, 'GET', '/nope')).status).toBe(404)
  })

  it('answers 500 when the auth callback throws', async () => {
    await using failing = await InMemoryRegistry.start({
      auth: () => {
        throw new RangeError('boom')
      },
    })
    const result = await call(failing.url, 'GET', '/ids/globalIds/1', undefined, {
      Authorization: 'Bearer x',
    })
    expect([result.status, json(result).name]).toEqual([500, 'RangeError'])
  })
})
