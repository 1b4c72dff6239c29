import { SchemaRegistry } from '@kafkajs/confluent-schema-registry'
import { AvroSerializer } from '@x/avro-serde'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { RegistryClient } from '@x/registry-client'
import type { Admin, Kafka as KafkaType } from 'kafkajs'
import type { ConsumerJob } from './consumer-schedule.js'
import type { ConsumerResult, ConsumerSetup } from './consumer-types.js'
import { forkOnce } from './fork-once.js'
import type { Infra } from './infra.js'
import { peerRecord } from './records.js'
import type { Format } from './types.js'

const CONSUMER = new URL('./consumer.js', import.meta.url)
/** Messages per `producer.send`. */
const BATCH = 1000

/** The topics of one format: the timed one and the warm-up one. */
export interface FormatTopics {
  topic: string
  warmTopic: string
}

/** Frames written by ours (`useId: 'contentId'`) and by kafkajs-SR, which must be the same bytes. */
async function checkSameFrames(
  format: Format,
  infra: Infra,
  groupId: string,
  artifactId: string,
  contentId: number,
  registry: SchemaRegistry,
): Promise<void> {
  const client = new RegistryClient({ url: infra.registryUrl, groupId })
  try {
    const options = { useId: 'contentId' } as const
    const ours =
      format === 'avro'
        ? new AvroSerializer(client, artifactId, options)
        : new JsonSchemaSerializer(client, artifactId, options)
    for (const seq of [0, 1, 99_999]) {
      const record = peerRecord(format, seq)
      const mine = Buffer.from(
        await ours.serialize(record as never, { topic: 'check', field: 'value' } as never),
      )
      const theirs = await registry.encode(contentId, record)
      if (!mine.equals(theirs)) {
        throw new Error(
          `ours and kafkajs-SR write different ${format} frames for seq ${seq}:\n${mine.toString('hex')}\n${theirs.toString('hex')}`,
        )
      }
    }
  } finally {
    await client.close()
  }
}

/**
 * Creates and fills each format's topics (the timed one with `messages` messages, `seq` 0…N−1, the warm-up one with
 * `warmup`), written by kafkajs-SR's `encode(contentId, value)` once the frames are checked to be ours too.
 */
export async function produceConsumerTopics(options: {
  infra: Infra
  admin: Admin
  kafka: KafkaType
  formats: readonly Format[]
  ids: Record<Format, { contentId: number }>
  schemas: Record<Format, { artifactId: string }>
  groupId: string
  run: string
  messages: number
  warmup: number
}): Promise<{ topics: Record<string, FormatTopics>; created: string[] }> {
  const { infra, admin, kafka, formats, ids, run } = options
  const registry = new SchemaRegistry({ host: infra.ccompatUrl })
  const topics: Record<string, FormatTopics> = {}
  const created: string[] = []
  for (const format of formats) {
    const topic = `bench-e2e-${run}-consumers-${format}`
    topics[format] = { topic, warmTopic: `${topic}-warm` }
    created.push(topic, `${topic}-warm`)
  }
  await admin.createTopics({
    topics: created.map((topic) => ({ topic, numPartitions: 1 })),
    waitForLeaders: true,
  })
  const producer = kafka.producer()
  await producer.connect()
  try {
    for (const format of formats) {
      const { contentId } = ids[format]
      await checkSameFrames(
        format,
        infra,
        options.groupId,
        options.schemas[format].artifactId,
        contentId,
        registry,
      )
      for (const [topic, count] of [
        [topics[format]!.warmTopic, options.warmup],
        [topics[format]!.topic, options.messages],
      ] as const) {
        for (let sent = 0; sent < count; sent += BATCH) {
          const values: Promise<Buffer>[] = []
          for (let seq = sent; seq < Math.min(count, sent + BATCH); seq++)
            values.push(registry.encode(contentId, peerRecord(format, seq)))
          await producer.send({ topic, messages: (await Promise.all(values)).map((value) => ({ value })) })
        }
      }
    }
  } finally {
    await producer.disconnect()
  }
  return { topics, created }
}

/** A consumer process's limit: a minute, plus 5 ms per message read. */
function limitOf(setup: ConsumerSetup): number {
  return 60_000 + (setup.messages + (setup.start === 'warm' ? setup.warmup : 0)) * 5
}

/** Runs one consumer in a fresh `node` process and gives its timed read. */
export function runConsumer(setup: ConsumerSetup, execArgv: readonly string[] = []): Promise<ConsumerResult> {
  const what = `${setup.format}/${setup.row} (${setup.start})`
  return forkOnce<ConsumerSetup, ConsumerResult>(CONSUMER, setup, limitOf(setup), what, execArgv)
}

/** Runs the jobs in order, each in a fresh process; `progress` hears of each result. */
export async function runConsumerJobs(
  jobs: readonly ConsumerJob[],
  base: Omit<ConsumerSetup, 'row' | 'format' | 'start' | 'topic' | 'warmTopic' | 'consumerGroup'>,
  topics: Record<string, FormatTopics>,
  progress: (job: ConsumerJob, result: ConsumerResult) => void,
  execArgv: readonly string[] = [],
): Promise<ConsumerResult[]> {
  const results: ConsumerResult[] = []
  for (const [index, job] of jobs.entries()) {
    const { topic, warmTopic } = topics[job.format]!
    const result = await runConsumer(
      {
        ...base,
        row: job.row.name,
        format: job.format,
        start: job.start,
        topic,
        warmTopic,
        consumerGroup: `bench-e2e-consumer-${Date.now().toString(36)}-${index}`,
      },
      execArgv,
    )
    result.round = job.round
    results.push(result)
    progress(job, result)
  }
  return results
}
