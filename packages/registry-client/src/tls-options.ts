import { invalidConfigError } from '@x/errors'

/** A PEM text, as a string or its bytes (a `Buffer` read from a file fits). */
export type PemInput = string | Uint8Array

/**
 * TLS settings for an `https:` registry or token endpoint: a private CA to trust, a client certificate for mutual
 * TLS. Every field is optional; the texts are PEM, as `fs.readFileSync(file)` gives them.
 */
export interface TlsOptions {
  /**
   * The certificate(s) of the CA(s) that signed the server's certificate. Replaces Node's list of public CAs for
   * this connection, as Node's own `ca` option does. @default Node's list of public CAs
   */
  ca?: PemInput | readonly PemInput[]
  /** The client certificate (PEM; a chain may follow it) for servers that ask for one. Needs `key`. */
  cert?: PemInput
  /** The private key of `cert` (PEM). Needs `cert`. Never shown in a message, a log or `util.inspect`. */
  key?: PemInput
  /** The passphrase of an encrypted `key`. Never shown in a message, a log or `util.inspect`. */
  passphrase?: string
  /**
   * `false` accepts any server certificate (expired, self-signed, for another host): for tests only, it
   * gives up the protection TLS is for. @default true
   */
  rejectUnauthorized?: boolean
}

/** The TLS settings in the shape `node:https` takes. */
export interface NodeTlsSettings {
  ca?: string | Buffer | (string | Buffer)[]
  cert?: string | Buffer
  key?: string | Buffer
  passphrase?: string
  rejectUnauthorized: boolean
}

/** The kind of a value, never the value itself (it may be a key or a passphrase). */
function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

const KNOWN = new Set(['ca', 'cert', 'key', 'passphrase', 'rejectUnauthorized'])

function pem(owner: string, name: string, value: unknown): string | Buffer {
  if (typeof value === 'string') {
    if (value.trim() === '')
      throw invalidConfigError(`${owner}: tls.${name} must be a PEM text, got an empty string`)
    return value
  }
  if (value instanceof Uint8Array) {
    if (value.length === 0) throw invalidConfigError(`${owner}: tls.${name} must be a PEM text, got no bytes`)
    return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.length)
  }
  // The kind only, never the value: it may be a key.
  throw invalidConfigError(
    `${owner}: tls.${name} must be a PEM text (a string or a Buffer), got ${kindOf(value)}`,
  )
}

/**
 * Checks `tls` and returns it in `node:https`'s shape. Every problem is a `TypeError` (code `INVALID_CONFIG`) naming
 * the field; no message holds a key, a passphrase or a certificate.
 */
export function checkTlsOptions(owner: string, tls: unknown): NodeTlsSettings {
  if (typeof tls !== 'object' || tls === null || Array.isArray(tls)) {
    throw invalidConfigError(
      `${owner}: tls must be an object { ca?, cert?, key?, passphrase?, rejectUnauthorized? }, got ${kindOf(tls)}`,
    )
  }
  for (const name of Object.keys(tls)) {
    if (!KNOWN.has(name)) {
      throw invalidConfigError(
        `${owner}: tls has an unknown field '${name}' (known: ca, cert, key, passphrase, rejectUnauthorized)`,
      )
    }
  }
  const { ca, cert, key, passphrase, rejectUnauthorized } = tls as Record<string, unknown>
  const settings: NodeTlsSettings = { rejectUnauthorized: true }
  if (ca !== undefined) {
    settings.ca = Array.isArray(ca)
      ? ca.map((one, index) => pem(owner, `ca[${index}]`, one))
      : pem(owner, 'ca', ca)
  }
  if (cert !== undefined) settings.cert = pem(owner, 'cert', cert)
  if (key !== undefined) settings.key = pem(owner, 'key', key)
  if ((cert === undefined) !== (key === undefined)) {
    throw invalidConfigError(
      `${owner}: tls.cert and tls.key go together (a client certificate and its private key); got only tls.${
        cert === undefined ? 'key' : 'cert'
      }`,
    )
  }
  if (passphrase !== undefined) {
    if (typeof passphrase !== 'string') {
      throw invalidConfigError(`${owner}: tls.passphrase must be a string, got ${kindOf(passphrase)}`)
    }
    if (key === undefined) throw invalidConfigError(`${owner}: tls.passphrase is given without tls.key`)
    settings.passphrase = passphrase
  }
  if (rejectUnauthorized !== undefined) {
    if (typeof rejectUnauthorized !== 'boolean') {
      throw invalidConfigError(
        `${owner}: tls.rejectUnauthorized must be true or false, got ${kindOf(rejectUnauthorized)}`,
      )
    }
    settings.rejectUnauthorized = rejectUnauthorized
  }
  return settings
}
