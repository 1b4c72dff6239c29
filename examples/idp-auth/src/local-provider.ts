// A local OpenID provider for the example, so that it runs anywhere: oidc-provider from npm, configured for the
// client-credentials grant with one client. In production the token URL is your Keycloak's (or any IdP's):
// https://keycloak.example/realms/<realm>/protocol/openid-connect/token
import { generateKeyPairSync } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Adapter } from 'oidc-provider'

export interface LocalProvider {
  tokenUrl: string
  /** True for an access token this provider issued and that has not expired. */
  isValid(token: string): boolean
  close(): Promise<void>
}

export async function startLocalProvider(clientId: string, clientSecret: string): Promise<LocalProvider> {
  // oidc-provider 9 supports only Node 22+ officially and says so once on stderr; it runs fine on Node 20, and the
  // notice would only distract here.
  const { warn } = console
  console.warn = (...args: unknown[]) => {
    if (!(typeof args[0] === 'string' && args[0].includes('oidc-provider WARNING'))) warn.apply(console, args)
  }
  const { default: Provider } = await import('oidc-provider')
  const store = new Map<string, Record<string, unknown>>()
  // In-memory storage of the provider's (its built-in development one prints a warning).
  class MemoryAdapter implements Adapter {
    readonly #name: string
    constructor(name: string) {
      this.#name = name
    }
    async upsert(id: string, payload: Record<string, unknown>): Promise<void> {
      store.set(`${this.#name}:${id}`, payload)
    }
    async find(id: string): Promise<Record<string, unknown> | undefined> {
      return store.get(`${this.#name}:${id}`)
    }
    async findByUserCode(): Promise<undefined> {}
    async findByUid(): Promise<undefined> {}
    async consume(): Promise<void> {}
    async destroy(id: string): Promise<void> {
      store.delete(`${this.#name}:${id}`)
    }
    async revokeByGrantId(): Promise<void> {}
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const provider = new Provider('http://127.0.0.1', {
    adapter: MemoryAdapter,
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256', kid: 'example' }] },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
    ttl: { ClientCredentials: 300 },
  })
  const server = createServer(provider.callback())
  console.warn = warn
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    tokenUrl: `http://127.0.0.1:${port}/token`,
    isValid(token) {
      const exp = store.get(`ClientCredentials:${token}`)?.exp
      return typeof exp === 'number' && exp * 1000 > Date.now()
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}
