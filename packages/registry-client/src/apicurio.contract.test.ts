/// <reference path="../../../scripts/integration/context.d.ts" />
import { randomBytes } from 'node:crypto'
import { SchemaNotFoundError, SchemaRegistrationError } from '@x/errors'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { RegistryClient } from './index.js'

// The contract between this package and Apicurio Registry 3: one suite, run against InMemoryRegistry in the unit
// stage and against a real Apicurio Registry in the integration stage (the registry the integration global setup
// starts, `inject('registryUrl')`, or the one X_SERDE_TEST_REGISTRY_URL names). Whatever differs is a bug in InMemoryRegistry.
//
// It must pass against a long-lived registry too: everything lives in a group (and artifact ids) unique to the run,
// and ids are compared with each other, never with fixed numbers.

const target = inject('registryUrl') ?? process.env.X_SERDE_TEST_REGISTRY_URL
const run = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
const group = `contract-${run}`

let url: string
let local: InMemoryRegistry | undefined
const clients: RegistryClient[] = []

beforeAll(async () => {
  if (target) url = target.replace(/\/+$/, '')
  else {
    local = await InMemoryRegistry.start()
    url = local.url
  }
})

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()))
  await local?.close()
})

function client(groupId = group): RegistryClient {
  const made = new RegistryClient({ url, groupId, maxRetries: 0, timeoutMs: 30_000 })
  clients.push(made)
  return made
}

interface Answer {
  status: number
  contentType: string | null
  text: string
}

async function http(method: string, path: string, body?: unknown): Promise<Answer> {
  const init: RequestInit = { method }
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    init.headers = { 'Content-Type': 'application/json' }
  }
  const response = await fetch(`${url}${path}`, init)
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  }
}

function data(answer: Answer): any {
  return JSON.parse(answer.text)
}

/** The digits of an id member exactly as the registry wrote them. */
function rawId(text: string, member: 'globalId' | 'contentId'): string {
  const match = new RegExp(`"${member}":(-?\\d+)[,}]`).exec(text)
  if (match?.[1] === undefined) throw new TypeError(`no ${member} in ${text}`)
  return match[1]
}

function record(name: string, fields = '[]'): string {
  return `{"type":"record","name":"${name}","namespace":"contract.${run.replace(/-/g, '_')}","fields":${fields}}`
}

function createBody(artifactId: string, content: string, references?: unknown[]): Record<string, unknown> {
  return {
    artifactId,
    artifactType: 'AVRO',
    firstVersion: {
      content: { content, contentType: 'application/json', ...(references ? { references } : {}) },
    },
  }
}

async function create(
  artifactId: string,
  content: string,
  query = '',
  references?: unknown[],
): Promise<Answer> {
  return http('POST', `/groups/${group}/artifacts${query}`, createBody(artifactId, content, references))
}

function problem(status: number, name: string, title: string): string {
  return JSON.stringify({ detail: `${name}: ${title}`, title, status, name })
}

describe('system', () => {
  it('answers /system/info with the registry name and a 3.x version', async () => {
    const answer = await http('GET', '/system/info')
    expect([answer.status, answer.contentType]).toEqual([200, 'application/json'])
    expect(Object.keys(data(answer))).toEqual(['name', 'description', 'version', 'builtOn'])
    expect(data(answer).version).toMatch(/^3\./)
  })
})

describe('registration over HTTP', () => {
  const A = record('A', '[{"name":"x","type":"int"}]')
  const B = record('B')

  it('creates an artifact with its first version and answers both, with the ids', async () => {
    const answer = await create('reg-a', A)
    expect([answer.status, answer.contentType]).toEqual([200, 'application/json'])
    const { artifact, version } = data(answer)
    expect(artifact).toMatchObject({ groupId: group, artifactId: 'reg-a', artifactType: 'AVRO', owner: '' })
    expect(version).toMatchObject({ groupId: group, artifactId: 'reg-a', version: '1', state: 'ENABLED' })
    expect(Number.isSafeInteger(version.globalId) && Number.isSafeInteger(version.contentId)).toBe(true)
    expect(artifact.createdOn).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  })

  it('shares a contentId between artifacts with identical content; each registration gets a new, larger globalId', async () => {
    const first = data(await create('share-1', B)).version
    const second = data(await create('share-2', B)).version
    const other = data(await create('share-3', record('Other'))).version
    expect(second.contentId).toBe(first.contentId)
    expect(second.globalId).toBeGreaterThan(first.globalId)
    expect(other.globalId).toBeGreaterThan(second.globalId)
    expect(other.contentId).toBeGreaterThan(first.contentId)
  })

  it('refuses ifExists=FAIL on an existing artifact with 409 ArtifactAlreadyExistsException', async () => {
    await create('fail-a', A)
    const answer = await create('fail-a', A, '?ifExists=FAIL')
    expect([answer.status, answer.contentType]).toEqual([409, 'application/json'])
    expect(answer.text).toBe(
      problem(
        409,
        'ArtifactAlreadyExistsException',
        `An artifact with ID 'fail-a' in group '${group}' already exists.`,
      ),
    )
  })

  it('adds a version under CREATE_VERSION and finds the newest match under FIND_OR_CREATE_VERSION', async () => {
    const v1 = data(await create('ifx', A)).version
    const v2 = data(await create('ifx', B, '?ifExists=CREATE_VERSION')).version
    const v3 = data(await create('ifx', A, '?ifExists=CREATE_VERSION')).version
    expect([v2.version, v3.version, v3.contentId]).toEqual(['2', '3', v1.contentId])
    const found = data(await create('ifx', A, '?ifExists=FIND_OR_CREATE_VERSION')).version
    expect([found.version, found.globalId]).toEqual(['3', v3.globalId])
    const foundB = data(await create('ifx', B, '?ifExists=FIND_OR_CREATE_VERSION')).version
    expect([foundB.version, foundB.globalId]).toEqual(['2', v2.globalId])
  })

  it('compares text exactly under FIND_OR_CREATE_VERSION, and canonical forms with canonical=true', async () => {
    const v1 = data(await create('canon', A)).version
    const reordered = `{ "fields":[{"type":"int","name":"x"}], "namespace":"contract.${run.replace(/-/g, '_')}", "name":"A", "type":"record" }`
    const canonical = data(
      await create('canon', reordered, '?ifExists=FIND_OR_CREATE_VERSION&canonical=true'),
    ).version
    expect([canonical.version, canonical.globalId]).toEqual(['1', v1.globalId])
    const exact = data(await create('canon', reordered, '?ifExists=FIND_OR_CREATE_VERSION')).version
    expect(exact.version).toBe('2')
    expect(exact.contentId).not.toBe(v1.contentId)
  })

  it('refuses empty content, an unknown ifExists and malformed JSON as Apicurio does', async () => {
    const empty = await create('bad', '')
    expect([empty.status, empty.text]).toEqual([
      400,
      problem(400, 'BadRequestException', 'Empty content is not allowed.'),
    ])
    const unknown = await create('bad', A, '?ifExists=BOGUS')
    expect([unknown.status, data(unknown).name]).toEqual([404, 'NotFoundException'])
    expect(data(unknown).detail).toBe(
      'IllegalArgumentException: No enum constant io.apicurio.registry.rest.v3.beans.IfArtifactExists.BOGUS',
    )
    const malformed = await http('POST', `/groups/${group}/artifacts`, '{"artifactId":')
    expect([malformed.status, malformed.text]).toEqual([400, 'Not able to deserialize data provided.'])
  })

  it('adds a version with POST .../versions and answers VersionMetaData', async () => {
    const v1 = data(await create('post-version', A)).version
    const answer = await http('POST', `/groups/${group}/artifacts/post-version/versions`, {
      content: { content: B, contentType: 'application/json' },
    })
    expect(answer.status).toBe(200)
    expect(data(answer)).toMatchObject({ artifactId: 'post-version', version: '2', groupId: group })
    expect(data(answer).globalId).toBeGreaterThan(v1.globalId)
  })
})

describe('lookups over HTTP', () => {
  const C1 = record('C1')
  const C2 = record('C2', '[{"name":"s","type":"string"}]')

  it('serves the latest version metadata and its content as registered', async () => {
    await create('latest', C1)
    const v2 = data(await create('latest', C2, '?ifExists=CREATE_VERSION')).version
    const meta = await http('GET', `/groups/${group}/artifacts/latest/versions/branch=latest`)
    expect([meta.status, meta.contentType]).toEqual([200, 'application/json'])
    expect(data(meta)).toMatchObject({
      version: '2',
      globalId: v2.globalId,
      contentId: v2.contentId,
      artifactType: 'AVRO',
    })
    const content = await http('GET', `/groups/${group}/artifacts/latest/versions/branch=latest/content`)
    expect([content.status, content.text]).toEqual([200, C2])
    const first = await http('GET', `/groups/${group}/artifacts/latest/versions/1/content`)
    expect(first.text).toBe(C1)
  })

  it('serves content by globalId and contentId as the registered text', async () => {
    const spaced = `{ "type" : "enum", "name" : "E${run.replace(/-/g, '')}", "symbols" : ["A"] }`
    const { globalId, contentId } = data(await create('by-id', spaced)).version
    const byGlobal = await http('GET', `/ids/globalIds/${globalId}`)
    expect([byGlobal.status, byGlobal.contentType, byGlobal.text]).toEqual([200, 'application/json', spaced])
    const byContent = await http('GET', `/ids/contentIds/${contentId}`)
    expect([byContent.status, byContent.text]).toEqual([200, spaced])
  })

  it('writes ids as plain integers whose digits are the ids', async () => {
    const answer = await create('digits', record('Digits'))
    const { globalId, contentId } = data(answer).version
    expect(rawId(answer.text, 'globalId')).toBe(String(globalId))
    expect(rawId(answer.text, 'contentId')).toBe(String(contentId))
  })

  it.each([
    [
      'the artifact',
      () => `/groups/${group}/artifacts/missing`,
      'ArtifactNotFoundException',
      () => `No artifact with ID 'missing' in group '${group}' was found.`,
    ],
    [
      'the latest version',
      () => `/groups/${group}/artifacts/missing/versions/branch=latest`,
      'VersionNotFoundException',
      () =>
        `No version '<tip of the branch 'latest'>' found for artifact with ID 'missing' in group '${group}'.`,
    ],
    [
      'a version',
      () => `/groups/${group}/artifacts/latest/versions/99`,
      'VersionNotFoundException',
      () => `No version '99' found for artifact with ID 'latest' in group '${group}'.`,
    ],
    [
      'a globalId',
      () => '/ids/globalIds/9223372036854775807',
      'VersionNotFoundException',
      () => "No version with global ID '9223372036854775807' found.",
    ],
    [
      'a contentId',
      () => '/ids/contentIds/9223372036854775807',
      'ContentNotFoundException',
      () => "No content with ID '9223372036854775807' was found.",
    ],
    [
      'a content hash',
      () => '/ids/contentHashes/00',
      'ContentNotFoundException',
      () => "No content with hash '00' was found.",
    ],
  ])('answers a missing %s with 404 %s', async (_, path, name, title) => {
    const answer = await http('GET', path())
    expect([answer.status, answer.contentType]).toEqual([404, 'application/json'])
    expect(answer.text).toBe(problem(404, name, title()))
  })

  it('lists the artifacts of a group ordered by id, in pages, with the total count', async () => {
    const listGroup = `${group}-list`
    for (const id of ['c', 'a', 'd', 'b']) {
      await http('POST', `/groups/${listGroup}/artifacts`, createBody(id, record(`L${id}`)))
    }
    const page = async (query: string) => {
      const answer = data(await http('GET', `/groups/${listGroup}/artifacts${query}`))
      return [answer.artifacts.map((a: { artifactId: string }) => a.artifactId), answer.count]
    }
    expect(await page('')).toEqual([['a', 'b', 'c', 'd'], 4])
    expect(await page('?limit=2')).toEqual([['a', 'b'], 4])
    expect(await page('?limit=2&offset=2')).toEqual([['c', 'd'], 4])
    expect(await page('?offset=4')).toEqual([[], 4])
    expect(await page('?order=desc&limit=1')).toEqual([['d'], 4])
  })

  it('takes artifact ids with spaces, slashes and other reserved characters percent-encoded', async () => {
    for (const id of ['with space', 'with/slash', 'q?m', 'plus+sign', 'hash#tag', 'semi;colon']) {
      expect((await create(id, record('Enc'))).status).toBe(200)
      const answer = await http(
        'GET',
        `/groups/${group}/artifacts/${encodeURIComponent(id)}/versions/branch=latest`,
      )
      expect([answer.status, data(answer).artifactId]).toEqual([200, id])
    }
  })

  it('refuses % and non-ASCII characters in artifact ids', async () => {
    const answer = await create('per%cent', record('Pct'))
    expect(answer.text).toBe(
      problem(
        400,
        'InvalidArtifactIdException',
        'Character % and non ASCII characters are not allowed in artifact IDs.',
      ),
    )
  })

  it('serves the default group under any letter case and leaves groupId out of its answers', async () => {
    const artifactId = `contract-${run}-default`
    const created = await http('POST', '/groups/default/artifacts', createBody(artifactId, record('Dflt')))
    expect(data(created).version).not.toHaveProperty('groupId')
    const meta = await http('GET', `/groups/DEFAULT/artifacts/${artifactId}/versions/branch=latest`)
    expect([meta.status, data(meta).artifactId, data(meta).groupId]).toEqual([200, artifactId, undefined])
  })

  it('deletes an artifact only when the registry allows it (405 NotAllowedException otherwise)', async () => {
    await create('to-delete', record('Del'))
    const answer = await http('DELETE', `/groups/${group}/artifacts/to-delete`)
    if (answer.status === 405) {
      expect(answer.text).toBe(
        problem(405, 'NotAllowedException', 'Artifact deletion operation is not enabled.'),
      )
    } else {
      expect(answer.status).toBe(204)
      expect((await http('GET', `/groups/${group}/artifacts/to-delete`)).status).toBe(404)
    }
  })
})

describe('references over HTTP', () => {
  const ns = `contract.${run.replace(/-/g, '_')}`
  const CHILD = `{"type":"record","name":"Child","namespace":"${ns}","fields":[{"name":"v","type":"string"}]}`
  const PARENT = `{"type":"record","name":"Parent","namespace":"${ns}","fields":[{"name":"c","type":"${ns}.Child"}]}`
  const reference = () => ({ groupId: group, artifactId: 'ref-child', version: '1', name: `${ns}.Child` })
  let parent: { globalId: number; contentId: number }

  beforeAll(async () => {
    await create('ref-child', CHILD)
    parent = data(await create('ref-parent', PARENT, '', [reference()])).version
  })

  it('lists the references of a version by globalId, contentId and version, and the inbound ones', async () => {
    const expected = JSON.stringify([reference()])
    for (const path of [
      `/ids/globalIds/${parent.globalId}/references`,
      `/ids/contentIds/${parent.contentId}/references`,
      `/groups/${group}/artifacts/ref-parent/versions/1/references`,
    ]) {
      const answer = await http('GET', path)
      expect([answer.status, answer.contentType, answer.text]).toEqual([200, 'application/json', expected])
    }
    const inbound = await http(
      'GET',
      `/groups/${group}/artifacts/ref-child/versions/1/references?refType=INBOUND`,
    )
    expect(inbound.text).toBe(
      JSON.stringify([{ groupId: group, artifactId: 'ref-parent', version: '1', name: `${ns}.Child` }]),
    )
  })

  it('counts the references as part of the content: same text without them is other content', async () => {
    const bare = data(await create('ref-bare', PARENT)).version
    const again = data(await create('ref-again', PARENT, '', [reference()])).version
    expect(bare.contentId).not.toBe(parent.contentId)
    expect(again.contentId).toBe(parent.contentId)
    const noRefs = await http('GET', `/ids/globalIds/${bare.globalId}/references`)
    expect(noRefs.text).toBe('[]')
  })

  it('finds a version under FIND_OR_CREATE_VERSION only with the same references', async () => {
    const same = data(
      await create('ref-parent', PARENT, '?ifExists=FIND_OR_CREATE_VERSION', [reference()]),
    ).version
    expect(same.globalId).toBe(parent.globalId)
  })

  it('keeps the stored text by default and inlines the referenced type with references=DEREFERENCE', async () => {
    expect((await http('GET', `/ids/globalIds/${parent.globalId}`)).text).toBe(PARENT)
    const dereferenced = await http('GET', `/ids/globalIds/${parent.globalId}?references=DEREFERENCE`)
    expect(dereferenced.text).toBe(
      `{"type":"record","name":"Parent","namespace":"${ns}","fields":[{"name":"c","type":{"type":"record",` +
        `"name":"Child","fields":[{"name":"v","type":"string"}]}}]}`,
    )
  })
})

describe('through RegistryClient', () => {
  const ns = `contract.${run.replace(/-/g, '_')}`
  const S1 = { type: 'record', name: 'Client1', namespace: ns, fields: [{ name: 'a', type: 'long' }] }
  const S2 = { type: 'record', name: 'Client2', namespace: ns, fields: [] }

  it('registers a schema and reads it back by artifact, globalId and contentId', async () => {
    const registry = client()
    const registered = await registry.registerSchema('client-a', S1)
    expect(registered).toMatchObject({
      groupId: group,
      artifactId: 'client-a',
      version: '1',
      schema: JSON.stringify(S1),
    })
    const reader = client()
    const latest = await reader.getSchema('client-a')
    expect(latest).toMatchObject({
      schema: JSON.stringify(S1),
      globalId: registered.globalId,
      contentId: registered.contentId,
    })
    expect((await reader.getSchemaByGlobalId(registered.globalId as number)).schema).toBe(JSON.stringify(S1))
    expect((await reader.getSchemaByContentId(registered.contentId as number)).schema).toBe(
      JSON.stringify(S1),
    )
  })

  it('finds the existing version on a second registration (FIND_OR_CREATE_VERSION by default)', async () => {
    const registry = client()
    const first = await registry.registerSchema('client-b', S1)
    const second = await client().registerSchema('client-b', S1)
    expect(second).toMatchObject({ globalId: first.globalId, contentId: first.contentId, version: '1' })
    const newer = await registry.registerSchema('client-b', S2, { ifExists: 'CREATE_VERSION' })
    expect(newer.version).toBe('2')
    expect((await client().getSchema('client-b')).globalId).toBe(newer.globalId)
  })

  it('refuses FAIL on an existing artifact with SchemaRegistrationError (status 409)', async () => {
    const registry = client()
    await registry.registerSchema('client-c', S1)
    const failure = await registry
      .registerSchema('client-c', S1, { ifExists: 'FAIL' })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(SchemaRegistrationError)
    expect(failure).toMatchObject({ code: 'SCHEMA_REGISTRATION', status: 409, artifactId: 'client-c' })
  })

  it('answers a missing artifact or id with SchemaNotFoundError', async () => {
    const registry = client()
    await expect(registry.getSchema('client-missing')).rejects.toMatchObject({
      name: 'SchemaNotFoundError',
      groupId: group,
      artifactId: 'client-missing',
    })
    const byId = await registry.getSchemaByGlobalId(2n ** 63n - 1n).catch((error: unknown) => error)
    expect(byId).toBeInstanceOf(SchemaNotFoundError)
    expect(byId).toMatchObject({ idType: 'globalId', idValue: 2n ** 63n - 1n })
  })

  it('registers with references and reads them back', async () => {
    const registry = client()
    const child = { type: 'record', name: 'RefChild', namespace: ns, fields: [{ name: 'v', type: 'int' }] }
    await registry.registerSchema('client-ref-child', child)
    const references = [
      { groupId: group, artifactId: 'client-ref-child', version: '1', name: `${ns}.RefChild` },
    ]
    const parentSchema = {
      type: 'record',
      name: 'RefParent',
      namespace: ns,
      fields: [{ name: 'c', type: `${ns}.RefChild` }],
    }
    const parentVersion = await registry.registerSchema('client-ref-parent', parentSchema, { references })
    expect(await client().getReferencesByGlobalId(parentVersion.globalId as number)).toEqual(references)
  })

  it('lists every artifact of the group, across pages', async () => {
    const listGroup = `${group}-client-list`
    const writer = client(listGroup)
    const ids = Array.from({ length: 105 }, (_, i) => `art-${String(i).padStart(3, '0')}`)
    for (let i = 0; i < ids.length; i += 15) {
      await Promise.all(
        ids
          .slice(i, i + 15)
          .map((id) => writer.registerSchema(id, { ...S2, name: `L${id.replace('-', '')}` })),
      )
    }
    expect(await client(listGroup).listArtifacts()).toEqual(ids)
  })
})
