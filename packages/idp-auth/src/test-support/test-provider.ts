import { generateKeyPairSync, type JsonWebKey } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import type { Adapter, ProviderContext } from 'oidc-provider'

/** The version of oidc-provider the tests run against, read from its installed package.json. */
export const PROVIDER_VERSION: string = (
  createRequire(import.meta.url)('oidc-provider/package.json') as { version: string }
).version

/** The clients registered at the test provider. Secrets are printable ASCII: oidc-provider allows only VSCHAR. */
export const CLIENTS = Object.freeze({
  /** Registered for `client_secret_post`; may ask for both registry scopes. */
  post: { id: 'registry-post', secret: 'post-secret-0123456789' },
  /** Registered for `client_secret_basic`, with a secret that needs form-encoding before base64. */
  basic: { id: 'registry-basic', secret: "a:b/c+d %&=?#~*'!" },
  /** May ask only for `registry:read`. */
  reader: { id: 'registry-reader', secret: 'reader-secret-0123456789' },
  /** Gets 60-second tokens. */
  minute: { id: 'registry-minute', secret: 'minute-secret-0123456789' },
  /** Gets 24-hour tokens. */
  day: { id: 'registry-day', secret: 'day-secret-0123456789' },
})

/** The lifetime, in seconds, of tokens the provider issues to clients other than `minute` and `day`. */
export const SHORT_TTL_SECONDS = 2

/** One token request as the provider saw it, after handling it. */
export interface SeenTokenRequest {
  method: string
  status: number
  /** The form parameters the provider parsed. */
  form: Record<string, string | string[] | undefined>
  /** The `Authorization` header, `''` when absent. */
  authorization: string
  /** The client the provider authenticated, if it did. */
  clientId: string | undefined
}

/** A token the provider issued, as its storage holds it. */
export interface IssuedToken {
  clientId: string
  scope: string | undefined
  /** The provider's `exp` in milliseconds since the epoch. */
  expiresAtMs: number
}

/** An answer the token endpoint gives instead of the provider: a status, its headers and a text body. */
export interface TokenFault {
  status: number
  headers?: Record<string, string>
  body?: string
}

/** HTTPS for the token endpoint: its certificate and key, and with `clientCa` a client certificate required. */
export interface TestProviderTls {
  cert: string
  key: string
  clientCa?: string
}

export interface TestProvider {
  /** The token endpoint, `http://127.0.0.1:<port>/token` (`https:` with `tls`). */
  readonly tokenUrl: string
  /** Every request to `/token`, in order. */
  readonly tokenRequests: readonly SeenTokenRequest[]
  /** Every access token issued, by value. */
  readonly issued: ReadonlyMap<string, IssuedToken>
  /** True for a token this provider issued that has not yet expired by the provider's own `exp`. */
  isValid(token: string): boolean
  /**
   * Makes the next requests to `/token` fail, one fault each, before the provider sees them (a proxy or the
   * provider's own front answering for it). They are counted in `faultsServed`, not in `tokenRequests`.
   */
  failNext(...faults: TokenFault[]): void
  /** How many token requests were answered by a fault of `failNext`. */
  readonly faultsServed: number
  close(): Promise<void>
}

/**
 * Starts a real oidc-provider (9.13.3) on 127.0.0.1 at a free port, configured for the client-credentials grant,
 * with the clients of `CLIENTS`, scopes `registry:read` / `registry:write` and 2-second tokens. Its development
 * notices (runtime, keys, adapter) are silenced while it runs: the keys and the storage below are its own.
 */
export async function startTestProvider(options: { tls?: TestProviderTls } = {}): Promise<TestProvider> {
  const restoreConsole = silenceProviderNotices()
  const { default: Provider } = await import('oidc-provider')

  const issued = new Map<string, IssuedToken>()
  const tokenRequests: SeenTokenRequest[] = []

  // A storage of the provider's own (instead of its development one) that also records every issued token.
  class RecordingAdapter implements Adapter {
    static readonly store = new Map<string, Record<string, unknown>>()
    readonly #name: string
    constructor(name: string) {
      this.#name = name
    }
    async upsert(id: string, payload: Record<string, unknown>): Promise<void> {
      RecordingAdapter.store.set(`${this.#name}:${id}`, payload)
      if (this.#name === 'ClientCredentials') {
        issued.set(id, {
          clientId: String(payload.clientId),
          scope: typeof payload.scope === 'string' ? payload.scope : undefined,
          expiresAtMs: Number(payload.exp) * 1000,
        })
      }
    }
    async find(id: string): Promise<Record<string, unknown> | undefined> {
      return RecordingAdapter.store.get(`${this.#name}:${id}`)
    }
    async findByUserCode(): Promise<undefined> {
      return undefined
    }
    async findByUid(): Promise<undefined> {
      return undefined
    }
    async consume(): Promise<void> {}
    async destroy(id: string): Promise<void> {
      RecordingAdapter.store.delete(`${this.#name}:${id}`)
    }
    async revokeByGrantId(): Promise<void> {}
  }

  const client = (
    { id, secret }: { id: string; secret: string },
    method: 'client_secret_post' | 'client_secret_basic',
    scope: string,
  ) => ({
    client_id: id,
    client_secret: secret,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: method,
    scope,
  })

  const both = 'registry:read registry:write'
  // The JWK comes out of the key generation itself, with no KeyObject exported afterwards. On Node 20.20.2,
  // `privateKey.export({ format: 'jwk' })` deadlocked a test worker: a garbage collection inside the export destroyed
  // the finished key-generation job, whose destructor waited for the lock the export held.
  // Node takes format 'jwk' here; @types/node's overloads do not list it.
  const generateJwk = generateKeyPairSync as unknown as (
    type: 'rsa',
    options: {
      modulusLength: number
      publicKeyEncoding: { format: 'jwk' }
      privateKeyEncoding: { format: 'jwk' }
    },
  ) => { privateKey: JsonWebKey }
  const { privateKey } = generateJwk('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { format: 'jwk' },
    privateKeyEncoding: { format: 'jwk' },
  })
  const provider = new Provider('http://127.0.0.1', {
    adapter: RecordingAdapter,
    jwks: { keys: [{ ...privateKey, use: 'sig', alg: 'RS256', kid: 'test' }] },
    clients: [
      client(CLIENTS.post, 'client_secret_post', both),
      client(CLIENTS.basic, 'client_secret_basic', both),
      client(CLIENTS.reader, 'client_secret_post', 'registry:read'),
      client(CLIENTS.minute, 'client_secret_post', both),
      client(CLIENTS.day, 'client_secret_post', both),
    ],
    scopes: ['registry:read', 'registry:write'],
    features: { clientCredentials: { enabled: true }, devInteractions: { enabled: false } },
    ttl: {
      ClientCredentials: (_ctx: unknown, _token: unknown, c: { clientId: string }) =>
        c.clientId === CLIENTS.minute.id ? 60 : c.clientId === CLIENTS.day.id ? 86_400 : SHORT_TTL_SECONDS,
    },
  })
  provider.use(async (ctx: ProviderContext, next) => {
    await next()
    if (ctx.path !== '/token') return
    tokenRequests.push({
      method: ctx.method,
      status: ctx.status,
      form: { ...ctx.oidc?.body },
      authorization: ctx.get('authorization'),
      clientId: ctx.oidc?.client?.clientId,
    })
  })

  const faults: TokenFault[] = []
  let faultsServed = 0
  const handle = provider.callback()
  const tls = options.tls
  const listener = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const fault = req.url === '/token' ? faults.shift() : undefined
    if (fault === undefined) return handle(req, res)
    faultsServed++
    req.resume()
    res.writeHead(fault.status, { 'content-type': 'text/plain', ...fault.headers })
    res.end(fault.body ?? '')
  }
  const server: Server =
    tls === undefined
      ? createServer(listener)
      : (createHttpsServer(
          {
            cert: tls.cert,
            key: tls.key,
            ...(tls.clientCa === undefined
              ? {}
              : { ca: tls.clientCa, requestCert: true, rejectUnauthorized: true }),
          },
          listener,
        ) as unknown as Server)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo

  return {
    tokenUrl: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}/token`,
    tokenRequests,
    issued,
    failNext(...more: TokenFault[]): void {
      faults.push(...more)
    },
    get faultsServed() {
      return faultsServed
    },
    isValid(token: string): boolean {
      const record = issued.get(token)
      return record !== undefined && Date.now() < record.expiresAtMs
    },
    async close(): Promise<void> {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      restoreConsole()
    },
  }
}

/** Drops oidc-provider's own console notices ("Unsupported runtime" on Node 20, development defaults). */
function silenceProviderNotices(): () => void {
  const { warn, info } = console
  const keep =
    (original: (...args: unknown[]) => void) =>
    (...args: unknown[]): void => {
      if (typeof args[0] === 'string' && args[0].includes('oidc-provider ')) return
      original.apply(console, args)
    }
  console.warn = keep(warn)
  console.info = keep(info)
  return () => {
    console.warn = warn
    console.info = info
  }
}
