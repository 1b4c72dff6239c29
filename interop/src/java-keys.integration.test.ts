import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import {
  type DeadLetter,
  type EachMessagePayload,
  KafkaJsSerde,
  type KeyType,
  ApicurioSchemaRegistry as Registry,
} from '@x/kafka'
import { RegistryClient } from '@x/registry-client'
import { type ExactJson, parseExactJson } from '@x/registry-client/json'
import { Kafka, logLevel } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { canonicalEvent, type EventRecord, expectedEvent, expectedEvents, uniqueName } from './fixtures.js'
import { buildJavaHarness, javaProduce, javaProduceLongKeys } from './java-harness.js'
import { createTopic } from './kafka-io.js'
import { repoDir } from './paths.js'

// Topics written by Apicurio's Java serdes 3.x (Avro values, its defaults: contentId in a 4-byte frame) with keys by
// Kafka's LongSerializer (42L: 00 00 00 00 00 00 00 2a, which starts like a frame) and StringSerializer, read by
// each client on the real broker with its poison handling on: KafkaJS and Confluent's @confluentinc/kafka-javascript
// (its KafkaJS API) through KafkaJsSerde's eachMessage with a dead-letter handler, @platformatic/kafka through
// ApicurioSchemaRegistry with `onDeserializationError`, and `x-serde consume`. None dead-letters a message: a key is
// never read as a frame on a guess. Every read is bounded by READ_TIMEOUT_MS of its own and reads a topic that holds
// its messages already, so a test passes or fails in seconds, never on a client's retry schedule.

const COUNT = 3
const READ_TIMEOUT_MS = 30_000
const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')
const topics = { long: uniqueName('java-long-keys'), string: uniqueName('java-string-keys') }
let client: RegistryClient

interface PlatformaticModule {
  Consumer: new (
    options: Record<string, unknown>,
  ) => {
    consume(
      options: Record<string, unknown>,
    ): Promise<AsyncIterable<{ key: unknown; value: unknown }> & { close(): Promise<void> }>
    close(force?: boolean): Promise<void>
  }
  MessagesStreamModes: { EARLIEST: string }
}
const platformatic = (await import('@platformatic/kafka' as string).catch(() => undefined)) as
  | PlatformaticModule
  | undefined

/** The part of Confluent's `@confluentinc/kafka-javascript` (its KafkaJS API, options under `kafkaJS`) used here. */
interface ConfluentKafkaJs {
  Kafka: new (config: {
    kafkaJS: { brokers: string[]; clientId: string; logLevel: number }
  }) => {
    consumer(config: { kafkaJS: { groupId: string; fromBeginning: boolean } }): ConfluentConsumer
  }
  logLevel: { NOTHING: number }
}
interface ConfluentConsumer {
  connect(): Promise<void>
  subscribe(subscription: { topics: string[] }): Promise<void>
  run(config: { eachMessage: (payload: EachMessagePayload) => Promise<void> }): Promise<void>
  disconnect(): Promise<void>
}
// Built for this Node by the integration stage's global setup (scripts/integration/confluent-client.ts).
const confluent = (createRequire(import.meta.url)(inject('confluentClient')) as { KafkaJS: ConfluentKafkaJs })
  .KafkaJS

/** `work` settled, or a rejection naming what was missing once `READ_TIMEOUT_MS` have passed. */
async function bounded<T>(work: Promise<T>, missing: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${missing()} after ${READ_TIMEOUT_MS} ms`)), READ_TIMEOUT_MS)
  })
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Runs `consumer` (subscribed by `subscribe`) through KafkaJsSerde's eachMessage with a dead-letter handler until
 * every message of the topic was read or dead-lettered; returns the keys and canonical values read, and the letters.
 */
async function readThroughKafkaJsSerde(
  kind: 'long' | 'string',
  consumer: Pick<ConfluentConsumer, 'connect' | 'run' | 'disconnect'>,
  subscribe: () => Promise<void>,
): Promise<{ read: [unknown, unknown][]; dead: DeadLetter[] }> {
  const serde = new KafkaJsSerde(client, { keys: kind as KeyType, anyDeserializer: { useId: 'contentId' } })
  const dead: DeadLetter[] = []
  const read: [unknown, unknown][] = []
  await consumer.connect()
  try {
    await subscribe()
    await bounded(
      new Promise<void>((done, fail) => {
        const settled = () => {
          if (read.length + dead.length === COUNT) done()
        }
        consumer
          .run({
            eachMessage: serde.eachMessage(
              async ({ decoded }) => {
                read.push([decoded.key, canonicalEvent(decoded.value as EventRecord)])
                settled()
              },
              {
                deadLetter: (letter) => {
                  dead.push(letter)
                  settled()
                },
              },
            ),
          })
          .catch(fail)
      }),
      () => `read ${read.length} and dead-lettered ${dead.length} of ${COUNT}`,
    )
  } finally {
    await consumer.disconnect()
  }
  return { read, dead }
}

beforeAll(async () => {
  await buildJavaHarness()
  client = new RegistryClient({ url: registryUrl, groupId: 'default' })
  for (const topic of Object.values(topics)) await createTopic(brokers, topic)
  await javaProduceLongKeys(brokers, registryUrl, topics.long, 'default', COUNT)
  await javaProduce(brokers, registryUrl, topics.string, 'default', COUNT)
}, 600_000)

afterAll(async () => {
  await client?.close()
})

const expectedKeys = {
  long: Array.from({ length: COUNT }, (_, i) => 42 + i),
  string: Array.from({ length: COUNT }, (_, i) => `k${i}`),
}
const events = expectedEvents(COUNT).map(canonicalEvent)

/** Record `i` as `x-serde consume --json` prints it, read exactly: `big` beyond 2^53 a bigint, bytes as base64. */
function printedEvent(i: number): ExactJson {
  const event = expectedEvent(i)
  return { ...event, attrs: { ...event.attrs }, payload: event.payload.toString('base64') }
}

describe("Java's LongSerializer and StringSerializer keys on the real broker", () => {
  test.each(['long', 'string'] as const)(
    'KafkaJS reads the %s-keyed topic through KafkaJsSerde with zero dead letters',
    async (kind) => {
      const consumer = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING }).consumer({
        groupId: `java-keys-kafkajs-${randomUUID()}`,
        maxWaitTimeInMs: 200,
      })
      const { read, dead } = await readThroughKafkaJsSerde(kind, consumer, () =>
        consumer.subscribe({ topic: topics[kind], fromBeginning: true }),
      )
      expect(dead).toEqual([])
      expect(read).toEqual(expectedKeys[kind].map((key, i) => [key, events[i]]))
    },
  )

  test.each(['long', 'string'] as const)(
    "Confluent's client reads the %s-keyed topic through KafkaJsSerde with zero dead letters",
    async (kind) => {
      const consumer = new confluent.Kafka({
        kafkaJS: { brokers: [brokers], clientId: 'x-serde-it', logLevel: confluent.logLevel.NOTHING },
      }).consumer({ kafkaJS: { groupId: `java-keys-confluent-${randomUUID()}`, fromBeginning: true } })
      const { read, dead } = await readThroughKafkaJsSerde(kind, consumer, () =>
        consumer.subscribe({ topics: [topics[kind]] }),
      )
      expect(dead).toEqual([])
      expect(read).toEqual(expectedKeys[kind].map((key, i) => [key, events[i]]))
    },
  )

  // @platformatic/kafka 2.x is installed where the integration stage runs (Node 24; platformatic.integration.test.ts
  // checks that it is); on Node 20 these two are skipped.
  test.skipIf(platformatic === undefined).each(['long', 'string'] as const)(
    '@platformatic/kafka reads the %s-keyed topic through ApicurioSchemaRegistry with no message skipped',
    async (kind) => {
      const { Consumer, MessagesStreamModes } = platformatic!
      const consumer = new Consumer({
        groupId: `java-keys-platformatic-${randomUUID()}`,
        clientId: 'x-serde-it',
        bootstrapBrokers: [brokers],
        registry: new Registry(client, { keys: kind, anyDeserializer: { useId: 'contentId' } }),
      })
      const errors: unknown[] = []
      const read: [unknown, unknown][] = []
      let finish = () => {}
      const finished = new Promise<void>((done) => {
        finish = done
      })
      const settled = () => {
        if (read.length + errors.length === COUNT) finish()
      }
      try {
        const stream = await bounded(
          consumer.consume({
            topics: [topics[kind]],
            mode: MessagesStreamModes.EARLIEST,
            // A message that does not decode is skipped and counted, instead of ending the stream.
            onDeserializationError: ({ error }: { error: unknown }) => {
              errors.push(error)
              settled()
              return 'skip'
            },
          }),
          () => 'no stream',
        )
        const reading = (async () => {
          for await (const message of stream) {
            read.push([message.key, canonicalEvent(message.value as EventRecord)])
            settled()
            if (read.length + errors.length === COUNT) break
          }
        })()
        try {
          await bounded(
            Promise.race([finished, reading]),
            () => `read ${read.length} and skipped ${errors.length} of ${COUNT}`,
          )
        } finally {
          await stream.close()
        }
        await bounded(reading, () => 'the closed stream still iterating')
      } finally {
        await consumer.close(true)
      }
      expect(errors).toEqual([])
      expect(read).toEqual(expectedKeys[kind].map((key, i) => [key, events[i]]))
    },
    120_000,
  )

  test.each(['long', 'string'] as const)(
    'x-serde consume --key-type %s prints every message',
    async (kind) => {
      const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
        const child = spawn(
          process.execPath,
          [
            join(repoDir, 'packages/cli/bin/x-serde.js'),
            'consume',
            topics[kind],
            '--json',
            '--use-id',
            'contentId',
            '--key-type',
            kind,
          ],
          { env: { PATH: process.env.PATH ?? '', REGISTRY_URL: registryUrl, KAFKA_BROKERS: brokers } },
        )
        let stdout = ''
        let stderr = ''
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk
        })
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk
        })
        const timer = setTimeout(() => child.kill('SIGKILL'), READ_TIMEOUT_MS)
        child.on('error', fail)
        child.on('close', (code) => {
          clearTimeout(timer)
          done({ code, stdout, stderr })
        })
      })
      expect(run.stderr).not.toContain('error')
      expect(run.code).toBe(0)
      const lines = run.stdout
        .trim()
        .split('\n')
        .map((line) => parseExactJson(line).value as { key: unknown; error?: unknown; value: unknown })
      expect(lines.map((line) => [line.key, line.error, line.value])).toEqual(
        expectedKeys[kind].map((key, i) => [key, undefined, printedEvent(i)]),
      )
    },
  )
})
