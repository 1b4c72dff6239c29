import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { closeSync, mkdirSync, openSync } from 'node:fs'
import { Agent, createServer, request, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { RegistryConnectionError } from '@x/errors'
import { RegistryClient, type TlsOptions } from '@x/registry-client'
import { createTlsTransport } from '@x/registry-client/tls'
import { makeTestCertificates, type TestCertificates } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  findJava,
  findLauncher,
  installRelease,
  JVM_FLAGS,
  MODERN,
} from '../../../scripts/integration/apicurio.js'
import { freePort, logTail, sleep, stopProcess } from '../../../scripts/integration/processes.js'
import { IdpAuth } from './idp-auth.js'
import { CLIENTS, startTestProvider, type TestProvider } from './test-support/test-provider.js'

// A real Apicurio Registry 3.3.3, started here on free ports of 127.0.0.1 and stopped at the end, served over HTTPS
// only (Quarkus `quarkus.http.ssl.certificate.files` / `key-files` from a private CA made for this run,
// `quarkus.http.insecure-requests=disabled`) with usage telemetry on. The prebuilt 3.3.3 fixes
// `quarkus.http.ssl.client-auth` to NONE at build time (it logs so when set at run time), so the client certificate
// is required by a TLS front on 127.0.0.1 that forwards to the registry over HTTPS, as a company gateway does. The
// token endpoint is a real oidc-provider over mutual TLS.

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../../..')
const logFile = join(repo, '.it', 'apicurio-tls.log')
const READY_TIMEOUT_MS = 180_000

const GROUP = `tls-it-${randomUUID().slice(0, 8)}`
const SCHEMA = {
  type: 'record',
  name: 'Reading',
  namespace: 'com.example.tls',
  fields: [
    { name: 'sensor', type: 'string' },
    { name: 'value', type: 'long' },
  ],
}
const ctx = new SerializationContext('readings')

let certs: TestCertificates
let registry: ChildProcess | undefined
/** The registry's own HTTPS address (server certificate of the private CA, no client certificate asked). */
let directUrl: string
/** The mutual-TLS front's address. */
let mutualUrl: string
let front: Server | undefined
/** What the front forwarded: method, path and whether a bearer token issued by the provider came with it. */
const forwarded: { method: string; path: string; bearer: boolean }[] = []
let provider: TestProvider | undefined

const trustOnly = (): TlsOptions => ({ ca: certs.ca })
const clientCertificate = (): TlsOptions => ({ ca: certs.ca, cert: certs.clientCert, key: certs.clientKey })

beforeAll(async () => {
  certs = makeTestCertificates()
  const java = await findJava(MODERN.minJava)
  if (java === undefined)
    throw new Error(`no JDK ${MODERN.minJava}+ (JAVA_HOME, /usr/lib/jvm): cannot run Apicurio`)
  const home = await installRelease(MODERN)
  const [httpPort, httpsPort, managementPort] = [await freePort(), await freePort(), await freePort()]
  mkdirSync(dirname(logFile), { recursive: true })
  const out = openSync(logFile, 'w')
  registry = spawn(
    java,
    [
      ...JVM_FLAGS,
      '-Dquarkus.http.host=127.0.0.1',
      `-Dquarkus.http.port=${httpPort}`,
      `-Dquarkus.http.ssl-port=${httpsPort}`,
      `-Dquarkus.http.ssl.certificate.files=${certs.file('server')}`,
      `-Dquarkus.http.ssl.certificate.key-files=${certs.file('server-key')}`,
      '-Dquarkus.http.insecure-requests=disabled',
      `-Dquarkus.management.port=${managementPort}`,
      '-Dquarkus.management.host=127.0.0.1',
      '-Dapicurio.features.experimental.enabled=true',
      '-Dapicurio.usage.telemetry.enabled=true',
      '-Dapicurio.usage.flush.every=1s',
      '-jar',
      findLauncher(home),
    ],
    { cwd: home, stdio: ['ignore', out, out] },
  )
  closeSync(out)
  directUrl = `https://127.0.0.1:${httpsPort}/apis/registry/v3`
  await waitUntilReady(registry, directUrl)

  front = await startMutualTlsFront(httpsPort)
  mutualUrl = `https://127.0.0.1:${(front.address() as AddressInfo).port}/apis/registry/v3`
  provider = await startTestProvider({
    tls: { cert: certs.serverCert, key: certs.serverKey, clientCa: certs.ca },
  })
}, READY_TIMEOUT_MS + 120_000)

afterAll(async () => {
  front?.closeAllConnections()
  front?.close()
  await provider?.close()
  if (registry !== undefined) await stopProcess(registry, 10_000)
  certs?.remove()
})

/** Ready when `/system/info` answers 200 over HTTPS; fails early if the JVM exits. */
async function waitUntilReady(child: ChildProcess, url: string): Promise<void> {
  const transport = createTlsTransport('readiness', trustOnly(), false)
  const deadline = Date.now() + READY_TIMEOUT_MS
  let last = 'no answer yet'
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`apicurio (TLS) exited before it was ready\n${logTail(logFile)}`)
    }
    try {
      const answer = await transport.fetch(`${url}/system/info`, { signal: AbortSignal.timeout(2000) })
      if (answer.status === 200) return
      last = `HTTP ${answer.status}`
    } catch (error) {
      last = String(error)
    }
    await sleep(500)
  }
  throw new Error(
    `apicurio (TLS) not ready after ${READY_TIMEOUT_MS / 1000} s (last: ${last})\n${logTail(logFile)}`,
  )
}

/** An HTTPS front requiring a client certificate of the private CA, forwarding every request to the registry. */
async function startMutualTlsFront(registryPort: number): Promise<Server> {
  const upstream = new Agent({ ca: certs.ca, keepAlive: true })
  const server = createServer(
    {
      cert: certs.serverCert,
      key: certs.serverKey,
      ca: certs.ca,
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const authorization = req.headers.authorization ?? ''
      forwarded.push({
        method: req.method ?? '',
        path: req.url ?? '',
        bearer: authorization.startsWith('Bearer ') && (provider?.isValid(authorization.slice(7)) ?? false),
      })
      const out = request(
        {
          host: '127.0.0.1',
          port: registryPort,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent: upstream,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      out.on('error', () => res.destroy())
      req.pipe(out)
    },
  )
  server.on('close', () => upstream.destroy())
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return server
}

async function failure(promise: Promise<unknown>): Promise<RegistryConnectionError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(RegistryConnectionError)
  return error as RegistryConnectionError
}

describe('RegistryClient and IdpAuth against a real Apicurio Registry 3.3.3 over TLS', () => {
  it('serializes and deserializes through mutual TLS, with tokens from a token endpoint over mutual TLS', async () => {
    const auth = new IdpAuth({
      tokenUrl: provider!.tokenUrl,
      clientId: CLIENTS.minute.id,
      clientSecret: CLIENTS.minute.secret,
      tls: clientCertificate(),
    })
    await using writerClient = new RegistryClient({
      url: mutualUrl,
      groupId: GROUP,
      auth,
      tls: clientCertificate(),
    })
    const serializer = new AvroSerializer(writerClient, 'readings-mtls', {
      autoRegister: true,
      schema: SCHEMA,
    })
    const bytes = await serializer.serialize({ sensor: 'a-1', value: 2n ** 60n }, ctx)
    await using readerClient = new RegistryClient({
      url: mutualUrl,
      groupId: GROUP,
      auth,
      tls: clientCertificate(),
    })
    expect(await new AvroDeserializer(readerClient).deserialize(bytes, ctx)).toEqual({
      sensor: 'a-1',
      value: 2n ** 60n,
    })
    expect(forwarded.length).toBeGreaterThanOrEqual(2)
    expect(forwarded.every((request) => request.bearer)).toBe(true)
    expect(provider!.tokenRequests.filter((r) => r.status === 200).length).toBe(1)
  })

  it('fails at once with a RegistryConnectionError naming TLS when no client certificate is given', async () => {
    const before = forwarded.length
    await using client = new RegistryClient({ url: mutualUrl, groupId: GROUP, tls: trustOnly() })
    const started = performance.now()
    const error = await failure(client.getSchema('readings-mtls'))
    expect(performance.now() - started).toBeLessThan(5000)
    expect(error.message).toBe(
      `Unable to reach the registry at ${mutualUrl}: TLS: the registry refused the connection for want of a client certificate it accepts (ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED); pass one signed by a CA it trusts as tls.cert and tls.key`,
    )
    expect(forwarded.length).toBe(before)
  })

  it('reads from the registry’s own HTTPS listener trusting the private CA', async () => {
    await using client = new RegistryClient({ url: directUrl, groupId: GROUP, tls: trustOnly() })
    const latest = await client.getSchema('readings-mtls')
    expect(JSON.parse(latest.schema)).toEqual(SCHEMA)
  })

  it('fails at once naming tls.ca when the registry’s certificate is signed by a CA it does not trust', async () => {
    await using client = new RegistryClient({ url: directUrl, groupId: GROUP, tls: { ca: certs.otherCa } })
    const started = performance.now()
    const error = await failure(client.getSchema('readings-mtls'))
    expect(performance.now() - started).toBeLessThan(5000)
    expect(error.message).toMatch(
      new RegExp(
        `^Unable to reach the registry at ${directUrl.replace(/[.]/g, '\\.')}: TLS: the certificate of the registry is not trusted \\((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN)\\); pass the CA that signed it as tls.ca$`,
      ),
    )
  })

  it('accepts the registry’s certificate unchecked with rejectUnauthorized false', async () => {
    await using client = new RegistryClient({
      url: directUrl,
      groupId: GROUP,
      tls: { rejectUnauthorized: false },
    })
    expect((await client.getSchema('readings-mtls')).artifactId).toBe('readings-mtls')
  })

  it('is counted by the registry’s usage telemetry under its clientId, serializing and deserializing', async () => {
    const artifactId = 'readings-usage'
    await using admin = new RegistryClient({ url: directUrl, groupId: GROUP, tls: trustOnly() })
    await admin.registerSchema(artifactId, SCHEMA)
    const producerId = `x-serde-it-producer-${randomUUID().slice(0, 8)}`
    const consumerId = `x-serde-it-consumer-${randomUUID().slice(0, 8)}`
    await using producerClient = new RegistryClient({
      url: directUrl,
      groupId: GROUP,
      tls: trustOnly(),
      clientId: producerId,
    })
    const bytes = await new AvroSerializer(producerClient, artifactId).serialize(
      { sensor: 'b', value: 1n },
      ctx,
    )
    await using consumerClient = new RegistryClient({
      url: directUrl,
      groupId: GROUP,
      tls: trustOnly(),
      clientId: consumerId,
    })
    expect(await new AvroDeserializer(consumerClient).deserialize(bytes, ctx)).toEqual({
      sensor: 'b',
      value: 1,
    })
    // A client without clientId is not counted.
    await using anonymous = new RegistryClient({ url: directUrl, groupId: GROUP, tls: trustOnly() })
    await anonymous.getSchema(artifactId)

    const usage = createTlsTransport('usage', trustOnly(), false)
    const path = `${directUrl}/admin/usage/artifacts/${encodeURIComponent(GROUP)}/${artifactId}`
    let versions: { totalFetches: number; uniqueClients: number; clients?: string[] }[] = []
    await expect
      .poll(
        async () => {
          const answer = await usage.fetch(path)
          versions = ((await answer.json()) as { versions?: typeof versions }).versions ?? []
          return versions[0]?.uniqueClients ?? 0
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe(2)
    expect(versions).toHaveLength(1)
    expect([...(versions[0]!.clients ?? [])].sort()).toEqual([consumerId, producerId].sort())
    expect(versions[0]!.totalFetches).toBe(2)
  })
})
