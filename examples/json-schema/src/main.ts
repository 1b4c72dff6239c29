// JSON Schema messages, as Apicurio's Java JsonSchemaKafkaSerializer writes them: 0x00, the 4-byte contentId, then
// compact UTF-8 JSON. Values are validated against the schema before they are written; a long beyond 2^53 (Java
// writes `long`s as plain integers) travels as a `bigint`, exact both ways.
import { RegistryClient, SerializationContext } from '@x/serde'
import { JsonSchemaDeserializer, JsonSchemaSerializer, TopicIdStrategy } from '@x/serde/json-schema'
import { InMemoryRegistry } from '@x/serde/testing'

const schema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'com.example.Payment',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    iban: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}[A-Z0-9]{4,30}$' },
    cents: { type: 'integer', minimum: 1 },
  },
  required: ['id', 'iban', 'cents'],
  additionalProperties: false,
}

const registry = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
try {
  await using client = new RegistryClient({
    url: process.env.REGISTRY_URL ?? registry!.url,
    groupId: 'default',
  })
  const serializer = new JsonSchemaSerializer(client, {
    artifactResolver: new TopicIdStrategy(),
    autoRegister: true,
    schema,
    useId: 'contentId',
  })
  const deserializer = new JsonSchemaDeserializer(client, { useId: 'contentId', validate: true })
  const ctx = new SerializationContext('payments')

  const payment = { id: 9007199254740993n, iban: 'DE89370400440532013000', cents: 1250 }
  const bytes = await serializer.serialize(payment, ctx)
  console.log(
    `frame: ${Buffer.from(bytes.subarray(0, 5)).toString('hex')} + ${Buffer.from(bytes.subarray(5)).toString()}`,
  )
  console.log('value:', await deserializer.deserialize(bytes, ctx))

  try {
    await serializer.serialize({ id: 1, iban: 'nope', cents: 0, memo: 'x' }, ctx)
  } catch (error) {
    const { code, paths } = error as { code: string; paths: string[] }
    console.log(`refused: ${code} ${paths.join(', ')}`)
  }
} finally {
  await registry?.close()
}
