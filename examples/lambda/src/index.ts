// The Lambda function: what a deployment ships as index.js (ES module) beside schemas.snapshot.json. Lambda imports
// it once per execution environment, so the client, its snapshot and the decoder are made once; `handler` is called
// for every MSK (or self-managed Kafka) event of the event source mapping.
import { fileURLToPath } from 'node:url'
import { kafkaConsumer } from '@x/lambda'
import { RegistryClient, readSnapshot } from '@x/registry-client'
import { z } from 'zod'

let requests = 0
const client = new RegistryClient({
  url: process.env.REGISTRY_URL ?? 'http://127.0.0.1:8080/apis/registry/v3',
  groupId: 'default',
  // The schemas of the topics this function reads, written at build time (`x-serde pull --snapshot`): a cold start
  // decodes its first record without asking the registry; an id not in it is still looked up there.
  snapshot: await readSnapshot(fileURLToPath(new URL('./schemas.snapshot.json', import.meta.url))),
  // Counted only to show it in this example.
  fetch: (input, init) => {
    requests += 1
    return fetch(input, init)
  },
})

/** What the function does with an order: any Standard Schema types and checks the decoded value. */
const Order = z.object({ id: z.string(), amountCents: z.number().int().nonnegative() })

export const handler = kafkaConsumer(
  async (event) => {
    const orders = event.records.map((record) => ({
      at: `${record.topic}/${record.partition}/${record.offset}`,
      key: record.key,
      order: record.value,
    }))
    return { orders, total: orders.reduce((sum, { order }) => sum + (order?.amountCents ?? 0), 0), requests }
  },
  {
    client,
    valueSchema: Order,
    // Poison records (a bad frame, an unknown id, a value Order refuses) would go here and the batch go on; an
    // outage fails the invocation so that the event source mapping retries it.
    deadLetter: ({ topic, partition, offset, headers }) => {
      console.error(`dead letter ${topic}/${partition}/${offset}: ${headers['x-serde-error-message']}`)
    },
  },
)
