import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { rootCertificates } from 'node:tls'
import { RegistryConnectionError, redactUrl } from '@x/errors'
import { IdpAuth } from '@x/idp-auth'
import { RegistryClient, type TlsOptions } from '@x/registry-client'
import { createTlsTransport, type TlsTransport, tlsFailureHint } from '@x/registry-client/tls'
import type { Config } from './config.js'
import type { Io } from './io.js'
import { RegistryRefused, UsageError } from './usage-error.js'

/** The options every command that talks to a registry takes. */
export interface ConnectionFlags {
  registry?: string | undefined
  group?: string | undefined
  tokenUrl?: string | undefined
  clientId?: string | undefined
  scope?: string | undefined
  /** Files (PEM): the CA of the registry's certificate, a client certificate and its key. */
  ca?: string | undefined
  cert?: string | undefined
  key?: string | undefined
}

/** One answer of the registry's REST API, as the CLI reads it. */
export interface RestAnswer {
  status: number
  text: string
}

/**
 * The registry a command talks to, from flags or the environment (flags win): `--registry` / `REGISTRY_URL`,
 * `--group` / `REGISTRY_GROUP` (default `default`), and, for OAuth2, `--token-url` / `REGISTRY_TOKEN_URL`,
 * `--client-id` / `REGISTRY_CLIENT_ID`, `REGISTRY_CLIENT_SECRET` (environment only, so it stays out of shell
 * history and process lists), `--scope` / `REGISTRY_SCOPE`. A password in the URL is HTTP Basic. For an `https:`
 * registry behind a private CA or mutual TLS: `--ca`, `--cert`, `--key` (PEM files; a key passphrase from
 * `REGISTRY_TLS_KEY_PASSWORD` only). The token endpoint trusts the `--ca` besides the public CAs and gets no client
 * certificate. Nothing here ever prints a secret.
 */
export class Connection implements AsyncDisposable {
  readonly client: RegistryClient
  readonly groupId: string
  readonly #url: string
  readonly #auth: IdpAuth | undefined
  readonly #basic: string | undefined
  readonly #registryUrl: string
  readonly #clients = new Map<string, RegistryClient>()
  /** The registry's TLS settings from `--ca`, `--cert`, `--key`, when any is given. */
  readonly #tls: TlsOptions | undefined
  /** The transport of {@link rest} with those settings (the clients make their own). */
  readonly #transport: TlsTransport | undefined

  constructor(flags: ConnectionFlags, io: Io) {
    const url = flags.registry ?? io.env.REGISTRY_URL
    if (url === undefined || url === '') {
      throw new UsageError(
        'No registry: pass --registry <url> or set REGISTRY_URL (the v3 API root, …/apis/registry/v3)',
      )
    }
    this.groupId = flags.group ?? io.env.REGISTRY_GROUP ?? 'default'
    this.#tls = tlsOf(flags, io)
    const tokenUrl = flags.tokenUrl ?? io.env.REGISTRY_TOKEN_URL
    if (tokenUrl !== undefined && tokenUrl !== '') {
      const clientId = flags.clientId ?? io.env.REGISTRY_CLIENT_ID
      const clientSecret = io.env.REGISTRY_CLIENT_SECRET
      if (!clientId || !clientSecret) {
        throw new UsageError(
          'A token URL needs REGISTRY_CLIENT_ID (or --client-id) and REGISTRY_CLIENT_SECRET',
        )
      }
      const scope = flags.scope ?? io.env.REGISTRY_SCOPE
      const ca = this.#tls?.ca
      this.#auth = new IdpAuth({
        tokenUrl,
        clientId,
        clientSecret,
        ...(scope ? { scope } : {}),
        // A public identity provider stays trusted beside a private registry CA.
        ...(ca !== undefined && tokenUrl.startsWith('https:')
          ? { tls: { ca: [...rootCertificates, ca as string] } }
          : {}),
      })
    }
    this.#registryUrl = url
    if (this.#tls !== undefined && !url.startsWith('https:')) {
      throw new UsageError('--ca, --cert and --key apply to an https: registry URL')
    }
    this.client = this.clientFor(this.groupId)
    this.#transport = this.#tls === undefined ? undefined : createTlsTransport('x-serde', this.#tls, true)
    const parsed = new URL(url)
    if (parsed.username !== '' && this.#auth === undefined) {
      this.#basic = `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`
    }
    parsed.username = ''
    parsed.password = ''
    this.#url = parsed.toString().replace(/\/+$/, '')
  }

  /** A client of the same registry and credentials for another group (one per group). */
  clientFor(groupId: string): RegistryClient {
    let client = this.#clients.get(groupId)
    if (client === undefined) {
      client = new RegistryClient({
        url: this.#registryUrl,
        groupId,
        maxRetries: 2,
        retryBackoffMs: 200,
        ...(this.#auth ? { auth: this.#auth } : {}),
        ...(this.#tls ? { tls: this.#tls } : {}),
      })
      this.#clients.set(groupId, client)
    }
    return client
  }

  /** The registry URL as it may be printed (no credentials). */
  get displayUrl(): string {
    return redactUrl(this.#url)
  }

  /**
   * A request the client has no method for (search, dry runs), with the same credentials. An answer of 500 that is
   * the registry's own problem report (JSON with a `title` or `detail`, as Apicurio answers a rule it cannot
   * evaluate) means the registry was reached and refused: it is returned to a caller that passes
   * `{ problems: true }`, else thrown as a {@link RegistryRefused} quoting it (exit 1). Any other 5xx (a gateway, an
   * outage), 401 and 403 are `RegistryConnectionError` (exit 3).
   */
  async rest(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    options: { problems?: boolean } = {},
  ): Promise<RestAnswer> {
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    if (this.#basic !== undefined) headers.Authorization = this.#basic
    if (this.#auth !== undefined) headers.Authorization = `Bearer ${await this.#auth.getToken()}`
    let response: Response
    try {
      response = await (this.#transport?.fetch ?? fetch)(`${this.#url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      })
    } catch (cause) {
      const tls = tlsFailureHint(errorCodes(cause), 'the registry')
      throw new RegistryConnectionError(
        `Unable to reach the registry at ${this.displayUrl}${tls === undefined ? '' : `: ${tls}`}`,
        { url: this.displayUrl, cause },
      )
    }
    const text = await response.text()
    // A 500 with the registry's own report: it was reached and refused. 502/503/504 mean it was not (a gateway, an
    // outage), whatever the body says.
    const problem = response.status === 500 ? problemOf(text) : undefined
    if (problem !== undefined) {
      if (options.problems) return { status: response.status, text }
      throw new RegistryRefused(
        `The registry at ${this.displayUrl} refused ${method} ${path.replace(/\?.*/, '')} (HTTP ${response.status}): ${problem}`,
      )
    }
    if (response.status >= 500 || response.status === 401 || response.status === 403) {
      throw new RegistryConnectionError(
        `The registry at ${this.displayUrl} answered HTTP ${response.status} to ${method} ${path.replace(/\?.*/, '')}`,
        { url: this.displayUrl, status: response.status },
      )
    }
    return { status: response.status, text }
  }

  async close(): Promise<void> {
    for (const client of this.#clients.values()) await client.close()
    this.#transport?.close()
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }
}

/** The registry's TLS settings from `--ca`, `--cert`, `--key` and `REGISTRY_TLS_KEY_PASSWORD`, when any is given. */
function tlsOf(flags: ConnectionFlags, io: Io): TlsOptions | undefined {
  const { ca, cert, key } = flags
  if (ca === undefined && cert === undefined && key === undefined) return undefined
  if ((cert === undefined) !== (key === undefined)) {
    throw new UsageError('--cert and --key go together (a client certificate and its private key)')
  }
  const read = (flag: string, file: string): string => {
    try {
      return readFileSync(resolve(io.cwd, file), 'utf8')
    } catch (error) {
      throw new UsageError(
        `Cannot read the ${flag} file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
      )
    }
  }
  const tls: TlsOptions = {}
  if (ca !== undefined) tls.ca = read('--ca', ca)
  if (cert !== undefined && key !== undefined) {
    tls.cert = read('--cert', cert)
    tls.key = read('--key', key)
    const passphrase = io.env.REGISTRY_TLS_KEY_PASSWORD
    if (passphrase !== undefined && passphrase !== '') tls.passphrase = passphrase
  }
  return tls
}

/** The error codes of a failed `fetch` and its causes, outermost first. */
function errorCodes(error: unknown): string[] {
  const codes: string[] = []
  let current: unknown = error
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') codes.push(code)
    current = (current as { cause?: unknown }).cause
  }
  return codes
}

/** The file extension and artifact type of a schema file. */
export function artifactTypeOfFile(path: string, given?: string): 'AVRO' | 'JSON' | 'PROTOBUF' {
  if (given !== undefined) {
    const upper = given.toUpperCase()
    if (upper === 'AVRO' || upper === 'JSON' || upper === 'PROTOBUF') return upper
    throw new UsageError(`--type must be AVRO, JSON or PROTOBUF, got ${given}`)
  }
  if (/\.(avsc|avro)$/i.test(path)) return 'AVRO'
  if (/\.proto$/i.test(path)) return 'PROTOBUF'
  if (/\.json$/i.test(path)) return 'JSON'
  throw new UsageError(
    `Cannot tell the schema type of ${path} from its extension (.avsc, .json, .proto): pass --type`,
  )
}

/** The extension a pulled artifact of a type is written with. */
export function extensionOf(artifactType: string): string {
  if (artifactType === 'AVRO') return 'avsc'
  if (artifactType === 'PROTOBUF') return 'proto'
  return 'json'
}

/** The connection of a command: flags win over the environment, which wins over the config file. */
export function connect(flags: ConnectionFlags, config: Config, io: Io): Connection {
  return new Connection(
    {
      ...flags,
      registry: flags.registry ?? io.env.REGISTRY_URL ?? config.registry,
      group: flags.group ?? io.env.REGISTRY_GROUP ?? config.group,
    },
    io,
  )
}

/**
 * The registry's own problem report in an answer (`title`, and `detail` where it says more), or `undefined` when the
 * body is not one (a proxy's error page, an empty body).
 */
export function problemOf(text: string): string | undefined {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof body !== 'object' || body === null) return undefined
  const { title, detail } = body as { title?: unknown; detail?: unknown }
  const parts = [title, detail].filter((part): part is string => typeof part === 'string' && part !== '')
  if (parts.length === 0) return undefined
  return parts[0] === parts[1] || (parts.length === 2 && parts[1]!.includes(parts[0]!))
    ? parts.at(-1)
    : parts.join(': ')
}
