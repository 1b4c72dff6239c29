import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { inspect } from 'node:util'
import { AuthenticationError, isSerdeError } from '@x/errors'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { IdpAuth } from './idp-auth.js'
import { waitFor } from './test-support/local-server.js'
import {
  CLIENTS,
  PROVIDER_VERSION,
  SHORT_TTL_SECONDS,
  startTestProvider,
  type TestProvider,
} from './test-support/test-provider.js'
import { formUrlEncode } from './token-request.js'

let provider: TestProvider
let seenBefore = 0

beforeAll(async () => {
  provider = await startTestProvider()
})

afterAll(async () => {
  await provider.close()
})

beforeEach(() => {
  seenBefore = provider.tokenRequests.length
})

/** Token requests the provider saw since the current test began. */
function seen() {
  return provider.tokenRequests.slice(seenBefore)
}

function postAuth(extra: Partial<ConstructorParameters<typeof IdpAuth>[0]> = {}): IdpAuth {
  return new IdpAuth({
    tokenUrl: provider.tokenUrl,
    clientId: CLIENTS.post.id,
    clientSecret: CLIENTS.post.secret,
    ...extra,
  })
}

/** A clock the test moves by hand. */
function manualClock(start = 0) {
  let time = start
  return {
    now: () => time,
    set(ms: number) {
      time = ms
    },
  }
}

/** The URL of a token endpoint on a loopback port where nothing listens. */
async function closedPortUrl(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return `http://127.0.0.1:${port}/token`
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected the promise to reject')
}

describe('IdpAuth against a real OpenID provider (oidc-provider 9.13.3)', () => {
  it('runs against oidc-provider 9.13.3, the pinned devDependency', () => {
    expect(PROVIDER_VERSION).toBe('9.13.3')
  })

  it('gets a token with client_secret_post: credentials in the form, no Authorization header, no scope', async () => {
    const token = await postAuth().getToken()

    expect(seen()).toEqual([
      {
        method: 'POST',
        status: 200,
        form: {
          grant_type: 'client_credentials',
          client_id: CLIENTS.post.id,
          client_secret: CLIENTS.post.secret,
        },
        authorization: '',
        clientId: CLIENTS.post.id,
      },
    ])
    expect(provider.issued.get(token)).toEqual({
      clientId: CLIENTS.post.id,
      scope: undefined,
      expiresAtMs: expect.any(Number),
    })
    expect(provider.isValid(token)).toBe(true)
  })

  it('gets a token with client_secret_basic: form-encoded credentials in the header, none in the form', async () => {
    const auth = new IdpAuth({
      tokenUrl: provider.tokenUrl,
      clientId: CLIENTS.basic.id,
      clientSecret: CLIENTS.basic.secret,
      tokenEndpointAuthMethod: 'client_secret_basic',
    })
    const token = await auth.getToken()

    // client_secret_basic: each of id and secret is form-encoded, then `id:secret` is base64-encoded.
    const expected = Buffer.from(`registry-basic:a%3Ab%2Fc%2Bd+%25%26%3D%3F%23%7E*%27%21`).toString('base64')
    expect(formUrlEncode(CLIENTS.basic.secret)).toBe('a%3Ab%2Fc%2Bd+%25%26%3D%3F%23%7E*%27%21')
    expect(seen()).toEqual([
      {
        method: 'POST',
        status: 200,
        form: { grant_type: 'client_credentials' },
        authorization: `Basic ${expected}`,
        clientId: CLIENTS.basic.id,
      },
    ])
    expect(provider.issued.get(token)?.clientId).toBe(CLIENTS.basic.id)
  })

  it('requests the given scope, and the provider issues the token for exactly that scope', async () => {
    const token = await postAuth({ scope: 'registry:read registry:write' }).getToken()

    expect(seen().map((r) => r.form)).toEqual([
      {
        grant_type: 'client_credentials',
        scope: 'registry:read registry:write',
        client_id: CLIENTS.post.id,
        client_secret: CLIENTS.post.secret,
      },
    ])
    expect(provider.issued.get(token)?.scope).toBe('registry:read registry:write')
  })

  it('sends the scope with client_secret_basic too', async () => {
    const auth = new IdpAuth({
      tokenUrl: provider.tokenUrl,
      clientId: CLIENTS.basic.id,
      clientSecret: CLIENTS.basic.secret,
      tokenEndpointAuthMethod: 'client_secret_basic',
      scope: 'registry:read',
    })
    const token = await auth.getToken()

    expect(seen().map((r) => r.form)).toEqual([{ grant_type: 'client_credentials', scope: 'registry:read' }])
    expect(provider.issued.get(token)?.scope).toBe('registry:read')
  })

  it('rejects a wrong secret with AuthenticationError naming the endpoint, 401 and invalid_client, never the secret', async () => {
    const secret = 'wrong-secret-that-must-not-leak'
    const auth = postAuth({ clientSecret: secret })
    const error = await rejection(auth.getToken())

    expect(error).toBeInstanceOf(AuthenticationError)
    expect(isSerdeError(error, 'AUTHENTICATION')).toBe(true)
    const e = error as AuthenticationError
    expect(e.name).toBe('AuthenticationError')
    expect(e.code).toBe('AUTHENTICATION')
    expect(e.status).toBe(401)
    expect(e.url).toBe(provider.tokenUrl)
    expect(e.message).toBe(
      `Token endpoint ${provider.tokenUrl} answered HTTP 401 (OAuth error 'invalid_client'), expected 200: ` +
        'the client credentials were refused (check clientId, clientSecret and tokenEndpointAuthMethod)',
    )
    for (const shown of [e.message, JSON.stringify(e), inspect(e), String(e)]) {
      expect(shown).not.toContain(secret)
      expect(shown).not.toContain('client authentication failed') // the error_description of the body
    }
    expect(seen()).toHaveLength(1)
    expect(seen()[0]?.status).toBe(401)
  })

  it('rejects a wrong secret sent with client_secret_basic as 401 invalid_client as well', async () => {
    const auth = new IdpAuth({
      tokenUrl: provider.tokenUrl,
      clientId: CLIENTS.basic.id,
      clientSecret: `${CLIENTS.basic.secret}x`,
      tokenEndpointAuthMethod: 'client_secret_basic',
    })
    const error = (await rejection(auth.getToken())) as AuthenticationError

    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.status).toBe(401)
    expect(error.message).toContain("(OAuth error 'invalid_client')")
    expect(error.message).not.toContain(CLIENTS.basic.secret)
  })

  it('rejects a scope the client may not have with AuthenticationError 400 invalid_scope', async () => {
    const auth = new IdpAuth({
      tokenUrl: provider.tokenUrl,
      clientId: CLIENTS.reader.id,
      clientSecret: CLIENTS.reader.secret,
      scope: 'registry:write',
    })
    const error = (await rejection(auth.getToken())) as AuthenticationError

    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.status).toBe(400)
    expect(error.message).toBe(
      `Token endpoint ${provider.tokenUrl} answered HTTP 400 (OAuth error 'invalid_scope'), expected 200`,
    )
    expect(seen()).toHaveLength(1)
  })

  it('rejects a wrong token path with AuthenticationError 404 and a hint about tokenUrl', async () => {
    const auth = postAuth({ tokenUrl: provider.tokenUrl.replace('/token', '/realms/nope/token') })
    const error = (await rejection(auth.getToken())) as AuthenticationError

    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.status).toBe(404)
    expect(error.message).toContain('no token endpoint there (check tokenUrl and the realm in it)')
  })

  it('reuses the cached token: three calls, one request', async () => {
    const auth = postAuth()
    const first = await auth.getToken()
    const second = await auth.getToken()
    const third = await auth.getToken()

    expect([second, third]).toEqual([first, first])
    expect(seen()).toHaveLength(1)
  })

  it('serves 100 concurrent callers with one request', async () => {
    const auth = postAuth()
    const tokens = await Promise.all(Array.from({ length: 100 }, () => auth.getToken()))

    expect(new Set(tokens).size).toBe(1)
    expect(provider.issued.has(tokens[0] ?? '')).toBe(true)
    expect(seen()).toHaveLength(1)
  })

  it('fetches a new token after about 1.6 s of a 2 s lifetime (20 % refresh-ahead), in real time', async () => {
    const auth = postAuth()
    const first = await auth.getToken()
    const after = performance.now()
    expect(await auth.getToken()).toBe(first)
    expect(seen()).toHaveLength(1)

    // The token is due 1.6 s after its request left, so no later than `after + 1600`.
    await waitFor(() => performance.now() > after + 0.8 * SHORT_TTL_SECONDS * 1000 + 20, 5000)
    const second = await auth.getToken()

    expect(second).not.toBe(first)
    expect(provider.isValid(second)).toBe(true)
    expect(seen()).toHaveLength(2)
    expect(await auth.getToken()).toBe(second)
    expect(seen()).toHaveLength(2)
  })

  it('refreshes a 2 s token at exactly 1.6 s on the injected clock, not before', async () => {
    const clock = manualClock(10_000)
    const auth = postAuth({ now: clock.now })
    const first = await auth.getToken()

    clock.set(10_000 + 1599)
    expect(await auth.getToken()).toBe(first)
    expect(seen()).toHaveLength(1)

    clock.set(10_000 + 1600)
    const second = await auth.getToken()
    expect(second).not.toBe(first)
    expect(seen()).toHaveLength(2)
  })

  it('keeps handing out a token whose refresh failed until it expires, retrying after min(5 s, a quarter of what is left), then fails', async () => {
    // The provider goes away: token requests then go to a port where nothing listens (a real ECONNREFUSED).
    const closed = await closedPortUrl()
    let down = false
    const fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(down ? closed : input, init)
    const clock = manualClock(10_000)
    const auth = postAuth({ now: clock.now, fetch })
    const first = await auth.getToken()
    expect(seen()).toHaveLength(1)

    down = true
    clock.set(10_000 + 1600) // due for refresh, 400 ms left
    expect(await auth.getToken()).toBe(first) // the refresh failed: still the cached token
    clock.set(10_000 + 1650) // within the retry delay (a quarter of 400 ms = 100 ms): no request at all
    const requests = seen().length
    expect(await auth.getToken()).toBe(first)
    expect(await auth.getToken()).toBe(first)
    clock.set(10_000 + 1701) // the retry delay is over: one more attempt, which fails too
    expect(await auth.getToken()).toBe(first)
    expect(seen()).toHaveLength(requests) // the provider saw none of the failed attempts
    clock.set(10_000 + 2000) // expired
    const error = await rejection(auth.getToken())
    expect(error).toBeInstanceOf(AuthenticationError)
    expect((error as Error).message).toContain('Could not reach the token endpoint')

    down = false // back: the next call gets a fresh token
    const fresh = await auth.getToken()
    expect(fresh).not.toBe(first)
    expect(provider.isValid(fresh)).toBe(true)
  })

  it('shares one failed refresh among concurrent callers and gives each the still-valid token', async () => {
    const closed = await closedPortUrl()
    let down = false
    let attempts = 0
    const fetch: typeof globalThis.fetch = (input, init) => {
      if (down) attempts += 1
      return globalThis.fetch(down ? closed : input, init)
    }
    const clock = manualClock(50_000)
    const auth = postAuth({ now: clock.now, fetch })
    const first = await auth.getToken()
    down = true
    clock.set(50_000 + 1700)
    const tokens = await Promise.all(Array.from({ length: 50 }, () => auth.getToken()))
    expect(new Set(tokens)).toEqual(new Set([first]))
    expect(attempts).toBe(3) // one shared refresh: its first request and the two retries of a refused connection
  })

  it('refreshes a 60 s token 12 s before its end (20 % of the lifetime)', async () => {
    const clock = manualClock()
    const auth = postAuth({
      clientId: CLIENTS.minute.id,
      clientSecret: CLIENTS.minute.secret,
      now: clock.now,
    })
    const first = await auth.getToken()

    clock.set(47_999)
    expect(await auth.getToken()).toBe(first)
    expect(seen()).toHaveLength(1)
    clock.set(48_000)
    expect(await auth.getToken()).not.toBe(first)
    expect(seen()).toHaveLength(2)
  })

  it('refreshes a 24 h token 30 s before its end (the cap), not 20 % (4.8 h) before', async () => {
    const clock = manualClock()
    const auth = postAuth({ clientId: CLIENTS.day.id, clientSecret: CLIENTS.day.secret, now: clock.now })
    const first = await auth.getToken()

    clock.set(86_400_000 - 30_001)
    expect(await auth.getToken()).toBe(first)
    expect(seen()).toHaveLength(1)
    clock.set(86_400_000 - 30_000)
    expect(await auth.getToken()).not.toBe(first)
    expect(seen()).toHaveLength(2)
  })

  it('invalidate(token) drops the cached token only while it is still that token', async () => {
    const auth = postAuth()
    const first = await auth.getToken()

    auth.invalidate('some-other-token')
    expect(await auth.getToken()).toBe(first)
    expect(seen()).toHaveLength(1)

    auth.invalidate(first)
    const second = await auth.getToken()
    expect(second).not.toBe(first)
    expect(seen()).toHaveLength(2)

    auth.invalidate(first) // a late caller still holding the refused token cannot drop the new one
    expect(await auth.getToken()).toBe(second)
    expect(seen()).toHaveLength(2)

    auth.invalidate()
    expect(await auth.getToken()).not.toBe(second)
    expect(seen()).toHaveLength(3)
  })

  it('never shows the secret or the token in String(), JSON.stringify() or util.inspect()', async () => {
    const auth = postAuth({ scope: 'registry:read' })
    const token = await auth.getToken()
    const views = [
      String(auth),
      `${auth}`,
      JSON.stringify(auth),
      inspect(auth),
      inspect({ auth }, { depth: 5 }),
    ]

    for (const view of views) {
      expect(view).not.toContain(CLIENTS.post.secret)
      expect(view).not.toContain(token)
    }
    expect(JSON.parse(JSON.stringify(auth))).toEqual({
      tokenUrl: provider.tokenUrl,
      clientId: CLIENTS.post.id,
      scope: 'registry:read',
      tokenEndpointAuthMethod: 'client_secret_post',
    })
    expect(String(auth)).toBe(`IdpAuth(${provider.tokenUrl}, clientId="${CLIENTS.post.id}")`)
    expect(inspect(auth)).toBe(
      `IdpAuth {\n  tokenUrl: '${provider.tokenUrl}',\n  clientId: '${CLIENTS.post.id}',\n` +
        `  scope: 'registry:read',\n  tokenEndpointAuthMethod: 'client_secret_post'\n}`,
    )
    expect(Object.keys(auth)).toEqual([])
  })
})
