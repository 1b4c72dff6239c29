// Run with `node example.mjs`: write and read values in whatever format each topic's artifact has. Against
// REGISTRY_URL when set, else an in-memory registry (@x/registry-testing).
import { AnyDeserializer, AnySerializer } from '@x/message-contract'
import { RegistryClient } from '@x/registry-client'
import { SerializationContext } from '@x/wire-format'

const inMemory = process.env.REGISTRY_URL
  ? undefined
  : await (await import('@x/registry-testing')).InMemoryRegistry.start()
const client = new RegistryClient({ url: process.env.REGISTRY_URL ?? inMemory.url, groupId: 'any-format' })
try {
  // Two topics, two formats: an Avro artifact for `orders`, a JSON Schema one for `refunds` (TopicIdStrategy names
  // the artifact `<topic>-value`).
  const order = { type: 'record', name: 'Order', fields: [{ name: 'sku', type: 'string' }] }
  await client.registerSchema('orders-value', order)
  await client.registerSchema(
    'refunds-value',
    { type: 'object', properties: { cents: { type: 'integer' } }, required: ['cents'] },
    { artifactType: 'JSON' },
  )
  const writer = new AnySerializer(client)
  const reader = new AnyDeserializer(client)
  for (const [topic, value] of [
    ['orders', { sku: 'A-1' }],
    ['refunds', { cents: 250 }],
  ]) {
    const ctx = new SerializationContext(topic)
    const bytes = await writer.serialize(value, ctx) // in the format of the topic's artifact
    console.log(topic, writer.formatOf(ctx), await reader.deserialize(bytes, ctx)) // the reader needs no format
  }
} finally {
  await client.close()
  await inMemory?.close()
}
