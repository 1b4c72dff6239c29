import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { AnyDeserializer } from './any-deserializer.js'
import { AnySerializer } from './any-serializer.js'

let registry: InMemoryRegistry

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
})

afterAll(async () => {
  await registry.close()
})

/** The usage-telemetry headers of each id lookup the registry saw. */
function idLookups(): string[] {
  return registry.requests
    .filter((r) => r.path.includes('/ids/'))
    .map((r) => `${r.headers['x-registry-client-id']} ${r.headers['x-registry-operation']}`)
}

it('AnySerializer tells the registry SERIALIZE and AnyDeserializer DESERIALIZE on their id lookups', async () => {
  await using setup = new RegistryClient({ url: registry.url, groupId: 'default' })
  await setup.registerSchema('beats-value', {
    type: 'record',
    name: 'Beat',
    fields: [{ name: 'n', type: 'int' }],
  })
  registry.clearRequests()

  const ctx = new SerializationContext('beats')
  await using producerClient = new RegistryClient({
    url: registry.url,
    groupId: 'default',
    clientId: 'beat-producer',
  })
  const bytes = await new AnySerializer(producerClient).serialize({ n: 3 }, ctx)
  expect(idLookups()).toEqual(['beat-producer SERIALIZE'])

  await using consumerClient = new RegistryClient({
    url: registry.url,
    groupId: 'default',
    clientId: 'beat-consumer',
  })
  expect(await new AnyDeserializer(consumerClient).deserialize(bytes, ctx)).toEqual({ n: 3 })
  expect(idLookups()).toEqual(['beat-producer SERIALIZE', 'beat-consumer DESERIALIZE'])
})
