// A Lambda function on @x/lambda, run locally end to end: an Avro schema registered (REGISTRY_URL, else an
// InMemoryRegistry started here), two orders written as Apicurio frames, the schema snapshot the build would write
// (`x-serde pull --artifact <topic>-value --snapshot dist/schemas.snapshot.json` does the same), then the function
// invoked cold — a fresh process that imports index.js as Lambda's Node runtime does — with an Amazon MSK event of
// those records. It decodes them with no registry request.
import { fork } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { AvroSerializer, RegistryClient, SerializationContext, takeSnapshot } from '@x/serde'
import { InMemoryRegistry } from '@x/serde/testing'

const schema = {
  type: 'record',
  name: 'Order',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amountCents', type: 'long' },
  ],
}
const topic = `orders-${randomUUID()}`
const registry = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
const url = process.env.REGISTRY_URL ?? registry!.url

try {
  // The producer's side.
  const client = new RegistryClient({ url, groupId: 'default' })
  const serializer = new AvroSerializer(client, `${topic}-value`, { autoRegister: true, schema })
  const ctx = new SerializationContext(topic)
  const orders = [
    { id: 'o-1', amountCents: 1250 },
    { id: 'o-2', amountCents: 99 },
  ]
  const frames = await Promise.all(orders.map((order) => serializer.serialize(order, ctx)))

  // The build: the schemas the function reads, into the file shipped beside it.
  const snapshot = await takeSnapshot(client, [{ artifactId: `${topic}-value` }])
  await writeFile(
    fileURLToPath(new URL('./schemas.snapshot.json', import.meta.url)),
    JSON.stringify(snapshot),
  )
  await client.close()
  console.log(
    `snapshot of ${snapshot.versions.map((v) => `${v.artifactId} version ${v.version}`).join(', ')}`,
  )

  // The event Lambda's event source mapping hands the function: records by "topic-partition", base64 bytes.
  const event = {
    eventSource: 'aws:kafka',
    eventSourceArn: 'arn:aws:kafka:us-east-1:123456789012:cluster/example/0',
    bootstrapServers: 'b-1.example:9092',
    records: {
      [`${topic}-0`]: frames.map((frame, offset) => ({
        topic,
        partition: 0,
        offset,
        timestamp: Date.now(),
        timestampType: 'CREATE_TIME',
        key: Buffer.from(orders[offset]!.id).toString('base64'),
        value: Buffer.from(frame).toString('base64'),
        headers: [],
      })),
    },
  }
  const child = fork(fileURLToPath(new URL('./runtime.js', import.meta.url)), {
    env: { ...process.env, REGISTRY_URL: url },
  })
  const answer = await new Promise((resolve) => {
    child.once('message', resolve)
    child.send(event)
  })
  const { result, error } = answer as {
    result?: { orders: unknown[]; total: number; requests: number }
    error?: string
  }
  if (error !== undefined) throw new Error(`the invocation failed: ${error}`)
  for (const order of result!.orders) console.log('decoded', order)
  console.log(`total ${result!.total} cents; registry requests in the cold invocation: ${result!.requests}`)
} finally {
  await registry?.close()
}
