import { describe, expect, it } from 'vitest'
import { contractTarget, data, http } from './test-support/contract-target.js'

// Version states, branches and lookup edge cases, as a real Apicurio Registry 3.3.3 answers them (each case was a
// difference between InMemoryRegistry and the real registry; this suite runs against both).

const target = contractTarget()
const call = (method: string, path: string, body?: unknown) => http(target, method, path, body)
const record = (name: string, field = 'int') =>
  JSON.stringify({ type: 'record', name, namespace: 'n', fields: [{ name: 'x', type: field }] })

async function create(
  artifactId: string,
  content: string,
  references?: unknown[],
): Promise<{ globalId: number }> {
  const answer = await call('POST', `/groups/${target.group}/artifacts`, {
    artifactId,
    artifactType: 'AVRO',
    firstVersion: {
      content: { content, contentType: 'application/json', ...(references ? { references } : {}) },
    },
  })
  expect(answer.status).toBe(200)
  return data(answer).version
}

async function addVersion(
  artifactId: string,
  content: string,
): Promise<{ globalId: number; version: string }> {
  const answer = await call('POST', `/groups/${target.group}/artifacts/${artifactId}/versions`, {
    content: { content, contentType: 'application/json' },
  })
  expect(answer.status).toBe(200)
  return data(answer)
}

describe('version states', () => {
  it('a disabled version leaves branch=latest, keeps its metadata, and its content is not found', async () => {
    await create('states', record('S'))
    const second = await addVersion('states', record('S', 'long'))
    const base = `/groups/${target.group}/artifacts/states/versions`
    expect(data(await call('GET', `${base}/2/state`))).toEqual({ state: 'ENABLED' })
    expect((await call('PUT', `${base}/2/state`, { state: 'DISABLED' })).status).toBe(204)
    expect(data(await call('GET', `${base}/2/state`))).toEqual({ state: 'DISABLED' })
    expect(data(await call('GET', `${base}/branch=latest`)).version).toBe('1')
    expect(data(await call('GET', `${base}/2`)).state).toBe('DISABLED')
    const content = await call('GET', `${base}/2/content`)
    expect([content.status, data(content).name]).toEqual([404, 'VersionNotFoundException'])
    const byId = await call('GET', `/ids/globalIds/${second.globalId}`)
    expect([byId.status, data(byId).title]).toEqual([
      404,
      `No artifact with ID '${second.globalId}' in group 'null' was found.`,
    ])
    expect((await call('PUT', `${base}/2/state`, { state: 'DEPRECATED' })).status).toBe(204)
    expect(data(await call('GET', `${base}/branch=latest`))).toMatchObject({
      version: '2',
      state: 'DEPRECATED',
    })
    expect((await call('PUT', `${base}/1/state`, { state: 'DISABLED' })).status).toBe(204)
    expect((await call('PUT', `${base}/2/state`, { state: 'DISABLED' })).status).toBe(204)
    const none = await call('GET', `${base}/branch=latest`)
    expect([none.status, data(none).name]).toEqual([404, 'VersionNotFoundException'])
  })

  it('refuses an unknown state with 400 and an unknown version with 404', async () => {
    await create('states-bad', record('B'))
    const base = `/groups/${target.group}/artifacts/states-bad/versions`
    const bad = await call('PUT', `${base}/1/state`, { state: 'NOPE' })
    expect([bad.status, data(bad).name]).toEqual([400, 'BadRequestException'])
    const missing = await call('PUT', `${base}/9/state`, { state: 'ENABLED' })
    expect([missing.status, data(missing).name]).toEqual([404, 'VersionNotFoundException'])
  })
})

describe('branches', () => {
  it('lists the system-defined latest branch of an artifact, and 404 for a missing artifact', async () => {
    await create('branched', record('Br'))
    const answer = await call('GET', `/groups/${target.group}/artifacts/branched/branches`)
    expect(answer.status).toBe(200)
    const body = data(answer)
    expect(body.count).toBe(1)
    expect(body.branches).toHaveLength(1)
    expect(body.branches[0]).toMatchObject({
      branchId: 'latest',
      owner: '',
      modifiedBy: '',
      systemDefined: true,
    })
    const missing = await call('GET', `/groups/${target.group}/artifacts/none-${target.run}/branches`)
    expect([missing.status, data(missing).name]).toEqual([404, 'ArtifactNotFoundException'])
  })
})

describe('lookups', () => {
  it('answers a lookup in a group with % or non-ASCII characters with 404, not 400 (that rule is for creating)', async () => {
    const latest = await call('GET', '/groups/g%25x/artifacts/a/versions/branch=latest')
    expect([latest.status, data(latest).title]).toEqual([
      404,
      "No version '<tip of the branch 'latest'>' found for artifact with ID 'a' in group 'g%x'.",
    ])
    const artifact = await call('GET', `/groups/${encodeURIComponent('grüppe')}/artifacts/a`)
    expect([artifact.status, data(artifact).title]).toEqual([
      404,
      "No artifact with ID 'a' in group 'grüppe' was found.",
    ])
  })

  it('dereferences a schema whose references define the same type twice, keeping the first definition', async () => {
    const dup = JSON.stringify({
      type: 'record',
      name: 'Dup',
      namespace: 'n',
      fields: [{ name: 'x', type: 'int' }],
    })
    const other = JSON.stringify({
      type: 'record',
      name: 'Dup',
      namespace: 'n',
      fields: [{ name: 'y', type: 'string' }],
    })
    await create('dup-1', dup)
    await create('dup-2', other)
    const parent = await create(
      'dup-parent',
      JSON.stringify({ type: 'record', name: 'P', fields: [{ name: 'd', type: 'n.Dup' }] }),
      [
        { groupId: target.group, artifactId: 'dup-1', version: '1', name: 'n.Dup' },
        { groupId: target.group, artifactId: 'dup-2', version: '1', name: 'n.Dup2' },
      ],
    )
    const answer = await call('GET', `/ids/globalIds/${parent.globalId}?references=DEREFERENCE`)
    expect([answer.status, answer.text]).toEqual([
      200,
      '{"type":"record","name":"P","fields":[{"name":"d","type":{"type":"record","name":"Dup","namespace":"n","fields":[{"name":"x","type":"int"}]}}]}',
    ])
  })

  it('serves /system/info/ with a trailing slash, and quotes the query in the 404 of an unknown path', async () => {
    const info = await call('GET', '/system/info/')
    expect([info.status, Object.keys(data(info))]).toEqual([
      200,
      ['name', 'description', 'version', 'builtOn'],
    ])
    const unknown = await call('GET', '/nothing/here?x=1&y=2')
    expect(unknown.status).toBe(404)
    expect(data(unknown).title).toMatch(
      /^RESTEASY003210: Could not find resource for full path: http:\/\/.+\/apis\/registry\/v3\/nothing\/here\?x=1&y=2$/,
    )
  })
})

describe('searching versions', () => {
  it('names the artifact versions behind a globalId or a contentId', async () => {
    const text = record('Found')
    const first = await create('found-1', text)
    const second = await create('found-2', text)
    const byGlobal = data(await call('GET', `/search/versions?globalId=${first.globalId}`))
    expect(byGlobal.count).toBe(1)
    expect(byGlobal.versions[0]).toMatchObject({
      groupId: target.group,
      artifactId: 'found-1',
      version: '1',
      globalId: first.globalId,
      artifactType: 'AVRO',
      state: 'ENABLED',
    })
    const contentId = (second as unknown as { contentId: number }).contentId
    const byContent = data(
      await call('GET', `/search/versions?contentId=${contentId}&groupId=${target.group}`),
    )
    expect(byContent.versions.map((v: { artifactId: string }) => v.artifactId)).toEqual([
      'found-1',
      'found-2',
    ])
    expect(data(await call('GET', '/search/versions?globalId=987654321'))).toEqual({ count: 0, versions: [] })
  })
})
