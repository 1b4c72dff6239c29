// quickstart.mjs: register a schema, serialize a record, deserialize it. Run it with `node quickstart.mjs`.
// With REGISTRY_URL set (your Apicurio Registry 3, e.g. http://localhost:8080/apis/registry/v3) it talks to that
// registry; without it, it starts an in-memory registry (InMemoryRegistry, from @x/registry-testing) on 127.0.0.1.
import { AvroDeserializer, AvroSerializer, RegistryClient, SerializationContext } from '@x/serde'

const schema = {
  type: 'record',
  name: 'UserEvent',
  namespace: 'com.example',
  fields: [
    { name: 'userId', type: 'string' },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
  ],
}

const inMemory = process.env.REGISTRY_URL
  ? undefined
  : await (await import('@x/serde/testing')).InMemoryRegistry.start()
const client = new RegistryClient({ url: process.env.REGISTRY_URL ?? inMemory.url, groupId: 'quickstart' })
try {
  // The first serialize registers the schema (autoRegister) and caches its id; later calls make no request.
  const serializer = new AvroSerializer(client, 'users-value', { autoRegister: true, schema })
  const deserializer = new AvroDeserializer(client)
  const ctx = new SerializationContext('users', 'value')

  const bytes = await serializer.serialize({ userId: 'u-1', at: new Date('2026-01-01T00:00:00Z') }, ctx)
  console.log('bytes:', Buffer.from(bytes).toString('hex')) // 00, the 4-byte schema id, then the Avro body
  console.log('value:', await deserializer.deserialize(bytes, ctx)) // { userId: 'u-1', at: 2026-01-01T00:00:00.000Z }
} finally {
  await client.close()
  await inMemory?.close()
}
