// quickstart.mts: the quickstart in TypeScript, typed end to end. Compile and run it with
// `npx tsc -p tsconfig.json && node quickstart.mjs` (the tsconfig.json shown beside it on the page).
import { AvroDeserializer, AvroSerializer, RegistryClient, SerializationContext } from '@x/serde'
import { InMemoryRegistry } from '@x/serde/testing'

interface UserEvent {
  userId: string
  at: Date
}

const schema = {
  type: 'record',
  name: 'UserEvent',
  namespace: 'com.example',
  fields: [
    { name: 'userId', type: 'string' },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
  ],
}

const inMemory = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
const url = process.env.REGISTRY_URL ?? inMemory?.url ?? ''
const client = new RegistryClient({ url, groupId: 'quickstart' })
try {
  const serializer = new AvroSerializer<UserEvent>(client, 'users-value', { autoRegister: true, schema })
  const deserializer = new AvroDeserializer<UserEvent>(client)
  const ctx = new SerializationContext('users', 'value')

  const bytes = await serializer.serialize({ userId: 'u-1', at: new Date('2026-01-01T00:00:00Z') }, ctx)
  const event: UserEvent = await deserializer.deserialize(bytes, ctx)
  console.log(`${event.userId} at ${event.at.toISOString()}`)
} finally {
  await client.close()
  await inMemory?.close()
}
