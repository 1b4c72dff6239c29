// The function under test: @x/lambda's kafkaConsumer on a registry client, configured by the environment as a
// deployment would be. It answers the decoded records and how many requests its client sent.
import { kafkaConsumer } from '@x/lambda'
import { RegistryClient, readSnapshot } from '@x/registry-client'

const env = process.env
let requests = 0
const client = new RegistryClient({
  url: env.REGISTRY_URL,
  groupId: 'default',
  maxRetries: 0,
  fetch: (input, init) => {
    requests += 1
    return fetch(input, init)
  },
  ...(env.SNAPSHOT ? { snapshot: await readSnapshot(env.SNAPSHOT), offline: env.OFFLINE === '1' } : {}),
})
const anyDeserializer = {}
if (env.USE_ID) anyDeserializer.useId = env.USE_ID
if (env.PROTO_FRAMING) anyDeserializer.framing = env.PROTO_FRAMING
if (env.AVRO_UNIONS) anyDeserializer.avro = { unions: env.AVRO_UNIONS }

export const handler = kafkaConsumer(
  (event) => ({
    requests,
    records: event.records.map(({ topic, partition, offset, key, value, schema }) => ({
      topic,
      partition,
      offset,
      key,
      value,
      schema: schema && { ...schema },
    })),
  }),
  { client, anyDeserializer, ...(env.KEYS ? { keys: env.KEYS } : {}) },
)
