/** Codes of a server certificate the client does not trust. */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
])

/** Codes of a server certificate made out for another host name. */
const WRONG_HOST = new Set(['ERR_TLS_CERT_ALTNAME_INVALID', 'HOSTNAME_MISMATCH'])

/** TLS alerts by which a server refuses the client's certificate, or the lack of one. */
const CLIENT_CERT_REFUSED = new Set([
  'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
  'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED',
  'ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED',
  'ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE',
  'ERR_SSL_TLSV1_ALERT_UNKNOWN_CA',
  'ERR_SSL_TLSV1_ALERT_ACCESS_DENIED',
  'ERR_SSL_TLSV1_ALERT_DECRYPT_ERROR',
])

/**
 * What a TLS failure means for the user, from the error codes of a failed request (outermost first), or
 * `undefined` when none of them is a TLS failure. Such a failure comes back on every attempt: it is a setting to
 * change, not an outage to wait out.
 *
 * @param server What the server is, for the message (`the registry`, `the token endpoint`).
 */
export function tlsFailureHint(codes: readonly string[], server: string): string | undefined {
  for (const code of codes) {
    if (UNTRUSTED.has(code)) {
      return `TLS: the certificate of ${server} is not trusted (${code}); pass the CA that signed it as tls.ca`
    }
    if (WRONG_HOST.has(code)) {
      return `TLS: the certificate of ${server} is not made out for this host name (${code})`
    }
    if (CLIENT_CERT_REFUSED.has(code)) {
      return `TLS: ${server} refused the connection for want of a client certificate it accepts (${code}); pass one signed by a CA it trusts as tls.cert and tls.key`
    }
    if (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')) {
      return `TLS: the handshake with ${server} failed (${code})`
    }
  }
  return undefined
}
