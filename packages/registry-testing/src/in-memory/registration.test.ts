import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InMemoryRegistry } from '../in-memory-registry.js'
import { call, createArtifactBody, json, record, register, withoutDates } from './test-support/http.js'

// Expected answers below were recorded from a real Apicurio Registry 3.3.3 (in-memory H2 storage) given the same
// requests from a fresh start; only dates are masked.

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

describe('creating an artifact', () => {
  it('answers 200 with the artifact and its first version, as Apicurio writes them', async () => {
    const result = await call(url, 'POST', '/groups/grp/artifacts', createArtifactBody('a1', A))
    expect(result.status).toBe(200)
    expect(result.headers.get('content-type')).toBe('application/json')
    expect(withoutDates(result.text)).toBe(
      '{"artifact":{"owner":"","createdOn":"DATE","modifiedBy":"","modifiedOn":"DATE","artifactType":"AVRO",' +
        '"groupId":"grp","artifactId":"a1"},"version":{"version":"1","owner":"","createdOn":"DATE",' +
        '"artifactType":"AVRO","globalId":1,"state":"ENABLED","groupId":"grp","contentId":1,"artifactId":"a1",' +
        '"modifiedBy":"","modifiedOn":"DATE"}}',
    )
  })

  it('gives identical content one contentId across artifacts and new content new ids', async () => {
    expect(await register(url, 'g', 'a1', A)).toEqual([1, 1, '1'])
    expect(await register(url, 'g', 'a2', A)).toEqual([2, 1, '1'])
    expect(await register(url, 'g', 'a3', record('B'))).toEqual([3, 3, '1'])
  })

  it('draws a contentId for every registration attempt, used or not, as Apicurio on SQL storage does', async () => {
    expect(await register(url, 'g', 'a1', A)).toEqual([1, 1, '1'])
    expect(await register(url, 'g', 'a1', A)).toBe(409) // draws contentId 2
    expect(await register(url, 'g', 'a1', A, '?ifExists=FIND_OR_CREATE_VERSION')).toEqual([1, 1, '1']) // draws 3
    expect(await register(url, 'g', 'a1', A, '?ifExists=CREATE_VERSION')).toEqual([2, 1, '2']) // draws 4 and 5
    expect(await register(url, 'g', 'b', record('B'))).toEqual([3, 6, '1'])
    // FIND_OR_CREATE_VERSION with new content stores it at the first draw (7) and draws again (8) to add it.
    expect(await register(url, 'g', 'b', record('C'), '?ifExists=FIND_OR_CREATE_VERSION')).toEqual([
      4,
      7,
      '2',
    ])
    expect(await register(url, 'g', 'c', record('D'))).toEqual([5, 9, '1'])
  })

  it('keeps the content of a refused registration, as Apicurio does', async () => {
    await register(url, 'g', 'a1', A)
    expect(await register(url, 'g', 'a1', record('Orphan'))).toBe(409)
    const orphan = await call(url, 'GET', '/ids/contentIds/2')
    expect([orphan.status, orphan.text]).toEqual([200, record('Orphan')])
  })

  it('answers FAIL on an existing artifact with 409 ArtifactAlreadyExistsException naming the group as sent', async () => {
    await register(url, 'grp', 'a1', A)
    const result = await call(url, 'POST', '/groups/grp/artifacts?ifExists=FAIL', createArtifactBody('a1', A))
    expect(result.status).toBe(409)
    expect(result.headers.get('content-type')).toBe('application/json')
    expect(result.text).toBe(
      '{"detail":"ArtifactAlreadyExistsException: An artifact with ID \'a1\' in group \'grp\' already exists.",' +
        '"title":"An artifact with ID \'a1\' in group \'grp\' already exists.","status":409,' +
        '"name":"ArtifactAlreadyExistsException"}',
    )
  })

  it('finds the newest version with the same content under FIND_OR_CREATE_VERSION', async () => {
    await register(url, 'g', 'a', A)
    await register(url, 'g', 'a', record('B'), '?ifExists=CREATE_VERSION')
    await register(url, 'g', 'a', A, '?ifExists=CREATE_VERSION')
    expect(await register(url, 'g', 'a', A, '?ifExists=FIND_OR_CREATE_VERSION')).toEqual([3, 1, '3'])
  })

  it('compares text exactly under FIND_OR_CREATE_VERSION unless canonical=true', async () => {
    await register(url, 'g', 'a', A)
    const spaced = '{ "name":"A", "type":"record", "doc":"d", "fields":[{"type":"int","name":"x"}]}'
    expect(await register(url, 'g', 'a', spaced, '?ifExists=FIND_OR_CREATE_VERSION&canonical=true')).toEqual([
      1,
      1,
      '1',
    ])
    // The canonical lookup stored the spaced text as contentId 2 before finding version 1.
    expect(await register(url, 'g', 'a', spaced, '?ifExists=FIND_OR_CREATE_VERSION')).toEqual([2, 2, '2'])
  })

  it('counts field order as a difference under canonical=true, as Apicurio 3.3 does', async () => {
    const ab = record('R', '[{"name":"a","type":"int"},{"name":"b","type":"int"}]')
    const ba = record('R', '[{"name":"b","type":"int"},{"name":"a","type":"int"}]')
    await register(url, 'g', 'r', ab)
    expect(await register(url, 'g', 'r', ba, '?ifExists=FIND_OR_CREATE_VERSION&canonical=true')).toEqual([
      2,
      2,
      '2',
    ])
  })

  it('adds a version for the same content under CREATE_VERSION', async () => {
    await register(url, 'g', 'a', A)
    expect(await register(url, 'g', 'a', A, '?ifExists=CREATE_VERSION')).toEqual([2, 1, '2'])
    const versions = json(await call(url, 'GET', '/groups/g/artifacts/a/versions'))
    expect(versions.versions.map((v: { version: string }) => v.version)).toEqual(['1', '2'])
  })

  it('answers a dry run in full but stores no artifact, though its ids and content are drawn', async () => {
    const dry = await call(url, 'POST', '/groups/g/artifacts?dryRun=true', createArtifactBody('dry', A))
    expect(json(dry).version).toMatchObject({ version: '1', globalId: 1, contentId: 1 })
    expect((await call(url, 'GET', '/groups/g/artifacts/dry')).status).toBe(404)
    expect((await call(url, 'GET', '/ids/globalIds/1')).status).toBe(404)
    expect((await call(url, 'GET', '/ids/contentIds/1')).text).toBe(A)
    expect(await register(url, 'g', 'real', record('B'))).toEqual([2, 2, '1'])
  })

  it('creates an empty artifact without firstVersion, which has no latest version', async () => {
    const result = await call(url, 'POST', '/groups/g/artifacts', {
      artifactId: 'empty',
      artifactType: 'AVRO',
    })
    expect(withoutDates(result.text)).toBe(
      '{"artifact":{"owner":"","createdOn":"DATE","modifiedBy":"","modifiedOn":"DATE","artifactType":"AVRO",' +
        '"groupId":"g","artifactId":"empty"}}',
    )
    const latest = await call(url, 'GET', '/groups/g/artifacts/empty/versions/branch=latest')
    expect(json(latest).title).toBe(
      "No version '<tip of the branch 'latest'>' found for artifact with ID 'empty' in group 'g'.",
    )
    expect(await register(url, 'g', 'empty', A, '?ifExists=FIND_OR_CREATE_VERSION')).toEqual([1, 1, '1'])
  })

  it('names versions 1, 2, ... and keeps explicit ones, refusing a duplicate with 409', async () => {
    expect(await register(url, 'g', 'v', record('V1'), '', { version: '1.0.0' })).toEqual([1, 1, '1.0.0'])
    expect(await register(url, 'g', 'v', record('V2'), '?ifExists=CREATE_VERSION')).toEqual([2, 2, '2'])
    const duplicate = await call(
      url,
      'POST',
      '/groups/g/artifacts?ifExists=CREATE_VERSION',
      createArtifactBody('v', record('V3'), { version: '1.0.0' }),
    )
    expect(duplicate.status).toBe(409)
    expect(json(duplicate)).toMatchObject({
      name: 'VersionAlreadyExistsException',
      title: "An artifact version '1.0.0' for artifact ID 'v' in group 'g' already exists.",
    })
  })

  it('generates a UUID when artifactId is missing or empty', async () => {
    const result = await call(url, 'POST', '/groups/g/artifacts', { ...createArtifactBody('', A) })
    expect(json(result).artifact.artifactId).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
  })

  it('discovers the AVRO type when artifactType is absent, and refuses what it cannot discover', async () => {
    const avro = await call(
      url,
      'POST',
      '/groups/g/artifacts',
      createArtifactBody('t', A, { artifactType: null }),
    )
    expect(json(avro).artifact.artifactType).toBe('AVRO')
    const other = await call(
      url,
      'POST',
      '/groups/g/artifacts',
      createArtifactBody('u', '{"foo":1}', { artifactType: null }),
    )
    expect([other.status, json(other).name, json(other).title]).toEqual([
      400,
      'InvalidArtifactTypeException',
      'Failed to discover artifact type from content.',
    ])
  })

  it('accepts content that is not valid Avro, as Apicurio does without a validity rule', async () => {
    expect(await register(url, 'g', 'junk', 'not json at all')).toEqual([1, 1, '1'])
  })

  it.each([
    [
      'empty content',
      createArtifactBody('x', ''),
      400,
      'BadRequestException',
      'Empty content is not allowed.',
    ],
    [
      'no content',
      {
        artifactId: 'x',
        artifactType: 'AVRO',
        firstVersion: { content: { contentType: 'application/json' } },
      },
      400,
      'MissingRequiredParameterException',
      'Request is missing a required parameter: body.firstVersion.content.content',
    ],
    [
      'no contentType',
      { artifactId: 'x', artifactType: 'AVRO', firstVersion: { content: { content: A } } },
      400,
      'MissingRequiredParameterException',
      'Request is missing a required parameter: body.firstVersion.content.contentType',
    ],
    [
      'no artifactType nor firstVersion',
      { artifactId: 'x' },
      400,
      'MissingRequiredParameterException',
      'Request is missing a required parameter: body.artifactType',
    ],

    [
      'an invalid version',
      createArtifactBody('x', A, { version: 'a b' }),
      400,
      'ValidationException',
      "Version ID 'a b' is invalid. It must consist of alphanumeric characters or '._-+', and have length 1..256 (inclusive).",
    ],
    [
      'a % in the artifact id',
      createArtifactBody('a%b', A),
      400,
      'InvalidArtifactIdException',
      'Character % and non ASCII characters are not allowed in artifact IDs.',
    ],
  ])('refuses %s as Apicurio does', async (_, body, status, name, title) => {
    const result = await call(url, 'POST', '/groups/g/artifacts', body)
    expect([result.status, json(result).name, json(result).title]).toEqual([status, name, title])
    expect(result.headers.get('content-type')).toBe('application/json')
  })

  it('answers malformed JSON with the bare text Apicurio sends', async () => {
    const result = await call(url, 'POST', '/groups/g/artifacts', '{"artifactId":')
    expect([result.status, result.text]).toEqual([400, 'Not able to deserialize data provided.'])
  })

  it('refuses a body that is not application/json with 415', async () => {
    const result = await call(
      url,
      'POST',
      '/groups/g/artifacts',
      JSON.stringify(createArtifactBody('x', A)),
      {
        'Content-Type': 'text/plain',
      },
    )
    expect([result.status, json(result).title]).toEqual([415, 'RESTEASY003065: Cannot consume content type'])
  })

  it('answers an unknown ifExists like RESTEasy: 404 NotFoundException', async () => {
    const result = await call(url, 'POST', '/groups/g/artifacts?ifExists=BOGUS', createArtifactBody('x', A))
    expect(result.status).toBe(404)
    expect(json(result)).toEqual({
      detail:
        'IllegalArgumentException: No enum constant io.apicurio.registry.rest.v3.beans.IfArtifactExists.BOGUS',
      title:
        'RESTEASY003870: Unable to extract parameter from http request: jakarta.ws.rs.QueryParam("ifExists") value is \'BOGUS\'',
      status: 404,
      name: 'NotFoundException',
    })
  })

  it('ignores X-Registry-* request headers, as the v3 API does', async () => {
    const result = await call(url, 'POST', '/groups/g/artifacts', createArtifactBody('from-body', A), {
      'X-Registry-ArtifactId': 'from-header',
      'X-Registry-ArtifactType': 'JSON',
    })
    expect(json(result).artifact).toMatchObject({ artifactId: 'from-body', artifactType: 'AVRO' })
  })
})

describe('adding a version', () => {
  it('answers VersionMetaData and adds the version', async () => {
    await register(url, 'g', 'a', A)
    const body = { content: { content: record('B'), contentType: 'application/json' } }
    const result = await call(url, 'POST', '/groups/g/artifacts/a/versions', body)
    expect(withoutDates(result.text)).toBe(
      '{"version":"2","owner":"","createdOn":"DATE","artifactType":"AVRO","globalId":2,"state":"ENABLED",' +
        '"groupId":"g","contentId":2,"artifactId":"a","modifiedBy":"","modifiedOn":"DATE"}',
    )
  })

  it('answers 404 for a missing artifact without drawing ids', async () => {
    const body = { content: { content: record('B'), contentType: 'application/json' } }
    const result = await call(url, 'POST', '/groups/g/artifacts/none/versions', body)
    expect([result.status, json(result).title]).toEqual([
      404,
      "No artifact with ID 'none' in group 'g' was found.",
    ])
    expect(await register(url, 'g', 'a', A)).toEqual([1, 1, '1'])
  })

  it('names missing members from the body root', async () => {
    await register(url, 'g', 'a', A)
    const result = await call(url, 'POST', '/groups/g/artifacts/a/versions', { content: { content: A } })
    expect(json(result).title).toBe('Request is missing a required parameter: body.content.contentType')
  })
})

describe('ids', () => {
  it('start where the options say, and beyond 2^53 are written as exact integers', async () => {
    await using big = await InMemoryRegistry.start({
      firstGlobalId: 2n ** 53n + 1n,
      firstContentId: 2n ** 40n,
    })
    const result = await call(big.url, 'POST', '/groups/g/artifacts', createArtifactBody('a', A))
    expect(result.text).toContain('"globalId":9007199254740993,')
    expect(result.text).toContain('"contentId":1099511627776,')
    const content = await call(big.url, 'GET', '/ids/globalIds/9007199254740993')
    expect([content.status, content.text]).toEqual([200, A])
  })

  it('accept the largest signed 64-bit id and then run out', async () => {
    await using edge = await InMemoryRegistry.start({ firstGlobalId: 2n ** 63n - 1n })
    const first = await call(edge.url, 'POST', '/groups/g/artifacts', createArtifactBody('a', A))
    expect(first.text).toContain('"globalId":9223372036854775807,')
    const second = await call(edge.url, 'POST', '/groups/g/artifacts', createArtifactBody('b', record('B')))
    expect([second.status, json(second).name]).toEqual([500, 'RangeError'])
  })
})
