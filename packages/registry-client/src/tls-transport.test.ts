import { once } from 'node:events'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { inspect } from 'node:util'
import { makeTestCertificates, type TestCertificates } from '@x/registry-testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTlsTransport } from './tls-transport.js'

let certs: TestCertificates
let server: Server
let base: string
/** Every request the server answered: method, path, body and the client certificate's CN. */
const seen: { method: string; path: string; body: string; peer: string; header: string | undefined }[] = []

beforeAll(async () => {
  certs = makeTestCertificates()
  server = createServer(
    {
      cert: certs.serverCert,
      key: certs.serverKey,
      ca: certs.ca,
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (chunk: Buffer) => chunks.push(chunk))
      req.on('end', () => {
        const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate().subject?.CN ?? ''
        seen.push({
          method: req.method ?? '',
          path: req.url ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
          peer: String(peer),
          header: req.headers['x-test'] as string | undefined,
        })
        if (req.url === '/empty') {
          res.writeHead(204, { 'x-answer': 'none' }).end()
          return
        }
        if (req.url === '/slow') return // never answers
        res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'text/plain', 'x-answer': 'yes' })
        res.end(`hello ${peer}`)
      })
    },
  )
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  server.closeAllConnections()
  server.close()
  certs.remove()
})

const mutual = () => ({ ca: certs.ca, cert: certs.clientCert, key: certs.clientKey })

describe('createTlsTransport', () => {
  it('sends requests with a client certificate and returns the whole answer as a Response', async () => {
    const transport = createTlsTransport('Test', mutual(), true)
    seen.length = 0
    const answer = await transport.fetch(`${base}/echo?x=1`, {
      method: 'POST',
      headers: { 'x-test': 'one' },
      body: '{"a":1}',
    })
    expect(answer.status).toBe(200)
    expect(answer.ok).toBe(true)
    expect(answer.headers.get('x-answer')).toBe('yes')
    expect(await answer.text()).toBe('hello x-serde-test-client')
    expect(seen).toEqual([
      { method: 'POST', path: '/echo?x=1', body: '{"a":1}', peer: 'x-serde-test-client', header: 'one' },
    ])
    const notFound = await transport.fetch(`${base}/missing`)
    expect([notFound.status, notFound.ok]).toEqual([404, false])
    const empty = await transport.fetch(`${base}/empty`)
    expect([empty.status, await empty.text(), empty.headers.get('x-answer')]).toEqual([204, '', 'none'])
    transport.close()
  })

  it('takes a Request as its input, as ky passes one, with its method, headers, body and signal', async () => {
    const transport = createTlsTransport('Test', mutual(), false)
    seen.length = 0
    const request = new Request(`${base}/token`, {
      method: 'POST',
      headers: { 'x-test': 'two' },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    })
    const answer = await transport.fetch(request)
    expect(await answer.text()).toBe('hello x-serde-test-client')
    expect(seen).toEqual([
      {
        method: 'POST',
        path: '/token',
        body: 'grant_type=client_credentials',
        peer: 'x-serde-test-client',
        header: 'two',
      },
    ])
    transport.close()
  })

  it('reads an encrypted key with its passphrase', async () => {
    const transport = createTlsTransport(
      'Test',
      { ca: certs.ca, cert: certs.clientCert, key: certs.clientKeyEncrypted, passphrase: certs.passphrase },
      false,
    )
    expect(await (await transport.fetch(`${base}/x`)).text()).toBe('hello x-serde-test-client')
  })

  it('takes the PEM texts as Buffers and the CA as a list', async () => {
    const transport = createTlsTransport(
      'Test',
      {
        ca: [Buffer.from(certs.otherCa), Buffer.from(certs.ca)],
        cert: Buffer.from(certs.clientCert),
        key: new Uint8Array(Buffer.from(certs.clientKey)),
      },
      false,
    )
    expect((await transport.fetch(`${base}/x`)).status).toBe(200)
  })

  it('fails with the code of a server certificate signed by a CA it does not trust', async () => {
    const transport = createTlsTransport(
      'Test',
      { ca: certs.otherCa, cert: certs.clientCert, key: certs.clientKey },
      false,
    )
    const error = await transport.fetch(`${base}/x`).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect((error as Error).message).toBe('fetch failed')
    expect(((error as Error).cause as { code?: string }).code).toBe('SELF_SIGNED_CERT_IN_CHAIN')
  })

  it('fails with the TLS alert of a server that wants a client certificate when it has none', async () => {
    const transport = createTlsTransport('Test', { ca: certs.ca }, false)
    const error = await transport.fetch(`${base}/x`).catch((e: unknown) => e)
    expect(((error as Error).cause as { code?: string }).code).toBe(
      'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
    )
  })

  it('accepts any server certificate with rejectUnauthorized false', async () => {
    const transport = createTlsTransport(
      'Test',
      { rejectUnauthorized: false, cert: certs.clientCert, key: certs.clientKey },
      false,
    )
    expect((await transport.fetch(`${base}/x`)).status).toBe(200)
  })

  it('rejects with the reason of its signal, also while waiting for the answer', async () => {
    const transport = createTlsTransport('Test', mutual(), true)
    const before = AbortSignal.abort(new Error('stop before'))
    await expect(transport.fetch(`${base}/x`, { signal: before })).rejects.toThrow('stop before')
    const controller = new AbortController()
    const pending = transport.fetch(`${base}/slow`, { signal: controller.signal })
    setTimeout(() => controller.abort(new Error('stop while waiting')), 50)
    await expect(pending).rejects.toThrow('stop while waiting')
    transport.close()
  })

  it('refuses an http: URL', async () => {
    const transport = createTlsTransport('Test', mutual(), false)
    await expect(transport.fetch('http://127.0.0.1:1/x')).rejects.toMatchObject({
      name: 'TypeError',
      code: 'INVALID_CONFIG',
    })
  })
})

describe('createTlsTransport settings', () => {
  const invalid = (tls: unknown) => {
    try {
      createTlsTransport('Owner', tls, false)
    } catch (error) {
      return error as Error & { code?: string }
    }
    throw new Error('no error')
  }

  it('refuses a key that its passphrase does not open, without showing either', () => {
    const error = invalid({
      ca: certs.ca,
      cert: certs.clientCert,
      key: certs.clientKeyEncrypted,
      passphrase: 'not the passphrase',
    })
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toMatch(
      /^Owner: the TLS settings cannot be used: .*(bad decrypt|DECODER routines::unsupported)/,
    )
    expect(error.cause).toBeUndefined()
    const shown = `${error.message} ${inspect(error)}`
    expect(shown).not.toContain('not the passphrase')
    expect(shown).not.toContain(certs.clientKeyEncrypted.split('\n')[1])
  })

  it('refuses a key that is not the key of the certificate, without showing it', () => {
    const error = invalid({ cert: certs.clientCert, key: certs.strangerKey })
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toMatch(/key values mismatch/)
    expect(error.message).not.toContain(certs.strangerKey.split('\n')[1])
  })

  it.each([
    [null, 'Owner: tls must be an object { ca?, cert?, key?, passphrase?, rejectUnauthorized? }, got null'],
    [
      { cert: 'x' },
      'Owner: tls.cert and tls.key go together (a client certificate and its private key); got only tls.cert',
    ],
    [
      { key: 'secret-key' },
      'Owner: tls.cert and tls.key go together (a client certificate and its private key); got only tls.key',
    ],
    [{ ca: '' }, 'Owner: tls.ca must be a PEM text, got an empty string'],
    [{ ca: 42 }, 'Owner: tls.ca must be a PEM text (a string or a Buffer), got a number'],
    [{ ca: ['x', 7] }, 'Owner: tls.ca[1] must be a PEM text (a string or a Buffer), got a number'],
    [{ cert: 'c', key: 'k', passphrase: 1234 }, 'Owner: tls.passphrase must be a string, got a number'],
    [{ passphrase: 'p' }, 'Owner: tls.passphrase is given without tls.key'],
    [{ rejectUnauthorized: 'no' }, 'Owner: tls.rejectUnauthorized must be true or false, got a string'],
    [
      { rejectUnauthorised: false },
      "Owner: tls has an unknown field 'rejectUnauthorised' (known: ca, cert, key, passphrase, rejectUnauthorized)",
    ],
  ])('refuses %j with a message naming the field', (tls, message) => {
    const error = invalid(tls)
    expect([error.name, error.code, error.message]).toEqual(['TypeError', 'INVALID_CONFIG', message])
  })
})
