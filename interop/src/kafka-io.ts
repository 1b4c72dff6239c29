import { type IHeaders, Kafka, type KafkaMessage, logLevel, Partitioners } from 'kafkajs'

/** A record as it travels through Kafka: raw value bytes and raw header bytes. */
export interface RawMessage {
  value: Buffer
  headers: Record<string, Buffer>
}

function kafka(brokers: string): Kafka {
  return new Kafka({ clientId: 'x-serde-interop', brokers: brokers.split(','), logLevel: logLevel.NOTHING })
}

/** Creates a one-partition topic and waits for its leader. */
export async function createTopic(brokers: string, topic: string): Promise<void> {
  const admin = kafka(brokers).admin()
  await admin.connect()
  try {
    await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true, timeout: 30_000 })
  } finally {
    await admin.disconnect()
  }
}

/** Sends the messages in order with kafkajs (values and header values must be Buffers for kafkajs). */
export async function produceRaw(
  brokers: string,
  topic: string,
  messages: readonly { value: Buffer; headers?: IHeaders }[],
): Promise<void> {
  const producer = kafka(brokers).producer({ createPartitioner: Partitioners.DefaultPartitioner })
  await producer.connect()
  try {
    await producer.send({ topic, acks: -1, messages: messages.map((m) => ({ ...m })) })
  } finally {
    await producer.disconnect()
  }
}

function toBuffer(value: Buffer | string | (Buffer | string)[] | undefined): Buffer {
  const last = Array.isArray(value) ? value[value.length - 1] : value
  return typeof last === 'string' ? Buffer.from(last) : (last ?? Buffer.alloc(0))
}

/**
 * The first `count` messages of `topic`, each as `read` makes it of the message and its partition, read with kafkajs
 * in a fresh consumer group (named after `group` and the topic); fails after `timeoutMs`.
 */
export async function consumeFirst<T>(
  brokers: string,
  topic: string,
  count: number,
  read: (message: KafkaMessage, partition: number) => T,
  { group = 'interop', timeoutMs = 60_000 }: { group?: string; timeoutMs?: number } = {},
): Promise<T[]> {
  const consumer = kafka(brokers).consumer({
    groupId: `${group}-${topic}-${Math.random().toString(36).slice(2, 10)}`,
    maxWaitTimeInMs: 200,
  })
  await consumer.connect()
  const received: T[] = []
  try {
    await consumer.subscribe({ topic, fromBeginning: true })
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(
        () =>
          fail(
            new Error(`consumed ${received.length} of ${count} messages from ${topic} in ${timeoutMs} ms`),
          ),
        timeoutMs,
      )
      consumer
        .run({
          eachMessage: async ({ partition, message }) => {
            if (received.length >= count) return
            received.push(read(message, partition))
            if (received.length === count) {
              clearTimeout(timer)
              done()
            }
          },
        })
        .catch((error: unknown) => {
          clearTimeout(timer)
          fail(error)
        })
    })
  } finally {
    await consumer.disconnect()
  }
  return received
}

/** Reads the first `count` messages of `topic`: raw value bytes and each header's (last) value. */
export function consumeRaw(
  brokers: string,
  topic: string,
  count: number,
  timeoutMs = 60_000,
): Promise<RawMessage[]> {
  return consumeFirst(
    brokers,
    topic,
    count,
    (message) => {
      const headers: Record<string, Buffer> = {}
      for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = toBuffer(value)
      return { value: message.value ?? Buffer.alloc(0), headers }
    },
    { timeoutMs },
  )
}
