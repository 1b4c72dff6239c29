import { inspect } from 'node:util'
import {
  AuthenticationError,
  RegistryConnectionError,
  SchemaNotFoundError,
  SchemaRegistrationError,
} from '@x/errors'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RegistryClient, type RegistryClientOptions, type TokenProvider } from './index.js'
import {
  createArtifactResponse,
  HttpFixture,
  problem,
  refusedUrl,
  reply,
  versionMetadata,
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
  client = new RegistryClient({ url: fixture.url, groupId: 'orders', maxRetries: 0, ...options })
  return client
}

async function failure(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise
  } catch (error) {
    return error as Error & Record<string, unknown>
  }
  throw new Error('expected a rejection')
}

describe('error mapping of lookups', () => {
  it('maps 404 of an artifact lookup to SchemaNotFoundError with groupId and artifactId', async () => {
    fixture.handle((_, res) => problem(res, 404, "No version '<tip of the branch 'latest'>' found"))
    const error = await failure(newClient().getSchema('user'))
    expect(error).toBeInstanceOf(SchemaNotFoundError)
    expect(error).toMatchObject({
      code: 'SCHEMA_NOT_FOUND',
      groupId: 'orders',
      artifactId: 'user',
      status: 404,
      url: fixture.url,
    })
    expect(error.version).toBeUndefined()
    expect(error.message).toContain("artifact 'user' in group 'orders'")
    expect(error.cause).toMatchObject({ name: 'RegistryFailureCause', status: 404 })
  })

  it('names the version of a getSchemaVersion 404', async () => {
    fixture.handle((_, res) => problem(res, 404, 'No version'))
    const error = await failure(newClient().getSchemaVersion('user', '7', { groupId: 'other' }))
    expect(error).toMatchObject({ groupId: 'other', artifactId: 'user', version: '7' })
  })

  it.each([
    ['globalId', (c: RegistryClient) => c.getSchemaByGlobalId(99)],
    ['contentId', (c: RegistryClient) => c.getSchemaByContentId(99)],
    ['globalId', (c: RegistryClient) => c.getReferencesByGlobalId(99)],
    ['contentId', (c: RegistryClient) => c.getReferencesByContentId(99)],
  ] as const)(
    'maps 404 of a %s lookup to SchemaNotFoundError with idType and idValue',
    async (idType, call) => {
      fixture.handle((_, res) => problem(res, 404, "No content with ID '99' was found."))
      const error = await failure(call(newClient()))
      expect(error).toBeInstanceOf(SchemaNotFoundError)
      expect(error).toMatchObject({ idType, idValue: 99, status: 404 })
      expect(error.groupId).toBeUndefined()
    },
  )

  it('maps a 404 of the content after the metadata to SchemaNotFoundError for the globalId', async () => {
    fixture.handle((request, res) =>
      request.path.includes('/versions/')
        ? reply(res, 200, versionMetadata({ artifactId: 'user', globalId: 12, contentId: 13 }))
        : problem(res, 404, 'gone'),
    )
    const error = await failure(newClient().getSchema('user'))
    expect(error).toMatchObject({ name: 'SchemaNotFoundError', idType: 'globalId', idValue: 12 })
  })

  it.each([400, 405, 409, 422, 500, 501])(
    'maps %i on a lookup to RegistryConnectionError with the status and the ProblemDetails title only',
    async (status) => {
      fixture.handle((_, res) =>
        reply(
          res,
          status,
          JSON.stringify({ title: 'Something is off', detail: 'SecretInternal: stack', status }),
        ),
      )
      const error = await failure(newClient().getSchemaByGlobalId(1))
      expect(error).toBeInstanceOf(RegistryConnectionError)
      expect(error).toMatchObject({ code: 'REGISTRY_CONNECTION', status, url: fixture.url })
      expect(error.message).toBe(
        `The registry at ${fixture.url} answered HTTP ${status} (Something is off) when asked for globalId 1`,
      )
      expect(error.message).not.toContain('SecretInternal')
      expect(fixture.requests).toHaveLength(1)
    },
  )

  it('never puts a non-JSON error body into the message', async () => {
    fixture.handle((_, res) =>
      reply(res, 500, '<html>internal password=hunter2</html>', { 'content-type': 'text/html' }),
    )
    const error = await failure(newClient().getSchemaByGlobalId(1))
    expect(error.message).toBe(`The registry at ${fixture.url} answered HTTP 500 when asked for globalId 1`)
  })

  it.each([
    ['not JSON', 'Hello', 'is not JSON'],
    ['without ids', '{"version":"1","artifactId":"user"}', 'has no integer globalId and contentId'],
    ['with a fractional id', '{"globalId":1.5,"contentId":2}', 'has no integer globalId'],
    ['a JSON array', '[]', 'is not a JSON object'],
  ])(
    'maps a 200 metadata answer %s to RegistryConnectionError with status 200',
    async (_, body, fragment) => {
      fixture.handle((_, res) => reply(res, 200, body))
      const error = await failure(newClient().getSchema('user'))
      expect(error).toBeInstanceOf(RegistryConnectionError)
      expect(error.status).toBe(200)
      expect(error.message).toContain(fragment)
    },
  )

  it('maps an empty 200 content answer to RegistryConnectionError with status 200', async () => {
    fixture.handle((_, res) => reply(res, 200, ''))
    await expect(newClient().getSchemaByContentId(4)).rejects.toMatchObject({
      name: 'RegistryConnectionError',
      status: 200,
    })
  })

  it('maps an unusable references or artifact list answer to RegistryConnectionError with status 200', async () => {
    fixture.handle((request, res) =>
      reply(res, 200, request.path.includes('references') ? '[{"name":1}]' : '{"count":"x"}'),
    )
    const c = newClient()
    await expect(c.getReferencesByGlobalId(1)).rejects.toMatchObject({
      name: 'RegistryConnectionError',
      status: 200,
    })
    await expect(c.listArtifacts()).rejects.toMatchObject({ name: 'RegistryConnectionError', status: 200 })
  })

  it('hints at the API root when a 404 comes from a URL without /apis/registry/v3', async () => {
    fixture.handle((_, res) => problem(res, 404, 'Could not find resource'))
    const url = fixture.url.replace('/apis/registry/v3', '/registry')
    client = new RegistryClient({ url, groupId: 'g', maxRetries: 0 })
    const error = await failure(client.getSchema('user'))
    expect(error.message).toContain('Is url the v3 API root (it usually ends in /apis/registry/v3)?')
  })
})

describe('error mapping of registrations', () => {
  it.each([
    [409, 'An artifact with ID ' + "'user' in group 'orders' already exists."],
    [400, 'Rule violation'],
    [422, 'Invalid content'],
    [500, 'Boom'],
  ])('maps %i to SchemaRegistrationError with artifactId, status and cause', async (status, title) => {
    fixture.handle((_, res) => problem(res, status, title))
    const error = await failure(newClient().registerSchema('user', SCHEMA, { ifExists: 'FAIL' }))
    expect(error).toBeInstanceOf(SchemaRegistrationError)
    expect(error).toMatchObject({
      code: 'SCHEMA_REGISTRATION',
      artifactId: 'user',
      groupId: 'orders',
      status,
      url: fixture.url,
    })
    expect(error.message).toContain(`HTTP ${status} (${title})`)
    expect(error.cause).toMatchObject({ name: 'RegistryFailureCause', status })
  })

  it.each([
    ['not JSON', 'OK'],
    ['without version', '{"artifact":{"artifactId":"user"}}'],
    ['without contentId', '{"version":{"globalId":5}}'],
  ])('maps a 200 answer %s to SchemaRegistrationError with status 200', async (_, body) => {
    fixture.handle((_, res) => reply(res, 200, body))
    const error = await failure(newClient().registerSchema('user', SCHEMA))
    expect(error).toBeInstanceOf(SchemaRegistrationError)
    expect(error).toMatchObject({ artifactId: 'user', status: 200 })
  })

  it('maps a transport failure to RegistryConnectionError', async () => {
    client = new RegistryClient({ url: await refusedUrl(), groupId: 'g', maxRetries: 0 })
    await expect(client.registerSchema('a', SCHEMA)).rejects.toBeInstanceOf(RegistryConnectionError)
  })
})

/** A token provider that counts what the client asks of it. */
function countingProvider(
  tokens: string[],
): TokenProvider & { gets: number; invalidated: (string | undefined)[] } {
  let next = 0
  const provider = {
    gets: 0,
    invalidated: [] as (string | undefined)[],
    async getToken(): Promise<string> {
      provider.gets += 1
      const token = tokens[Math.min(next, tokens.length - 1)] ?? ''
      return token
    },
    invalidate(token?: string): void {
      provider.invalidated.push(token)
      next += 1
    },
  }
  return provider
}

describe('authentication', () => {
  it('sends the token as a bearer Authorization header', async () => {
    fixture.handle((_, res) => reply(res, 200, SCHEMA))
    const auth = countingProvider(['tok-1'])
    await newClient({ auth }).getSchemaByGlobalId(1)
    expect(fixture.requests[0]?.headers.authorization).toBe('Bearer tok-1')
  })

  it('on 401 invalidates the token once, takes a fresh one and repeats once', async () => {
    fixture.handle((request, res) =>
      request.headers.authorization === 'Bearer fresh'
        ? reply(res, 200, SCHEMA)
        : problem(res, 401, 'User is not authenticated.'),
    )
    const auth = countingProvider(['stale', 'fresh'])
    await expect(newClient({ auth }).getSchemaByGlobalId(1)).resolves.toEqual({
      schema: SCHEMA,
      globalId: 1,
      references: [],
    })
    expect(auth.invalidated).toEqual(['stale'])
    expect(auth.gets).toBe(2)
    expect(fixture.requests.map((r) => r.headers.authorization)).toEqual(['Bearer stale', 'Bearer fresh'])
  })

  it.each([401, 403])(
    'after a repeat that gets %i too, rejects with AuthenticationError (exactly 2 requests)',
    async (status) => {
      fixture.handle((_, res) => problem(res, status, 'Forbidden'))
      const auth = countingProvider(['one', 'two', 'three'])
      const error = await failure(newClient({ auth, maxRetries: 3 }).getSchemaByGlobalId(1))
      expect(error).toBeInstanceOf(AuthenticationError)
      expect(error).toMatchObject({ code: 'AUTHENTICATION', status, url: fixture.url })
      expect(error.message).toContain('even with a fresh token')
      expect(error.message).not.toContain('one')
      expect(error.message).not.toContain('two')
      expect(auth.invalidated).toEqual(['one'])
      expect(auth.gets).toBe(2)
      expect(fixture.requests).toHaveLength(2)
    },
  )

  it('maps 401 of a registration to AuthenticationError, after the same single repeat', async () => {
    fixture.handle((_, res) => problem(res, 401, 'No'))
    const auth = countingProvider(['a', 'b'])
    await expect(
      newClient({ auth }).registerSchema('x', SCHEMA, { ifExists: 'FAIL' }),
    ).rejects.toBeInstanceOf(AuthenticationError)
    expect(fixture.requests).toHaveLength(2)
  })

  it.each([401, 403])('without auth, maps %i to AuthenticationError at once', async (status) => {
    fixture.handle((_, res) => problem(res, status, 'No'))
    const error = await failure(newClient({ maxRetries: 3 }).getSchema('user'))
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error).toMatchObject({ status })
    expect(error.message).toContain('no auth is set')
    expect(fixture.requests).toHaveLength(1)
  })

  it('lets an AuthenticationError of the token provider through unwrapped, without a request or retry', async () => {
    const own = new AuthenticationError('token endpoint said no', { status: 401 })
    let gets = 0
    const auth: TokenProvider = {
      getToken: async () => {
        gets += 1
        throw own
      },
    }
    await expect(newClient({ auth, maxRetries: 3 }).getSchemaByGlobalId(1)).rejects.toBe(own)
    expect(gets).toBe(1)
    expect(fixture.requests).toHaveLength(0)
  })

  it('wraps any other token provider failure in AuthenticationError with the cause', async () => {
    const boom = new Error('provider broke')
    const auth: TokenProvider = {
      getToken: async () => {
        throw boom
      },
    }
    const error = await failure(newClient({ auth }).getSchemaByGlobalId(1))
    expect(error).toBeInstanceOf(AuthenticationError)
    expect(error.cause).toBe(boom)
    expect(fixture.requests).toHaveLength(0)
  })

  it('refuses an empty token with AuthenticationError', async () => {
    const auth: TokenProvider = { getToken: async () => '' }
    await expect(newClient({ auth }).getSchemaByGlobalId(1)).rejects.toBeInstanceOf(AuthenticationError)
  })

  it('passes the call signal to the token provider', async () => {
    let seen: AbortSignal | undefined
    const auth: TokenProvider = {
      getToken: async (signal) => {
        seen = signal
        return 't'
      },
    }
    fixture.handle((_, res) => reply(res, 200, SCHEMA))
    await newClient({ auth }).getSchemaByGlobalId(1)
    expect(seen).toBeInstanceOf(AbortSignal)
  })
})

describe('Basic authentication from the URL', () => {
  function urlWithUserinfo(user: string, password: string): string {
    const url = new URL(fixture.url)
    url.username = user
    url.password = password
    return url.toString()
  }

  it('turns userinfo into an HTTP Basic header (percent-decoded)', async () => {
    fixture.handle((_, res) => reply(res, 200, SCHEMA))
    client = new RegistryClient({ url: urlWithUserinfo('dev client', 'p@ss:wörd'), groupId: 'g' })
    await client.getSchemaByGlobalId(1)
    const expected = `Basic ${Buffer.from('dev client:p@ss:wörd', 'utf8').toString('base64')}`
    expect(fixture.requests[0]?.headers.authorization).toBe(expected)
    expect(fixture.requests[0]?.path).toBe('/ids/globalIds/1?returnArtifactType=true')
  })

  it('uses the token provider instead when auth is given', async () => {
    fixture.handle((_, res) => reply(res, 200, SCHEMA))
    client = new RegistryClient({
      url: urlWithUserinfo('u', 'p'),
      groupId: 'g',
      auth: countingProvider(['tok']),
    })
    await client.getSchemaByGlobalId(1)
    expect(fixture.requests[0]?.headers.authorization).toBe('Bearer tok')
  })

  it('never shows the credentials in messages, errors, util.inspect or JSON.stringify', async () => {
    const secret = 'hunter2-secret'
    const shown: string[] = []
    fixture.handle((request, res) => {
      if (request.path.startsWith('/ids/globalIds/1?returnArtifactType=true')) problem(res, 401, 'No')
      else if (request.path.startsWith('/ids/globalIds/2?returnArtifactType=true')) problem(res, 500, 'Boom')
      else problem(res, 404, 'None')
    })
    client = new RegistryClient({ url: urlWithUserinfo('alice', secret), groupId: 'g', maxRetries: 0 })
    for (const call of [
      () => client?.getSchemaByGlobalId(1),
      () => client?.getSchemaByGlobalId(2),
      () => client?.getSchema('x'),
      () => client?.registerSchema('x', SCHEMA),
    ]) {
      const error = await failure(Promise.resolve(call()))
      shown.push(error.message, inspect(error, { depth: 5 }), JSON.stringify(error), String(error.cause))
    }
    const refused = new URL(await refusedUrl())
    refused.username = 'alice'
    refused.password = secret
    const other = new RegistryClient({ url: refused.toString(), groupId: 'g', maxRetries: 0 })
    const error = await failure(other.getSchema('x'))
    shown.push(error.message, inspect(error, { depth: 5 }), JSON.stringify(error))
    shown.push(
      inspect(client, { depth: 5, showHidden: true }),
      JSON.stringify(client),
      inspect(other),
      client.url,
    )
    for (const text of shown) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain('alice')
      expect(text).not.toContain('Basic ')
    }
    await other.close()
  })

  it('keeps a bearer token and custom headers out of the error cause', async () => {
    fixture.handle((_, res) => problem(res, 500, 'Boom'))
    const c = newClient({
      auth: countingProvider(['very-secret-token']),
      headers: { 'X-Api-Key': 'key-123' },
    })
    const error = await failure(c.getSchemaByGlobalId(1))
    const dump = inspect(error, { depth: 10, showHidden: true })
    expect(dump).not.toContain('very-secret-token')
    expect(dump).not.toContain('key-123')
    expect(error.cause).not.toHaveProperty('request')
    expect(error.cause).not.toHaveProperty('options')
  })
})

describe('registration answer ids', () => {
  it('reads ids only from the version object of the answer', async () => {
    fixture.handle((_, res) =>
      reply(
        res,
        200,
        createArtifactResponse({ groupId: 'orders', artifactId: 'user', globalId: 41, contentId: 42 }),
      ),
    )
    await expect(newClient().registerSchema('user', SCHEMA)).resolves.toMatchObject({
      globalId: 41,
      contentId: 42,
    })
  })
})

describe('credentials a registry or proxy echoes into its error body', () => {
  const password = 'pw-0123456789'
  const token = 'tok-ABCDEFGHIJ.klmnop'
  function dumpOf(error: Error): string {
    const parts: string[] = []
    let current: unknown = error
    for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
      parts.push(
        current.message,
        current.stack ?? '',
        JSON.stringify(current),
        inspect(current, { depth: 6 }),
      )
      current = current.cause
    }
    return parts.join('\n')
  }
  function basicUrl(): string {
    const url = new URL(fixture.url)
    url.username = 'alice'
    url.password = password
    return url.toString()
  }
  const basic = `Basic ${Buffer.from(`alice:${password}`).toString('base64')}`

  it.each([
    [400, 'a lookup refused with 400', 'getSchema'],
    [404, 'a lookup that is not found', 'getSchema'],
    [500, 'a lookup that fails with 500', 'getSchemaByGlobalId'],
    [503, 'a lookup whose retries are used up', 'getSchemaByContentId'],
    [409, 'a registration refused with 409', 'registerSchema'],
    [401, 'a request refused with 401', 'getSchema'],
  ] as const)(
    'are redacted from %i answers (%s): Basic userinfo in every spelling',
    async (status, _, method) => {
      // The proxy quotes what it received: the Authorization header, and the decoded pair.
      fixture.handle((req, res) =>
        problem(res, status, `bad header ${req.headers.authorization} for alice:${password} (${password})`),
      )
      const c = newClient({ url: basicUrl() })
      const call =
        method === 'registerSchema'
          ? c.registerSchema('a', SCHEMA)
          : method === 'getSchema'
            ? c.getSchema('a')
            : c[method](1)
      const error = await failure(call)
      const dump = dumpOf(error)
      expect(dump).toContain('[REDACTED]')
      expect(dump).not.toContain(password)
      expect(dump).not.toContain(basic.slice('Basic '.length))
    },
  )

  it('are redacted from error answers: the bearer token of the auth provider', async () => {
    fixture.handle((req, res) => problem(res, 404, `no artifact for ${req.headers.authorization}`))
    const c = newClient({ auth: countingProvider([token]) })
    const error = await failure(c.getSchema('a'))
    expect(error).toBeInstanceOf(SchemaNotFoundError)
    expect(error.message).toContain('no artifact for Bearer [REDACTED]')
    expect(dumpOf(error)).not.toContain(token)
  })

  it('are redacted from error answers: credential headers given in the options', async () => {
    fixture.handle((req, res) =>
      problem(res, 500, `key ${req.headers['x-api-key']}, auth ${req.headers.authorization}`),
    )
    const c = newClient({ headers: { 'X-Api-Key': 'k-987654321', Authorization: 'Bearer static-token-42' } })
    const dump = dumpOf(await failure(c.getSchema('a')))
    expect(dump).not.toContain('k-987654321')
    expect(dump).not.toContain('static-token-42')
  })
})
