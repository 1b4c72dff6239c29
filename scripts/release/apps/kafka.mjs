// @x/kafka with KafkaJS: a kafkajs producer's message made by KafkaJsSerde, then read back as a consumer gets it.
// No broker is needed: what is checked is that the installed packages work together in an application.
import { strict as assert } from 'node:assert'
import { AvroSerializer } from '@x/avro-serde'
import { KafkaJsSerde } from '@x/kafka'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { Kafka, logLevel } from 'kafkajs'

const schema = {
  type: 'record',
  name: 'Order',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amountCents', type: 'long' },
  ],
}
const registry = await InMemoryRegistry.start()
try {
  const client = new RegistryClient({ url: registry.url, groupId: 'default' })
  const serde = new KafkaJsSerde(client, {
    serializer: new AvroSerializer(client, 'orders-value', { autoRegister: true, schema }),
  })
  // The producer KafkaJS would send it with (not connected: there is no broker here).
  const producer = new Kafka({ brokers: ['127.0.0.1:9'], logLevel: logLevel.NOTHING }).producer()
  assert.equal(typeof producer.send, 'function')
  const message = await serde.encodeMessage('orders', { key: 'o-1', value: { id: 'o-1', amountCents: 1250 } })
  assert.ok(Buffer.isBuffer(message.value), 'KafkaJS needs Buffers')
  const decoded = await serde.decodeMessage('orders', 0, { ...message, offset: '0', timestamp: '0' })
  assert.deepEqual({ ...decoded.value }, { id: 'o-1', amountCents: 1250 })
  await client.close()
  console.log(`kafka: ${message.value.toString('hex')}`)
} finally {
  await registry.close()
}
