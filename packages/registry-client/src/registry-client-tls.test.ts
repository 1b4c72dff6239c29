import { execFile } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { inspect, promisify } from 'node:util'
import { gzipSync } from 'node:zlib'
import { RegistryConnectionError } from '@x/errors'
import { InMemoryRegistry, makeTestCertificates, type TestCertificates } from '@x/registry-testing'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { RegistryClient, type RegistryClientOptions } from './index.js'

const SCHEMA = '{"type":"record","name":"Tls","fields":[{"name":"id","type":"long"}]}'

let certs: TestCertificates
let registry: InMemoryRegistry
const clients: RegistryClient[] = []

beforeAll(async () => {
  certs = makeTestCertificates()
  registry = await InMemoryRegistry.start({
    tls: { cert: certs.serverCert, key: certs.serverKey, clientCa: certs.ca },
  })
})

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  registry.clearRequests()
})

afterAll(async () => {
  await registry.close()
  certs.remove()
})

function newClient(options: Partial<RegistryClientOptions>): RegistryClient {
  const client = new RegistryClient({ url: registry.url, groupId: 'tls', retryBackoffMs: 1, ...options })
  clients.push(client)
  return client
}

async function failure(promise: Promise<unknown>): Promise<RegistryConnectionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RegistryConnectionError)
  return error as RegistryConnectionError
}

describe('RegistryClient over mutual TLS', () => {
  it('registers and reads schemas with a private CA and a client certificate', async () => {
    expect(registry.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/apis\/registry\/v3$/)
    const writer = newClient({ tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey } })
    const registered = await writer.registerSchema('tls-user', SCHEMA)
    const reader = newClient({
      tls: {
        ca: certs.ca,
        cert: certs.clientCert,
        key: certs.clientKeyEncrypted,
        passphrase: certs.passphrase,
      },
    })
    expect((await reader.getSchemaByGlobalId(registered.globalId!)).schema).toBe(SCHEMA)
    expect((await reader.getSchema('tls-user')).globalId).toBe(registered.globalId)
  })

  it('fails at once with a RegistryConnectionError naming TLS and the client certificate when it has none', async () => {
    const client = newClient({ tls: { ca: certs.ca } })
    const error = await failure(client.getSchemaByGlobalId(1))
    expect(error.code).toBe('REGISTRY_CONNECTION')
    expect(error.message).toBe(
      `Unable to reach the registry at ${registry.url}: TLS: the registry refused the connection for want of a client certificate it accepts (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED); pass one signed by a CA it trusts as tls.cert and tls.key`,
    )
    expect(error.url).toBe(registry.url)
    expect((error.cause as { code?: string }).code).toBe('ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED')
    // Refused in the handshake: no request reached the registry, and none was repeated.
    expect(registry.requests).toHaveLength(0)
  })

  it('fails at once, naming tls.ca, when the registry certificate is signed by a CA it does not trust', async () => {
    let sleeps = 0
    const client = newClient({
      tls: { ca: certs.otherCa, cert: certs.clientCert, key: certs.clientKey },
      timing: {
        sleep: async () => {
          sleeps += 1
        },
      },
    })
    const error = await failure(client.getSchema('tls-user'))
    expect(error.message).toBe(
      `Unable to reach the registry at ${registry.url}: TLS: the certificate of the registry is not trusted (SELF_SIGNED_CERT_IN_CHAIN); pass the CA that signed it as tls.ca`,
    )
    expect(sleeps).toBe(0)
  })

  it('also names TLS for a registry with a private CA reached without tls (Node’s global fetch)', async () => {
    const client = newClient({ maxRetries: 0 })
    const error = await failure(client.getSchema('tls-user'))
    expect(error.message).toContain('TLS: the certificate of the registry is not trusted')
  })

  it('accepts any registry certificate with rejectUnauthorized false', async () => {
    const writer = newClient({ tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey } })
    const registered = await writer.registerSchema('tls-insecure', SCHEMA)
    const client = newClient({
      tls: { rejectUnauthorized: false, cert: certs.clientCert, key: certs.clientKey },
    })
    expect((await client.getSchemaByGlobalId(registered.globalId!)).schema).toBe(SCHEMA)
  })

  it('never shows the key or the passphrase in inspect, JSON or errors', async () => {
    const client = newClient({
      url: `${registry.url.replace('https://', 'https://user:pw@')}`,
      tls: {
        ca: certs.otherCa,
        cert: certs.clientCert,
        key: certs.clientKeyEncrypted,
        passphrase: certs.passphrase,
      },
    })
    const error = await failure(client.getSchema('x'))
    const keyLine = certs.clientKeyEncrypted.split('\n')[1]!
    for (const text of [
      inspect(client),
      JSON.stringify(client),
      String(client),
      inspect(error),
      error.message,
    ]) {
      expect(text).not.toContain(certs.passphrase)
      expect(text).not.toContain(keyLine)
    }
  })

  it('keeps its connection open between requests and closes it with close()', async () => {
    let open = 0
    let opened = 0
    const server = createServer({ cert: certs.serverCert, key: certs.serverKey }, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(SCHEMA)
    })
    server.on('secureConnection', (socket) => {
      open += 1
      opened += 1
      socket.on('close', () => {
        open -= 1
      })
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const client = newClient({ url: `https://127.0.0.1:${port}/apis/registry/v3`, tls: { ca: certs.ca } })
    await client.getSchemaByGlobalId(1)
    await client.getSchemaByGlobalId(2)
    expect([opened, open]).toEqual([1, 1])
    await client.close()
    await expect.poll(() => open).toBe(0)
    server.close()
  })
})

describe('RegistryClient over TLS, sending with node:https', () => {
  it('reads a schema in a fresh process without loading Node’s bundled undici, as without tls', async () => {
    const writer = newClient({ tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey } })
    const { globalId } = await writer.registerSchema('tls-cold', SCHEMA)
    const client = fileURLToPath(new URL('../dist/index.js', import.meta.url))
    const tls = { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey }
    const script = `const { RegistryClient } = await import(${JSON.stringify(client)})
const client = new RegistryClient({ url: ${JSON.stringify(registry.url)}, groupId: 'tls', maxRetries: 0, tls: ${JSON.stringify(tls)} })
const found = await client.getSchemaByGlobalId(${globalId})
await client.close()
const undiciLoaded = process.moduleLoadList.some((name) => name.includes('undici'))
process.stdout.write(JSON.stringify({ schema: found.schema, undiciLoaded }))`
    // Asynchronously: the registry answering the child runs in this process.
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script])
    expect(JSON.parse(stdout)).toEqual({ schema: SCHEMA, undiciLoaded: false })
  })

  it('reads a gzip-coded answer, and takes a redirect as the answer without following it', async () => {
    const paths: string[] = []
    const server = createServer({ cert: certs.serverCert, key: certs.serverKey }, (req, res) => {
      paths.push(req.url ?? '')
      if (req.url?.startsWith('/apis/registry/v3/ids/globalIds/1?')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' })
        res.end(gzipSync(SCHEMA))
        return
      }
      res.writeHead(307, { location: '/elsewhere' }).end()
    })
    server.listen(0, '127.0.0.1')
    await once(server, 'listening')
    const { port } = server.address() as AddressInfo
    const url = `https://127.0.0.1:${port}/apis/registry/v3`
    const client = newClient({ url, tls: { ca: certs.ca }, maxRetries: 0 })
    try {
      expect((await client.getSchemaByGlobalId(1)).schema).toBe(SCHEMA)
      const error = await failure(client.getSchemaByGlobalId(2))
      expect([error.status, error.message]).toEqual([
        307,
        `The registry at ${url} answered HTTP 307 when asked for globalId 2`,
      ])
      expect(paths.map((path) => path.replace(/\?.*/, ''))).toEqual([
        '/apis/registry/v3/ids/globalIds/1',
        '/apis/registry/v3/ids/globalIds/2',
      ])
    } finally {
      await client.close()
      server.close()
    }
  })
})

describe('RegistryClient tls settings', () => {
  it('refuses tls for an http: URL', () => {
    expect(
      () => new RegistryClient({ url: 'http://127.0.0.1:1/apis/registry/v3', groupId: 'g', tls: {} }),
    ).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message: 'tls applies to an https: registry, but url is http://127.0.0.1:1/apis/registry/v3',
      }),
    )
  })

  it('refuses tls together with a fetch of its own', () => {
    expect(
      () => new RegistryClient({ url: 'https://127.0.0.1:1/apis/registry/v3', groupId: 'g', tls: {}, fetch }),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_CONFIG',
        message: expect.stringMatching(/^tls and fetch cannot be used together/),
      }),
    )
  })

  it('refuses at construction a tls.ca that holds no certificate, a key given by mistake unshown', () => {
    const make = (ca: unknown) => () =>
      new RegistryClient({ url: 'https://127.0.0.1:1/apis/registry/v3', groupId: 'g', tls: { ca } as never })
    expect(make(certs.clientKey)).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message:
          'RegistryClient: tls.ca must hold PEM certificates (-----BEGIN CERTIFICATE-----), got a private key',
      }),
    )
    expect(make([certs.ca, 'hello'])).toThrow(
      'RegistryClient: tls.ca[1] must hold PEM certificates (-----BEGIN CERTIFICATE-----), got no readable certificate',
    )
    const garbled = certs.ca.replace(/\n[A-Za-z0-9+/]{20}/, '\n!!!!')
    expect(make(Buffer.from(garbled))).toThrow(
      'RegistryClient: tls.ca must hold PEM certificates (-----BEGIN CERTIFICATE-----), got no readable certificate',
    )
    let error: unknown
    try {
      make(certs.clientKey)()
    } catch (thrown) {
      error = thrown
    }
    expect(inspect(error)).not.toContain(certs.clientKey.split('\n')[1])
    expect(() => make([certs.ca, certs.otherCa])()).not.toThrow()
  })

  it('refuses a key its passphrase does not open, at construction, without showing either', () => {
    let error: Error | undefined
    try {
      new RegistryClient({
        url: 'https://127.0.0.1:1/apis/registry/v3',
        groupId: 'g',
        tls: { cert: certs.clientCert, key: certs.clientKeyEncrypted, passphrase: 'wrong passphrase' },
      })
    } catch (thrown) {
      error = thrown as Error
    }
    expect(error).toMatchObject({ name: 'TypeError', code: 'INVALID_CONFIG' })
    expect(error!.message).toMatch(
      /^RegistryClient: the TLS settings cannot be used: .*(bad decrypt|DECODER routines::unsupported)/,
    )
    expect(inspect(error)).not.toContain('wrong passphrase')
  })
})
