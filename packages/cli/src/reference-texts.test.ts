import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Connection } from './connection.js'
import type { Io } from './io.js'
import { referenceTexts } from './reference-texts.js'

let registry: InMemoryRegistry
const io: Io = {
  stdout: () => {},
  stderr: () => {},
  env: {},
  cwd: '/',
  readStdin: async () => Buffer.alloc(0),
}
const TIER = { type: 'enum', name: 'Tier', namespace: 'refs', symbols: ['FREE'] }
const OWNER = {
  type: 'record',
  name: 'Owner',
  namespace: 'refs',
  fields: [{ name: 'tier', type: 'refs.Tier' }],
}
const ACCOUNT = {
  type: 'record',
  name: 'Account',
  namespace: 'refs',
  fields: [{ name: 'owner', type: 'refs.Owner' }],
}

/** Creates an Avro artifact in the default group over REST, its references naming no group (as Java writes them). */
async function create(artifactId: string, schema: unknown, references: string[]): Promise<void> {
  const response = await fetch(`${registry.url}/groups/default/artifacts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      artifactId,
      artifactType: 'AVRO',
      firstVersion: {
        content: {
          content: JSON.stringify(schema),
          contentType: 'application/json',
          references: references.map((name) => ({ name, artifactId: name, version: '1' })),
        },
      },
    }),
  })
  expect(response.status).toBe(200)
}

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 1, firstContentId: 1 })
  await create('refs.Tier', TIER, [])
  await create('refs.Owner', OWNER, ['refs.Tier'])
  await create('accounts-value', ACCOUNT, ['refs.Owner'])
})

afterAll(() => registry.close())

describe('referenceTexts', () => {
  it('finds references that name no group in the default group, recursively, with the client set to another group', async () => {
    await using connection = new Connection({ registry: registry.url, group: 'elsewhere' }, io)
    const admin = new RegistryClient({ url: registry.url, groupId: 'default' })
    const account = await admin.getSchema('accounts-value')
    await admin.close()
    for (const [idType, id] of [
      ['globalId', account.globalId!],
      ['contentId', account.contentId!],
    ] as const) {
      const texts = await referenceTexts(connection, id, idType)
      expect(Object.fromEntries([...texts].map(([name, text]) => [name, JSON.parse(text)]))).toEqual({
        'refs.Owner': OWNER,
        'refs.Tier': TIER,
      })
    }
  })
})
