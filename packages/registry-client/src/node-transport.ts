import type { Agent, IncomingMessage } from 'node:http'
import type { Readable, Transform } from 'node:stream'
import { bodyDecoders, NodeAnswer } from './node-answer.js'

// Node's modules are taken with `process.getBuiltinModule` when first needed, not imported: an ES import of
// `node:http` reads every export, and on newer Node one of them loads the bundled undici this module avoids.

/** The error of an answer whose connection closed before its body was whole. */
const INCOMPLETE = 'the connection closed before the answer was complete'

/** What the client reads of an answer, whichever way it was sent. */
export interface TransportResponse {
  status: number
  ok: boolean
  headers: Pick<Headers, 'get'>
  text(): Promise<string>
}

/**
 * One request: header names in lower case. A string body is sent as UTF-8 with `text/plain;charset=UTF-8` unless
 * `content-type` is given, as `fetch` sends it.
 */
export interface TransportInit {
  method: string
  headers: Record<string, string>
  body: string | Uint8Array | null
  signal?: AbortSignal | undefined
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

/** A redirect `fetch` would follow: such an answer is handed back so that `fetch` sends the request instead. */
export function isRedirect(status: number, headers: Pick<Headers, 'get'>): boolean {
  return (
    (status === 301 || status === 302 || status === 303 || status === 307 || status === 308) &&
    headers.get('location') !== null
  )
}

/**
 * Sends one request with `node:http` or `node:https` and reads the whole answer. Without `agent`, through their
 * global agents (which keep connections alive); with one, through it (an `https.Agent` carries TLS settings).
 * Follows no redirect: a 3xx is the answer. Rejects with the signal's reason once it aborts (before the request or
 * while the answer comes), otherwise with Node's own error: its `code` (`ECONNREFUSED`, a TLS code such as
 * `SELF_SIGNED_CERT_IN_CHAIN`) tells whether the request was sent and why it failed.
 */
export function sendWithNode(url: string, init: TransportInit, agent?: Agent): Promise<NodeAnswer> {
  const { signal } = init
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted()
    const send = url.startsWith('https:')
      ? process.getBuiltinModule('node:https').request
      : process.getBuiltinModule('node:http').request
    const headers: Record<string, string | number> = { accept: '*/*', 'user-agent': 'node', ...init.headers }
    const { body } = init
    if (body !== null) {
      headers['content-length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.length
      if (typeof body === 'string') headers['content-type'] ??= 'text/plain;charset=UTF-8'
    }
    let settled = false
    /** The streams undoing the answer's content codings: ended with the request. */
    let decoders: Transform[] = []
    const fail = (error: unknown): void => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', onAbort)
      outgoing.destroy()
      for (const one of decoders) one.destroy()
      reject(signal?.aborted ? signal.reason : error)
    }
    const onAbort = (): void => fail(signal?.reason)
    const onAnswer = (answer: IncomingMessage): void => {
      // A connection closed before the whole body came (after the answer was taken, this does nothing).
      answer.on('close', () => {
        if (!answer.complete) fail(Object.assign(new Error(INCOMPLETE), { code: 'ECONNRESET' }))
      })
      answer.on('error', fail)
      decoders = bodyDecoders(answer, init.method)
      let body: Readable = answer
      for (const one of decoders) {
        one.on('error', fail)
        body = body.pipe(one)
      }
      const chunks: Buffer[] = []
      body.on('data', (chunk: Buffer) => chunks.push(chunk))
      body.on('end', () => {
        if (settled) return
        settled = true
        signal?.removeEventListener('abort', onAbort)
        try {
          resolve(new NodeAnswer(answer, Buffer.concat(chunks)))
        } catch (error) {
          // A body larger than a Buffer can hold.
          reject(error)
        }
      })
    }
    const outgoing = send(url, { method: init.method, headers, agent }, onAnswer)
    outgoing.on('error', fail)
    signal?.addEventListener('abort', onAbort, { once: true })
    outgoing.end(body ?? undefined)
  })
}
