// The parts of oidc-provider 9.13.3 the tests use (the package ships no type declarations).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  /** The koa context as the tests read it, after the provider handled the request. */
  export interface ProviderContext {
    method: string
    path: string
    status: number
    get(field: string): string
    oidc?: {
      body?: Record<string, string | string[] | undefined>
      client?: { clientId: string }
    }
  }

  export type Middleware = (ctx: ProviderContext, next: () => Promise<void>) => Promise<void>

  /** An adapter instance, one per model name (`ClientCredentials`, `Client`, ...). */
  export interface Adapter {
    upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void>
    find(id: string): Promise<Record<string, unknown> | undefined>
    findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined>
    findByUid(uid: string): Promise<Record<string, unknown> | undefined>
    consume(id: string): Promise<void>
    destroy(id: string): Promise<void>
    revokeByGrantId(grantId: string): Promise<void>
  }

  export type AdapterConstructor = new (name: string) => Adapter

  // biome-ignore lint/style/noDefaultExport: this describes oidc-provider's own module, which exports a default
  export default class Provider {
    constructor(issuer: string, configuration?: Record<string, unknown>)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    use(middleware: Middleware): void
    on(event: string, listener: (...args: unknown[]) => void): this
  }
}
