// The schema id in a Kafka message header instead of the payload (Apicurio's headers mode): the payload is bare
// Avro, and `apicurio.value.contentId` carries the id as 8 bytes big-endian, so ids beyond 32 bits fit.
import { AvroDeserializer, AvroSerializer, RegistryClient, SerializationContext, WireFormat } from '@x/serde'
import { InMemoryRegistry } from '@x/serde/testing'

const schema = {
  type: 'record',
  name: 'Reading',
  namespace: 'com.example',
  fields: [
    { name: 'sensor', type: 'string' },
    { name: 'celsius', type: 'double' },
  ],
}

const registry = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
try {
  await using client = new RegistryClient({
    url: process.env.REGISTRY_URL ?? registry!.url,
    groupId: 'headers-mode',
  })
  const serializer = new AvroSerializer(client, 'Reading', {
    autoRegister: true,
    schema,
    useId: 'contentId',
    wireFormat: WireFormat.MESSAGE_HEADERS,
  })
  const deserializer = new AvroDeserializer(client, { useId: 'contentId' })
  const ctx = new SerializationContext({ topic: 'readings' })

  // `{ value: payload, headers }` goes straight into a kafkajs message.
  const { payload, headers } = await serializer.serializeMessage({ sensor: 't-7', celsius: 21.5 }, ctx)
  console.log(`payload: ${Buffer.from(payload).toString('hex')}`)
  for (const [name, value] of Object.entries(headers))
    console.log(`header:  ${name} = ${Buffer.from(value).toString('hex')}`)
  console.log('value:', await deserializer.deserializeMessage({ payload, headers }, ctx))
} finally {
  await registry?.close()
}
