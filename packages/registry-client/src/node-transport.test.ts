import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RegistryClient } from './registry-client.js'
import { isFetchHeader, normalizeHeaderValue } from './registry-client-options.js'
import { HttpFixture, reply } from './test-support/http-fixture.js'

const SCHEMA = '{"type":"record","name":"Event","fields":[{"name":"id","type":"string"}]}'
const LOOKUP = '/ids/globalIds/1?returnArtifactType=true'
const CLIENT = fileURLToPath(new URL('../dist/index.js', import.meta.url))

let fixture: HttpFixture
beforeEach(async () => {
  fixture = await HttpFixture.start((request, res) =>
    request.path === LOOKUP
      ? reply(res, 200, SCHEMA, { 'x-registry-artifacttype': 'AVRO' })
      : reply(res, 404, '{"title":"nothing here"}'),
  )
})
afterEach(async () => {
  await fixture.close()
})

/** Fetch sends this header on every request; `node:http` does not: it tells which of the two sent a request. */
const sentByFetch = (index: number) => fixture.requests[index]?.headers['sec-fetch-mode'] === 'cors'

/**
 * Looks up globalId 1 from the fixture in a fresh Node process (what a short-lived process pays is only seen in
 * one), after `prelude` ran there. Reports the schema found, whether Node's bundled undici was loaded, and how
 * often a replaced `globalThis.fetch` was called.
 */
async function lookUpInFreshProcess(
  prelude: string,
  env: Record<string, string> = {},
  headers: Record<string, string> = {},
): Promise<{ schema: string; undiciLoaded: boolean; stubCalls: number }> {
  const script = `globalThis.stubCalls = 0
${prelude}
const { RegistryClient } = await import(${JSON.stringify(CLIENT)})
const client = new RegistryClient({ url: ${JSON.stringify(fixture.url)}, groupId: 'transport', maxRetries: 0, headers: ${JSON.stringify(headers)} })
const found = await client.getSchemaByGlobalId(1)
await client.close()
const undiciLoaded = process.moduleLoadList.some((name) => name.includes('undici'))
process.stdout.write(JSON.stringify({ schema: found.schema, undiciLoaded, stubCalls: globalThis.stubCalls }))`
  // Asynchronously: the fixture answering the child runs in this process.
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...env },
  })
  return JSON.parse(stdout) as { schema: string; undiciLoaded: boolean; stubCalls: number }
}

describe('the transport of a client made without a fetch option', () => {
  it('fetches a schema in a fresh process without loading Node’s bundled undici', async () => {
    await expect(lookUpInFreshProcess('')).resolves.toEqual({
      schema: SCHEMA,
      undiciLoaded: false,
      stubCalls: 0,
    })
    expect(fixture.requests.map((request) => request.path)).toEqual([LOOKUP])
    expect(sentByFetch(0)).toBe(false)
  })

  it('sends extra headers, trimmed as Headers trims them, still without loading undici', async () => {
    await expect(lookUpInFreshProcess('', {}, { 'X-Tenant': ' blue\t' })).resolves.toMatchObject({
      schema: SCHEMA,
      undiciLoaded: false,
    })
    expect(fixture.requests.map((request) => request.headers['x-tenant'])).toEqual(['blue'])
  })

  it('calls a globalThis.fetch that was replaced before the client was made, for every request', async () => {
    const prelude = `const original = globalThis.fetch
globalThis.fetch = (input, init) => { globalThis.stubCalls++; return original(input, init) }`
    await expect(lookUpInFreshProcess(prelude)).resolves.toMatchObject({ schema: SCHEMA, stubCalls: 1 })
    expect(sentByFetch(0)).toBe(true)
  })

  it('sends with fetch once an undici dispatcher is installed globally (it may carry a proxy or TLS settings)', async () => {
    // Node's own fetch installs its default dispatcher on first use, in the place `setGlobalDispatcher` writes.
    const prelude = `await (await fetch(${JSON.stringify(`${fixture.url}/system/info`)})).text()`
    await expect(lookUpInFreshProcess(prelude)).resolves.toMatchObject({ schema: SCHEMA })
    expect(fixture.requests.map((request) => request.path)).toEqual(['/system/info', LOOKUP])
    expect(sentByFetch(1)).toBe(true)
  })

  it('sends with fetch when Node is told to take a proxy from the environment', async () => {
    await expect(lookUpInFreshProcess('', { NODE_USE_ENV_PROXY: '1' })).resolves.toMatchObject({
      schema: SCHEMA,
    })
    expect(sentByFetch(0)).toBe(true)
  })

  it('follows a redirect as fetch does, with one request at the place redirected to', async () => {
    const target = await HttpFixture.start((request, res) =>
      request.path === LOOKUP ? reply(res, 200, SCHEMA) : reply(res, 404, '{}'),
    )
    try {
      fixture.handle((request, res) => reply(res, 307, '', { location: `${target.url}${request.path}` }))
      const client = new RegistryClient({ url: fixture.url, groupId: 'transport', maxRetries: 0 })
      const found = await client.getSchemaByGlobalId(1)
      await client.close()
      expect(found.schema).toBe(SCHEMA)
      expect(target.requests.map((request) => request.path)).toEqual([LOOKUP])
    } finally {
      await target.close()
    }
  })

  it('reads a gzip-coded answer and drops a leading byte order mark, as fetch’s text() does', async () => {
    fixture.handle((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
      res.end(gzipSync(Buffer.from(`\uFEFF${SCHEMA}`, 'utf8')))
    })
    const client = new RegistryClient({ url: fixture.url, groupId: 'transport', maxRetries: 0 })
    const found = await client.getSchemaByGlobalId(1)
    await client.close()
    expect(found.schema).toBe(SCHEMA)
  })

  it('fails on a header value Node’s http refuses exactly as with fetch, and sends nothing', async () => {
    const attempt = async (fetch?: typeof globalThis.fetch) => {
      const client = new RegistryClient({
        url: fixture.url,
        groupId: 'transport',
        maxRetries: 0,
        headers: { 'x-tenant': 'a\u0001b' },
        ...(fetch === undefined ? {} : { fetch }),
      })
      try {
        return await client.getSchemaByGlobalId(1).then(
          () => 'found',
          (error: Error & { code?: string }) => `${error.name} ${error.code}: ${error.message}`,
        )
      } finally {
        await client.close()
      }
    }
    const withFetch = await attempt(globalThis.fetch)
    expect(withFetch).toMatch(/^RegistryConnectionError REGISTRY_CONNECTION: .*invalid x-tenant header$/)
    await expect(attempt()).resolves.toBe(withFetch)
    expect(fixture.requests).toEqual([])
  })
})

describe('extra headers checked without Headers', () => {
  const names = ['X-Tenant', 'x_y', "!#$%&'*+-.^_`|~", 'bad name', 'bad:name', '', 'é', 'a\u0000']
  const values = [
    'plain',
    ' spaced\t',
    '\r\ntrailing\n',
    'in\nside',
    'nul\u0000',
    'latin ÿ',
    'wide \u0100',
    '😀',
    '\u0001',
    '',
  ]

  it('accepts exactly the names and values new Headers accepts, and keeps the value Headers keeps', () => {
    for (const name of names) {
      for (const value of values) {
        let kept: string | undefined
        try {
          kept = new Headers([[name, value]]).get(name) ?? undefined
        } catch {
          kept = undefined
        }
        expect([name, value, isFetchHeader(name, value)]).toEqual([name, value, kept !== undefined])
        if (kept !== undefined) expect(normalizeHeaderValue(value)).toBe(kept)
      }
    }
  })
})
