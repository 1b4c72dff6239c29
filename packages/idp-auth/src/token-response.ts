import { AuthenticationError } from '@x/errors'

/**
 * What a successful token response (a JSON body with `access_token` and `expires_in`) gives: the token and its
 * lifetime.
 */
export interface TokenGrant {
  accessToken: string
  /** The lifetime the provider announced (`expires_in`), in milliseconds; finite and > 0. */
  lifetimeMs: number
}

/**
 * An OAuth error code in the characters OAuth2 allows for one (printable ASCII without `"` and `\`), kept short. Such a code
 * (`invalid_client`, `invalid_scope`, `unauthorized_client`…) names a condition, never a credential, so it may go
 * into a message; `error_description` and the rest of the body never do.
 */
const OAUTH_ERROR_CODE = /^[\x20\x21\x23-\x5B\x5D-\x7E]{1,64}$/

/**
 * What a token must look like to be sent as `Authorization: Bearer <token>`: visible ASCII, no spaces (the Bearer
 * token syntax allows even less). Anything else would make the request fail later, and `Headers` would quote the token in
 * its error message.
 */
const SENDABLE_TOKEN = /^[\x21-\x7E]+$/

/** A numeric string such as `"300"` or `"299.5"`: some providers (Azure AD v1) send `expires_in` as text. */
const NUMERIC_STRING = /^[0-9]{1,15}(?:\.[0-9]{1,9})?$/

function kindOf(value: unknown): string {
  if (value === undefined) return 'missing'
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    // The SyntaxError quotes the body, so it is neither kept as `cause` nor shown.
    return { ok: false }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads `expires_in` as seconds: a finite number > 0, or a string of decimal digits whose value is > 0.
 * Returns `undefined` for anything else (missing, 0, negative, `"abc"`, `1e400`, `true`, …).
 */
export function parseExpiresIn(value: unknown): number | undefined {
  let seconds: number
  if (typeof value === 'number') seconds = value
  else if (typeof value === 'string' && NUMERIC_STRING.test(value)) seconds = Number(value)
  else return undefined
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined
}

function describeExpiresIn(value: unknown): string {
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string')
    return value === '' ? 'an empty string' : 'a string that is not a positive number'
  return kindOf(value)
}

/**
 * The OAuth `error` code of an error answer, when its body is a JSON object with a well-formed string `error`.
 * Never throws.
 */
export function oauthErrorCode(text: string): string | undefined {
  const parsed = parseJson(text)
  if (!parsed.ok || !isPlainObject(parsed.value)) return undefined
  const { error } = parsed.value
  return typeof error === 'string' && OAUTH_ERROR_CODE.test(error) ? error : undefined
}

/**
 * Validates the body of a 200 token response. Throws `AuthenticationError` (with `url` and `status: 200`) when it
 * is not a JSON object, when `access_token` is missing, empty, not a string or not sendable in a header (control
 * characters, spaces, non-ASCII), or when `expires_in` is not a
 * positive number of seconds. The message tells which field failed and what kind of value came, never a value
 * that could be the token or any other part of the body.
 */
export function parseTokenResponse(text: string, url: string): TokenGrant {
  const fail = (what: string): never => {
    throw new AuthenticationError(
      `Token endpoint ${url} answered HTTP 200 ${what}; expected a JSON object with a non-empty string access_token and a positive expires_in`,
      { url, status: 200 },
    )
  }
  const parsed = parseJson(text)
  if (!parsed.ok) return fail('with a body that is not JSON')
  const body = parsed.value
  if (!isPlainObject(body)) return fail(`with JSON that is not an object (${kindOf(body)})`)

  const accessToken = body.access_token
  if (typeof accessToken !== 'string' || accessToken === '') {
    return fail(`with access_token ${kindOf(accessToken)}`)
  }
  if (!SENDABLE_TOKEN.test(accessToken)) {
    return fail('with an access_token holding characters that cannot be sent in an Authorization header')
  }
  const seconds = parseExpiresIn(body.expires_in)
  if (seconds === undefined) return fail(`with expires_in ${describeExpiresIn(body.expires_in)}`)
  return { accessToken, lifetimeMs: seconds * 1000 }
}

/**
 * The error for an answer other than 200. It names the endpoint, the status and the OAuth error code (e.g.
 * `invalid_client`) when the body carries one; never the body itself.
 */
export function unexpectedStatusError(status: number, text: string, url: string): AuthenticationError {
  const code = oauthErrorCode(text)
  const oauth = code === undefined ? '' : ` (OAuth error '${code}')`
  const hint =
    status === 401 || code === 'invalid_client'
      ? ': the client credentials were refused (check clientId, clientSecret and tokenEndpointAuthMethod)'
      : status === 404
        ? ': no token endpoint there (check tokenUrl and the realm in it)'
        : ''
  return new AuthenticationError(
    `Token endpoint ${url} answered HTTP ${status}${oauth}, expected 200${hint}`,
    { url, status },
  )
}
