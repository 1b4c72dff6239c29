import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { AsyncRegistryClient, RegistryClient, type RegistryClientOptions } from './index.js'

const URL_OK = 'http://127.0.0.1:8080/apis/registry/v3'

function construct(options: Partial<RegistryClientOptions> & Record<string, unknown>): () => RegistryClient {
  return () => new RegistryClient({ url: URL_OK, groupId: 'g', ...options } as RegistryClientOptions)
}

function expectInvalid(build: () => unknown, fragment: string): void {
  let caught: unknown
  try {
    build()
  } catch (error) {
    caught = error
  }
  expect(caught).toBeInstanceOf(TypeError)
  expect((caught as { code?: string }).code).toBe('INVALID_CONFIG')
  expect((caught as Error).message).toContain(fragment)
}

describe('RegistryClient options', () => {
  it('exports AsyncRegistryClient as the same class', () => {
    expect(AsyncRegistryClient).toBe(RegistryClient)
    const client: AsyncRegistryClient = new AsyncRegistryClient({ url: URL_OK, groupId: 'g' })
    expect(client).toBeInstanceOf(RegistryClient)
  })

  it('applies the documented defaults', () => {
    const client = new RegistryClient({ url: URL_OK, groupId: 'orders' })
    expect(client.url).toBe(URL_OK)
    expect(client.groupId).toBe('orders')
    expect(client.cacheTtlMs).toBeUndefined()
    expect(client.cacheMaxSize).toBe(1000)
    expect(client.closed).toBe(false)
  })

  it('accepts a URL object and drops a trailing slash', () => {
    const client = new RegistryClient({ url: new URL(`${URL_OK}/`), groupId: 'g' })
    expect(client.url).toBe(URL_OK)
  })

  it('rejects a missing options object', () => {
    expectInvalid(() => new RegistryClient(undefined as unknown as RegistryClientOptions), 'options object')
  })

  it.each([
    ['missing', undefined, 'url must be a string or a URL'],
    ['not a URL', 'not a url', 'url must be an absolute http(s) URL'],
    ['relative', '/apis/registry/v3', 'url must be an absolute http(s) URL'],
    ['ftp', 'ftp://host/apis/registry/v3', 'url must use http: or https:, got ftp:'],
    ['with a query', `${URL_OK}?token=abc`, 'url must not have a query or a fragment'],
    ['with a fragment', `${URL_OK}#x`, 'url must not have a query or a fragment'],
  ])('rejects a url that is %s', (_, url, fragment) => {
    expectInvalid(construct({ url: url as string }), fragment)
  })

  it('refuses userinfo that is not valid percent-encoding with INVALID_CONFIG, never a URIError, never the secret', () => {
    let error: unknown
    try {
      new RegistryClient({ url: 'http://u:pa%ZZsecretXYZ@127.0.0.1/x', groupId: 'g' })
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(TypeError)
    expect(error).not.toBeInstanceOf(URIError)
    expect((error as { code?: string }).code).toBe('INVALID_CONFIG')
    const dump = [
      String(error),
      (error as Error).stack,
      JSON.stringify(error),
      inspect(error, { depth: 5 }),
      String((error as Error).cause),
    ].join('\n')
    expect(dump).toContain('not valid percent-encoding')
    expect(dump).toContain('http://127.0.0.1/x')
    expect(dump).not.toContain('pa%ZZ')
    expect(dump).not.toContain('secretXYZ')
  })

  it('never echoes a url that does not parse (it may hold a password)', () => {
    let message = ''
    try {
      new RegistryClient({ url: 'http://user:hunter2@[bad/apis', groupId: 'g' })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('url must be an absolute http(s) URL')
    expect(message).not.toContain('hunter2')
  })

  it('keeps a query token out of the message', () => {
    let message = ''
    try {
      new RegistryClient({ url: `${URL_OK}?access_token=s3cr3t`, groupId: 'g' })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).not.toContain('s3cr3t')
  })

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['a number', 5],
  ])('rejects a groupId that is %s', (_, groupId) => {
    expectInvalid(construct({ groupId: groupId as string }), 'groupId must be a non-empty string')
  })

  it.each([
    ['maxRetries', -1, 'maxRetries must be an integer ≥ 0'],
    ['maxRetries', 1.5, 'maxRetries must be an integer ≥ 0'],
    ['maxRetries', Number.NaN, 'maxRetries must be an integer ≥ 0'],
    ['maxRetries', '3', 'maxRetries must be an integer ≥ 0'],
    ['retryBackoffMs', -1, 'retryBackoffMs must be a number of milliseconds ≥ 0'],
    ['retryBackoffMs', Number.POSITIVE_INFINITY, 'retryBackoffMs must be a number of milliseconds ≥ 0'],
    ['retryMaxBackoffMs', -5, 'retryMaxBackoffMs must be a number of milliseconds ≥ 0'],
    ['retryMaxBackoffMs', '20000', 'retryMaxBackoffMs must be a number of milliseconds ≥ 0'],
    ['timeoutMs', 0, 'timeoutMs must be a number of milliseconds > 0'],
    ['timeoutMs', -10, 'timeoutMs must be a number of milliseconds > 0'],
    ['timeoutMs', 2 ** 31, 'timeoutMs must be a number of milliseconds > 0 and ≤ 2147483647'],
    ['cacheMaxSize', 0, 'cacheMaxSize must be an integer ≥ 1'],
    ['cacheMaxSize', 2.5, 'cacheMaxSize must be an integer ≥ 1'],
    ['cacheTtlMs', 0, 'cacheTtlMs must be a number of milliseconds > 0'],
    ['cacheTtlMs', -1, 'cacheTtlMs must be a number of milliseconds > 0'],
    ['cacheTtlMs', Number.NaN, 'cacheTtlMs must be a number of milliseconds > 0'],
  ])('rejects %s = %s', (name, value, fragment) => {
    expectInvalid(construct({ [name]: value }), fragment)
  })

  it('accepts zero retries, zero backoffs and a long cache lifetime', () => {
    const client = new RegistryClient({
      url: URL_OK,
      groupId: 'g',
      maxRetries: 0,
      retryBackoffMs: 0,
      retryMaxBackoffMs: 0,
      cacheTtlMs: 90 * 24 * 3600 * 1000,
      cacheMaxSize: 7,
    })
    expect(client.cacheTtlMs).toBe(90 * 24 * 3600 * 1000)
    expect(client.cacheMaxSize).toBe(7)
  })

  it('rejects an auth without getToken', () => {
    expectInvalid(construct({ auth: {} as never }), 'auth must be a token provider with a getToken() method')
  })

  it('rejects a fetch that is not a function', () => {
    expectInvalid(construct({ fetch: 'fetch' as never }), 'fetch must be a function')
  })

  it('rejects headers that are not an object of strings', () => {
    expectInvalid(construct({ headers: ['x'] as never }), 'headers must be an object')
    expectInvalid(construct({ headers: { 'X-Trace': 5 } as never }), 'headers.X-Trace must be a string')
  })

  it('rejects a header value the Fetch API cannot send, without echoing it', () => {
    let message = ''
    try {
      new RegistryClient({ url: URL_OK, groupId: 'g', headers: { 'X-Key': 'secret\nvalue' } })
    } catch (error) {
      message = (error as Error).message
      expect((error as { code?: string }).code).toBe('INVALID_CONFIG')
    }
    expect(message).toContain('headers.X-Key is not a valid HTTP header')
    expect(message).not.toContain('secret')
  })

  it('rejects timing seams that are not functions', () => {
    expectInvalid(construct({ timing: { sleep: 5 as never } }), 'timing.sleep must be a function')
  })

  it('shows no credentials from the URL in util.inspect, JSON.stringify or String', () => {
    const client = new RegistryClient({
      url: 'https://alice:hunter2@registry.example:8443/apis/registry/v3',
      groupId: 'g',
    })
    expect(client.url).toBe('https://registry.example:8443/apis/registry/v3')
    for (const shown of [
      inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      String(client),
    ]) {
      expect(shown).not.toContain('hunter2')
      expect(shown).not.toContain('alice')
    }
    expect(JSON.parse(JSON.stringify(client))).toEqual({
      url: 'https://registry.example:8443/apis/registry/v3',
      groupId: 'g',
      closed: false,
    })
  })
})
