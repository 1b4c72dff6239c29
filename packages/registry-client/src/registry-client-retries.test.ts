import { RegistryConnectionError } from '@x/errors'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type IfExists, RegistryClient, type RegistryClientOptions } from './index.js'
import {
  createArtifactResponse,
  HttpFixture,
  problem,
  recordingSleep,
  refusedUrl,
  reply,
} from './test-support/http-fixture.js'

const SCHEMA = '"string"'

let fixture: HttpFixture
let client: RegistryClient | undefined

beforeEach(async () => {
  fixture = await HttpFixture.start()
})

afterEach(async () => {
  await client?.close()
  client = undefined
  await fixture.close()
})

function newClient(options: Partial<RegistryClientOptions> = {}): RegistryClient {
  client = new RegistryClient({ url: fixture.url, groupId: 'g', ...options })
  return client
}

/** A client whose waits are recorded instead of slept, with a fixed jitter draw. */
function recordingClient(options: Partial<RegistryClientOptions> = {}, random = 0.5) {
  const sleeper = recordingSleep()
  const c = newClient({
    ...options,
    timing: { random: () => random, sleep: sleeper.sleep, ...options.timing },
  })
  return { client: c, delays: sleeper.delays }
}

describe('retries of lookups', () => {
  it.each([429, 502, 503, 504])(
    'makes 1 + maxRetries attempts on %i, then RegistryConnectionError with the status',
    async (status) => {
      fixture.handle((_, res) => problem(res, status, 'Busy'))
      const { client: c } = recordingClient({ maxRetries: 3 })
      const error = await c.getSchemaByGlobalId(1).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(RegistryConnectionError)
      expect(error).toMatchObject({ status, url: fixture.url })
      expect((error as Error).message).toBe(
        `The registry at ${fixture.url} answered HTTP ${status} (Busy) after 4 attempts`,
      )
      expect(fixture.requests).toHaveLength(4)
    },
  )

  it.each([400, 404, 409, 500])('does not retry %i', async (status) => {
    fixture.handle((_, res) => problem(res, status, 'No'))
    const { client: c, delays } = recordingClient({ maxRetries: 3 })
    await expect(c.getSchemaByGlobalId(1)).rejects.toMatchObject({ status })
    expect(fixture.requests).toHaveLength(1)
    expect(delays).toEqual([])
  })

  it('makes exactly one attempt with maxRetries 0', async () => {
    fixture.handle((_, res) => problem(res, 503, 'Busy'))
    const { client: c, delays } = recordingClient({ maxRetries: 0 })
    await expect(c.getSchemaByGlobalId(1)).rejects.toMatchObject({
      name: 'RegistryConnectionError',
      status: 503,
    })
    expect(fixture.requests).toHaveLength(1)
    expect(delays).toEqual([])
  })

  it('returns the schema when an attempt succeeds after failures', async () => {
    let calls = 0
    fixture.handle((_, res) => {
      calls += 1
      if (calls <= 2) problem(res, 503, 'Busy')
      else reply(res, 200, SCHEMA)
    })
    const { client: c, delays } = recordingClient({ maxRetries: 3 })
    await expect(c.getSchemaByGlobalId(1)).resolves.toEqual({ schema: SCHEMA, globalId: 1, references: [] })
    expect(fixture.requests).toHaveLength(3)
    expect(delays).toEqual([500, 1000])
  })

  it('waits full-jitter delays: random × min(retryBackoffMs × 2^k, retryMaxBackoffMs)', async () => {
    fixture.handle((_, res) => problem(res, 502, 'Bad gateway'))
    const { client: c, delays } = recordingClient(
      { maxRetries: 5, retryBackoffMs: 100, retryMaxBackoffMs: 1000 },
      0.25,
    )
    await expect(c.getSchemaByGlobalId(1)).rejects.toThrow(RegistryConnectionError)
    expect(delays).toEqual([25, 50, 100, 200, 250])
    expect(fixture.requests).toHaveLength(6)
  })

  it('uses the documented defaults: 3 retries over 1000 ms, 2000 ms, 4000 ms ceilings', async () => {
    fixture.handle((_, res) => problem(res, 504, 'Timeout'))
    const { client: c, delays } = recordingClient({}, 0.999)
    await expect(c.getSchemaByGlobalId(1)).rejects.toThrow(RegistryConnectionError)
    expect(delays).toEqual([999, 1998, 3996])
  })

  it('waits at least a Retry-After given in seconds', async () => {
    fixture.handle((_, res) => problem(res, 429, 'Slow down', { 'retry-after': '3' }))
    const { client: c, delays } = recordingClient({
      maxRetries: 2,
      retryBackoffMs: 100,
      retryMaxBackoffMs: 20_000,
    })
    await expect(c.getSchemaByGlobalId(1)).rejects.toMatchObject({ status: 429 })
    expect(delays).toEqual([3000, 3000])
  })

  it('caps a Retry-After at retryMaxBackoffMs', async () => {
    fixture.handle((_, res) => problem(res, 503, 'Maintenance', { 'retry-after': '3600' }))
    const { client: c, delays } = recordingClient({ maxRetries: 2, retryMaxBackoffMs: 7000 })
    await expect(c.getSchemaByGlobalId(1)).rejects.toMatchObject({ status: 503 })
    expect(delays).toEqual([7000, 7000])
  })

  it('honours a Retry-After given as an HTTP date, capped', async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toUTCString()
    fixture.handle((_, res) => problem(res, 503, 'Maintenance', { 'retry-after': inAnHour }))
    const { client: c, delays } = recordingClient({ maxRetries: 1, retryMaxBackoffMs: 9000 })
    await expect(c.getSchemaByGlobalId(1)).rejects.toMatchObject({ status: 503 })
    expect(delays).toEqual([9000])
  })

  it('retries a connection reset and then names the registry and the failure', async () => {
    fixture.handle((_, res) => {
      res.socket?.destroy()
    })
    const { client: c } = recordingClient({ maxRetries: 2 })
    const error = await c.getSchemaByGlobalId(1).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RegistryConnectionError)
    expect((error as RegistryConnectionError).status).toBeUndefined()
    expect((error as Error).message).toContain(
      `Unable to reach the registry at ${fixture.url} after 3 attempts`,
    )
    expect((error as Error).cause).toMatchObject({ name: 'RegistryFailureCause' })
    expect(fixture.requests).toHaveLength(3)
  })

  it('retries a connection refused and keeps the error code in the cause', async () => {
    const url = await refusedUrl()
    const sleeper = recordingSleep()
    client = new RegistryClient({
      url,
      groupId: 'g',
      maxRetries: 2,
      timing: { sleep: sleeper.sleep, random: () => 0 },
    })
    const error = await client.getSchema('a').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RegistryConnectionError)
    expect((error as Error).message).toContain(
      `Unable to reach the registry at ${url} after 3 attempts: connect ECONNREFUSED`,
    )
    expect((error as Error).cause).toMatchObject({ code: 'ECONNREFUSED' })
    expect(sleeper.delays).toEqual([0, 0])
  })

  it('counts a timeout as a transport failure: timeoutMs per attempt, then retried', async () => {
    fixture.handle(async (_, res) => {
      await fixture.hang()
      reply(res, 200, SCHEMA)
    })
    const { client: c } = recordingClient({ maxRetries: 1, timeoutMs: 50 })
    const error = await c.getSchemaByGlobalId(1).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RegistryConnectionError)
    expect((error as Error).message).toContain(
      'after 2 attempts: no complete answer within timeoutMs (50 ms)',
    )
    expect(fixture.requests).toHaveLength(2)
  })

  it("rejects at once with the signal's reason when aborted during the wait between attempts", async () => {
    fixture.handle((_, res) => problem(res, 503, 'Busy'))
    const sleeper = recordingSleep({ block: true })
    const c = newClient({ maxRetries: 3, timing: { sleep: sleeper.sleep } })
    const controller = new AbortController()
    const reason = new Error('user cancelled')
    const pending = c.getSchemaByGlobalId(1, { signal: controller.signal }).catch((e: unknown) => e)
    while (sleeper.delays.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort(reason)
    expect(await pending).toBe(reason)
    expect(fixture.requests).toHaveLength(1)
    // Nothing was cached and nothing is left running: the next call asks again.
    fixture.handle((_, res) => reply(res, 200, SCHEMA))
    await expect(c.getSchemaByGlobalId(1)).resolves.toEqual({ schema: SCHEMA, globalId: 1, references: [] })
    expect(fixture.requests).toHaveLength(2)
  })

  it("rejects at once with the signal's reason when aborted during a request", async () => {
    fixture.handle(async () => {
      await fixture.hang()
    })
    const c = newClient()
    const controller = new AbortController()
    const pending = c.getSchema('a', { signal: controller.signal }).catch((e: unknown) => e)
    while (fixture.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort('stop')
    expect(await pending).toBe('stop')
  })

  it('rejects with the reason of a signal that is already aborted, without a request', async () => {
    const c = newClient()
    const controller = new AbortController()
    controller.abort('early')
    await expect(c.getSchemaByGlobalId(1, { signal: controller.signal })).rejects.toBe('early')
    await expect(c.registerSchema('a', SCHEMA, { signal: controller.signal })).rejects.toBe('early')
    await expect(c.listArtifacts({ signal: controller.signal })).rejects.toBe('early')
    expect(fixture.requests).toHaveLength(0)
  })
})

describe('retries of registrations', () => {
  const ALL: IfExists[] = ['FAIL', 'CREATE_VERSION', 'FIND_OR_CREATE_VERSION']

  it.each(ALL)('repeats a request never sent (connection refused) with ifExists %s', async (ifExists) => {
    const url = await refusedUrl()
    let calls = 0
    const sleeper = recordingSleep()
    client = new RegistryClient({
      url,
      groupId: 'g',
      maxRetries: 2,
      timing: { sleep: sleeper.sleep },
      fetch: (input, init) => {
        calls += 1
        return fetch(input, init)
      },
    })
    await expect(client.registerSchema('a', SCHEMA, { ifExists })).rejects.toThrow(RegistryConnectionError)
    expect(calls).toBe(3)
    expect(sleeper.delays).toHaveLength(2)
  })

  it.each([
    ['FAIL', 1],
    ['CREATE_VERSION', 1],
    ['FIND_OR_CREATE_VERSION', 4],
  ] as const)(
    'on 503 with ifExists %s makes %i attempt(s), then RegistryConnectionError 503',
    async (ifExists, attempts) => {
      fixture.handle((_, res) => problem(res, 503, 'Busy'))
      const { client: c } = recordingClient({ maxRetries: 3 })
      const error = await c.registerSchema('a', SCHEMA, { ifExists }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(RegistryConnectionError)
      expect(error).toMatchObject({ status: 503 })
      expect(fixture.requests).toHaveLength(attempts)
    },
  )

  it.each([
    ['FAIL', 1],
    ['CREATE_VERSION', 1],
    ['FIND_OR_CREATE_VERSION', 3],
  ] as const)('on a reset after sending with ifExists %s makes %i attempt(s)', async (ifExists, attempts) => {
    fixture.handle((_, res) => {
      res.socket?.destroy()
    })
    const { client: c } = recordingClient({ maxRetries: 2 })
    await expect(c.registerSchema('a', SCHEMA, { ifExists })).rejects.toThrow(RegistryConnectionError)
    expect(fixture.requests).toHaveLength(attempts)
  })

  it.each([
    ['FAIL', 1],
    ['FIND_OR_CREATE_VERSION', 2],
  ] as const)('on a timeout with ifExists %s makes %i attempt(s)', async (ifExists, attempts) => {
    fixture.handle(async () => {
      await fixture.hang()
    })
    const { client: c } = recordingClient({ maxRetries: 1, timeoutMs: 50 })
    await expect(c.registerSchema('a', SCHEMA, { ifExists })).rejects.toThrow(RegistryConnectionError)
    expect(fixture.requests).toHaveLength(attempts)
  })

  it('succeeds when FIND_OR_CREATE_VERSION is repeated after a 502', async () => {
    let calls = 0
    fixture.handle((_, res) => {
      calls += 1
      if (calls === 1) problem(res, 502, 'Bad gateway')
      else
        reply(res, 200, createArtifactResponse({ groupId: 'g', artifactId: 'a', globalId: 3, contentId: 4 }))
    })
    const { client: c, delays } = recordingClient({ maxRetries: 3 })
    await expect(c.registerSchema('a', SCHEMA)).resolves.toMatchObject({ globalId: 3, contentId: 4 })
    expect(fixture.requests).toHaveLength(2)
    expect(fixture.requests[0]?.body).toBe(fixture.requests[1]?.body)
    expect(delays).toEqual([500])
  })
})
