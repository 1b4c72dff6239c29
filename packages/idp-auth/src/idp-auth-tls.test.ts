import { inspect } from 'node:util'
import { AuthenticationError } from '@x/errors'
import type { TlsOptions } from '@x/registry-client'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry, makeTestCertificates, type TestCertificates } from '@x/registry-testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IdpAuth } from './idp-auth.js'
import { CLIENTS, startTestProvider, type TestProvider } from './test-support/test-provider.js'

// IdpAuth against a real oidc-provider served over mutual TLS by a private CA, and as the auth of a RegistryClient
// talking to a registry behind mutual TLS too.

let certs: TestCertificates
let provider: TestProvider

beforeAll(async () => {
  certs = makeTestCertificates()
  provider = await startTestProvider({
    tls: { cert: certs.serverCert, key: certs.serverKey, clientCa: certs.ca },
  })
})

afterAll(async () => {
  await provider?.close()
  certs?.remove()
})

const clientCertificate = () => ({ ca: certs.ca, cert: certs.clientCert, key: certs.clientKey })

function newAuth(tls: TlsOptions): IdpAuth {
  return new IdpAuth({
    tokenUrl: provider.tokenUrl,
    clientId: CLIENTS.post.id,
    clientSecret: CLIENTS.post.secret,
    tls,
    retry: { limit: 2, delayMs: 1, maxDelayMs: 5 },
  })
}

async function refusal(auth: IdpAuth): Promise<AuthenticationError> {
  const error = await auth.getToken().then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AuthenticationError)
  return error as AuthenticationError
}

describe('IdpAuth over TLS', () => {
  it('gets a token from a token endpoint behind mutual TLS and a private CA', async () => {
    expect(provider.tokenUrl).toMatch(/^https:/)
    const before = provider.tokenRequests.length
    const token = await newAuth(clientCertificate()).getToken()
    expect(provider.isValid(token)).toBe(true)
    expect(provider.tokenRequests.slice(before).map((r) => [r.status, r.clientId])).toEqual([
      [200, CLIENTS.post.id],
    ])
  })

  it('reads an encrypted key with its passphrase, and never shows either', async () => {
    const auth = newAuth({
      ca: certs.ca,
      cert: certs.clientCert,
      key: certs.clientKeyEncrypted,
      passphrase: certs.passphrase,
    })
    expect(provider.isValid(await auth.getToken())).toBe(true)
    const keyLine = certs.clientKeyEncrypted.split('\n')[1]!
    for (const text of [String(auth), JSON.stringify(auth), inspect(auth)]) {
      expect(text).not.toContain(certs.passphrase)
      expect(text).not.toContain(keyLine)
    }
  })

  it('fails at once, naming TLS and the client certificate, when it has none', async () => {
    const before = provider.tokenRequests.length
    const error = await refusal(newAuth({ ca: certs.ca }))
    expect(error.message).toBe(
      `Could not reach the token endpoint ${provider.tokenUrl}: TLS: the token endpoint refused the connection for want of a client certificate it accepts (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED); pass one signed by a CA it trusts as tls.cert and tls.key`,
    )
    expect(provider.tokenRequests.length).toBe(before)
  })

  it('fails at once, naming tls.ca, when the endpoint certificate is signed by a CA it does not trust', async () => {
    const error = await refusal(newAuth({ ca: certs.otherCa, cert: certs.clientCert, key: certs.clientKey }))
    expect(error.message).toBe(
      `Could not reach the token endpoint ${provider.tokenUrl}: TLS: the certificate of the token endpoint is not trusted (SELF_SIGNED_CERT_IN_CHAIN); pass the CA that signed it as tls.ca`,
    )
  })

  it('accepts any endpoint certificate with rejectUnauthorized false', async () => {
    const auth = newAuth({ rejectUnauthorized: false, cert: certs.clientCert, key: certs.clientKey })
    expect(provider.isValid(await auth.getToken())).toBe(true)
  })

  it('hands its tokens to a RegistryClient that reaches its registry over mutual TLS', async () => {
    const checked: boolean[] = []
    await using registry = await InMemoryRegistry.start({
      tls: { cert: certs.serverCert, key: certs.serverKey, clientCa: certs.ca },
      auth: (token) => {
        checked.push(provider.isValid(token))
        return provider.isValid(token)
      },
    })
    await using client = new RegistryClient({
      url: registry.url,
      groupId: 'tls',
      auth: newAuth(clientCertificate()),
      tls: clientCertificate(),
    })
    const registered = await client.registerSchema('tls-auth', '{"type":"string"}')
    expect(registered.globalId).toBe(1)
    expect(checked).toEqual([true])
  })
})

describe('IdpAuth tls settings', () => {
  const base = { clientId: 'c', clientSecret: 's3cret' }

  it('refuses tls for an http: token URL', () => {
    expect(() => new IdpAuth({ ...base, tokenUrl: 'http://127.0.0.1:1/token', tls: {} })).toThrow(
      'IdpAuth: tls applies to an https: tokenUrl, got http://127.0.0.1:1/token',
    )
  })

  it('refuses tls together with a fetch of its own', () => {
    expect(() => new IdpAuth({ ...base, tokenUrl: 'https://127.0.0.1:1/token', tls: {}, fetch })).toThrow(
      /^IdpAuth: tls and fetch cannot be used together/,
    )
  })

  it('refuses a key its passphrase does not open, naming IdpAuth and neither secret', () => {
    let error: (Error & { code?: string }) | undefined
    try {
      new IdpAuth({
        ...base,
        tokenUrl: 'https://127.0.0.1:1/token',
        tls: { cert: certs.clientCert, key: certs.clientKeyEncrypted, passphrase: 'wrong passphrase' },
      })
    } catch (thrown) {
      error = thrown as Error & { code?: string }
    }
    expect(error?.code).toBe('INVALID_CONFIG')
    expect(error?.message).toMatch(
      /^IdpAuth: the TLS settings cannot be used: .*(bad decrypt|DECODER routines::unsupported)/,
    )
    expect(inspect(error)).not.toContain('wrong passphrase')
  })
})
