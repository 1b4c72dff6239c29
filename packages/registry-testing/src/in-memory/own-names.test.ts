import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InMemoryRegistry } from '../in-memory-registry.js'
import { call, json, withoutDates } from './test-support/http.js'

// Names every plain object inherits, and `__proto__`, are stored and served as data like any other name.

let registry: InMemoryRegistry
let url: string

beforeEach(async () => {
  registry = await InMemoryRegistry.start()
  url = registry.url
})

afterEach(async () => {
  await registry.close()
})

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty']

function protoBody(artifactId: string, content: string, references: unknown[] = []): Record<string, unknown> {
  return {
    artifactId,
    artifactType: 'PROTOBUF',
    firstVersion: { content: { content, contentType: 'application/x-protobuf', references } },
  }
}

describe('names that Object.prototype has', () => {
  it.each(NAMES)('stores and serves a group, artifact, version and label named %s', async (name) => {
    const content = `{"type":"record","name":"R","fields":[]}`
    const created = await call(url, 'POST', `/groups/${name}/artifacts`, {
      artifactId: name,
      artifactType: 'AVRO',
      labels: JSON.parse(`{${JSON.stringify(name)}:"a"}`),
      firstVersion: { version: name, content: { content, contentType: 'application/json' } },
    })
    expect(created.status).toBe(200)
    const artifact = await call(url, 'GET', `/groups/${name}/artifacts/${name}`)
    expect(withoutDates(artifact.text)).toBe(
      `{"owner":"","createdOn":"DATE","modifiedBy":"","modifiedOn":"DATE","artifactType":"AVRO",` +
        `"labels":{${JSON.stringify(name)}:"a"},"groupId":${JSON.stringify(name)},"artifactId":${JSON.stringify(name)}}`,
    )
    const served = await call(url, 'GET', `/groups/${name}/artifacts/${name}/versions/${name}/content`)
    expect([served.status, served.text]).toEqual([200, content])
    const listed = json(await call(url, 'GET', `/groups/${name}/artifacts`))
    expect(listed.artifacts.map((a: { artifactId: string }) => a.artifactId)).toEqual([name])
    expect((await call(url, 'GET', '/groups/other/artifacts/constructor')).status).toBe(404)
  })

  it.each(NAMES)('validates a Protobuf import named %s against the reference of that name', async (name) => {
    expect((await call(url, 'POST', '/admin/rules', { ruleType: 'VALIDITY', config: 'FULL' })).status).toBe(
      204,
    )
    const dep = await call(
      url,
      'POST',
      '/groups/g/artifacts',
      protoBody('dep', 'syntax = "proto3";\nmessage C {}\n'),
    )
    expect(dep.status).toBe(200)
    const main = `syntax = "proto3";\nimport ${JSON.stringify(name)};\nmessage A { C c = 1; }\n`
    const reference = { groupId: 'g', artifactId: 'dep', version: '1', name }
    const created = await call(url, 'POST', '/groups/g/artifacts', protoBody('main', main, [reference]))
    expect([created.status, json(created).version?.version]).toEqual([200, '1'])
  })
})
