import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InMemoryRegistry } from '../in-memory-registry.js'
import { call, json } from './test-support/http.js'

// Content nested far deeper than a stack holds is stored and served as text, never answered with a RangeError.

let registry: InMemoryRegistry
let url: string

beforeEach(async () => {
  registry = await InMemoryRegistry.start()
  url = registry.url
})

afterEach(async () => {
  await registry.close()
})

const DEEP = 100_000
const deepJson = `${'{"type":"object","properties":{"a":'.repeat(DEEP)}{}${'}}'.repeat(DEEP)}`
const deepAvro = `${'{"type":"array","items":'.repeat(DEEP)}"int"${'}'.repeat(DEEP)}`

function body(artifactId: string, artifactType: string, content: string, references: unknown[] = []) {
  return {
    artifactId,
    artifactType,
    firstVersion: { content: { content, contentType: 'application/json', references } },
  }
}

describe('content nested 100 000 levels deep', () => {
  it.each([
    ['JSON', deepJson],
    ['AVRO', deepAvro],
  ])('is stored, found again with canonical=true and served as it came (%s)', async (type, content) => {
    const created = await call(url, 'POST', '/groups/g/artifacts', body('deep', type, content))
    expect([created.status, json(created).version.version]).toEqual([200, '1'])
    const again = await call(
      url,
      'POST',
      '/groups/g/artifacts?ifExists=FIND_OR_CREATE_VERSION&canonical=true',
      body('deep', type, content),
    )
    expect([again.status, json(again).version.version]).toEqual([200, '1'])
    const served = await call(url, 'GET', '/groups/g/artifacts/deep/versions/1/content')
    expect([served.status, served.text === content]).toEqual([200, true])
  })

  it('is a JSON Schema InMemoryRegistry says it cannot dereference', async () => {
    expect((await call(url, 'POST', '/groups/g/artifacts', body('dep', 'JSON', '{}'))).status).toBe(200)
    const reference = { groupId: 'g', artifactId: 'dep', version: '1', name: 'dep.json' }
    const created = await call(
      url,
      'POST',
      '/groups/g/artifacts',
      body('deep', 'JSON', deepJson, [reference]),
    )
    expect(created.status).toBe(200)
    const served = await call(
      url,
      'GET',
      '/groups/g/artifacts/deep/versions/1/content?references=DEREFERENCE',
    )
    expect([served.status, json(served).name, json(served).detail]).toEqual([
      500,
      'UnsupportedOperationException',
      'UnsupportedOperationException: InMemoryRegistry cannot dereference: the content nests deeper than 1000 levels of JSON',
    ])
  })
})
