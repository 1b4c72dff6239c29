// Run with `node example.mjs`: against REGISTRY_URL when set, else an in-memory registry (@x/registry-testing).
import { ProtobufDeserializer, ProtobufSerializer, TopicIdStrategy } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { SerializationContext } from '@x/wire-format'

const schema = `syntax = "proto3";
package shop;
message Payment {
  int64 id = 1;
  string method = 2;
}`
const inMemory = process.env.REGISTRY_URL
  ? undefined
  : await (await import('@x/registry-testing')).InMemoryRegistry.start()
const client = new RegistryClient({ url: process.env.REGISTRY_URL ?? inMemory.url, groupId: 'default' })
try {
  const serializer = new ProtobufSerializer(client, {
    artifactResolver: new TopicIdStrategy(),
    autoRegister: true,
    schema,
    messageType: 'shop.Payment', // default: the file's first message, as Java
    useId: 'contentId', // Java 3.x writes contentIds
  })
  const deserializer = new ProtobufDeserializer(client, { useId: 'contentId' })
  const ctx = new SerializationContext('payments')

  const bytes = await serializer.serialize({ id: 9007199254740993n, method: 'TRANSFER' }, ctx)
  console.log(await deserializer.deserialize(bytes, ctx)) // { id: 9007199254740993n, method: 'TRANSFER' }
} finally {
  await client.close()
  await inMemory?.close()
}
