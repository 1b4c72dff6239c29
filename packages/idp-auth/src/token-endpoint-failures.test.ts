import type { ServerResponse } from 'node:http'
import { createServer } from 'node:net'
import { inspect } from 'node:util'
import { AuthenticationError } from '@x/errors'
import { afterEach, describe, expect, it } from 'vitest'
import { IdpAuth } from './idp-auth.js'
import {
  answer,
  type LocalServer,
  type Responder,
  startLocalServer,
  waitFor,
} from './test-support/local-server.js'

// Answers a real OpenID provider never gives, from a tiny local server. Everything a real provider can say is
// tested against oidc-provider in idp-auth.test.ts.

const SECRET = 'the-secret-0123456789'
const TOKEN = 'the-token-abcdefghij'

let server: LocalServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

async function serve(respond: Responder): Promise<LocalServer> {
  server = await startLocalServer(respond)
  return server
}

function authFor(srv: LocalServer, extra: Partial<ConstructorParameters<typeof IdpAuth>[0]> = {}): IdpAuth {
  return new IdpAuth({
    tokenUrl: `${srv.origin}/token`,
    clientId: 'my-client',
    clientSecret: SECRET,
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

/** A fetch rejection as an AuthenticationError, checked for what every one of them must hold. */
async function authError(promise: Promise<unknown>, url: string): Promise<AuthenticationError> {
  const error = await rejection(promise)
  expect(error).toBeInstanceOf(AuthenticationError)
  const e = error as AuthenticationError
  expect(e.code).toBe('AUTHENTICATION')
  expect(e.url).toBe(url)
  for (const shown of [e.message, JSON.stringify(e), inspect(e)]) {
    expect(shown).not.toContain(SECRET)
    expect(shown).not.toContain(TOKEN)
  }
  return e
}

function manualClock(start = 0) {
  let time = start
  return {
    now: () => time,
    set(ms: number) {
      time = ms
    },
  }
}

describe('the token request on the wire', () => {
  it('is a form POST with exactly grant_type, client_id and client_secret, and Accept: application/json', async () => {
    const srv = await serve((res) => answer(res, 200, { access_token: TOKEN, expires_in: 300 }))
    expect(await authFor(srv).getToken()).toBe(TOKEN)

    expect(srv.requests).toHaveLength(1)
    const [request] = srv.requests
    expect(request?.method).toBe('POST')
    expect(request?.url).toBe('/token')
    expect(request?.body).toBe(`grant_type=client_credentials&client_id=my-client&client_secret=${SECRET}`)
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded')
    expect(request?.headers.accept).toBe('application/json')
    expect(request?.headers.authorization).toBeUndefined()
  })

  it('form-encodes a secret with special characters in the body (client_secret_post)', async () => {
    const srv = await serve((res) => answer(res, 200, { access_token: TOKEN, expires_in: 300 }))
    await authFor(srv, { clientSecret: 'a:b/c+d é&x=y', scope: 'registry:read registry:write' }).getToken()

    expect(srv.requests[0]?.body).toBe(
      'grant_type=client_credentials&scope=registry%3Aread+registry%3Awrite' +
        '&client_id=my-client&client_secret=a%3Ab%2Fc%2Bd+%C3%A9%26x%3Dy',
    )
  })

  it('sends the scope with single spaces between its values', async () => {
    const srv = await serve((res) => answer(res, 200, { access_token: TOKEN, expires_in: 300 }))
    await authFor(srv, { scope: '  registry:read \t registry:write ' }).getToken()

    expect(srv.requests[0]?.body).toBe(
      `grant_type=client_credentials&scope=registry%3Aread+registry%3Awrite&client_id=my-client&client_secret=${SECRET}`,
    )
  })

  it('sends Basic credentials with id and secret each form-encoded before base64, and neither in the body', async () => {
    const srv = await serve((res) => answer(res, 200, { access_token: TOKEN, expires_in: 300 }))
    const auth = authFor(srv, {
      clientId: 'my client:1',
      clientSecret: 'a:b/c+d é',
      tokenEndpointAuthMethod: 'client_secret_basic',
      scope: 'registry:read',
    })
    await auth.getToken()

    const header = srv.requests[0]?.headers.authorization
    expect(header).toBe(`Basic ${Buffer.from('my+client%3A1:a%3Ab%2Fc%2Bd+%C3%A9').toString('base64')}`)
    expect(header).toBe('Basic bXkrY2xpZW50JTNBMTphJTNBYiUyRmMlMkJkKyVDMyVBOQ==')
    expect(srv.requests[0]?.body).toBe('grant_type=client_credentials&scope=registry%3Aread')
  })

  it('keeps the query of tokenUrl in the request but leaves it out of messages', async () => {
    const srv = await serve((res) => answer(res, 500, 'oops'))
    const auth = new IdpAuth({
      tokenUrl: `${srv.origin}/token?p=signin&sig=zzz`,
      clientId: 'c',
      clientSecret: SECRET,
    })
    const error = await authError(auth.getToken(), `${srv.origin}/token`)

    expect(srv.requests[0]?.url).toBe('/token?p=signin&sig=zzz')
    expect(error.message).toBe(`Token endpoint ${srv.origin}/token answered HTTP 500, expected 200`)
  })

  it('does not follow a redirect, which would carry the secret elsewhere', async () => {
    const elsewhere = await startLocalServer((res) =>
      answer(res, 200, { access_token: TOKEN, expires_in: 300 }),
    )
    try {
      const srv = await serve((res) => {
        res.writeHead(307, { location: `${elsewhere.origin}/steal` })
        res.end()
      })
      const error = await authError(authFor(srv).getToken(), `${srv.origin}/token`)

      expect(error.status).toBe(307)
      expect(elsewhere.requests).toHaveLength(0)
    } finally {
      await elsewhere.close()
    }
  })
})

describe('AuthenticationError for answers that cannot be used', () => {
  const cases: ReadonlyArray<readonly [string, string | object, string]> = [
    ['a body that is not JSON', `<html>${TOKEN}</html>`, 'with a body that is not JSON'],
    ['a JSON array', [TOKEN], 'with JSON that is not an object (an array)'],
    ['JSON null', 'null', 'with JSON that is not an object (null)'],
    ['no access_token', { expires_in: 300 }, 'with access_token missing'],
    ['an empty access_token', { access_token: '', expires_in: 300 }, 'with access_token an empty string'],
    ['a numeric access_token', { access_token: 12345, expires_in: 300 }, 'with access_token a number'],
    ['a null access_token', { access_token: null, expires_in: 300 }, 'with access_token null'],
    [
      'an access_token with a line break',
      { access_token: `${TOKEN}\r\nX: y`, expires_in: 300 },
      'cannot be sent',
    ],
    ['an access_token with a space', { access_token: `${TOKEN} x`, expires_in: 300 }, 'cannot be sent in an'],
    [
      'a non-ASCII access_token',
      { access_token: `${TOKEN}é`, expires_in: 300 },
      'cannot be sent in an Authorization',
    ],
    ['no expires_in', { access_token: TOKEN }, 'with expires_in missing'],
    ['expires_in 0', { access_token: TOKEN, expires_in: 0 }, 'with expires_in 0'],
    ['a negative expires_in', { access_token: TOKEN, expires_in: -5 }, 'with expires_in -5'],
    ['a non-numeric string expires_in', { access_token: TOKEN, expires_in: 'soon' }, 'a string that is not'],
    [
      'a zero string expires_in',
      { access_token: TOKEN, expires_in: '0' },
      'a string that is not a positive number',
    ],
    [
      'a negative string expires_in',
      { access_token: TOKEN, expires_in: '-300' },
      'a string that is not a positive',
    ],
    ['a boolean expires_in', { access_token: TOKEN, expires_in: true }, 'with expires_in a boolean'],
    ['an infinite expires_in', `{"access_token":"${TOKEN}","expires_in":1e400}`, 'with expires_in Infinity'],
  ]

  it.each(cases)(
    'rejects a 200 answer with %s, naming the field but never the body',
    async (_, body, what) => {
      const srv = await serve((res) => answer(res, 200, body))
      const auth = authFor(srv)
      const error = await authError(auth.getToken(), `${srv.origin}/token`)

      expect(error.status).toBe(200)
      expect(error.message).toContain(`Token endpoint ${srv.origin}/token answered HTTP 200 `)
      expect(error.message).toContain(what)
      expect(error.message).toContain(
        'expected a JSON object with a non-empty string access_token and a positive',
      )
      expect(error.cause).toBeUndefined() // a JSON SyntaxError would quote the body
      // nothing was cached: the next call asks again
      await rejection(auth.getToken())
      expect(srv.requests).toHaveLength(2)
    },
  )

  it('accepts expires_in as a numeric string ("300"), as some providers send it, with the same refresh rule', async () => {
    const srv = await serve((res, _req, i) =>
      answer(res, 200, { access_token: `${TOKEN}-${i}`, expires_in: '300' }),
    )
    const clock = manualClock()
    const auth = authFor(srv, { now: clock.now })

    expect(await auth.getToken()).toBe(`${TOKEN}-0`)
    clock.set(269_999) // min(30 s, 20 % of 300 s) = 30 s before the end
    expect(await auth.getToken()).toBe(`${TOKEN}-0`)
    clock.set(270_000)
    expect(await auth.getToken()).toBe(`${TOKEN}-1`)
    expect(srv.requests).toHaveLength(2)
  })

  it('names the OAuth error code of an error answer, but not its description or any other part', async () => {
    const srv = await serve((res) =>
      answer(res, 401, {
        error: 'unauthorized_client',
        error_description: `client ${SECRET} unknown`,
        hint: TOKEN,
      }),
    )
    const error = await authError(authFor(srv).getToken(), `${srv.origin}/token`)

    expect(error.status).toBe(401)
    expect(error.message).toBe(
      `Token endpoint ${srv.origin}/token answered HTTP 401 (OAuth error 'unauthorized_client'), expected 200: ` +
        'the client credentials were refused (check clientId, clientSecret and tokenEndpointAuthMethod)',
    )
  })

  it('leaves out an error field that is not a well-formed OAuth error code', async () => {
    const srv = await serve((res) => answer(res, 400, { error: `"${SECRET}"` }))
    const error = await authError(authFor(srv).getToken(), `${srv.origin}/token`)

    expect(error.message).toBe(`Token endpoint ${srv.origin}/token answered HTTP 400, expected 200`)
  })

  it('rejects a 201 answer even with a valid token in it (only 200 is success)', async () => {
    const srv = await serve((res) => answer(res, 201, { access_token: TOKEN, expires_in: 300 }))
    const error = await authError(authFor(srv).getToken(), `${srv.origin}/token`)

    expect(error.status).toBe(201)
  })

  it('keeps handing out the previous token after a failed refresh until it expires, and does not cache the failure', async () => {
    const replies: Array<(res: ServerResponse) => void> = [
      (res) => answer(res, 200, { access_token: `${TOKEN}-A`, expires_in: 100 }),
      (res) => answer(res, 503, 'maintenance'),
      (res) => answer(res, 200, { access_token: `${TOKEN}-B`, expires_in: 100 }),
      (res) => answer(res, 503, 'maintenance'),
      (res) => answer(res, 503, 'maintenance'),
    ]
    const srv = await serve((res, _req, i) => replies[i]?.(res))
    const clock = manualClock()
    // One request per refresh here (no retry): what is under test is how a failed refresh is remembered.
    const auth = authFor(srv, { now: clock.now, retry: { limit: 0 } })
    expect(await auth.getToken()).toBe(`${TOKEN}-A`)

    clock.set(90_000) // due for refresh (less than 20 s of 100 s left); the refresh fails: A is still valid
    expect(await auth.getToken()).toBe(`${TOKEN}-A`)
    expect(srv.requests).toHaveLength(2)
    clock.set(92_499) // the next try waits min(5 s, 10 s / 4) = 2.5 s: no request before
    expect(await auth.getToken()).toBe(`${TOKEN}-A`)
    expect(srv.requests).toHaveLength(2)

    clock.set(92_500) // the failure was not cached: this call asks again, and gets B
    expect(await auth.getToken()).toBe(`${TOKEN}-B`)
    expect(srv.requests).toHaveLength(3)

    clock.set(92_500 + 99_000) // B expires at 192 500; its refresh fails and nothing valid is left after it
    expect(await auth.getToken()).toBe(`${TOKEN}-B`)
    clock.set(92_500 + 100_000)
    const error = await authError(auth.getToken(), `${srv.origin}/token`)
    expect(error.status).toBe(503)
    expect(srv.requests).toHaveLength(5)
  })
})

describe('unreachable and slow endpoints', () => {
  it('rejects with AuthenticationError naming the endpoint when the connection is refused', async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}/token`
    const auth = new IdpAuth({ tokenUrl: url, clientId: 'c', clientSecret: SECRET })
    const error = await authError(auth.getToken(), url)

    expect(error.message).toBe(`Could not reach the token endpoint ${url} (ECONNREFUSED)`)
    expect(error.status).toBeUndefined()
    expect(error.cause).toBeInstanceOf(TypeError)
  })

  it('rejects with AuthenticationError after timeoutMs when the endpoint never answers, and drops the request', async () => {
    const srv = await serve(() => {}) // never answers
    const auth = authFor(srv, { timeoutMs: 150 })
    const error = await authError(auth.getToken(), `${srv.origin}/token`)

    expect(error.message).toBe(`Token endpoint ${srv.origin}/token did not answer within 150 ms (timeoutMs)`)
    expect(srv.requests).toHaveLength(1)
    await waitFor(() => srv.abortedByClient === 1)
  })

  it('applies timeoutMs to reading the body too', async () => {
    const srv = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"access_token":') // and never more
    })
    const error = await authError(authFor(srv, { timeoutMs: 150 }).getToken(), `${srv.origin}/token`)

    expect(error.message).toContain('did not answer within 150 ms')
  })

  it('applies timeoutMs per request: a second call gets its own full time', async () => {
    const srv = await serve((res, _req, i) => {
      if (i === 1) answer(res, 200, { access_token: TOKEN, expires_in: 300 })
    })
    const auth = authFor(srv, { timeoutMs: 150 })
    await authError(auth.getToken(), `${srv.origin}/token`)

    expect(await auth.getToken()).toBe(TOKEN)
    expect(srv.requests).toHaveLength(2)
  })

  it('bounds a fetch implementation that ignores its signal by timeoutMs as well', async () => {
    let calls = 0
    const stuck: typeof fetch = () => {
      calls++
      return new Promise<Response>(() => {})
    }
    const auth = new IdpAuth({
      tokenUrl: 'https://idp.example/token',
      clientId: 'c',
      clientSecret: SECRET,
      fetch: stuck,
      timeoutMs: 100,
    })
    const error = await authError(auth.getToken(), 'https://idp.example/token')

    expect(error.message).toBe(
      'Token endpoint https://idp.example/token did not answer within 100 ms (timeoutMs)',
    )
    expect(calls).toBe(1)
  })
})

describe('the caller’s AbortSignal', () => {
  it('rejects at once with the reason of an already aborted signal, without a request', async () => {
    const srv = await serve((res) => answer(res, 200, { access_token: TOKEN, expires_in: 300 }))
    const reason = new Error('caller gave up')
    const error = await rejection(authFor(srv).getToken(AbortSignal.abort(reason)))

    expect(error).toBe(reason)
    expect(srv.requests).toHaveLength(0)
  })

  it('rejects with the signal’s reason, not AuthenticationError, and aborts the request it alone waited for', async () => {
    const srv = await serve(() => {}) // hangs
    const controller = new AbortController()
    const pending = authFor(srv).getToken(controller.signal)
    await waitFor(() => srv.requests.length === 1)
    const reason = { why: 'shutdown' }
    controller.abort(reason)

    expect(await rejection(pending)).toBe(reason)
    await waitFor(() => srv.abortedByClient === 1)
  })

  it('lets the other callers of a shared request carry on when one of them aborts', async () => {
    let release: (() => void) | undefined
    const srv = await serve((res) => {
      release = () => answer(res, 200, { access_token: TOKEN, expires_in: 300 })
    })
    const auth = authFor(srv)
    const controller = new AbortController()
    const leaving = auth.getToken(controller.signal)
    const staying = auth.getToken()
    const stayingWithSignal = auth.getToken(new AbortController().signal)
    await waitFor(() => release !== undefined)
    controller.abort(new Error('this caller left'))

    expect(await rejection(leaving)).toEqual(new Error('this caller left'))
    release?.()
    expect(await staying).toBe(TOKEN)
    expect(await stayingWithSignal).toBe(TOKEN)
    expect(srv.requests).toHaveLength(1)
    expect(srv.abortedByClient).toBe(0)
  })

  it('starts a new request for the next caller after every waiter of the previous one aborted', async () => {
    const srv = await serve((res, _req, i) => {
      if (i === 1) answer(res, 200, { access_token: TOKEN, expires_in: 300 })
    })
    const auth = authFor(srv)
    const controller = new AbortController()
    const first = auth.getToken(controller.signal)
    await waitFor(() => srv.requests.length === 1)
    controller.abort()
    await rejection(first)

    expect(await auth.getToken()).toBe(TOKEN)
    expect(srv.requests).toHaveLength(2)
  })
})

/** A port on 127.0.0.1 that nothing listens on (bound, read, released). */
async function freePort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()))
  const address = probe.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  return port
}
