import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { describeValue, invalidConfigError } from '@x/errors'
import { type Answer, commonHeaders, problemAnswer } from './in-memory/answer.js'
import { checkFaultOptions, Fault, type FaultOptions, type InjectedFault } from './in-memory/faults.js'
import { firstIdOption } from './in-memory/ids.js'
import { type JsonText, toJsonText } from './in-memory/json-text.js'
import { notAuthenticated, RegistryProblem } from './in-memory/problems.js'
import { type RecordedRequest, recordRequest } from './in-memory/request-log.js'
import type { DeletionSettings } from './in-memory/route-context.js'
import { API_BASE, dispatch, isPublic, matchRoute } from './in-memory/router.js'
import { formatDate, RegistryStorage } from './in-memory/storage.js'

/** Options of {@link InMemoryRegistry.start}. */
export interface InMemoryRegistryOptions {
  /**
   * The port to listen on, on 127.0.0.1.
   * @default 0 (a free port chosen by the system)
   */
  port?: number
  /**
   * Turns on bearer-token checks, as Apicurio with OIDC on: every API request but `GET /system/info` must carry
   * `Authorization: Bearer <token>` for which this returns `true`. Without a bearer token the answer is Apicurio's
   * 401 ProblemDetails (`User is not authenticated.`); with a token this refuses, an empty 401 with
   * `www-authenticate: Bearer` (what Quarkus answers to a token it rejects). A throw (or rejection) is a 500.
   * @default no checks (Apicurio's default: authentication off)
   */
  auth?: (token: string) => boolean | Promise<boolean>
  /**
   * The first globalId handed out, e.g. `2n ** 40n` to test ids beyond 32 bits, or `2n ** 53n + 1n` for ids
   * beyond JavaScript's safe integers (they are written as exact integer text).
   * @default 1
   */
  firstGlobalId?: number | bigint
  /**
   * The first contentId handed out.
   * @default 1
   */
  firstContentId?: number | bigint
  /**
   * Which deletions are allowed: `true` for all, or per kind. Apicurio disallows them by default and answers
   * `405 NotAllowedException` (`Artifact deletion operation is not enabled.`).
   * @default false
   */
  deletion?: boolean | Partial<DeletionSettings>
  /**
   * Serves HTTPS instead of HTTP (`url` then starts `https:`), with this certificate and key (PEM), e.g. from
   * {@link makeTestCertificates}. With `clientCa`, every connection must present a client certificate signed by it
   * (mutual TLS); a connection without one is refused in the TLS handshake, as a registry behind mutual TLS refuses it.
   * @default undefined (plain HTTP)
   */
  tls?: InMemoryRegistryTls
}

/** The HTTPS settings of {@link InMemoryRegistryOptions.tls}: PEM texts as strings or bytes. */
export interface InMemoryRegistryTls {
  /** The server's certificate (PEM). */
  cert: string | Uint8Array
  /** The server's private key (PEM, unencrypted). */
  key: string | Uint8Array
  /** The CA that client certificates must be signed by; when given, a client certificate is required. */
  clientCa?: string | Uint8Array
}

/**
 * An Apicurio Registry 3 (REST API v3, answering as 3.3.3 does) in memory, over a real HTTP listener on
 * 127.0.0.1: for your own tests, and for trying things out without a registry.
 *
 * It serves every endpoint `RegistryClient` uses, plus some neighbours: creating artifacts and versions
 * (`ifExists`, `canonical`, `dryRun`), artifact and version metadata, listing with paging, content by version,
 * globalId, contentId and content hash, references both ways, group metadata, deletion (when allowed) and
 * `/system/info`. Ids are allocated as Apicurio allocates them (see the package README); answers, error bodies and
 * `Content-Type`s are Apicurio's. It also records every request and can inject faults (statuses, delays,
 * connection resets) so that reliability tests need no other fake.
 *
 * @example
 * ```ts
 * await using registry = await InMemoryRegistry.start()
 * const client = new RegistryClient({ url: registry.url, groupId: 'default' })
 * registry.inject({ path: /\/ids\/globalIds\//, status: 503, headers: { 'Retry-After': '1' } })
 * ```
 */
export class InMemoryRegistry implements AsyncDisposable {
  readonly #server: Server
  readonly #url: string
  readonly #storage: RegistryStorage
  readonly #auth: InMemoryRegistryOptions['auth']
  readonly #deletion: Readonly<DeletionSettings>
  readonly #startedOn = formatDate(new Date())
  readonly #requests: RecordedRequest[] = []
  readonly #faults: Fault[] = []
  readonly #timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>()
  #closing: Promise<void> | undefined

  private constructor(server: Server, storage: RegistryStorage, options: InMemoryRegistryOptions) {
    this.#server = server
    this.#storage = storage
    this.#auth = options.auth
    const allowed = options.deletion
    this.#deletion = Object.freeze(
      typeof allowed === 'object'
        ? {
            artifact: allowed.artifact === true,
            artifactVersion: allowed.artifactVersion === true,
            group: allowed.group === true,
          }
        : { artifact: allowed === true, artifactVersion: allowed === true, group: allowed === true },
    )
    const { port } = server.address() as AddressInfo
    this.#url = `${options.tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}${API_BASE}`
  }

  /**
   * Starts a registry listening on 127.0.0.1. Resolves once it accepts connections.
   * @throws TypeError (code `INVALID_CONFIG`) for an invalid option.
   */
  static async start(options: InMemoryRegistryOptions = {}): Promise<InMemoryRegistry> {
    const { port = 0, auth } = options
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw invalidConfigError(`port must be an integer from 0 to 65535, got ${String(port)}.`)
    }
    if (auth !== undefined && typeof auth !== 'function') {
      throw invalidConfigError(`auth must be a function (token) => boolean, got ${typeof auth}.`)
    }
    checkDeletion(options.deletion)
    const storage = new RegistryStorage(
      firstIdOption('firstGlobalId', options.firstGlobalId),
      firstIdOption('firstContentId', options.firstContentId),
    )
    const server = makeServer(options.tls)
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
    const registry = new InMemoryRegistry(server, storage, options)
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      registry.#serve(request, response).catch(() => response.destroy())
    })
    return registry
  }

  /** The base URL of the API, `http://127.0.0.1:<port>/apis/registry/v3` (`https:` with `tls`). */
  get url(): string {
    return this.#url
  }

  /** Every request received so far (also those a fault answered), oldest first; a snapshot. */
  get requests(): readonly RecordedRequest[] {
    return Object.freeze([...this.#requests])
  }

  /** Empties the request log. */
  clearRequests(): void {
    this.#requests.length = 0
  }

  /**
   * Adds a fault. The first fault (in the order added) that matches a request and has uses left applies to it:
   * `status` answers instead of the registry, `reset` resets the connection, `delayMs` waits (alone: before the
   * registry's own answer).
   * @throws TypeError (code `INVALID_CONFIG`) for invalid options.
   */
  inject(options: FaultOptions): InjectedFault {
    const fault = new Fault(checkFaultOptions(options), (removed) => {
      const index = this.#faults.indexOf(removed)
      if (index >= 0) this.#faults.splice(index, 1)
    })
    this.#faults.push(fault)
    return fault
  }

  /** Removes every fault. */
  clearFaults(): void {
    for (const fault of [...this.#faults]) fault.remove()
  }

  /** Stops listening and drops open connections (pending delays end at once). Closing twice is fine. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const pending of this.#timers) {
        clearTimeout(pending.timer)
        pending.resolve()
      }
      this.#timers.clear()
      const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()))
      this.#server.closeAllConnections()
      await closed
    })()
    return this.#closing
  }

  /** `await using registry = await InMemoryRegistry.start()` closes it at the end of the block. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }

  async #serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    const method = (request.method ?? 'GET').toUpperCase()
    const target = request.url ?? '/'
    const queryStart = target.indexOf('?')
    const rawPath = queryStart < 0 ? target : target.slice(0, queryStart)
    const query = new URLSearchParams(queryStart < 0 ? '' : target.slice(queryStart + 1))
    this.#requests.push(recordRequest(method, rawPath, query, request.headers, body))

    const fault = this.#faults.find((candidate) => candidate.matches(method, rawPath))
    if (fault !== undefined) {
      fault.hit()
      const { delayMs, reset, status } = fault.options
      if (delayMs !== undefined && delayMs > 0) await this.#sleep(delayMs)
      if (this.#closing !== undefined) return void response.destroy()
      if (reset === true) return void request.socket.resetAndDestroy()
      if (status !== undefined) return this.#write(response, faultAnswer(fault.options, status))
    }

    const matched = matchRoute(rawPath)
    if (this.#auth !== undefined && matched !== undefined && !isPublic(matched)) {
      const refusal = await this.#checkToken(request.headers.authorization)
      if (refusal !== undefined) return this.#write(response, refusal)
    }
    // RESTEasy's "Could not find resource for full path" quotes the query too.
    const fullUrl = `http://${request.headers.host ?? '127.0.0.1'}${target}`
    const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
    const answer = dispatch(matched, fullUrl, (params) => ({
      method,
      params,
      query,
      body,
      contentType,
      storage: this.#storage,
      deletion: this.#deletion,
      startedOn: this.#startedOn,
    }))
    this.#write(response, answer)
  }

  /**
   * Apicurio with authentication on: no bearer token is its JSON 401 (`User is not authenticated.`); a bearer
   * token that Quarkus rejects is an empty 401 with `www-authenticate: Bearer`.
   */
  async #checkToken(authorization: string | undefined): Promise<Answer | undefined> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1]
    if (token === undefined || this.#auth === undefined) return problemAnswer(notAuthenticated())
    try {
      if ((await this.#auth(token)) === true) return undefined
      return { status: 401, headers: { 'www-authenticate': 'Bearer' }, body: '' }
    } catch (error) {
      const name = error instanceof Error ? error.name : 'Error'
      return problemAnswer(
        new RegistryProblem(500, name, `The auth callback of InMemoryRegistry failed: ${String(error)}`),
      )
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const pending = {
        timer: setTimeout(() => {
          this.#timers.delete(pending)
          resolve()
        }, ms),
        resolve,
      }
      this.#timers.add(pending)
    })
  }

  #write(response: ServerResponse, answer: Answer): void {
    if (response.destroyed) return
    const headers: Record<string, string | number> = { ...commonHeaders(new Date()), ...answer.headers }
    if (answer.status !== 204 && answer.status !== 304)
      headers['Content-Length'] = Buffer.byteLength(answer.body)
    response.writeHead(answer.status, headers)
    response.end(answer.status === 204 || answer.status === 304 ? undefined : answer.body)
  }
}

function faultAnswer(options: Readonly<FaultOptions>, status: number): Answer {
  const { body } = options
  let text = ''
  if (typeof body === 'string') text = body
  // Written like the registry's own answers, so a bigint (an id beyond 2^53) is exact integer text.
  else if (body !== undefined) text = toJsonText(body as JsonText)
  else if (status >= 400) {
    const title = `Fault injected by InMemoryRegistry (status ${status}).`
    text = toJsonText({ detail: `InjectedFault: ${title}`, title, status, name: 'InjectedFault' })
  }
  const given = options.headers ?? {}
  const typed = Object.keys(given).some((name) => name.toLowerCase() === 'content-type')
  return {
    status,
    headers: typed ? { ...given } : { 'Content-Type': 'application/json', ...given },
    body: text,
  }
}

/** Every option is checked before the server listens, so a bad one leaves nothing open. */
function checkDeletion(deletion: unknown): void {
  if (deletion === undefined || typeof deletion === 'boolean') return
  const keys = ['artifact', 'artifactVersion', 'group']
  const valid =
    typeof deletion === 'object' &&
    deletion !== null &&
    Object.entries(deletion).every(
      ([key, value]) => keys.includes(key) && (value === undefined || typeof value === 'boolean'),
    )
  if (!valid) {
    throw invalidConfigError(
      `deletion must be a boolean or { artifact?, artifactVersion?, group? } of booleans, got ${describeValue(deletion)}.`,
    )
  }
}

/** An HTTP server, or an HTTPS one with the given settings. */
function makeServer(tls: InMemoryRegistryTls | undefined): Server {
  if (tls === undefined) return createServer()
  if (typeof tls !== 'object' || tls === null || tls.cert === undefined || tls.key === undefined) {
    throw invalidConfigError('tls must be an object { cert, key, clientCa? } of PEM texts')
  }
  const mutual = tls.clientCa !== undefined
  // An https.Server is an http.Server as far as the registry uses it (listen, request events, close).
  return createHttpsServer({
    cert: pemOf(tls.cert),
    key: pemOf(tls.key),
    ...(mutual ? { ca: pemOf(tls.clientCa!), requestCert: true, rejectUnauthorized: true } : {}),
  }) as unknown as Server
}

function pemOf(value: string | Uint8Array): string | Buffer {
  return typeof value === 'string' ? value : Buffer.from(value.buffer, value.byteOffset, value.length)
}
