// The quickstart: register a schema, serialize a record, deserialize it, print the bytes and the value.
// Against REGISTRY_URL when set (any Apicurio Registry 3), else against an InMemoryRegistry it starts itself.
import { AvroDeserializer, AvroSerializer, RegistryClient, SerializationContext } from '@x/serde'
import { InMemoryRegistry } from '@x/serde/testing'

const schema = {
  type: 'record',
  name: 'UserEvent',
  namespace: 'com.example',
  fields: [
    { name: 'userId', type: 'string' },
    { name: 'action', type: { type: 'enum', name: 'Action', symbols: ['SIGNED_UP', 'LOGGED_IN'] } },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
  ],
}

const registry = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
try {
  await using client = new RegistryClient({
    url: process.env.REGISTRY_URL ?? registry!.url,
    groupId: 'quickstart',
  })
  const serializer = new AvroSerializer(client, 'UserEvent', { autoRegister: true, schema })
  const deserializer = new AvroDeserializer(client)
  const ctx = new SerializationContext('users', 'value')

  const bytes = await serializer.serialize(
    { userId: 'u-1', action: 'SIGNED_UP', at: new Date('2026-01-01T00:00:00Z') },
    ctx,
  )
  console.log(`bytes: ${Buffer.from(bytes).toString('hex')}`)
  console.log('value:', await deserializer.deserialize(bytes, ctx))
} finally {
  await registry?.close()
}
