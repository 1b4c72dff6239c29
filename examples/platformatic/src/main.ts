// A @platformatic/kafka 2.x producer and consumer (Node 22 or newer) with the serde as their schema registry:
// ApicurioSchemaRegistry from @x/serde/kafka is handed to both as `registry`, so the producer sends plain objects and
// the consumer reads them back decoded, whatever format wrote them; each consumed message's `metadata.schemas.value`
// says which schema id wrote it. Needs a broker: KAFKA_BROKERS=host:port (the integration stage starts a real one).
// Schemas go to REGISTRY_URL when set, else to an InMemoryRegistry started here. One serializer serves every topic
// through TopicIdStrategy (artifact `<topic>-value`, as Apicurio's Java serde).
import { randomUUID } from 'node:crypto'
import { Consumer, MessagesStreamModes, Producer } from '@platformatic/kafka'
import { AvroSerializer, RegistryClient, TopicIdStrategy } from '@x/serde'
import { ApicurioSchemaRegistry } from '@x/serde/kafka'
import { InMemoryRegistry } from '@x/serde/testing'

const brokers = process.env.KAFKA_BROKERS ? process.env.KAFKA_BROKERS.split(',') : undefined
if (!brokers) {
  console.error('Set KAFKA_BROKERS=host:port to the Kafka broker to use.')
  process.exit(2)
}

interface Order {
  id: string
  amountCents: number
  note: string | null
}
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
const orders: Order[] = [
  { id: 'o-1', amountCents: 1250, note: null },
  { id: 'o-2', amountCents: 99, note: 'gift wrap' },
  { id: 'o-3', amountCents: 2 ** 40, note: null },
]

const inMemory = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
const client = new RegistryClient({ url: process.env.REGISTRY_URL ?? inMemory!.url, groupId: 'default' })
const registry = new ApicurioSchemaRegistry<Order>(client, {
  serializer: new AvroSerializer<Order>(client, {
    artifactResolver: new TopicIdStrategy(),
    autoRegister: true,
    schema,
  }),
  // A poison message (it will never decode) goes here and the stream goes on; give `{ producer, topic }` instead to
  // send it, its bytes and `x-serde-*` headers, to a dead-letter topic.
  deadLetter: ({ topic: from, partition, offset, error }) => {
    console.error(`skipped ${from}/${partition}@${offset}: ${(error as Error).message}`)
  },
})
const producer = new Producer({
  clientId: 'x-serde-example',
  bootstrapBrokers: brokers,
  registry,
  autocreateTopics: true,
})
const consumer = new Consumer({
  groupId: `example-${randomUUID()}`,
  clientId: 'x-serde-example',
  bootstrapBrokers: brokers,
  registry,
})
const timer = setTimeout(() => {
  console.error('timed out after 60 s')
  process.exit(1)
}, 60_000)

try {
  await producer.send({ messages: orders.map((order) => ({ topic, key: order.id, value: order })) })
  console.log(`produced ${orders.length} orders to ${topic}`)

  const stream = await consumer.consume({
    topics: [topic],
    mode: MessagesStreamModes.EARLIEST,
    // Without it, one message that cannot be decoded ends the stream, and the good messages of its fetch are lost.
    // The registry's handler sends a poison message to `deadLetter` and skips it; anything else (an outage: the
    // registry unreachable) fails the stream, for the application to restart from the committed offsets.
    onDeserializationError: registry.getDeserializationErrorHandler(),
  })
  let received = 0
  for await (const message of stream) {
    const { id, format } = (message.metadata.schemas as { value: { id: number; format: string } }).value
    console.log('consumed', message.value, `(${format}, globalId ${id})`)
    received += 1
    if (received === orders.length) break
  }
  await stream.close()
  console.log(`consumed ${received} orders`)
} finally {
  clearTimeout(timer)
  await consumer.close(true)
  await producer.close()
  await client.close()
  await inMemory?.close()
}
