// Run with `node example.mjs`: the message KafkaJS's producer.send takes, and a consumed one decoded, without a
// broker. Against REGISTRY_URL when set, else an in-memory registry (@x/registry-testing).
import { AvroSerializer } from '@x/avro-serde'
import { KafkaJsSerde } from '@x/kafka'
import { RegistryClient } from '@x/registry-client'

const schema = { type: 'record', name: 'Order', fields: [{ name: 'sku', type: 'string' }] }
const inMemory = process.env.REGISTRY_URL
  ? undefined
  : await (await import('@x/registry-testing')).InMemoryRegistry.start()
const client = new RegistryClient({ url: process.env.REGISTRY_URL ?? inMemory.url, groupId: 'kafka-example' })
try {
  const serde = new KafkaJsSerde(client, {
    serializer: new AvroSerializer(client, 'orders-value', { autoRegister: true, schema }),
  })
  // What you give producer.send({ topic: 'orders', messages: [message] }): key and value as Buffers.
  const message = await serde.encodeMessage('orders', { key: 'o-1', value: { sku: 'A-1' } })
  console.log(message) // { value: <Buffer 00 00 00 00 01 06 41 2d 31>, headers: {}, key: <Buffer 6f 2d 31> }

  // What consumer.run({ eachMessage: serde.eachMessage(handler) }) hands your handler, from a consumed message.
  const decoded = await serde.decodeMessage('orders', 0, { ...message, offset: '0', timestamp: '0' })
  console.log(decoded.key, decoded.value, decoded.schema) // o-1 Order { sku: 'A-1' } { idType: 'globalId', id: 1, … }
} finally {
  await client.close()
  await inMemory?.close()
}
