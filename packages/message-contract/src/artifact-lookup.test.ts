import { SchemaNotFoundError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ArtifactLookup } from './artifact-lookup.js'

let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

const paths = () => registry.requests.map((request) => request.path.replace(/^.*\/v3/, ''))

describe('ArtifactLookup', () => {
  it("finds where an id lives after its schema's request, once per id, and peeks it without a request", async () => {
    const registered = await client.registerSchema('lookup-value', '"string"', { artifactType: 'AVRO' })
    const id = registered.globalId as number
    const fresh = new RegistryClient({ url: registry.url, groupId: 'default' })
    try {
      const lookup = new ArtifactLookup(fresh)
      expect(lookup.enabled).toBe(true)
      expect(lookup.peek('globalId', id)).toBeUndefined()
      registry.clearRequests()
      const found = await lookup.find('globalId', id)
      expect(found).toMatchObject({ groupId: 'default', artifactId: 'lookup-value' })
      expect(await lookup.find('globalId', id)).toBe(found)
      expect(lookup.peek('globalId', id)).toBe(found)
      expect(paths()).toEqual([`/ids/globalIds/${id}`, '/search/versions'])
    } finally {
      await fresh.close()
    }
  })

  it('does not search an id whose schema cannot be fetched, and tells nothing without findVersionOfId', async () => {
    const lookup = new ArtifactLookup(client)
    registry.clearRequests()
    await expect(lookup.find('globalId', 999_999)).rejects.toBeInstanceOf(SchemaNotFoundError)
    expect(paths()).toEqual(['/ids/globalIds/999999'])
    expect(lookup.has('globalId', 999_999)).toBe(false)
    const blind = new ArtifactLookup({
      getSchemaByGlobalId: () => Promise.reject(new Error('not asked')),
      getSchemaByContentId: () => Promise.reject(new Error('not asked')),
    })
    expect(blind.enabled).toBe(false)
    expect(await blind.find('globalId', 1)).toBeUndefined()
  })
})
