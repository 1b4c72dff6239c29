import { request } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InMemoryRegistry } from './in-memory-registry.js'
import { makeTestCertificates, type TestCertificates } from './test-certificates.js'

let certs: TestCertificates

beforeAll(() => {
  certs = makeTestCertificates()
})

afterAll(() => {
  certs.remove()
})

/** GET `url` with these TLS settings: the status, or the error code of a refused connection. */
function get(url: string, tls: { ca: string; cert?: string; key?: string }): Promise<number | string> {
  return new Promise((resolve) => {
    const out = request(url, { ...tls, agent: false }, (answer) => {
      answer.resume()
      answer.on('end', () => resolve(answer.statusCode ?? 0))
    })
    out.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'))
    out.end()
  })
}

describe('InMemoryRegistry with tls', () => {
  it('serves HTTPS with the given certificate', async () => {
    await using registry = await InMemoryRegistry.start({
      tls: { cert: certs.serverCert, key: certs.serverKey },
    })
    expect(registry.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/apis\/registry\/v3$/)
    expect(await get(`${registry.url}/system/info`, { ca: certs.ca })).toBe(200)
    expect(await get(`${registry.url}/system/info`, { ca: certs.otherCa })).toBe(
      'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    )
  })

  it('requires a client certificate signed by clientCa, refusing the others in the handshake', async () => {
    await using registry = await InMemoryRegistry.start({
      tls: { cert: Buffer.from(certs.serverCert), key: Buffer.from(certs.serverKey), clientCa: certs.ca },
    })
    const info = `${registry.url}/system/info`
    expect(await get(info, { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey })).toBe(200)
    expect(await get(info, { ca: certs.ca })).toBe('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED')
    expect(await get(info, { ca: certs.ca, cert: certs.strangerCert, key: certs.strangerKey })).not.toBe(200)
    expect(registry.requests.map((r) => r.path)).toEqual(['/apis/registry/v3/system/info'])
  })

  it('refuses tls without a certificate and a key', async () => {
    await expect(
      InMemoryRegistry.start({ tls: { cert: certs.serverCert } as unknown as { cert: string; key: string } }),
    ).rejects.toMatchObject({ code: 'INVALID_CONFIG' })
  })
})
