// Run with `node example.mjs`: against REGISTRY_URL when set, else an in-memory registry (@x/registry-testing).
import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { RegistryClient } from '@x/registry-client'
import { SerializationContext } from '@x/wire-format'

const schema = {
  type: 'record',
  name: 'UserEvent',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'age', type: 'int' },
  ],
}
const inMemory = process.env.REGISTRY_URL
  ? undefined
  : await (await import('@x/registry-testing')).InMemoryRegistry.start()
const client = new RegistryClient({ url: process.env.REGISTRY_URL ?? inMemory.url, groupId: 'default' })
try {
  const ctx = new SerializationContext('users') // field defaults to MessageField.VALUE

  const serializer = new AvroSerializer(client, 'UserEvent', { autoRegister: true, schema })
  const bytes = await serializer.serialize({ id: 'u1', age: 42 }, ctx) // 00, the 4-byte id, 04 75 31 54 (a Buffer)

  const deserializer = new AvroDeserializer(client)
  console.log(await deserializer.deserialize(bytes, ctx)) // UserEvent { id: 'u1', age: 42 }
} finally {
  await client.close()
  await inMemory?.close()
}
