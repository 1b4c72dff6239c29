import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** PEM texts of a private CA, a server certificate for 127.0.0.1 and localhost, and a client certificate. */
export interface TestCertificates {
  /** The directory holding every file below as `<name>.pem` (removed by `remove()`). */
  readonly dir: string
  /** The private CA's certificate (trusts the server and the client). */
  readonly ca: string
  /** The server's certificate (subject alternative names `IP:127.0.0.1`, `DNS:localhost`), signed by `ca`. */
  readonly serverCert: string
  readonly serverKey: string
  /** A client certificate (CN `x-serde-test-client`) signed by `ca`, and its key. */
  readonly clientCert: string
  readonly clientKey: string
  /** The same client key, encrypted (AES-256) with `passphrase`. */
  readonly clientKeyEncrypted: string
  readonly passphrase: string
  /** Another CA, which signed nothing here: trusting only it must fail. */
  readonly otherCa: string
  /** A client certificate signed by `otherCa`, and its key: a server trusting `ca` refuses it. */
  readonly strangerCert: string
  readonly strangerKey: string
  /** The path of `<name>.pem` in `dir` (e.g. `file('ca')`). */
  file(name: string): string
  remove(): void
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 })
}

function makeCa(dir: string, name: string): void {
  openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}-key.pem`])
  openssl(dir, [
    'req',
    '-x509',
    '-new',
    '-key',
    `${name}-key.pem`,
    '-subj',
    `/CN=x-serde test ${name}`,
    '-days',
    '2',
    '-sha256',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-out',
    `${name}.pem`,
  ])
}

function makeLeaf(dir: string, name: string, ca: string, subject: string, extensions: string): void {
  openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}-key.ec.pem`])
  // PKCS#8, the form Java (Quarkus) and Node read alike.
  openssl(dir, ['pkcs8', '-topk8', '-nocrypt', '-in', `${name}-key.ec.pem`, '-out', `${name}-key.pem`])
  openssl(dir, ['req', '-new', '-key', `${name}-key.pem`, '-subj', subject, '-out', `${name}.csr`])
  writeFileSync(join(dir, `${name}.ext`), extensions)
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    `${name}.csr`,
    '-CA',
    `${ca}.pem`,
    '-CAkey',
    `${ca}-key.pem`,
    '-CAcreateserial',
    '-days',
    '2',
    '-sha256',
    '-extfile',
    `${name}.ext`,
    '-out',
    `${name}.pem`,
  ])
}

/**
 * Makes throwaway certificates for tests of TLS set-ups (a private CA, a server certificate for 127.0.0.1, client
 * certificates, an encrypted key), valid for two days, with the `openssl` command (OpenSSL 1.1.1 or newer, on the
 * PATH) in a temporary directory; `remove()` deletes it. For tests only: the keys are written to disk unprotected.
 *
 * @example
 * ```ts
 * const certs = makeTestCertificates()
 * await using registry = await InMemoryRegistry.start({
 *   tls: { cert: certs.serverCert, key: certs.serverKey, clientCa: certs.ca },
 * })
 * const client = new RegistryClient({
 *   url: registry.url,
 *   groupId: 'default',
 *   tls: { ca: certs.ca, cert: certs.clientCert, key: certs.clientKey },
 * })
 * ```
 */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(join(tmpdir(), 'x-serde-tls-'))
  const passphrase = 'correct horse battery staple'
  makeCa(dir, 'ca')
  makeCa(dir, 'other-ca')
  makeLeaf(
    dir,
    'server',
    'ca',
    '/CN=127.0.0.1',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n',
  )
  const clientExtensions = 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature\n'
  makeLeaf(dir, 'client', 'ca', '/CN=x-serde-test-client', clientExtensions)
  makeLeaf(dir, 'stranger', 'other-ca', '/CN=x-serde-test-stranger', clientExtensions)
  openssl(dir, [
    'pkcs8',
    '-topk8',
    '-v2',
    'aes-256-cbc',
    '-in',
    'client-key.pem',
    '-passout',
    `pass:${passphrase}`,
    '-out',
    'client-key-encrypted.pem',
  ])
  const read = (name: string): string => readFileSync(join(dir, `${name}.pem`), 'utf8')
  return {
    dir,
    ca: read('ca'),
    serverCert: read('server'),
    serverKey: read('server-key'),
    clientCert: read('client'),
    clientKey: read('client-key'),
    clientKeyEncrypted: read('client-key-encrypted'),
    passphrase,
    otherCa: read('other-ca'),
    strangerCert: read('stranger'),
    strangerKey: read('stranger-key'),
    file: (name) => join(dir, `${name}.pem`),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
