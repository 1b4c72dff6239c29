import { describe, expect, it } from 'vitest'
import { IdpAuth, type IdpAuthOptions } from './index.js'

const SECRET = 's3cr3t-value-never-shown'
const valid: IdpAuthOptions = {
  tokenUrl: 'https://kc.example/realms/demo/protocol/openid-connect/token',
  clientId: 'registry-app',
  clientSecret: SECRET,
}

/** The TypeError thrown by `new IdpAuth(options)`; checks its code and that it does not leak the secret. */
function constructionError(options: unknown): TypeError & { code?: string } {
  let thrown: unknown
  try {
    new IdpAuth(options as IdpAuthOptions)
  } catch (error) {
    thrown = error
  }
  expect(thrown).toBeInstanceOf(TypeError)
  const error = thrown as TypeError & { code?: string }
  expect(error.code).toBe('INVALID_CONFIG')
  expect(error.message).not.toContain(SECRET)
  return error
}

describe('new IdpAuth(options) validates at construction', () => {
  it('accepts the three required options, a URL object, and every optional one', () => {
    expect(new IdpAuth(valid)).toBeInstanceOf(IdpAuth)
    expect(() => new IdpAuth({ ...valid, tokenUrl: new URL('http://127.0.0.1:8080/token') })).not.toThrow()
    expect(
      () =>
        new IdpAuth({
          ...valid,
          scope: 'registry:read',
          timeoutMs: 1,
          fetch: globalThis.fetch,
          tokenEndpointAuthMethod: 'client_secret_basic',
          now: () => 0,
        }),
    ).not.toThrow()
  })

  it('does no I/O at construction', () => {
    let calls = 0
    new IdpAuth({ ...valid, fetch: () => Promise.reject(new Error(`call ${++calls}`)) })
    expect(calls).toBe(0)
  })

  it.each([
    [undefined, 'IdpAuth: options must be an object, got undefined'],
    [null, 'IdpAuth: options must be an object, got null'],
    ['https://x/token', 'IdpAuth: options must be an object, got a string'],
  ])('rejects options %j', (options, message) => {
    expect(constructionError(options).message).toBe(message)
  })

  it.each([
    [undefined, 'IdpAuth: tokenUrl must be an http(s) URL string or URL, got undefined'],
    [42, 'IdpAuth: tokenUrl must be an http(s) URL string or URL, got number 42'],
    ['', 'IdpAuth: tokenUrl must be an absolute http(s) URL, got a string that is not a URL'],
    [
      '/realms/demo/token',
      'IdpAuth: tokenUrl must be an absolute http(s) URL, got a string that is not a URL',
    ],
    [
      'ftp://kc.example/token',
      'IdpAuth: tokenUrl must use http: or https:, got ftp: (ftp://kc.example/token)',
    ],
  ])('rejects tokenUrl %j', (tokenUrl, message) => {
    expect(constructionError({ ...valid, tokenUrl }).message).toBe(message)
  })

  it('rejects a tokenUrl with user info without repeating it', () => {
    const error = constructionError({ ...valid, tokenUrl: `https://admin:${SECRET}@kc.example/token?x=1` })
    expect(error.message).toBe(
      'IdpAuth: tokenUrl must not contain user info (https://kc.example/token); pass the credentials as clientId and clientSecret',
    )
    expect(error.message).not.toContain('admin')
  })

  it.each([
    ['clientId', undefined, 'IdpAuth: clientId must be a non-empty string, got undefined'],
    ['clientId', '', 'IdpAuth: clientId must be a non-empty string, got an empty string'],
    ['clientId', 7, 'IdpAuth: clientId must be a non-empty string, got number 7'],
    ['clientSecret', undefined, 'IdpAuth: clientSecret must be a non-empty string, got undefined'],
    ['clientSecret', '', 'IdpAuth: clientSecret must be a non-empty string, got an empty string'],
    ['clientSecret', { value: SECRET }, 'IdpAuth: clientSecret must be a non-empty string, got an object'],
    ['scope', '', 'IdpAuth: scope must be a non-blank string when given, got an empty string'],
    ['scope', '   ', 'IdpAuth: scope must be a non-blank string when given, got a string'],
    ['scope', ['registry:read'], 'IdpAuth: scope must be a non-blank string when given, got an array'],
    ['timeoutMs', 0, 'IdpAuth: timeoutMs must be a finite number > 0, got number 0'],
    ['timeoutMs', -1, 'IdpAuth: timeoutMs must be a finite number > 0, got number -1'],
    ['timeoutMs', Number.NaN, 'IdpAuth: timeoutMs must be a finite number > 0, got number NaN'],
    [
      'timeoutMs',
      Number.POSITIVE_INFINITY,
      'IdpAuth: timeoutMs must be a finite number > 0, got number Infinity',
    ],
    ['timeoutMs', '1000', 'IdpAuth: timeoutMs must be a finite number > 0, got a string'],
    [
      'tokenEndpointAuthMethod',
      'private_key_jwt',
      "IdpAuth: tokenEndpointAuthMethod must be 'client_secret_post' or 'client_secret_basic', got 'private_key_jwt'",
    ],
    [
      'tokenEndpointAuthMethod',
      null,
      "IdpAuth: tokenEndpointAuthMethod must be 'client_secret_post' or 'client_secret_basic', got null",
    ],
    ['fetch', 'fetch', 'IdpAuth: fetch must be a function, got a string'],
    ['now', 12, 'IdpAuth: now must be a function returning milliseconds, got number 12'],
  ])('rejects %s = %j', (name, value, message) => {
    expect(constructionError({ ...valid, [name]: value }).message).toBe(message)
  })
})
