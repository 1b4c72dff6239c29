// The parts of oidc-provider 9.13.3 this example uses (the package ships no type declarations).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http'

  /** The storage interface of oidc-provider, one instance per model name (`ClientCredentials`, …). */
  export interface Adapter {
    upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void>
    find(id: string): Promise<Record<string, unknown> | undefined>
    findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined>
    findByUid(uid: string): Promise<Record<string, unknown> | undefined>
    consume(id: string): Promise<void>
    destroy(id: string): Promise<void>
    revokeByGrantId(grantId: string): Promise<void>
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Record<string, unknown>)
    callback(): (req: IncomingMessage, res: ServerResponse) => void
  }
}
