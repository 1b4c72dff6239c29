// A producer and consumer on Confluent's @confluentinc/kafka-javascript (its KafkaJS API; librdkafka underneath)
// using the serde end to end, through @x/serde/kafka's KafkaJsSerde: encodeMessage makes the message producer.send
// takes, eachMessage decodes every consumed message (any format; tombstones as null) and would send a poison message
// to a dead-letter topic. Confluent's client takes its KafkaJS options under `kafkaJS: {}`, and `fromBeginning` on
// the consumer. Its prebuilt binary comes from GitHub; where npm builds it from source instead, see the README for
// the Debian packages and `CKJS_LINKING=dynamic`. Needs a broker: KAFKA_BROKERS=host:port (the integration stage
// starts a real one). Schemas go to REGISTRY_URL when set, else to an InMemoryRegistry started here.
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { AvroSerializer, RegistryClient, TopicIdStrategy } from '@x/serde'
import { KafkaJsSerde } from '@x/serde/kafka'
import { InMemoryRegistry } from '@x/serde/testing'

const brokers = process.env.KAFKA_BROKERS ? process.env.KAFKA_BROKERS.split(',') : undefined
if (!brokers) {
  console.error('Set KAFKA_BROKERS=host:port to the Kafka broker to use.')
  process.exit(2)
}

// The client is a CommonJS package: loaded with require (an `import` of it works the same in a project that has it).
const { KafkaJS } = createRequire(import.meta.url)(
  '@confluentinc/kafka-javascript',
) as typeof import('@confluentinc/kafka-javascript')

const schema = {
  type: 'record',
  name: 'Order',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amountCents', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
  ],
}
const topic = `orders-${randomUUID()}`
const orders = [
  { id: 'o-1', amountCents: 1250, note: null },
  { id: 'o-2', amountCents: 99, note: 'gift wrap' },
  { id: 'o-3', amountCents: 2 ** 40, note: null },
]

const registry = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
const kafka = new KafkaJS.Kafka({
  kafkaJS: { clientId: 'x-serde-example', brokers, logLevel: KafkaJS.logLevel.NOTHING },
})
const admin = kafka.admin()
const producer = kafka.producer()
const consumer = kafka.consumer({ kafkaJS: { groupId: `example-${randomUUID()}`, fromBeginning: true } })

try {
  await using client = new RegistryClient({
    url: process.env.REGISTRY_URL ?? registry!.url,
    groupId: 'default',
  })
  const serde = new KafkaJsSerde(client, {
    serializer: new AvroSerializer(client, {
      artifactResolver: new TopicIdStrategy(),
      autoRegister: true,
      schema,
      useId: 'contentId',
    }),
    anyDeserializer: { useId: 'contentId' },
  })

  await admin.connect()
  await admin.createTopics({ topics: [{ topic }, { topic: `${topic}.DLQ` }] })
  await producer.connect()
  const messages = []
  for (const order of orders) messages.push(await serde.encodeMessage(topic, { key: order.id, value: order }))
  await producer.send({ topic, messages })
  console.log(`produced ${messages.length} orders to ${topic}`)

  await consumer.connect()
  await consumer.subscribe({ topics: [topic] })
  const received: unknown[] = []
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`timed out after 60 s with ${received.length} orders`)),
      60_000,
    )
    consumer
      .run({
        eachMessage: serde.eachMessage(
          async ({ decoded }) => {
            if (decoded.value === null) return
            received.push(decoded.value)
            console.log('consumed', decoded.value)
            if (received.length === orders.length) {
              clearTimeout(timer)
              resolve()
            }
          },
          { deadLetter: { producer, topic: `${topic}.DLQ` } },
        ),
      })
      .catch(reject)
  })
  console.log(`consumed ${received.length} orders`)
} finally {
  await consumer.disconnect()
  await producer.disconnect()
  await admin.disconnect()
  await registry?.close()
}
