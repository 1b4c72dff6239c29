// Schema evolution. A producer writes with version 1 of `Customer`; the schema then gains a field with a default.
// A consumer that reads with the newest version (useLatestVersion) gets the default for old messages; one with a
// fixed readerSchema that lacks a field gets messages without it. The resolver for each (writer, reader) pair is built
// once and cached.
import { AvroDeserializer, AvroSerializer, RegistryClient, SerializationContext } from '@x/serde'
import { InMemoryRegistry } from '@x/serde/testing'

const v1 = {
  type: 'record',
  name: 'Customer',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'visits', type: 'int' },
  ],
}
const v2 = {
  ...v1,
  fields: [...v1.fields, { name: 'tier', type: 'string', default: 'standard' }],
}
const onlyId = {
  type: 'record',
  name: 'Customer',
  namespace: 'com.example',
  fields: [{ name: 'id', type: 'string' }],
}

const registry = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
try {
  const groupId = `schema-evolution-${Date.now()}`
  await using client = new RegistryClient({ url: process.env.REGISTRY_URL ?? registry!.url, groupId })
  const ctx = new SerializationContext('customers', 'value')

  // A message written with v1.
  const writerV1 = new AvroSerializer(client, 'customers-value', { autoRegister: true, schema: v1 })
  const bytes = await writerV1.serialize({ id: 'c-1', visits: 3 }, ctx)

  // The schema evolves: v2 becomes the latest version of the artifact.
  await client.registerSchema('customers-value', v2, { ifExists: 'CREATE_VERSION' })

  const latestReader = new AvroDeserializer(client, { artifactId: 'customers-value', useLatestVersion: true })
  console.log('read with the latest version (v2):', await latestReader.deserialize(bytes, ctx))

  const narrowReader = new AvroDeserializer(client, { readerSchema: onlyId })
  console.log('read with a reader schema of only id:', await narrowReader.deserialize(bytes, ctx))
} finally {
  await registry?.close()
}
