import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { AvroDeserializer } from './avro-deserializer.js'
import { AvroSerializer } from './avro-serializer.js'

const SCHEMA = { type: 'record', name: 'Ping', fields: [{ name: 'n', type: 'int' }] }

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

it('tells the registry SERIALIZE for the serializer’s id lookup and DESERIALIZE for the deserializer’s', async () => {
  await using setup = new RegistryClient({ url: registry.url, groupId: 'default' })
  await setup.registerSchema('pings-value', SCHEMA)
  registry.clearRequests()

  const ctx = new SerializationContext('pings')
  await using producerClient = new RegistryClient({
    url: registry.url,
    groupId: 'default',
    clientId: 'ping-producer',
  })
  const bytes = await new AvroSerializer(producerClient, 'pings-value').serialize({ n: 7 }, ctx)
  expect(idLookups()).toEqual(['ping-producer SERIALIZE'])

  await using consumerClient = new RegistryClient({
    url: registry.url,
    groupId: 'default',
    clientId: 'ping-consumer',
  })
  const deserializer = new AvroDeserializer(consumerClient)
  expect(await deserializer.deserialize(bytes, ctx)).toEqual({ n: 7 })
  expect(await deserializer.deserialize(bytes, ctx)).toEqual({ n: 7 })
  // One lookup per id for the life of the client: the second message makes none.
  expect(idLookups()).toEqual(['ping-producer SERIALIZE', 'ping-consumer DESERIALIZE'])
})
