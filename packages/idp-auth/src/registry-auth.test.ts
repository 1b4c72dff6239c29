import { AuthenticationError } from '@x/errors'
import { RegistryClient, type TokenProvider } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { IdpAuth } from './idp-auth.js'
import { waitFor } from './test-support/local-server.js'
import { CLIENTS, startTestProvider, type TestProvider } from './test-support/test-provider.js'

// RegistryClient + IdpAuth against InMemoryRegistry requiring bearer tokens that a real oidc-provider issued
// (2-second tokens). The registry asks the provider's own records whether a token is still valid.

const SCHEMA = JSON.stringify({
  type: 'record',
  name: 'Order',
  namespace: 'com.example',
  fields: [{ name: 'id', type: 'string' }],
})

let provider: TestProvider
let registry: InMemoryRegistry
/** Every bearer check the registry made, in order: the token and the verdict. */
let checks: Array<[token: string, accepted: boolean]> = []
/** Makes the registry accept only tokens whose scope includes this one, when set. */
let requiredScope: string | undefined

beforeAll(async () => {
  provider = await startTestProvider()
  registry = await InMemoryRegistry.start({
    auth: (token: string) => {
      const scopes = provider.issued.get(token)?.scope?.split(' ') ?? []
      const accepted =
        provider.isValid(token) && (requiredScope === undefined || scopes.includes(requiredScope))
      checks.push([token, accepted])
      return accepted
    },
  })
})

afterAll(async () => {
  await registry?.close()
  await provider?.close()
})

afterEach(() => {
  requiredScope = undefined
})

/** What to count from: the requests each server saw before the test's own calls. */
function mark() {
  checks = []
  return { tokens: provider.tokenRequests.length, registry: registry.requests.length }
}

function bearer(index: number): string | undefined {
  return registry.requests[index]?.headers.authorization
}

describe('RegistryClient with IdpAuth against InMemoryRegistry and a real OpenID provider', () => {
  it('is a TokenProvider', () => {
    const auth: TokenProvider = new IdpAuth({ tokenUrl: provider.tokenUrl, clientId: 'c', clientSecret: 's' })
    expect(typeof auth.getToken).toBe('function')
    expect(typeof auth.invalidate).toBe('function')
  })

  it('replaces a token that expired at the provider mid-test: one 401, one new token, one repeat', async () => {
    // A clock that stands still: IdpAuth believes its token good for ever, so only the registry can tell that it
    // ran out at the provider (as with a revoked token or a skewed clock).
    const auth = new IdpAuth({
      tokenUrl: provider.tokenUrl,
      clientId: CLIENTS.post.id,
      clientSecret: CLIENTS.post.secret,
      now: () => 0,
    })
    await using client = new RegistryClient({ url: registry.url, groupId: 'e2e-expiry', auth, maxRetries: 0 })
    const start = mark()

    const registered = await client.registerSchema('orders-value', SCHEMA)
    expect(registered.artifactId).toBe('orders-value')
    expect(provider.tokenRequests.length - start.tokens).toBe(1)
    expect(registry.requests.length - start.registry).toBe(1)
    const first = checks[0]?.[0] ?? ''
    expect(checks).toEqual([[first, true]])
    expect(bearer(start.registry)).toBe(`Bearer ${first}`)

    await waitFor(() => !provider.isValid(first), 4000) // the real 2 s lifetime runs out
    checks = []

    expect(await client.listArtifacts()).toEqual(['orders-value'])

    expect(provider.tokenRequests.length - start.tokens).toBe(2)
    expect(registry.requests.length - start.registry).toBe(3)
    const second = checks[1]?.[0] ?? ''
    expect(second).not.toBe(first)
    expect(checks).toEqual([
      [first, false],
      [second, true],
    ])
    expect(bearer(start.registry + 1)).toBe(`Bearer ${first}`)
    expect(bearer(start.registry + 2)).toBe(`Bearer ${second}`)
    expect(registry.requests[start.registry + 1]?.path).toBe(registry.requests[start.registry + 2]?.path)

    // The new token is cached: the next call needs no token request.
    expect(await client.listArtifacts()).toEqual(['orders-value'])
    expect(provider.tokenRequests.length - start.tokens).toBe(2)
    expect(registry.requests.length - start.registry).toBe(4)
    expect(bearer(start.registry + 3)).toBe(`Bearer ${second}`)
  })

  it('gives up with AuthenticationError when the fresh token is refused too: two tokens, two requests', async () => {
    requiredScope = 'registry:write'
    const auth = new IdpAuth({
      tokenUrl: provider.tokenUrl,
      clientId: CLIENTS.post.id,
      clientSecret: CLIENTS.post.secret,
      scope: 'registry:read',
    })
    await using client = new RegistryClient({ url: registry.url, groupId: 'e2e-scope', auth, maxRetries: 0 })
    const start = mark()

    const error = await client.listArtifacts().then(
      () => undefined,
      (e: unknown) => e,
    )

    expect(error).toBeInstanceOf(AuthenticationError)
    expect((error as AuthenticationError).status).toBe(401)
    expect(provider.tokenRequests.length - start.tokens).toBe(2)
    expect(registry.requests.length - start.registry).toBe(2)
    expect(checks.map(([, accepted]) => accepted)).toEqual([false, false])
    expect(checks[0]?.[0]).not.toBe(checks[1]?.[0])
    for (const [token] of checks) expect(provider.issued.get(token)?.scope).toBe('registry:read')
  })

  it('reports a token endpoint failure as AuthenticationError of the token endpoint, without calling the registry', async () => {
    const auth = new IdpAuth({
      tokenUrl: provider.tokenUrl,
      clientId: CLIENTS.post.id,
      clientSecret: 'wrong',
    })
    await using client = new RegistryClient({ url: registry.url, groupId: 'e2e-denied', auth, maxRetries: 0 })
    const start = mark()

    const error = await client.listArtifacts().then(
      () => undefined,
      (e: unknown) => e,
    )

    expect(error).toBeInstanceOf(AuthenticationError)
    expect((error as AuthenticationError).url).toBe(provider.tokenUrl)
    expect((error as AuthenticationError).status).toBe(401)
    expect(provider.tokenRequests.length - start.tokens).toBe(1)
    expect(registry.requests.length - start.registry).toBe(0)
  })
})
