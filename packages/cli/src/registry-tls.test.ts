import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { InMemoryRegistry, makeTestCertificates, type TestCertificates } from '@x/registry-testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, workFolder } from './test-support/cli-harness.js'

// The registry commands against an InMemoryRegistry behind mutual TLS with a private CA, as a shell runs them.

const ORDER = { type: 'record', name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: 'long' }] }

let certs: TestCertificates
let registry: InMemoryRegistry
let env: Record<string, string>
const folder = workFolder()

beforeAll(async () => {
  certs = makeTestCertificates()
  registry = await InMemoryRegistry.start({
    tls: { cert: certs.serverCert, key: certs.serverKey, clientCa: certs.ca },
  })
  env = { REGISTRY_URL: registry.url }
  writeFileSync(join(folder.path, 'order.avsc'), JSON.stringify(ORDER))
})

afterAll(async () => {
  await registry.close()
  certs.remove()
  folder.done()
})

const mutual = () => [
  '--ca',
  certs.file('ca'),
  '--cert',
  certs.file('client'),
  '--key',
  certs.file('client-key'),
]

describe('x-serde against a registry behind mutual TLS', () => {
  it('registers and checks with --ca, --cert and --key', async () => {
    const registered = await cli(['register', 'order.avsc', '--artifact', 'tls-orders', ...mutual()], {
      cwd: folder.path,
      env,
    })
    expect(registered).toEqual({
      code: 0,
      stdout: 'order.avsc → default/tls-orders version 1 (globalId 1, contentId 1)\n',
      stderr: '',
    })
    // check sends its dry run through the connection's own request path.
    const checked = await cli(['check', 'order.avsc', '--artifact', 'tls-orders', ...mutual()], {
      cwd: folder.path,
      env,
    })
    expect([checked.code, checked.stdout]).toEqual([
      0,
      'ok       order.avsc → default/tls-orders as version 2\n',
    ])
  })

  it('reads an encrypted key with the passphrase of REGISTRY_TLS_KEY_PASSWORD, and prints neither', async () => {
    const args = [
      '--ca',
      certs.file('ca'),
      '--cert',
      certs.file('client'),
      '--key',
      certs.file('client-key-encrypted'),
    ]
    const run = await cli(['register', 'order.avsc', '--artifact', 'tls-orders', ...args], {
      cwd: folder.path,
      env: { ...env, REGISTRY_TLS_KEY_PASSWORD: certs.passphrase },
    })
    expect(run.code).toBe(0)
    const wrong = await cli(['register', 'order.avsc', '--artifact', 'tls-orders', ...args], {
      cwd: folder.path,
      env: { ...env, REGISTRY_TLS_KEY_PASSWORD: 'not-the-passphrase' },
    })
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(
      /^x-serde: RegistryClient: the TLS settings cannot be used: .*(bad decrypt|DECODER routines::unsupported)/,
    )
    expect(wrong.stderr).not.toContain('not-the-passphrase')
  })

  it('exits 3 naming TLS and the flags to pass when no client certificate is given', async () => {
    const run = await cli(['register', 'order.avsc', '--artifact', 'tls-orders', '--ca', certs.file('ca')], {
      cwd: folder.path,
      env,
    })
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr: `x-serde: Unable to reach the registry at ${registry.url}: TLS: the registry refused the connection for want of a client certificate it accepts (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED); pass one signed by a CA it trusts with --cert and --key\n`,
    })
    const viaRest = await cli(['check', 'order.avsc', '--artifact', 'tls-orders', '--ca', certs.file('ca')], {
      cwd: folder.path,
      env,
    })
    expect(viaRest.code).toBe(3)
    expect(viaRest.stderr).toContain(
      'TLS: the registry refused the connection for want of a client certificate',
    )
  })

  it('exits 3 naming --ca when the registry certificate is signed by another CA', async () => {
    const run = await cli(
      [
        'register',
        'order.avsc',
        '--artifact',
        'tls-orders',
        ...mutual().slice(2),
        '--ca',
        certs.file('other-ca'),
      ],
      { cwd: folder.path, env },
    )
    expect(run.code).toBe(3)
    expect(run.stderr).toBe(
      `x-serde: Unable to reach the registry at ${registry.url}: TLS: the certificate of the registry is not trusted (SELF_SIGNED_CERT_IN_CHAIN); pass the CA that signed it with --ca\n`,
    )
  })

  it.each([
    [
      ['--cert', 'client.pem'],
      'x-serde: --cert and --key go together (a client certificate and its private key)\n',
    ],
    [['--ca', 'missing.pem'], 'x-serde: Cannot read the --ca file missing.pem: ENOENT\n'],
  ])('exits 2 for %j', async (flags, stderr) => {
    const run = await cli(['register', 'order.avsc', '--artifact', 'tls-orders', ...flags], {
      cwd: folder.path,
      env,
    })
    expect([run.code, run.stderr]).toEqual([2, stderr])
  })

  it('exits 2 naming --ca when its file holds a key, not a certificate, and never prints the key', async () => {
    const sent = registry.requests.length
    const run = await cli(['register', 'order.avsc', '--ca', certs.file('client-key'), '--verbose'], {
      cwd: folder.path,
      env,
    })
    expect(run.code).toBe(2)
    expect(run.stderr.split('\n')[0]).toBe(
      'x-serde: RegistryClient: tls.ca must hold PEM certificates (-----BEGIN CERTIFICATE-----), got a private key',
    )
    expect(run.stderr).not.toContain(certs.clientKey.split('\n')[1])
    expect(registry.requests).toHaveLength(sent)
  })

  it('refuses the TLS flags for an http: registry URL', async () => {
    const run = await cli(['register', 'order.avsc', '--ca', certs.file('ca')], {
      cwd: folder.path,
      env: { REGISTRY_URL: 'http://127.0.0.1:1/apis/registry/v3' },
    })
    expect([run.code, run.stderr]).toEqual([
      2,
      'x-serde: --ca, --cert and --key apply to an https: registry URL\n',
    ])
  })

  it('names the key file --cert-key in produce, where --key is the message key', async () => {
    const help = await cli(['produce', '--help'], { cwd: folder.path })
    expect(help.stdout).toContain('--key <key>')
    expect(help.stdout).toContain('--cert-key <file>')
  })
})
