import { request } from 'node:http'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InMemoryRegistry } from '../in-memory-registry.js'
import { normalizePath } from './path-normalization.js'
import { createArtifactBody, record } from './test-support/http.js'

let registry: InMemoryRegistry

beforeEach(async () => {
  registry = await InMemoryRegistry.start()
})

afterEach(async () => {
  await registry.close()
})

/** Sends a request with its path exactly as written (`fetch` would remove dot segments before sending). */
function rawCall(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const { hostname, port, pathname } = new URL(registry.url)
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, method, path: `${pathname}${path}`, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) })
        })
      },
    )
    req.on('error', reject)
    req.end(body === undefined ? undefined : JSON.stringify(body))
  })
}

describe('a request path with dot segments', () => {
  it.each(['/groups/./artifacts', '/groups/%2E/artifacts', '/groups/%2e/artifacts'])(
    'POST %s is POST /groups/artifacts, which only reads or deletes a group: 405, no group "." is created',
    async (path) => {
      const answer = await rawCall('POST', path, createArtifactBody('a', record('A')))
      expect([answer.status, answer.body.name]).toEqual([405, 'NotAllowedException'])
      expect((await rawCall('GET', '/groups/g/artifacts/a')).status).toBe(404)
      expect((await rawCall('GET', '/search/versions')).body.count).toBe(0)
    },
  )

  it.each(['/groups/../artifacts', '/groups/%2E%2E/artifacts', '/groups/.%2e/artifacts'])(
    'POST %s is POST /artifacts, which no resource serves: 404, nothing registered',
    async (path) => {
      const answer = await rawCall('POST', path, createArtifactBody('a', record('A')))
      expect([answer.status, answer.body.name]).toEqual([404, 'NotFoundException'])
      expect((await rawCall('GET', '/search/versions')).body.count).toBe(0)
    },
  )

  it('serves the same artifact under a path spelled with dot segments and escaped letters', async () => {
    expect((await rawCall('POST', '/groups/g/artifacts', createArtifactBody('a', record('A')))).status).toBe(
      200,
    )
    const answer = await rawCall('GET', '/groups/x/../%67/artifacts/./a')
    expect([answer.status, answer.body.groupId, answer.body.artifactId]).toEqual([200, 'g', 'a'])
  })

  it('keeps a group id that only contains dots beside other characters', async () => {
    const created = await rawCall('POST', '/groups/..a./artifacts', createArtifactBody('.b', record('A')))
    expect([created.status, created.body.artifact.groupId, created.body.artifact.artifactId]).toEqual([
      200,
      '..a.',
      '.b',
    ])
    expect((await rawCall('GET', '/groups/..a./artifacts/.b')).status).toBe(200)
  })
})

describe('normalizePath', () => {
  it.each([
    ['/apis/registry/v3/groups/g/artifacts', '/apis/registry/v3/groups/g/artifacts'],
    ['/a/./b', '/a/b'],
    ['/a/b/../c', '/a/c'],
    ['/a/b/.', '/a/b/'],
    ['/a/b/..', '/a/'],
    ['/../a', '/a'],
    ['/a/%2e%2E/b', '/b'],
    ['/a/%41%7E%5f%2D', '/a/A~_-'],
    ['/a/%2F.%2F/b', '/a/%2F.%2F/b'],
    ['/a/%252E/b', '/a/%252E/b'],
    ['/a/1.0/b', '/a/1.0/b'],
  ])('turns %s into %s', (raw, routed) => {
    expect(normalizePath(raw)).toBe(routed)
  })
})
