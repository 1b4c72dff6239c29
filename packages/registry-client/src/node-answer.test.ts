import { gzipSync } from 'node:zlib'
import { RegistryConnectionError } from '@x/errors'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RegistryClient } from './registry-client.js'
import { HttpFixture, reply } from './test-support/http-fixture.js'

// Every client here sends with `node:http` (nothing in this file calls Node's fetch before it, which would install
// undici's global dispatcher and send every later request with fetch); each test checks that it did.

let fixture: HttpFixture
beforeEach(async () => {
  fixture = await HttpFixture.start((_, res) => reply(res, 404, '{"title":"nothing here"}'))
})
afterEach(async () => {
  await fixture.close()
})

/** Fetch sends this header on every request; `node:http` does not. */
const sentByFetch = (index: number) => fixture.requests[index]?.headers['sec-fetch-mode'] === 'cors'

describe('the answer read with node:http', () => {
  it('ends a compressed answer that inflates without end at timeoutMs, as fetch does, not after inflating it all', async () => {
    // 64 gzip members of 16 MiB of zeros each: 1 GiB once inflated, from about 1 MB on the wire.
    const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 })
    fixture.handle((_, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'x-registry-artifacttype': 'AVRO' })
      for (let index = 0; index < 64; index += 1) res.write(member)
      res.end()
    })
    const client = new RegistryClient({
      url: fixture.url,
      groupId: 'transport',
      maxRetries: 0,
      timeoutMs: 50,
    })
    const started = performance.now()
    const error = await client.getSchemaByGlobalId(1).catch((caught: unknown) => caught)
    const took = performance.now() - started
    await client.close()
    expect(sentByFetch(0)).toBe(false)
    expect(error).toBeInstanceOf(RegistryConnectionError)
    expect((error as Error).message).toBe(
      `Unable to reach the registry at ${fixture.url} after 1 attempt: no complete answer within timeoutMs (50 ms)`,
    )
    // Inflating the whole GiB at once takes far longer (and holds it all in memory).
    expect(took).toBeLessThan(500)
  })

  it('takes a 204 that names a content coding as the empty answer it is, as fetch does', async () => {
    // A compressing proxy may label an answer without a body: there is nothing to decode.
    fixture.handle((_, res) => {
      res.writeHead(204, { 'content-encoding': 'gzip' })
      res.end()
    })
    const attempt = async (fetch?: typeof globalThis.fetch) => {
      const client = new RegistryClient({
        url: fixture.url,
        groupId: 'transport',
        maxRetries: 0,
        ...(fetch === undefined ? {} : { fetch }),
      })
      try {
        return await client.deleteGlobalRuleset()
      } finally {
        await client.close()
      }
    }
    await expect(attempt()).resolves.toBeUndefined()
    // Fetch last: its first call installs undici's global dispatcher, after which the client sends with fetch.
    await expect(attempt((input, init) => fetch(input, init))).resolves.toBeUndefined()
    expect(fixture.requests.map((request, index) => [request.method, sentByFetch(index)])).toEqual([
      ['DELETE', false],
      ['DELETE', true],
    ])
  })
})
