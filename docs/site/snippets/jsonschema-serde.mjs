// Run with `node example.mjs`: against REGISTRY_URL when set, else an in-memory registry (@x/registry-testing).
import { JsonSchemaDeserializer, JsonSchemaSerializer, TopicIdStrategy } from '@x/jsonschema-serde'
import { RegistryClient } from '@x/registry-client'
import { SerializationContext } from '@x/wire-format'

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { id: { type: 'integer' }, cents: { type: 'integer' } },
  required: ['id', 'cents'],
}
const inMemory = process.env.REGISTRY_URL
  ? undefined
  : await (await import('@x/registry-testing')).InMemoryRegistry.start()
const client = new RegistryClient({ url: process.env.REGISTRY_URL ?? inMemory.url, groupId: 'default' })
try {
  const serializer = new JsonSchemaSerializer(client, {
    artifactResolver: new TopicIdStrategy(), // artifact payments-value, as Java's default
    autoRegister: true,
    schema,
    useId: 'contentId',
  })
  const deserializer = new JsonSchemaDeserializer(client, { useId: 'contentId' })
  const ctx = new SerializationContext('payments')

  const bytes = await serializer.serialize({ id: 9007199254740993n, cents: 1250 }, ctx) // 00 <contentId> {"id":9007…
  console.log(await deserializer.deserialize(bytes, ctx)) // { id: 9007199254740993n, cents: 1250 }
} finally {
  await client.close()
  await inMemory?.close()
}
