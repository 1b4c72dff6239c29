import type { Agent } from 'node:http'
import { invalidConfigError } from '@x/errors'
import { BODILESS_STATUSES, type NodeAnswer } from './node-answer.js'
import { sendWithNode } from './node-transport.js'

/**
 * A `fetch` that sends through `sendWithNode` with `agent`, for callers that need a `fetch` (ky, in the token
 * exchange). It takes what `fetch` takes (a URL or a `Request`, any method, headers, a body of any kind `Request`
 * takes, an `AbortSignal`) and answers a `Response` holding the whole body. It sends only to `https:` URLs, follows
 * no redirect (a 3xx is the answer) and asks for no compressed answer. A transport failure rejects with a
 * `TypeError` (`fetch failed`, as Node's `fetch`) whose `cause` carries Node's `code`; an abort, with the signal's
 * reason.
 */
export function fetchOverNode(agent: Agent): typeof globalThis.fetch {
  const send = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    // The signal is used as given: a `Request` made with it would link a signal of its own to it on every request.
    const { signal: initSignal, ...rest } = init
    const signal = initSignal ?? (input instanceof Request ? input.signal : undefined)
    signal?.throwIfAborted()
    const normalized = new Request(input, rest)
    if (!normalized.url.startsWith('https:')) {
      throw invalidConfigError(
        `The TLS transport sends only to https: URLs, got ${new URL(normalized.url).protocol}`,
      )
    }
    const body = normalized.body === null ? null : new Uint8Array(await normalized.arrayBuffer())
    const headers: Record<string, string> = {}
    normalized.headers.forEach((value, name) => {
      headers[name] = value
    })
    try {
      return toResponse(
        await sendWithNode(normalized.url, { method: normalized.method, headers, body, signal }, agent),
      )
    } catch (error) {
      if (signal?.aborted && error === signal.reason) throw error
      throw new TypeError('fetch failed', { cause: error })
    }
  }
  return send as typeof globalThis.fetch
}

function toResponse(answer: NodeAnswer): Response {
  const headers = new Headers()
  const raw = answer.rawHeaders
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      headers.append(raw[index]!, raw[index + 1]!)
    } catch {
      // A header the Fetch API refuses (a forbidden character) is left out, as fetch would not show it either.
    }
  }
  const body = BODILESS_STATUSES.has(answer.status) ? null : (answer.body as unknown as BodyInit)
  return new Response(body, { status: answer.status, statusText: answer.statusText, headers })
}
