import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { inspect } from 'node:util'
import { AuthenticationError } from '@x/errors'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { IdpAuth } from './idp-auth.js'
import { CLIENTS, startTestProvider, type TestProvider } from './test-support/test-provider.js'
import { basicAuthorization } from './token-request.js'
import { isRetryableStatus, resolveTokenRetry, retryAfterMs } from './token-retry.js'

let provider: TestProvider
let seenBefore = 0
let faultsBefore = 0
let issuedBefore = 0

beforeAll(async () => {
  provider = await startTestProvider()
})

afterAll(async () => {
  await provider.close()
})

beforeEach(() => {
  seenBefore = provider.tokenRequests.length
  faultsBefore = provider.faultsServed
  issuedBefore = provider.issued.size
})

/** Requests the provider itself answered, faults answered for it, and tokens it issued, since the test began. */
function counts() {
  return {
    provider: provider.tokenRequests.length - seenBefore,
    faults: provider.faultsServed - faultsBefore,
    issued: provider.issued.size - issuedBefore,
  }
}

function postAuth(extra: Partial<ConstructorParameters<typeof IdpAuth>[0]> = {}): IdpAuth {
  return new IdpAuth({
    tokenUrl: provider.tokenUrl,
    clientId: CLIENTS.post.id,
    clientSecret: CLIENTS.post.secret,
    retry: { delayMs: 10 },
    ...extra,
  })
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the promise to reject')
}

describe('retries of the token request against a real OpenID provider', () => {
  it('answers one token after a 503 then a 200: two requests, one token issued', async () => {
    provider.failNext({ status: 503, body: 'maintenance' })
    const token = await postAuth().getToken()

    expect(provider.isValid(token)).toBe(true)
    expect(counts()).toEqual({ provider: 1, faults: 1, issued: 1 })
  })

  for (const status of [408, 429, 500, 502, 504]) {
    it(`tries again after a ${status}, once, and gets the token`, async () => {
      provider.failNext({ status })
      const token = await postAuth().getToken()

      expect(provider.isValid(token)).toBe(true)
      expect(counts()).toEqual({ provider: 1, faults: 1, issued: 1 })
    })
  }

  it('gives up after limit + 1 requests when every answer is a 5xx, naming the last status', async () => {
    provider.failNext({ status: 500 }, { status: 502 }, { status: 503 })
    const error = await rejection(postAuth().getToken())

    expect(error).toBeInstanceOf(AuthenticationError)
    expect((error as AuthenticationError).status).toBe(503)
    expect(counts()).toEqual({ provider: 0, faults: 3, issued: 0 })
  })

  it('sends one request only with retry.limit 0', async () => {
    provider.failNext({ status: 503 })
    const error = await rejection(postAuth({ retry: { limit: 0 } }).getToken())

    expect((error as AuthenticationError).status).toBe(503)
    expect(counts()).toEqual({ provider: 0, faults: 1, issued: 0 })
  })

  it('never tries again after a 401 from the provider (wrong secret): one request', async () => {
    const error = await rejection(postAuth({ clientSecret: 'wrong-secret-0123456789' }).getToken())

    expect((error as AuthenticationError).status).toBe(401)
    expect(provider.tokenRequests.slice(seenBefore).map((r) => r.status)).toEqual([401])
    expect(counts()).toEqual({ provider: 1, faults: 0, issued: 0 })
  })

  it('never tries again after a 400 from the provider (a scope the client may not have): one request', async () => {
    const error = await rejection(
      postAuth({
        clientId: CLIENTS.reader.id,
        clientSecret: CLIENTS.reader.secret,
        scope: 'registry:write',
      }).getToken(),
    )

    expect((error as AuthenticationError).status).toBe(400)
    expect(provider.tokenRequests.slice(seenBefore).map((r) => r.status)).toEqual([400])
    expect(counts()).toEqual({ provider: 1, faults: 0, issued: 0 })
  })

  it('never tries again after a 400 or 401 that a front answers either', async () => {
    for (const status of [400, 401, 403, 404]) {
      provider.failNext({ status })
      const error = await rejection(postAuth().getToken())
      expect((error as AuthenticationError).status).toBe(status)
    }
    expect(counts()).toEqual({ provider: 0, faults: 4, issued: 0 })
  })

  it('waits the Retry-After the provider sends (1 s) before the second request, without jitter', async () => {
    provider.failNext({ status: 503, headers: { 'retry-after': '1' } })
    const started = performance.now()
    await postAuth({ retry: { delayMs: 10, maxDelayMs: 1500 } }).getToken()
    const took = performance.now() - started

    expect(took).toBeGreaterThanOrEqual(990)
    expect(took).toBeLessThan(1500)
    expect(counts()).toEqual({ provider: 1, faults: 1, issued: 1 })
  })

  it('does not wait a Retry-After longer than maxDelayMs: the 429 is final, one request', async () => {
    provider.failNext({ status: 429, headers: { 'retry-after': '3' } })
    const started = performance.now()
    const error = await rejection(postAuth({ retry: { maxDelayMs: 2000 } }).getToken())

    expect((error as AuthenticationError).status).toBe(429)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(counts()).toEqual({ provider: 0, faults: 1, issued: 0 })
  })

  it('tries again after a refused connection (a transport error) and gets the token', async () => {
    const closed = await closedPortUrl()
    let calls = 0
    const fetch: typeof globalThis.fetch = (input, init) =>
      calls++ === 0 ? globalThis.fetch(closed, init) : globalThis.fetch(input, init)
    const token = await postAuth({ fetch }).getToken()

    expect(provider.isValid(token)).toBe(true)
    expect(calls).toBe(2)
    expect(counts()).toEqual({ provider: 1, faults: 0, issued: 1 })
  })

  it('bounds the whole exchange by timeoutMs: a wait for Retry-After beyond it ends in the timeout error', async () => {
    provider.failNext({ status: 503, headers: { 'retry-after': '1' } })
    const started = performance.now()
    const error = await rejection(postAuth({ timeoutMs: 300, retry: { maxDelayMs: 1000 } }).getToken())
    const took = performance.now() - started

    expect(error).toBeInstanceOf(AuthenticationError)
    expect((error as Error).message).toBe(
      `Token endpoint ${provider.tokenUrl} did not answer within 300 ms (timeoutMs)`,
    )
    expect(took).toBeGreaterThanOrEqual(290)
    expect(took).toBeLessThan(900)
    expect(counts()).toEqual({ provider: 0, faults: 1, issued: 0 })
  })

  it('shows neither the secret nor the Authorization header in an error after retries (client_secret_basic)', async () => {
    provider.failNext({ status: 503 }, { status: 503 }, { status: 503 })
    const auth = new IdpAuth({
      tokenUrl: provider.tokenUrl,
      clientId: CLIENTS.basic.id,
      clientSecret: CLIENTS.basic.secret,
      tokenEndpointAuthMethod: 'client_secret_basic',
      retry: { delayMs: 10 },
    })
    const error = (await rejection(auth.getToken())) as AuthenticationError

    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.cause).toBeUndefined()
    const header = basicAuthorization(CLIENTS.basic.id, CLIENTS.basic.secret)
    for (const shown of [
      error.message,
      JSON.stringify(error),
      inspect(error, { depth: 10 }),
      String(error.stack),
    ]) {
      expect(shown).not.toContain(CLIENTS.basic.secret)
      expect(shown).not.toContain(header.slice('Basic '.length))
    }
    expect(counts()).toEqual({ provider: 0, faults: 3, issued: 0 })
  })
})

describe('the retry rule', () => {
  it('retries 408, 429 and every 5xx, and nothing else', () => {
    const retried = Array.from({ length: 500 }, (_, i) => 100 + i).filter(isRetryableStatus)
    expect(retried).toEqual([408, 429, ...Array.from({ length: 100 }, (_, i) => 500 + i)])
  })

  it('reads Retry-After as seconds or as an HTTP date, a date in the past as 0', () => {
    const now = Date.parse('2026-11-27T12:00:00Z')
    expect(retryAfterMs('2', now)).toBe(2000)
    expect(retryAfterMs(' 0 ', now)).toBe(0)
    expect(retryAfterMs('Fri, 27 Nov 2026 12:00:03 GMT', now)).toBe(3000)
    expect(retryAfterMs('Fri, 27 Nov 2026 11:59:00 GMT', now)).toBe(0)
    expect(retryAfterMs(null, now)).toBeUndefined()
    expect(retryAfterMs('soon', now)).toBeUndefined()
    expect(retryAfterMs('-1', now)).toBeUndefined()
    expect(retryAfterMs('1.5', now)).toBeUndefined()
  })

  it('defaults to two retries from 200 ms, at most 2 s apart, and rejects a negative or fractional limit', () => {
    expect(resolveTokenRetry(undefined)).toEqual({ limit: 2, delayMs: 200, maxDelayMs: 2000 })
    expect(resolveTokenRetry({ limit: 0 })).toEqual({ limit: 0, delayMs: 200, maxDelayMs: 2000 })
    for (const limit of [-1, 1.5, Number.NaN, '2']) {
      expect(() => resolveTokenRetry({ limit: limit as number })).toThrow(TypeError)
    }
    expect(() => resolveTokenRetry(null as never)).toThrow('IdpAuth: retry must be an object, got null')
  })
})

/** The URL of a token endpoint on a loopback port where nothing listens. */
async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/token`
}
