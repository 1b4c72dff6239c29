import type { Agent } from 'node:https'
import { invalidConfigError } from '@x/errors'
import { fetchOverNode } from './node-fetch.js'
import { checkTlsOptions } from './tls-options.js'

/** A `fetch` over `node:https` with TLS settings of its own, and the way to drop its kept-alive connections. */
export interface TlsTransport {
  readonly fetch: typeof globalThis.fetch
  /** Closes the connections the transport keeps open; later requests open new ones. */
  close(): void
}

/**
 * An `https.Agent` with the given TLS settings, for `sendWithNode`. Node's global `fetch` takes TLS settings only
 * through a dispatcher of the `undici` package, which Node does not expose, and an `undici` from npm must match the
 * one inside Node; `node:https` is in every supported Node and takes them as they are.
 *
 * @param owner The class named in configuration errors (`RegistryClient`, `IdpAuth`).
 * @param keepAlive Whether connections stay open between requests (until `agent.destroy()`).
 * @throws TypeError (code `INVALID_CONFIG`) for invalid settings, also a key that does not match its certificate or
 *   cannot be decrypted with the passphrase, or a CA that holds no certificate; the message never holds the key nor the passphrase.
 */
export function createTlsAgent(owner: string, tls: unknown, keepAlive: boolean): Agent {
  const settings = checkTlsOptions(owner, tls)
  checkCertificates(owner, settings.ca)
  try {
    process.getBuiltinModule('node:tls').createSecureContext(settings)
  } catch (error) {
    // OpenSSL's reason ("bad decrypt", or "DECODER routines::unsupported" from the OpenSSL of newer Node lines, for a
    // wrong passphrase; "key values mismatch", "no start line") names no secret; the error object is
    // not kept as the cause all the same.
    const reason = error instanceof Error ? error.message.replace(/^error:[0-9A-F]+:/i, '') : 'unknown reason'
    throw invalidConfigError(
      `${owner}: the TLS settings cannot be used: ${reason} (tls.ca, tls.cert and tls.key must be PEM texts, tls.key the key of tls.cert, tls.passphrase the passphrase of an encrypted tls.key)`,
    )
  }
  return new (process.getBuiltinModule('node:https').Agent)({ ...settings, keepAlive })
}

/**
 * A `fetch` over `node:https` with the given TLS settings (see `createTlsAgent` and `fetchOverNode`): a transport
 * failure rejects with a `TypeError` (`fetch failed`) whose `cause` carries Node's `code`
 * (`UNABLE_TO_VERIFY_LEAF_SIGNATURE`, `ECONNREFUSED`, …).
 *
 * @throws TypeError (code `INVALID_CONFIG`) for invalid settings, as `createTlsAgent`.
 */
export function createTlsTransport(owner: string, tls: unknown, keepAlive: boolean): TlsTransport {
  const agent = createTlsAgent(owner, tls, keepAlive)
  return { fetch: fetchOverNode(agent), close: () => agent.destroy() }
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
