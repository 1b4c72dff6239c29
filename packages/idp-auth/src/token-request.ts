import type { TokenEndpointAuthMethod } from './idp-auth-options.js'

/** What goes into one OAuth2 client-credentials token request: the client's credentials, how it sends them, a scope. */
export interface TokenRequestInput {
  clientId: string
  clientSecret: string
  scope: string | undefined
  tokenEndpointAuthMethod: TokenEndpointAuthMethod
}

/** The headers and form body of a token request, ready for `fetch`. */
export interface TokenRequest {
  headers: Record<string, string>
  /** The form body, already serialized. */
  body: string
}

/**
 * The `application/x-www-form-urlencoded` encoding of one value, as OAuth2 requires for form values and as
 * `URLSearchParams` writes it: a space becomes `+`, everything but ASCII alphanumerics and `*-._` is percent-encoded as UTF-8.
 */
export function formUrlEncode(value: string): string {
  return new URLSearchParams([['', value]]).toString().slice(1)
}

/**
 * The `Authorization` header of `client_secret_basic` (HTTP Basic): client id and secret are each
 * form-encoded first, then joined by `:` and base64-encoded. Without that step a secret holding `:`, `%` or a
 * non-ASCII character is read wrongly by a conforming provider.
 */
export function basicAuthorization(clientId: string, clientSecret: string): string {
  const credentials = `${formUrlEncode(clientId)}:${formUrlEncode(clientSecret)}`
  return `Basic ${btoa(credentials)}`
}

/**
 * Builds the client-credentials request: `grant_type=client_credentials`, then `scope` when given, then, for
 * `client_secret_post`, `client_id` and `client_secret` (for `client_secret_basic` they go in the header only).
 */
export function buildTokenRequest(input: TokenRequestInput): TokenRequest {
  const body = new URLSearchParams({ grant_type: 'client_credentials' })
  if (input.scope !== undefined) body.set('scope', input.scope)
  const headers: Record<string, string> = {
    accept: 'application/json',
    'content-type': 'application/x-www-form-urlencoded',
  }
  if (input.tokenEndpointAuthMethod === 'client_secret_basic') {
    headers.authorization = basicAuthorization(input.clientId, input.clientSecret)
  } else {
    body.set('client_id', input.clientId)
    body.set('client_secret', input.clientSecret)
  }
  return { headers, body: body.toString() }
}
