import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InMemoryRegistry } from '../in-memory-registry.js'
import { call, createArtifactBody, json, record, register, withoutDates } from './test-support/http.js'

// Expected answers below were recorded from a real Apicurio Registry 3.3.3 given the same requests; dates masked.

let registry: InMemoryRegistry
let url: string

beforeEach(async () => {
  registry = await InMemoryRegistry.start()
  url = registry.url
})

afterEach(async () => {
  await registry.close()
})

const A = record('A', '[{"name":"x","type":"int"}]')
const CHILD = '{"type":"record","name":"Child","namespace":"com.ex","fields":[{"name":"v","type":"string"}]}'
const PARENT =
  '{"type":"record","name":"Parent","namespace":"com.ex","fields":[{"name":"c","type":"com.ex.Child"}]}'
const CHILD_REF = { groupId: 'g', artifactId: 'child', version: '1', name: 'com.ex.Child' }

describe('metadata', () => {
  it('serves the latest version metadata, with the ids, by branch=latest', async () => {
    await register(url, 'grp', 'a1', A)
    await register(url, 'grp', 'a1', record('B'), '?ifExists=CREATE_VERSION')
    const result = await call(url, 'GET', '/groups/grp/artifacts/a1/versions/branch=latest')
    expect(withoutDates(result.text)).toBe(
      '{"version":"2","owner":"","createdOn":"DATE","artifactType":"AVRO","globalId":2,"state":"ENABLED",' +
        '"groupId":"grp","contentId":2,"artifactId":"a1","modifiedBy":"","modifiedOn":"DATE"}',
    )
  })

  it('serves artifact metadata without ids', async () => {
    await register(url, 'grp', 'a1', A)
    const result = await call(url, 'GET', '/groups/grp/artifacts/a1')
    expect(withoutDates(result.text)).toBe(
      '{"owner":"","createdOn":"DATE","modifiedBy":"","modifiedOn":"DATE","artifactType":"AVRO","groupId":"grp",' +
        '"artifactId":"a1"}',
    )
  })

  it.each([
    [
      '/groups/grp/artifacts/none',
      'ArtifactNotFoundException',
      "No artifact with ID 'none' in group 'grp' was found.",
    ],
    [
      '/groups/grp/artifacts/a1/versions/9',
      'VersionNotFoundException',
      "No version '9' found for artifact with ID 'a1' in group 'grp'.",
    ],
    [
      '/groups/grp/artifacts/a1/versions/9/content',
      'VersionNotFoundException',
      "No version '9' found for artifact with ID 'a1' in group 'grp'.",
    ],
    [
      '/groups/grp/artifacts/none/versions/branch=latest',
      'VersionNotFoundException',
      "No version '<tip of the branch 'latest'>' found for artifact with ID 'none' in group 'grp'.",
    ],
    [
      '/groups/grp/artifacts/a1/versions/branch=nope',
      'VersionNotFoundException',
      "No version '<tip of the branch 'nope'>' found for artifact with ID 'a1' in group 'grp'.",
    ],
    [
      '/groups/DEFAULT/artifacts/none',
      'ArtifactNotFoundException',
      "No artifact with ID 'none' in group 'null' was found.",
    ],
    ['/ids/globalIds/999', 'VersionNotFoundException', "No version with global ID '999' found."],
    ['/ids/contentIds/999', 'ContentNotFoundException', "No content with ID '999' was found."],
    ['/ids/contentHashes/abc', 'ContentNotFoundException', "No content with hash 'abc' was found."],
    [
      '/ids/globalIds/999/references',
      'ArtifactNotFoundException',
      "No artifact with ID 'gid-999' in group 'null' was found.",
    ],
    ['/groups/nope', 'GroupNotFoundException', "No group 'nope' was found."],
  ])('answers GET %s with 404 %s', async (path, name, title) => {
    await register(url, 'grp', 'a1', A)
    const result = await call(url, 'GET', path)
    expect(result.status).toBe(404)
    expect(result.headers.get('content-type')).toBe('application/json')
    expect(result.text).toBe(JSON.stringify({ detail: `${name}: ${title}`, title, status: 404, name }))
  })

  it('refuses an unparsable version expression with 400', async () => {
    const result = await call(url, 'GET', '/groups/g/artifacts/a/versions/a%20b/content')
    expect([result.status, json(result).title]).toEqual([400, "Could not parse version expression 'a b'."])
  })

  it('answers a non-numeric id like RESTEasy: 404 with the NumberFormatException in detail', async () => {
    const result = await call(url, 'GET', '/ids/globalIds/99999999999999999999')
    expect(json(result)).toEqual({
      detail: 'NumberFormatException: For input string: "99999999999999999999"',
      title:
        'RESTEASY003870: Unable to extract parameter from http request: jakarta.ws.rs.PathParam("globalId") value is \'99999999999999999999\'',
      status: 404,
      name: 'NotFoundException',
    })
  })

  it('answers an unknown path with RESTEasy 404 naming the full URL', async () => {
    const result = await call(url, 'GET', '/nope')
    expect(json(result).title).toBe(`RESTEASY003210: Could not find resource for full path: ${url}/nope`)
  })

  it('answers a method a path does not serve with 405 and the Allow header', async () => {
    const result = await call(url, 'PUT', '/ids/globalIds/1')
    expect([result.status, result.headers.get('allow')]).toEqual([405, 'HEAD, GET, OPTIONS'])
    expect(json(result).title).toBe(
      'RESTEASY003650: No resource method found for PUT, return 405 with Allow header',
    )
  })
})

describe('content', () => {
  it('serves the stored text by version, globalId, contentId and hash, with the stored Content-Type', async () => {
    const spaced = '{ "type" : "string" }'
    await register(url, 'g', 'a', spaced)
    const hash = createHash('sha256').update(spaced).digest('hex')
    for (const [path, filename] of [
      ['/groups/g/artifacts/a/versions/branch=latest/content', 'a.json'],
      ['/ids/globalIds/1', '1.json'],
      ['/ids/contentIds/1', '1.json'],
      [`/ids/contentHashes/${hash}`, `${hash}.json`],
    ]) {
      const result = await call(url, 'GET', path as string)
      expect([result.status, result.text]).toEqual([200, spaced])
      expect(result.headers.get('content-type')).toBe('application/json')
      expect(result.headers.get('content-disposition')).toBe(`attachment; filename="${filename}"`)
    }
  })

  it('answers text/plain content as text/plain;charset=UTF-8 with a .bin file name', async () => {
    const body = createArtifactBody('t', A)
    ;(body.firstVersion as { content: { contentType: string } }).content.contentType = 'text/plain'
    await call(url, 'POST', '/groups/g/artifacts', body)
    const result = await call(url, 'GET', '/ids/globalIds/1')
    expect(result.headers.get('content-type')).toBe('text/plain;charset=UTF-8')
    expect(result.headers.get('content-disposition')).toBe('attachment; filename="1.bin"')
  })

  it('adds X-Registry-ArtifactType with returnArtifactType=true', async () => {
    await register(url, 'g', 'a', A)
    const result = await call(url, 'GET', '/ids/globalIds/1?returnArtifactType=true')
    expect(result.headers.get('x-registry-artifacttype')).toBe('AVRO')
  })

  it('sends Apicurio no-cache and security headers on every answer', async () => {
    const result = await call(url, 'GET', '/ids/globalIds/1')
    expect(result.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate')
    expect(result.headers.get('pragma')).toBe('no-cache')
    expect(result.headers.get('x-content-type-options')).toBe('nosniff')
    expect(result.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains')
  })
})

describe('references', () => {
  async function parentWithChild(): Promise<number> {
    await register(url, 'g', 'child', CHILD)
    const registered = await register(url, 'g', 'parent', PARENT, '', { references: [CHILD_REF] })
    return (registered as [number, number, string])[0]
  }

  it('lists a version references by globalId, contentId and version, and the inbound ones', async () => {
    const globalId = await parentWithChild()
    const expected = '[{"groupId":"g","artifactId":"child","version":"1","name":"com.ex.Child"}]'
    expect((await call(url, 'GET', `/ids/globalIds/${globalId}/references`)).text).toBe(expected)
    expect((await call(url, 'GET', '/ids/contentIds/2/references')).text).toBe(expected)
    expect((await call(url, 'GET', '/groups/g/artifacts/parent/versions/1/references')).text).toBe(expected)
    expect(
      (await call(url, 'GET', '/groups/g/artifacts/child/versions/1/references?refType=INBOUND')).text,
    ).toBe('[{"groupId":"g","artifactId":"parent","version":"1","name":"com.ex.Child"}]')
    expect((await call(url, 'GET', '/ids/globalIds/1/references')).text).toBe('[]')
  })

  it('makes the references part of the content identity (and of the hash)', async () => {
    await parentWithChild()
    expect(await register(url, 'g', 'no-refs', PARENT)).toEqual([3, 3, '1'])
    expect(await register(url, 'g', 'same-refs', PARENT, '', { references: [CHILD_REF] })).toEqual([
      4,
      2,
      '1',
    ])
    const refsJson = '[{"groupId":"g","artifactId":"child","version":"1","name":"com.ex.Child"}]'
    const hash = createHash('sha256')
      .update(PARENT + refsJson)
      .digest('hex')
    expect((await call(url, 'GET', `/ids/contentHashes/${hash}/references`)).text).toBe(refsJson)
  })

  it('finds a version under FIND_OR_CREATE_VERSION only with the same references', async () => {
    await parentWithChild()
    expect(
      await register(url, 'g', 'parent', PARENT, '?ifExists=FIND_OR_CREATE_VERSION', {
        references: [CHILD_REF],
      }),
    ).toEqual([2, 2, '1'])
    expect(await register(url, 'g', 'parent', PARENT, '?ifExists=FIND_OR_CREATE_VERSION')).toEqual([
      3,
      4,
      '2',
    ])
  })

  it('inlines the referenced types with references=DEREFERENCE, as Avro writes the schema', async () => {
    const globalId = await parentWithChild()
    const result = await call(url, 'GET', `/ids/globalIds/${globalId}?references=DEREFERENCE`)
    expect(result.text).toBe(
      '{"type":"record","name":"Parent","namespace":"com.ex","fields":[{"name":"c","type":{"type":"record",' +
        '"name":"Child","fields":[{"name":"v","type":"string"}]}}]}',
    )
    expect((await call(url, 'GET', `/ids/globalIds/${globalId}?references=REWRITE`)).text).toBe(PARENT)
  })

  it('leaves content without references alone under DEREFERENCE', async () => {
    await register(url, 'g', 'a', '{ "type":"string" }')
    expect((await call(url, 'GET', '/ids/globalIds/1?references=DEREFERENCE')).text).toBe(
      '{ "type":"string" }',
    )
  })

  it('answers a reference to nothing under DEREFERENCE with Avro 500', async () => {
    await register(url, 'g', 'p', PARENT, '', { references: [{ ...CHILD_REF, artifactId: 'missing' }] })
    const result = await call(url, 'GET', '/ids/globalIds/1?references=DEREFERENCE')
    expect([result.status, json(result).name, json(result).title]).toEqual([
      500,
      'AvroTypeException',
      'Undefined schema: com.ex.Child',
    ])
  })

  it('writes a reference into the default group without groupId', async () => {
    await register(url, 'default', 'child', CHILD)
    await register(url, 'g', 'p', PARENT, '', { references: [{ ...CHILD_REF, groupId: 'default' }] })
    expect((await call(url, 'GET', '/ids/globalIds/2/references')).text).toBe(
      '[{"artifactId":"child","version":"1","name":"com.ex.Child"}]',
    )
  })
})

describe('listing', () => {
  it('pages artifacts of a group ordered by name (else id), 20 by default, with the total count', async () => {
    for (const id of ['c', 'a', 'b']) await register(url, 'g', id, record(id))
    await call(url, 'POST', '/groups/g/artifacts', { ...createArtifactBody('n1', record('N')), name: 'aaa' })
    const ids = async (query: string) => {
      const page = json(await call(url, 'GET', `/groups/g/artifacts${query}`))
      return [page.artifacts.map((a: { artifactId: string }) => a.artifactId), page.count]
    }
    expect(await ids('')).toEqual([['a', 'n1', 'b', 'c'], 4])
    expect(await ids('?order=desc')).toEqual([['c', 'b', 'n1', 'a'], 4])
    expect(await ids('?orderby=createdOn')).toEqual([['c', 'a', 'b', 'n1'], 4])
    expect(await ids('?limit=2&offset=1')).toEqual([['n1', 'b'], 4])
    expect(await ids('?offset=10')).toEqual([[], 4])
    expect(await ids('?limit=1&skipCount=true')).toEqual([['a'], 0])
  })

  it('writes SearchedArtifact members in Apicurio order, without groupId in the default group', async () => {
    await register(url, 'default', 'd', A)
    expect(withoutDates((await call(url, 'GET', '/groups/default/artifacts')).text)).toBe(
      '{"artifacts":[{"createdOn":"DATE","owner":"","artifactType":"AVRO","modifiedOn":"DATE","modifiedBy":"",' +
        '"artifactId":"d"}],"count":1}',
    )
  })

  it('answers an unknown group with an empty page', async () => {
    expect((await call(url, 'GET', '/groups/none/artifacts')).text).toBe('{"artifacts":[],"count":0}')
  })

  it('lists versions oldest first, count first', async () => {
    await register(url, 'g', 'a', A)
    await register(url, 'g', 'a', record('B'), '?ifExists=CREATE_VERSION')
    const page = json(await call(url, 'GET', '/groups/g/artifacts/a/versions?order=desc'))
    expect(Object.keys(page)).toEqual(['count', 'versions'])
    expect(page.versions.map((v: { globalId: number }) => v.globalId)).toEqual([2, 1])
  })
})

describe('ids in URLs', () => {
  // ('.' and '..' cannot be sent: fetch resolves such path segments, even percent-encoded.)
  it.each(['a b', 'a/b', 'a+b', 'x?y', '#h', 'a;b'])('takes artifact id %j percent-encoded', async (id) => {
    await register(url, 'g', id, A)
    const result = await call(
      url,
      'GET',
      `/groups/g/artifacts/${encodeURIComponent(id)}/versions/branch=latest`,
    )
    expect([result.status, json(result).artifactId]).toEqual([200, id])
  })

  it('takes the group default in any case and leaves groupId out of its answers', async () => {
    await register(url, 'default', 'd', A)
    const result = await call(url, 'GET', '/groups/DEFAULT/artifacts/d/versions/branch=latest')
    expect(json(result)).not.toHaveProperty('groupId')
    expect(json(result).globalId).toBe(1)
  })
})

describe('deletion', () => {
  it('is refused with 405 NotAllowedException by default, as in Apicurio', async () => {
    await register(url, 'g', 'a', A)
    const result = await call(url, 'DELETE', '/groups/g/artifacts/a')
    expect([result.status, result.headers.get('allow')]).toEqual([405, 'GET'])
    expect(json(result).title).toBe('Artifact deletion operation is not enabled.')
    expect(json(await call(url, 'DELETE', '/groups/g')).title).toBe(
      'Group deletion operation is not enabled.',
    )
    expect(json(await call(url, 'DELETE', '/groups/g/artifacts/a/versions/1')).title).toBe(
      'Artifact version deletion operation is not enabled.',
    )
  })

  it('removes versions, artifacts and groups when enabled', async () => {
    await using deleting = await InMemoryRegistry.start({ deletion: true })
    const base = deleting.url
    await register(base, 'g', 'a', A)
    await register(base, 'g', 'a', record('B'), '?ifExists=CREATE_VERSION')
    expect((await call(base, 'DELETE', '/groups/g/artifacts/a/versions/1')).status).toBe(204)
    expect((await call(base, 'GET', '/ids/globalIds/1')).status).toBe(404)
    expect((await call(base, 'DELETE', '/groups/g/artifacts/a')).status).toBe(204)
    expect((await call(base, 'GET', '/groups/g/artifacts/a')).status).toBe(404)
    expect((await call(base, 'DELETE', '/groups/g')).status).toBe(204)
    expect((await call(base, 'GET', '/groups/g')).status).toBe(404)
  })

  it('can be enabled per kind', async () => {
    await using deleting = await InMemoryRegistry.start({ deletion: { artifact: true } })
    await register(deleting.url, 'g', 'a', A)
    expect((await call(deleting.url, 'DELETE', '/groups/g/artifacts/a/versions/1')).status).toBe(405)
    expect((await call(deleting.url, 'DELETE', '/groups/g/artifacts/a')).status).toBe(204)
    expect((await call(deleting.url, 'DELETE', '/groups/g')).status).toBe(405)
  })
})

describe('system info', () => {
  it('names itself, with the Apicurio version it answers as', async () => {
    const info = json(await call(url, 'GET', '/system/info'))
    expect(info).toMatchObject({
      name: 'Apicurio Registry (InMemoryRegistry)',
      description: 'High performance, runtime registry for schemas and API designs.',
      version: '3.3.3',
    })
    expect(info.builtOn).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
  })
})
