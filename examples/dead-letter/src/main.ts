// Poison messages → a dead-letter topic. A consumer must not crash, nor stop its partition, on a message it can
// never read; it must also not dead-letter good messages because the registry is briefly down. The rule:
//   - DeserializationError (bad frame, undecodable payload, schema mismatch) and SchemaNotFoundError (an id the
//     registry does not know): the message is poison. Send it, as it came, to `<topic>.DLQ` and go on.
//   - RegistryConnectionError or AuthenticationError: the registry is unreachable or refuses us. Nothing is wrong
//     with the message: do not commit its offset, back off and read it again (kafkajs: throw from eachMessage).
// Every DeserializationError, and every registry error raised while deserializing, carries what the dead-letter
// record needs (non-enumerable, so logs stay small): failedMessageOf(error) → { payload, schemaId, idType,
// headers, context }.
import {
  AvroDeserializer,
  AvroSerializer,
  failedMessageOf,
  isSerdeError,
  RegistryClient,
  SerializationContext,
} from '@x/serde'
import { InMemoryRegistry } from '@x/serde/testing'

interface ConsumedMessage {
  offset: string
  value: Buffer
  headers: Record<string, Buffer | string>
}

interface DeadLetter {
  topic: string
  value: Buffer
  headers: Record<string, Buffer | string>
}

const schema = {
  type: 'record',
  name: 'Order',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'cents', type: 'long' },
  ],
}

/** What to do with a message that could not be read: dead-letter it, or leave it for a retry. */
function deadLetterOf(error: unknown, message: ConsumedMessage): DeadLetter | 'retry' {
  if (isSerdeError(error, 'REGISTRY_CONNECTION') || isSerdeError(error, 'AUTHENTICATION')) return 'retry'
  const failed = failedMessageOf(error)
  // A programming error (a TypeError for misuse) or a failure outside the serde: let it crash loudly.
  if (failed === undefined || !isSerdeError(error)) throw error
  return {
    topic: `${failed.context?.topic ?? 'unknown'}.DLQ`,
    value: Buffer.from(failed.payload),
    headers: {
      ...message.headers,
      'dlq.error.code': error.code,
      'dlq.error.message': error.message,
      'dlq.original.offset': message.offset,
      ...(failed.schemaId === undefined ? {} : { 'dlq.schema.id': `${failed.idType}:${failed.schemaId}` }),
    },
  }
}

const registry = await InMemoryRegistry.start({ firstGlobalId: 1 })
try {
  await using client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
  const serializer = new AvroSerializer(client, { artifactId: 'orders-value', autoRegister: true, schema })
  const deserializer = new AvroDeserializer(client)
  await using coldClient = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
  const coldDeserializer = new AvroDeserializer(coldClient)
  const ctx = new SerializationContext('orders')

  const good = Buffer.from(await serializer.serialize({ id: 'o-1', cents: 1250n }, ctx))
  const consumed: ConsumedMessage[] = [
    { offset: '0', value: good, headers: { 'trace-id': 'a1' } },
    { offset: '1', value: Buffer.from('{"id":"o-2"}'), headers: { 'trace-id': 'a2' } }, // JSON by mistake
    { offset: '2', value: Buffer.from([0, 0, 0, 0x30, 0x39, 2]), headers: { 'trace-id': 'a3' } }, // unknown id 12345
    { offset: '3', value: good.subarray(0, 8), headers: { 'trace-id': 'a4' } }, // truncated
    { offset: '4', value: good, headers: { 'trace-id': 'a5' } }, // read while the registry is down (cold client)
  ]

  const deadLetters: DeadLetter[] = []
  for (const message of consumed) {
    // The last message goes to a second consumer, cold, while the registry is down: it must be retried.
    const reader = message.offset === '4' ? coldDeserializer : deserializer
    if (message.offset === '4') registry.inject({ status: 503, times: 1 })
    try {
      const order = await reader.deserialize(message.value, ctx)
      console.log(`offset ${message.offset}: read`, order)
    } catch (error) {
      const outcome = deadLetterOf(error, message)
      if (outcome === 'retry') {
        console.log(
          `offset ${message.offset}: ${(error as Error).name}, not poison: back off and read it again`,
        )
        continue
      }
      deadLetters.push(outcome)
      console.log(
        `offset ${message.offset}: ${outcome.headers['dlq.error.code']} → ${outcome.topic}` +
          ` (${outcome.value.length} bytes kept${outcome.headers['dlq.schema.id'] ? `, ${outcome.headers['dlq.schema.id']}` : ''})`,
      )
    }
  }
  console.log(
    `dead letters: ${deadLetters.length}, first headers: ${Object.keys(deadLetters[0]!.headers).join(', ')}`,
  )
} finally {
  await registry.close()
}
