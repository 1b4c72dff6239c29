import type { IncomingHttpHeaders, Server, ServerResponse } from 'node:http'

// Taken with `process.getBuiltinModule`, not an ES import: on Node 22 and 24 an ES import of `node:http` loads
// undici, which installs its global dispatcher, and the client then sends every request with `fetch`; a test of the
// `node:http` path could not run in the file that imports this fixture.
const { createServer } = process.getBuiltinModule('node:http')
const { createServer: createNetServer } = process.getBuiltinModule('node:net')

/** Where the fixture serves the registry API. */
export const API_ROOT = '/apis/registry/v3'

/** One request as the fixture saw it. */
export interface RecordedRequest {
  method: string
  /** The path below the API root, with the query, exactly as sent (percent-encoding kept). */
  path: string
  headers: IncomingHttpHeaders
  body: string
}

/** Answers one request. `res` is the raw Node response, for resets and delays. */
export type FixtureHandler = (request: RecordedRequest, res: ServerResponse) => void | Promise<void>

/** Sends a JSON or text answer. */
export function reply(
  res: ServerResponse,
  status: number,
  body = '',
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(body)
}

/** Sends a ProblemDetails body like Apicurio's. */
export function problem(
  res: ServerResponse,
  status: number,
  title: string,
  headers: Record<string, string> = {},
): void {
  reply(
    res,
    status,
    JSON.stringify({ title, status, detail: `SomeException: ${title}`, name: 'SomeException' }),
    headers,
  )
}

/**
 * A tiny scripted HTTP server on 127.0.0.1 for the cases no real registry produces on demand (resets, delays,
 * odd bodies). It records every request; the test sets the handler.
 */
export class HttpFixture {
  readonly requests: RecordedRequest[] = []
  readonly #server: Server
  #handler: FixtureHandler
  readonly #pending = new Set<() => void>()

  private constructor(server: Server, handler: FixtureHandler) {
    this.#server = server
    this.#handler = handler
  }

  /** Starts a fixture on a free port of 127.0.0.1. */
  static async start(handler: FixtureHandler = (_, res) => reply(res, 500, '{}')): Promise<HttpFixture> {
    let fixture: HttpFixture | undefined
    const server = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const url = req.url ?? '/'
        const request: RecordedRequest = {
          method: req.method ?? 'GET',
          path: url.startsWith(API_ROOT) ? url.slice(API_ROOT.length) : url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }
        if (fixture === undefined) {
          res.destroy()
          return
        }
        fixture.requests.push(request)
        Promise.resolve(fixture.#handler(request, res)).catch(() => res.destroy())
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    fixture = new HttpFixture(server, handler)
    return fixture
  }

  /** `http://127.0.0.1:<port>/apis/registry/v3`. */
  get url(): string {
    const address = this.#server.address()
    if (address === null || typeof address === 'string') throw new Error('the fixture is not listening')
    return `http://127.0.0.1:${address.port}${API_ROOT}`
  }

  /** Replaces the handler. */
  handle(handler: FixtureHandler): void {
    this.#handler = handler
  }

  /** Requests seen so far whose path (below the API root) matches. */
  count(match: string | RegExp): number {
    return this.requests.filter((request) =>
      typeof match === 'string' ? request.path === match : match.test(request.path),
    ).length
  }

  /** A promise that settles only when the fixture closes: for answers that never come. */
  hang(): Promise<void> {
    return new Promise((resolve) => this.#pending.add(resolve))
  }

  async close(): Promise<void> {
    for (const release of this.#pending) release()
    this.#server.closeAllConnections()
    await new Promise<void>((resolve) => this.#server.close(() => resolve()))
  }
}

/** A base URL on 127.0.0.1 where nothing listens (connection refused). */
export async function refusedUrl(): Promise<string> {
  const server = createNetServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return `http://127.0.0.1:${address.port}${API_ROOT}`
}

/** A recording sleep for `timing.sleep`: resolves at once (or waits for abort when `block` is set). */
export function recordingSleep(options: { block?: boolean } = {}): {
  delays: number[]
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
} {
  const delays: number[] = []
  return {
    delays,
    sleep: (ms, signal) => {
      delays.push(ms)
      return new Promise((resolve, reject) => {
        if (signal.aborted) {
          reject(signal.reason)
          return
        }
        signal.addEventListener('abort', () => reject(signal.reason), { once: true })
        if (!options.block) resolve()
      })
    },
  }
}

/** A canned answer of `routes()`. */
export interface CannedAnswer {
  status?: number
  body?: string
  headers?: Record<string, string>
}

/**
 * A handler answering `"<METHOD> <path>"` keys (path below the API root, with its query) from a table; anything
 * else gets a 404 ProblemDetails.
 */
export function routes(
  table: Record<string, CannedAnswer | ((request: RecordedRequest) => CannedAnswer)>,
): FixtureHandler {
  return (request, res) => {
    const entry = table[`${request.method} ${request.path}`]
    if (entry === undefined) {
      problem(res, 404, `No route for ${request.method} ${request.path}`)
      return
    }
    const answer = typeof entry === 'function' ? entry(request) : entry
    reply(res, answer.status ?? 200, answer.body ?? '', answer.headers)
  }
}

/** A `VersionMetaData` body as Apicurio 3 sends it (ids written as raw JSON number text). */
export function versionMetadata(fields: {
  groupId?: string
  artifactId: string
  version?: string
  globalId: string | number
  contentId: string | number
}): string {
  const group = fields.groupId === undefined ? '' : `"groupId":${JSON.stringify(fields.groupId)},`
  return `{"version":${JSON.stringify(fields.version ?? '1')},"owner":"","createdOn":"2026-11-22T06:31:47Z","artifactType":"AVRO","globalId":${fields.globalId},"state":"ENABLED",${group}"contentId":${fields.contentId},"artifactId":${JSON.stringify(fields.artifactId)},"modifiedBy":"","modifiedOn":"2026-11-22T06:31:47Z"}`
}

/** A `CreateArtifactResponse` body as Apicurio 3 sends it. */
export function createArtifactResponse(fields: {
  groupId?: string
  artifactId: string
  version?: string
  globalId: string | number
  contentId: string | number
}): string {
  const group = fields.groupId === undefined ? '' : `"groupId":${JSON.stringify(fields.groupId)},`
  return `{"artifact":{"owner":"","createdOn":"2026-11-22T06:31:47Z","modifiedBy":"","modifiedOn":"2026-11-22T06:31:47Z","artifactType":"AVRO",${group}"artifactId":${JSON.stringify(fields.artifactId)}},"version":${versionMetadata(fields)}}`
}
