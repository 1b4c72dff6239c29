import type { Agent, IncomingMessage } from 'node:http'
import { invalidConfigError } from '@x/errors'
import { checkTlsOptions } from './tls-options.js'

/** A `fetch` over `node:https` with TLS settings of its own, and the way to drop its kept-alive connections. */
export interface TlsTransport {
  readonly fetch: typeof globalThis.fetch
  /** Closes the connections the transport keeps open; later requests open new ones. */
  close(): void
}

/** Answers that have no body, whatever the server sends. */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304])

/**
 * A `fetch` that sends through `node:https` with the given TLS settings. Node's global `fetch` takes TLS settings only
 * through a dispatcher of the `undici` package, which Node does not expose, and an `undici` from npm must match the
 * one inside Node; `node:https` is in every supported Node and takes them as they are.
 *
 * It does what the registry client and the token exchange need of `fetch`: any method, headers, a body of any kind
 * `Request` takes, an `AbortSignal`, the whole answer as a `Response`. It does not follow redirects (a 3xx is the
 * answer) nor ask for compressed answers. A transport failure rejects with a `TypeError` (`fetch failed`, as Node's
 * `fetch`) whose `cause` carries Node's `code` (`UNABLE_TO_VERIFY_LEAF_SIGNATURE`, `ECONNREFUSED`, …).
 *
 * @param owner The class named in configuration errors (`RegistryClient`, `IdpAuth`).
 * @param keepAlive Whether connections stay open between requests (until `close()`).
 * @throws TypeError (code `INVALID_CONFIG`) for invalid settings, also a key that does not match its certificate or
 *   cannot be decrypted with the passphrase, or a CA that holds no certificate; the message never holds the key nor the passphrase.
 */
export function createTlsTransport(owner: string, tls: unknown, keepAlive: boolean): TlsTransport {
  const settings = checkTlsOptions(owner, tls)
  const https = process.getBuiltinModule('node:https')
  const nodeTls = process.getBuiltinModule('node:tls')
  checkCertificates(owner, settings.ca)
  try {
    nodeTls.createSecureContext(settings)
  } catch (error) {
    // OpenSSL's reason ("bad decrypt", or "DECODER routines::unsupported" from the OpenSSL of newer Node lines, for a
    // wrong passphrase; "key values mismatch", "no start line") names no secret; the error object is
    // not kept as the cause all the same.
    const reason = error instanceof Error ? error.message.replace(/^error:[0-9A-F]+:/i, '') : 'unknown reason'
    throw invalidConfigError(
      `${owner}: the TLS settings cannot be used: ${reason} (tls.ca, tls.cert and tls.key must be PEM texts, tls.key the key of tls.cert, tls.passphrase the passphrase of an encrypted tls.key)`,
    )
  }
  const agent = new https.Agent({ ...settings, keepAlive })
  const send = (input: string | URL | Request, init?: RequestInit): Promise<Response> =>
    sendOver(https.request, agent, input, init)
  return {
    fetch: send as typeof globalThis.fetch,
    close: () => agent.destroy(),
  }
}

/**
 * Refuses a `tls.ca` entry that holds no certificate (a key, a text that is not PEM): Node's TLS would ignore it and
 * every connection would then fail as untrusted, naming the CA that was given.
 */
function checkCertificates(owner: string, ca: string | Buffer | (string | Buffer)[] | undefined): void {
  if (ca === undefined) return
  const { X509Certificate } = process.getBuiltinModule('node:crypto')
  for (const [index, one] of (Array.isArray(ca) ? ca : [ca]).entries()) {
    const name = Array.isArray(ca) ? `tls.ca[${index}]` : 'tls.ca'
    const text = typeof one === 'string' ? one : one.toString('latin1')
    let certificate = text.includes('-----BEGIN CERTIFICATE-----')
    if (certificate) {
      try {
        new X509Certificate(one)
      } catch {
        certificate = false
      }
    }
    // What the text is, never the text: a key given by mistake must not be shown.
    if (!certificate)
      throw invalidConfigError(
        `${owner}: ${name} must hold PEM certificates (-----BEGIN CERTIFICATE-----), got ${
          text.includes('PRIVATE KEY-----') ? 'a private key' : 'no readable certificate'
        }`,
      )
  }
}

async function sendOver(
  request: typeof import('node:https').request,
  agent: Agent,
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<Response> {
  // The signal is used as given: a `Request` made with it would link a signal of its own to it on every request.
  const { signal: initSignal, ...rest } = init
  const signal = initSignal ?? (input instanceof Request ? input.signal : undefined)
  signal?.throwIfAborted()
  const normalized = new Request(input, rest)
  const url = new URL(normalized.url)
  if (url.protocol !== 'https:') {
    throw invalidConfigError(`The TLS transport sends only to https: URLs, got ${url.protocol}`)
  }
  const body = normalized.body === null ? undefined : Buffer.from(await normalized.arrayBuffer())
  const headers: Record<string, string> = {}
  normalized.headers.forEach((value, name) => {
    headers[name] = value
  })
  headers.accept ??= '*/*'
  if (body !== undefined) headers['content-length'] = String(body.length)
  signal?.throwIfAborted()

  return new Promise<Response>((resolve, reject) => {
    let settled = false
    const fail = (error: unknown): void => {
      if (settled) return
      settled = true
      signal?.removeEventListener('abort', onAbort)
      outgoing.destroy()
      reject(signal?.aborted ? signal.reason : new TypeError('fetch failed', { cause: error }))
    }
    const onAbort = (): void => fail(signal?.reason)
    const outgoing = request(
      url,
      { method: normalized.method, headers, agent },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('error', fail)
        answer.on('close', () => {
          if (!answer.complete) fail(new Error('the connection closed before the answer was complete'))
        })
        answer.on('end', () => {
          if (settled) return
          settled = true
          signal?.removeEventListener('abort', onAbort)
          try {
            resolve(toResponse(answer, Buffer.concat(chunks)))
          } catch (error) {
            reject(new TypeError('fetch failed', { cause: error }))
          }
        })
      },
    )
    outgoing.on('error', fail)
    signal?.addEventListener('abort', onAbort, { once: true })
    outgoing.end(body)
  })
}

function toResponse(answer: IncomingMessage, body: Buffer): Response {
  const headers = new Headers()
  const raw = answer.rawHeaders
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      headers.append(raw[index]!, raw[index + 1]!)
    } catch {
      // A header the Fetch API refuses (a forbidden character) is left out, as fetch would not show it either.
    }
  }
  const status = answer.statusCode ?? 0
  return new Response(NULL_BODY_STATUSES.has(status) ? null : (body as unknown as BodyInit), {
    status,
    statusText: answer.statusMessage ?? '',
    headers,
  })
}
