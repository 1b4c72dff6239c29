// The README's quickstart against an InMemoryRegistry, from the installed @x/serde.
import { strict as assert } from 'node:assert'
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

const EXPECTED = '000000000106752d310080a0d5edee66'

const registry = await InMemoryRegistry.start()
try {
  const client = new RegistryClient({ url: registry.url, groupId: 'quickstart' })
  const serializer = new AvroSerializer(client, 'UserEvent', { autoRegister: true, schema })
  const deserializer = new AvroDeserializer(client)
  const ctx = new SerializationContext('users', 'value')
  const value = { userId: 'u-1', action: 'SIGNED_UP', at: new Date('2026-01-01T00:00:00Z') }
  const bytes = await serializer.serialize(value, ctx)
  // 00, the 4-byte id, then Avro: "u-1" (06 75 2d 31), SIGNED_UP (00), 2026-01-01 in ms as a zigzag varint.
  assert.equal(Buffer.from(bytes).toString('hex'), EXPECTED)
  assert.deepEqual({ ...(await deserializer.deserialize(bytes, ctx)) }, value)
  await client.close()
  console.log(`quickstart: ${Buffer.from(bytes).toString('hex')}`)
} finally {
  await registry.close()
}
