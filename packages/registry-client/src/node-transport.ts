import type { IncomingHttpHeaders, IncomingMessage } from 'node:http'

// Node's modules are taken with `process.getBuiltinModule` when first needed, not imported: an ES import of
// `node:http` reads every export, and on newer Node one of them loads the bundled undici this module avoids.

/** What the client reads of an answer, whichever way it was sent. */
export interface TransportResponse {
  status: number
  ok: boolean
  headers: Pick<Headers, 'get'>
  text(): Promise<string>
}

/** One request as the client sends it: header names in lower case. */
export interface TransportInit {
  method: string
  headers: Record<string, string>
  body: string | null
  signal: AbortSignal
}

/**
 * Whether `candidate` is the `fetch` Node installs on `globalThis` (which loads Node's bundled undici on its first
 * call). A replacement (a test's stub, an instrumented wrapper, a polyfill) is not: it is always called as it is.
 */
function isNodeOwnFetch(candidate: unknown): boolean {
  return (
    typeof candidate === 'function' &&
    Function.prototype.toString.call(candidate).includes("require('internal/deps/undici/undici')")
  )
}

/**
 * Whether a request may go through `node:http`/`node:https` instead of `fetch` with the same meaning: `fetch` is
 * Node's own, no undici dispatcher was installed globally (one carries a proxy, TLS or other settings that only
 * `fetch` would use), and Node was not told to take a proxy from the environment for `fetch`.
 */
export function nodeTransportFits(fetchToUse: unknown): boolean {
  if (!isNodeOwnFetch(fetchToUse)) return false
  if ((globalThis as Record<symbol, unknown>)[Symbol.for('undici.globalDispatcher.1')] !== undefined)
    return false
  const useEnvProxy = process.env.NODE_USE_ENV_PROXY
  if (useEnvProxy !== undefined && useEnvProxy !== '' && useEnvProxy !== '0') return false
  return !process.execArgv.includes('--use-env-proxy')
}

/** `Headers.get` over Node's parsed headers: names in any case, repeated fields joined with `, `. */
class NodeAnswerHeaders {
  readonly #headers: IncomingHttpHeaders

  constructor(headers: IncomingHttpHeaders) {
    this.#headers = headers
  }

  get(name: string): string | null {
    const value = this.#headers[name.toLowerCase()]
    if (value === undefined) return null
    return Array.isArray(value) ? value.join(', ') : value
  }
}

const decoder = new TextDecoder()

/** The body as `fetch`'s `text()` gives it: content codings undone, UTF-8 with a leading BOM dropped. */
function decodeBody(body: Buffer, coding: string | undefined): string {
  let bytes = body
  const codings = (coding ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity')
  for (const part of codings.reverse()) {
    const zlib = process.getBuiltinModule('node:zlib')
    if (part === 'gzip' || part === 'x-gzip') bytes = zlib.gunzipSync(bytes)
    else if (part === 'deflate') bytes = zlib.inflateSync(bytes)
    else if (part === 'br') bytes = zlib.brotliDecompressSync(bytes)
    else break
  }
  return decoder.decode(bytes)
}

/** A redirect `fetch` would follow: such an answer is handed back so that `fetch` sends the request instead. */
export function isRedirect(status: number, headers: Pick<Headers, 'get'>): boolean {
  return (
    (status === 301 || status === 302 || status === 303 || status === 307 || status === 308) &&
    headers.get('location') !== null
  )
}

/**
 * Sends one request with `node:http` or `node:https` (their global agents, which keep connections alive) and reads
 * the whole answer. Rejects with Node's own error (its `code`, such as `ECONNREFUSED`, tells whether the request
 * was sent) or with the signal's abort error.
 */
export function sendWithNode(url: string, init: TransportInit): Promise<TransportResponse> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith('https:')
      ? process.getBuiltinModule('node:https').request
      : process.getBuiltinModule('node:http').request
    const headers: Record<string, string | number> = { accept: '*/*', 'user-agent': 'node', ...init.headers }
    if (init.body !== null) {
      headers['content-length'] = Buffer.byteLength(init.body)
      headers['content-type'] ??= 'text/plain;charset=UTF-8'
    }
    const onAnswer = (response: IncomingMessage): void => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      // A connection closed before the whole body came (resolving first, when it did, makes this a no-op).
      response.on('close', () => {
        if (!response.complete) reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }))
      })
      response.on('end', () => {
        const status = response.statusCode ?? 0
        let text: string
        try {
          text = decodeBody(Buffer.concat(chunks), response.headers['content-encoding'])
        } catch (error) {
          reject(error)
          return
        }
        resolve({
          status,
          ok: status >= 200 && status < 300,
          headers: new NodeAnswerHeaders(response.headers),
          text: () => Promise.resolve(text),
        })
      })
    }
    const request = send(url, { method: init.method, headers, signal: init.signal }, onAnswer)
    request.on('error', reject)
    request.end(init.body ?? undefined)
  })
}
