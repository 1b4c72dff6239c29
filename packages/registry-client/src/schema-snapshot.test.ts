import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RegistryConnectionError } from '@x/errors'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  parseSnapshot,
  RegistryClient,
  type RegistryClientOptions,
  readSnapshot,
  type SchemaSnapshot,
  takeSnapshot,
} from './index.js'

const API = '/apis/registry/v3'
const ADDRESS = {
  type: 'record',
  name: 'Address',
  namespace: 'com.example',
  fields: [{ name: 'city', type: 'string' }],
}
const USER = {
  type: 'record',
  name: 'User',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'home', type: 'com.example.Address' },
  ],
}

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
  const client = new RegistryClient({ url: registry.url, groupId: 'orders', maxRetries: 0, ...options })
  clients.push(client)
  return client
}

function seen(): string[] {
  return registry.requests.map((r) => `${r.method} ${r.path.slice(API.length)}`)
}

/** `user` (version 2, referencing `address` of the default group) and `address`, then a snapshot of `user`. */
async function snapshotOfUser(): Promise<{
  snapshot: SchemaSnapshot
  user: { globalId: number; contentId: number }
}> {
  const writer = newClient()
  await writer.registerSchema('address', ADDRESS, { references: [] })
  const address = await newClient({ groupId: 'default' }).registerSchema('address', ADDRESS)
  await writer.registerSchema('user', { ...USER, doc: 'v1', fields: [{ name: 'id', type: 'long' }] })
  const user = await writer.registerSchema('user', USER, {
    references: [{ name: 'com.example.Address', artifactId: 'address', version: address.version! }],
  })
  const snapshot = await takeSnapshot(newClient(), [{ artifactId: 'user' }])
  registry.clearRequests()
  return { snapshot, user: { globalId: Number(user.globalId), contentId: Number(user.contentId) } }
}

/** The text of a snapshot of one version, with `change` replacing its fields. */
function snapshotOf(change: Record<string, unknown>): string {
  const version = {
    groupId: 'g',
    artifactId: 'a',
    version: '1',
    artifactType: 'AVRO',
    globalId: '7',
    contentId: '7',
    latest: true,
    references: [],
    schema: '"string"',
  }
  return JSON.stringify({ snapshotVersion: 1, versions: [{ ...version, ...change }] })
}

describe('takeSnapshot', () => {
  it('holds the latest version of each artifact asked for and every version it references, with both ids', async () => {
    const { snapshot, user } = await snapshotOfUser()
    expect(snapshot.snapshotVersion).toBe(1)
    expect(
      snapshot.versions.map((v) => [v.groupId, v.artifactId, v.version, v.artifactType, v.latest]),
    ).toEqual([
      ['default', 'address', '1', 'AVRO', false],
      ['orders', 'user', '2', 'AVRO', true],
    ])
    const userVersion = snapshot.versions[1]!
    expect(userVersion.globalId).toBe(String(user.globalId))
    expect(userVersion.contentId).toBe(String(user.contentId))
    expect(JSON.parse(userVersion.schema)).toEqual(USER)
    expect(userVersion.references).toEqual([
      { name: 'com.example.Address', groupId: 'default', artifactId: 'address', version: '1' },
    ])
    // The file form is plain JSON that reads back as it was.
    expect(parseSnapshot(JSON.stringify(snapshot))).toEqual(snapshot)
  })
})

describe('RegistryClient with a snapshot', () => {
  it('answers lookups by globalId, contentId, version, latest and references without a request', async () => {
    const { snapshot, user } = await snapshotOfUser()
    const client = newClient({ snapshot })
    const byGlobalId = await client.getSchemaByGlobalId(user.globalId)
    expect(byGlobalId).toMatchObject({
      artifactId: 'user',
      version: '2',
      artifactType: 'AVRO',
      contentId: user.contentId,
    })
    expect((await client.getSchemaByContentId(user.contentId)).schema).toBe(byGlobalId.schema)
    expect((await client.getSchema('user')).version).toBe('2')
    expect((await client.getSchemaVersion('user', '2')).globalId).toBe(user.globalId)
    expect((await client.getSchemaVersion('address', '1', { groupId: 'default' })).artifactId).toBe('address')
    expect(await client.getReferencesByGlobalId(user.globalId)).toEqual([
      { name: 'com.example.Address', groupId: 'default', artifactId: 'address', version: '1' },
    ])
    expect(await client.getReferencesByContentId(user.contentId)).toHaveLength(1)
    expect(client.peekSchemaById('globalId', user.globalId)?.artifactId).toBe('user')
    expect(client.peekSchema('user')?.version).toBe('2')
    expect(seen()).toEqual([])
  })

  it('looks up in the registry what the snapshot lacks', async () => {
    const { snapshot } = await snapshotOfUser()
    const client = newClient({ snapshot })
    const v1 = await client.getSchemaVersion('user', '1')
    expect(v1.version).toBe('1')
    expect(seen()).toEqual([
      'GET /groups/orders/artifacts/user/versions/1',
      `GET /ids/globalIds/${v1.globalId}`,
    ])
  })

  it('offline, fails what the snapshot lacks with a RegistryConnectionError and sends nothing', async () => {
    const { snapshot, user } = await snapshotOfUser()
    const client = newClient({ snapshot, offline: true })
    expect((await client.getSchemaByGlobalId(user.globalId)).artifactId).toBe('user')
    const error = await client.getSchemaByGlobalId(9999).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RegistryConnectionError)
    expect((error as RegistryConnectionError).code).toBe('REGISTRY_CONNECTION')
    expect((error as Error).message).toBe(
      'The registry client is offline (offline: true) and makes no request: GET /ids/globalIds/9999?returnArtifactType=true was needed, and its snapshot does not hold it (add it to the snapshot: x-serde pull --snapshot)',
    )
    await expect(client.getSchemaVersion('user', '1')).rejects.toThrow(RegistryConnectionError)
    expect(seen()).toEqual([])
  })
})

describe('snapshot files', () => {
  it.each([
    ['not JSON', '{"snapshotVersion":1,', /^Cannot use s\.json as a schema snapshot: it is not JSON: /],
    [
      'of another version',
      '{"snapshotVersion":2,"versions":[]}',
      /its snapshotVersion must be 1 \(the version this library reads\), got number 2$/,
    ],
    ['without versions', '{"snapshotVersion":1}', /its "versions" must be an array, got undefined$/],
    [
      'with an id that is not decimal text',
      snapshotOf({ globalId: 7 }),
      /versions\[0\]\.globalId must be an id as decimal text \(0 to 2\^63 - 1\), got number 7$/,
    ],
    [
      'with an id beyond 64 bits',
      snapshotOf({ globalId: '9223372036854775808' }),
      /versions\[0\]\.globalId must be an id as decimal text \(0 to 2\^63 - 1\), got string "9223372036854775808"$/,
    ],
    [
      'with a reference lacking its artifact',
      snapshotOf({ references: [{ name: 'n', groupId: 'g', version: '1' }] }),
      /versions\[0\]\.references\[0\]\.artifactId must be a non-empty string, got undefined/,
    ],
  ])('refuses a snapshot %s with a TypeError (INVALID_CONFIG) saying why', (_, text, message) => {
    let error: unknown
    try {
      parseSnapshot(text, 's.json')
    } catch (thrown) {
      error = thrown
    }
    expect(error).toBeInstanceOf(TypeError)
    expect((error as { code?: string }).code).toBe('INVALID_CONFIG')
    expect((error as Error).message).toMatch(message)
  })

  it('reads a file, and refuses one that cannot be read or a snapshot option of another version', async () => {
    const { snapshot } = await snapshotOfUser()
    const dir = await mkdtemp(join(tmpdir(), 'snapshot-'))
    await writeFile(join(dir, 'ok.json'), JSON.stringify(snapshot))
    expect(await readSnapshot(join(dir, 'ok.json'))).toEqual(snapshot)
    await expect(readSnapshot(join(dir, 'missing.json'))).rejects.toMatchObject({
      name: 'TypeError',
      code: 'INVALID_CONFIG',
      message: expect.stringMatching(/missing\.json as a schema snapshot: it cannot be read: ENOENT/),
    })
    expect(() =>
      newClient({ snapshot: { ...snapshot, snapshotVersion: 3 } as unknown as SchemaSnapshot }),
    ).toThrow(
      'Cannot use the snapshot option as a schema snapshot: its snapshotVersion must be 1 (the version this library reads), got number 3',
    )
    expect(() => newClient({ offline: 'yes' as unknown as boolean })).toThrow(
      'offline must be true or false, got string "yes"',
    )
  })
})
