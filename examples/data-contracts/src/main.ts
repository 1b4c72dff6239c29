// Data contracts (Apicurio Registry 3.3 rulesets) on a real broker. The artifact's ruleset holds a CEL condition
// `total > 0.0` (WRITE, onFailure ERROR); version 2 adds a `currency` field and an UPGRADE migration that fills it.
// A producer with rules on sends two orders written with version 1 and is refused a third (total -5) before anything
// is sent; a consumer with `targetVersion: '2'` reads the version-1 messages migrated. Then a READ condition
// `total >= 20.0` with onFailure DLQ is added: a KafkaJsSerde consumer dead-letters o-1 to `<topic>.DLQ`, the rule
// named in the `x-serde-rule` header, and goes on with o-3. Needs a broker:
// KAFKA_BROKERS=host:port (the integration stage starts a real one). Rules need a real Apicurio Registry 3.3 at
// REGISTRY_URL, else an InMemoryRegistry is started here (it runs rules with the same engine).
import { randomUUID } from 'node:crypto'
import {
  AvroDeserializer,
  AvroSerializer,
  RegistryClient,
  RuleViolationError,
  SerializationContext,
} from '@x/serde'
import { KafkaJsSerde } from '@x/serde/kafka'
import { InMemoryRegistry } from '@x/serde/testing'
import { Kafka, logLevel } from 'kafkajs'

const brokers = process.env.KAFKA_BROKERS ? process.env.KAFKA_BROKERS.split(',') : undefined
if (!brokers) {
  console.error('Set KAFKA_BROKERS=host:port to the Kafka broker to use.')
  process.exit(2)
}

const v1 = {
  type: 'record',
  name: 'Order',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'total', type: 'double' },
  ],
}
const v2 = { ...v1, fields: [...v1.fields, { name: 'currency', type: 'string', default: 'EUR' }] }
const topic = `contracts-${randomUUID()}`
const artifactId = `${topic}-value`
const ctx = new SerializationContext(topic)

const registry = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
const kafka = new Kafka({ clientId: 'x-serde-data-contracts', brokers, logLevel: logLevel.NOTHING })
const producer = kafka.producer({ allowAutoTopicCreation: true })
const consumer = kafka.consumer({ groupId: `example-${randomUUID()}` })
const checker = kafka.consumer({ groupId: `example-${randomUUID()}` })
const letters = kafka.consumer({ groupId: `example-${randomUUID()}` })
const deadLetterTopic = `${topic}.DLQ`

try {
  await using client = new RegistryClient({
    url: process.env.REGISTRY_URL ?? registry!.url,
    groupId: process.env.REGISTRY_GROUP ?? 'default',
  })
  await client.registerSchema(artifactId, v1)
  await client.setArtifactRuleset(artifactId, {
    domainRules: [
      {
        name: 'positive',
        kind: 'CONDITION',
        type: 'CEL',
        mode: 'WRITE',
        expr: 'total > 0.0',
        onFailure: 'ERROR',
      },
    ],
    migrationRules: [],
  })

  const serializer = new AvroSerializer(client, artifactId, { rules: { enabled: true } })
  await producer.connect()
  let sent = 0
  for (const order of [
    { id: 'o-1', total: 12.5 },
    { id: 'o-2', total: -5 },
    { id: 'o-3', total: 99.9 },
  ]) {
    try {
      const value = Buffer.from(await serializer.serialize(order, ctx))
      await producer.send({ topic, messages: [{ key: order.id, value }] })
      sent += 1
      console.log(`sent ${order.id}`)
    } catch (error) {
      if (!(error instanceof RuleViolationError)) throw error
      console.log(`refused ${order.id}: ${error.message}`)
    }
  }

  await client.registerSchema(artifactId, v2, { ifExists: 'CREATE_VERSION' })
  await client.setVersionRuleset(artifactId, '2', {
    domainRules: [],
    migrationRules: [
      {
        name: 'add-currency',
        kind: 'TRANSFORM',
        type: 'JSONATA',
        mode: 'UPGRADE',
        expr: '$merge([$, {"currency": "EUR"}])',
      },
    ],
  })

  const deserializer = new AvroDeserializer(client, {
    rules: { enabled: true, migration: { enabled: true, targetVersion: '2' } },
  })
  await consumer.connect()
  await consumer.subscribe({ topic, fromBeginning: true })
  let received = 0
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after 60 s with ${received} orders`)), 60_000)
    consumer
      .run({
        eachMessage: async ({ message }) => {
          const order = await deserializer.deserialize(message.value!, ctx)
          received += 1
          console.log('read as version 2', order)
          if (received === sent) {
            clearTimeout(timer)
            resolve()
          }
        },
      })
      .catch(reject)
  })
  console.log(`read ${received} orders`)

  // A READ rule whose failure is dead-lettered: the consumer goes on with the next order.
  await client.setArtifactRuleset(artifactId, {
    domainRules: [
      {
        name: 'positive',
        kind: 'CONDITION',
        type: 'CEL',
        mode: 'WRITE',
        expr: 'total > 0.0',
        onFailure: 'ERROR',
      },
      {
        name: 'minimum',
        kind: 'CONDITION',
        type: 'CEL',
        mode: 'READ',
        expr: 'total >= 20.0',
        onFailure: 'DLQ',
      },
    ],
    migrationRules: [],
  })
  const serde = new KafkaJsSerde<{ id: string; total: number }>(client, { rules: { enabled: true } })
  await checker.connect()
  await checker.subscribe({ topic, fromBeginning: true })
  let settled = 0
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after 60 s with ${settled} orders`)), 60_000)
    const done = () => {
      settled += 1
      if (settled === sent) {
        clearTimeout(timer)
        resolve()
      }
    }
    const handle = serde.eachMessage(
      async ({ decoded }) => {
        console.log(`passed the READ rules ${decoded.value?.id} (total ${decoded.value?.total})`)
      },
      { deadLetter: { producer, topic: deadLetterTopic } },
    )
    checker
      .run({
        eachMessage: async (payload) => {
          await handle(payload)
          done()
        },
      })
      .catch(reject)
  })

  await letters.connect()
  await letters.subscribe({ topic: deadLetterTopic, fromBeginning: true })
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timed out after 60 s on the dead-letter topic')), 60_000)
    letters
      .run({
        eachMessage: async ({ message }) => {
          const header = (name: string) => String(message.headers?.[name])
          console.log(
            `dead-lettered ${String(message.key)}: rule ${header('x-serde-rule')}, mode ${header('x-serde-rule-mode')}, code ${header('x-serde-error-code')}`,
          )
          clearTimeout(timer)
          resolve()
        },
      })
      .catch(reject)
  })
} finally {
  await letters.disconnect()
  await checker.disconnect()
  await consumer.disconnect()
  await producer.disconnect()
  await registry?.close()
}
