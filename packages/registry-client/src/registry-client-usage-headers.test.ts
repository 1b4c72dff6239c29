import { InMemoryRegistry } from '@x/registry-testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RegistryClient, type RegistryClientOptions } from './index.js'

const SCHEMA = '{"type":"record","name":"Usage","fields":[{"name":"id","type":"long"}]}'
const API = '/apis/registry/v3'

let registry: InMemoryRegistry
const clients: RegistryClient[] = []

beforeEach(async () => {
  registry = await InMemoryRegistry.start()
})

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  await registry.close()
})

function newClient(options: Partial<RegistryClientOptions> = {}): RegistryClient {
  const client = new RegistryClient({ url: registry.url, groupId: 'usage', ...options })
  clients.push(client)
  return client
}

/** Each request as `METHOD path` with its usage-telemetry headers (`-` when absent). */
function seen(): string[] {
  return registry.requests.map(
    (r) =>
      `${r.method} ${r.path.slice(API.length)} ${r.headers['x-registry-client-id'] ?? '-'} ${
        r.headers['x-registry-operation'] ?? '-'
      }`,
  )
}

describe('RegistryClient clientId (usage telemetry)', () => {
  it('sends X-Registry-Client-Id and the operation on id lookups, and on no other request', async () => {
    const writer = newClient({ clientId: 'orders-svc' })
    const registered = await writer.registerSchema('usage', SCHEMA)
    const { globalId, contentId } = registered
    const reader = newClient({ clientId: 'orders-svc' })
    await reader.getSchemaByGlobalId(globalId!, { operation: 'DESERIALIZE' })
    await reader.getSchemaByContentId(contentId!, { operation: 'SERIALIZE' })
    await reader.getReferencesByGlobalId(globalId!)
    const latest = newClient({ clientId: 'orders-svc' })
    await latest.getSchema('usage', { operation: 'SERIALIZE' })
    const plain = newClient({ clientId: 'orders-svc' })
    await plain.getSchemaByGlobalId(globalId!)
    expect(seen()).toEqual([
      'POST /groups/usage/artifacts - -',
      `GET /ids/globalIds/${globalId} orders-svc DESERIALIZE`,
      `GET /ids/contentIds/${contentId} orders-svc SERIALIZE`,
      `GET /ids/globalIds/${globalId}/references - -`,
      'GET /groups/usage/artifacts/usage/versions/branch=latest - -',
      `GET /ids/globalIds/${globalId} orders-svc SERIALIZE`,
      `GET /ids/globalIds/${globalId} orders-svc -`,
    ])
  })

  it('sends no usage-telemetry header without a clientId, whatever the operation', async () => {
    const registered = await newClient().registerSchema('usage', SCHEMA)
    await newClient().getSchemaByGlobalId(registered.globalId!, { operation: 'DESERIALIZE' })
    expect(seen()).toEqual([
      'POST /groups/usage/artifacts - -',
      `GET /ids/globalIds/${registered.globalId} - -`,
    ])
  })

  it.each([[''], ['orders svc'], ['ordérs'], ['x'.repeat(257)], [42]])(
    'refuses the clientId %j, which the registry would not record',
    (clientId) => {
      expect(() => newClient({ clientId: clientId as string })).toThrow(
        expect.objectContaining({
          name: 'TypeError',
          code: 'INVALID_CONFIG',
          message: expect.stringMatching(/^clientId must be 1 to 256 letters, digits, '\.', '_' or '-'/),
        }),
      )
    },
  )

  it('takes a clientId of 256 letters, digits, dots, hyphens and underscores', () => {
    expect(() => newClient({ clientId: `a.b_c-1${'z'.repeat(249)}` })).not.toThrow()
  })

  it('refuses an operation other than SERIALIZE and DESERIALIZE', async () => {
    const client = newClient({ clientId: 'orders-svc' })
    const error = await client
      .getSchemaByGlobalId(1, { operation: 'READ' as 'SERIALIZE' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    const { code, message } = error as TypeError & { code: string }
    expect([code, message]).toEqual([
      'INVALID_CONFIG',
      "operation must be 'SERIALIZE' or 'DESERIALIZE', got string \"READ\"",
    ])
    expect(registry.requests).toHaveLength(0)
  })
})
