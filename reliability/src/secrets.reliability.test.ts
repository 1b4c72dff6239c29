import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { inspect } from 'node:util'
import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { IdpAuth } from '@x/idp-auth'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordFigures } from './support/scale.js'

// Every failure path driven with a password in the registry URL, an OAuth client secret and a bearer token, and
// every view of the errors and objects scanned for them: message, stack, the whole cause chain, JSON.stringify,
// toJSON and util.inspect (hidden members included).

const PASSWORD = 'S3cr3t-Pass-91'
const CLIENT_SECRET = 'cl1ent-S3cret-77'
const TOKEN = 'eyJ0b2tlbi1TM2NyM3QtNDQ'
const BASIC = Buffer.from(`user:${PASSWORD}`).toString('base64')
const SECRETS = [PASSWORD, encodeURIComponent(PASSWORD), CLIENT_SECRET, TOKEN, BASIC]

const ctx = new SerializationContext('secrets')
const SCHEMA = { type: 'record', name: 'S', namespace: 'secrets', fields: [{ name: 'id', type: 'long' }] }
let registry: InMemoryRegistry
let tokenEndpoint: string
let tokenMode: 'ok' | 'echo' | 'malformed' = 'ok'
const servers: Server[] = []
const closers: { close(): Promise<void> | void }[] = []
let views = 0
let scanned = 0

/** Every text a log line, a crash report or a debugger could show of a value. */
function viewsOf(value: unknown): string[] {
  const texts: string[] = []
  const add = (make: () => unknown) => {
    try {
      texts.push(String(make()))
    } catch (error) {
      texts.push(`(view threw: ${(error as Error).message})`)
    }
  }
  add(() => inspect(value, { depth: Number.POSITIVE_INFINITY, showHidden: true }))
  add(() => inspect(value))
  add(() => JSON.stringify(value))
  add(() => String(value))
  let current: unknown = value
  for (let depth = 0; depth < 10 && current instanceof Error; depth++) {
    const error = current
    add(() => error.message)
    add(() => error.stack)
    add(() => JSON.stringify((error as { toJSON?: () => unknown }).toJSON?.()))
    current = error.cause
  }
  return texts
}

function expectNoSecret(label: string, value: unknown): void {
  scanned += 1
  for (const text of viewsOf(value)) {
    views += 1
    for (const secret of SECRETS) {
      if (text.includes(secret)) throw new Error(`${label}: a secret shows in ${text.slice(0, 300)}`)
    }
  }
}

async function failure(promise: Promise<unknown> | (() => unknown)): Promise<unknown> {
  try {
    await (typeof promise === 'function' ? promise() : promise)
  } catch (error) {
    return error
  }
  throw new Error('expected a failure')
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler)
  servers.push(server)
  server.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function track<T extends { close(): Promise<void> | void }>(value: T): T {
  closers.push(value)
  return value
}

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ auth: (token) => token === TOKEN })
  tokenEndpoint = `${await listen((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      if (tokenMode === 'echo') {
        res.writeHead(401, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ error: 'invalid_client', error_description: `bad credentials in ${body}` }))
      } else if (tokenMode === 'malformed') {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(`{"access_token":"${TOKEN}", oops`)
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires_in: 300 }))
      }
    })
  })}/token`
})

afterAll(async () => {
  for (const closer of closers) await closer.close()
  for (const server of servers) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  await registry.close()
  recordFigures('secrets', {
    'failure paths and objects scanned': scanned,
    'views scanned (message, stack, causes, JSON, toJSON, inspect)': views,
    'secrets found': 0,
  })
})

describe('a password in the registry URL', () => {
  const withPassword = () => registry.url.replace('http://', `http://user:${PASSWORD}@`)

  it('never shows in the errors of refused, missing, failing, echoing or unreachable registries', async () => {
    const client = track(new RegistryClient({ url: withPassword(), groupId: 'default', maxRetries: 0 }))
    expectNoSecret('client', client)
    expectNoSecret('401', await failure(client.getSchema('anything')))
    const serializer = new AvroSerializer(client, 'secret-a', { autoRegister: true, schema: SCHEMA })
    expectNoSecret('serializer', serializer)
    expectNoSecret('401 on register', await failure(serializer.serialize({ id: 1 }, ctx)))
    const deserializer = new AvroDeserializer(client)
    expectNoSecret('deserializer', deserializer)
    expectNoSecret(
      '401 on deserialize',
      await failure(deserializer.deserialize(Buffer.from([0, 0, 0, 0, 9, 2]), ctx)),
    )
    registry.inject({
      status: 500,
      body: { title: `rejected Authorization: Basic ${BASIC} (user:${PASSWORD})`, status: 500, name: 'Echo' },
    })
    expectNoSecret('echoed credentials', await failure(client.getSchemaByGlobalId(1)))
    registry.inject({ status: 503, times: 1 })
    expectNoSecret('503', await failure(client.getSchemaByGlobalId(1)))
    const refused = track(
      new RegistryClient({
        url: `http://user:${PASSWORD}@127.0.0.1:9/apis/registry/v3`,
        groupId: 'g',
        maxRetries: 0,
      }),
    )
    expectNoSecret('unreachable', await failure(refused.getSchemaByGlobalId(1)))
    expectNoSecret(
      'bad userinfo',
      await failure(() => new RegistryClient({ url: `http://u:${PASSWORD}%ZZ@h/x`, groupId: 'g' })),
    )
    await client.close()
    expectNoSecret('closed', await failure(client.getSchemaByGlobalId(1)))
  })
})

describe('an OAuth client secret and its token', () => {
  it('never show in the errors of a refusing, echoing or malformed token endpoint, nor in the objects', async () => {
    const make = () =>
      track({
        close: () => undefined,
        auth: new IdpAuth({ tokenUrl: tokenEndpoint, clientId: 'app', clientSecret: CLIENT_SECRET }),
      }).auth
    tokenMode = 'echo'
    const echoing = make()
    expectNoSecret('IdpAuth', echoing)
    expectNoSecret('token endpoint echo', await failure(echoing.getToken()))
    tokenMode = 'malformed'
    expectNoSecret('malformed token answer', await failure(make().getToken()))
    const unreachable = new IdpAuth({
      tokenUrl: 'http://127.0.0.1:9/token',
      clientId: 'app',
      clientSecret: CLIENT_SECRET,
    })
    expectNoSecret('unreachable token endpoint', await failure(unreachable.getToken()))
    tokenMode = 'ok'
    const auth = make()
    const token = await auth.getToken()
    expect(token).toBe(TOKEN)
    expectNoSecret('IdpAuth with a token', auth)
    const client = track(new RegistryClient({ url: registry.url, groupId: 'default', auth, maxRetries: 0 }))
    expectNoSecret('client with auth', client)
    expectNoSecret('404 with a token', await failure(client.getSchema('none')))
    registry.inject({
      status: 502,
      body: { title: `upstream saw Authorization: Bearer ${TOKEN}`, status: 502, name: 'Echo' },
    })
    expectNoSecret('echoed token', await failure(client.getSchemaByContentId(5)))
    const serializer = new AvroSerializer(client, 'secret-b', { autoRegister: true, schema: SCHEMA })
    const bytes = await serializer.serialize({ id: 2 }, ctx)
    const deserializer = new AvroDeserializer(client)
    expectNoSecret(
      'undecodable',
      await failure(deserializer.deserialize(Buffer.concat([Buffer.from(bytes), Buffer.from([1])]), ctx)),
    )
    const rejecting = track(
      new RegistryClient({
        url: registry.url,
        groupId: 'default',
        maxRetries: 0,
        auth: { getToken: async () => `${TOKEN}-wrong` },
      }),
    )
    expectNoSecret('401 with a wrong token', await failure(rejecting.getSchema('none')))
  })
})
