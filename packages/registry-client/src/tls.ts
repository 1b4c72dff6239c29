// The TLS transport and the reading of TLS failures, shared by `@x/idp-auth`. Applications pass `tls` to
// `RegistryClient` or `IdpAuth` instead.

export { tlsFailureHint } from './tls-failure.js'
export type { NodeTlsSettings, PemInput, TlsOptions } from './tls-options.js'
export { createTlsTransport, type TlsTransport } from './tls-transport.js'
