import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { type DeadLetter, KafkaJsSerde, type KeyType, ApicurioSchemaRegistry as Registry } from '@x/kafka'
import { RegistryClient } from '@x/registry-client'
import { Kafka, logLevel } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { canonicalEvent, type EventRecord, expectedEvents, uniqueName } from './fixtures.js'
import { buildJavaHarness, javaProduce, javaProduceLongKeys } from './java-harness.js'
import { createTopic } from './kafka-io.js'
import { repoDir } from './paths.js'

// Topics written by Apicurio's Java serdes 3.x (Avro values, its defaults: contentId in a 4-byte frame) with keys by
// Kafka's LongSerializer (42L: 00 00 00 00 00 00 00 2a, which starts like a frame) and StringSerializer, read by
// each client on the real broker: KafkaJS through KafkaJsSerde's eachMessage with a dead-letter handler,
// @platformatic/kafka through ApicurioSchemaRegistry, and `x-serde consume`. None dead-letters a message: a key is
// never read as a frame on a guess.

const COUNT = 3
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

describe("Java's LongSerializer and StringSerializer keys on the real broker", () => {
  test.each(['long', 'string'] as const)(
    'KafkaJS reads the %s-keyed topic with zero dead letters',
    async (kind) => {
      const serde = new KafkaJsSerde(client, {
        keys: kind as KeyType,
        anyDeserializer: { useId: 'contentId' },
      })
      const dead: DeadLetter[] = []
      const read: [unknown, unknown][] = []
      const consumer = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING }).consumer({
        groupId: `keys-${randomUUID()}`,
        maxWaitTimeInMs: 200,
      })
      await consumer.connect()
      try {
        await consumer.subscribe({ topic: topics[kind], fromBeginning: true })
        await new Promise<void>((done, fail) => {
          const timer = setTimeout(() => fail(new Error(`read ${read.length} of ${COUNT}`)), 60_000)
          void consumer.run({
            eachMessage: serde.eachMessage(
              async ({ decoded }) => {
                read.push([decoded.key, canonicalEvent(decoded.value as EventRecord)])
                if (read.length + dead.length === COUNT) {
                  clearTimeout(timer)
                  done()
                }
              },
              {
                deadLetter: (letter) => {
                  dead.push(letter)
                  if (read.length + dead.length === COUNT) done()
                },
              },
            ),
          })
        })
      } finally {
        await consumer.disconnect()
      }
      expect(dead).toEqual([])
      expect(read).toEqual(expectedKeys[kind].map((key, i) => [key, events[i]]))
    },
  )

  // @platformatic/kafka 2.x is installed where the integration stage runs (Node 24; platformatic.integration.test.ts
  // checks that it is); on Node 20 these two are skipped.
  test.skipIf(platformatic === undefined).each(['long', 'string'] as const)(
    '@platformatic/kafka reads the %s-keyed topic with no deserialization error',
    async (kind) => {
      const { Consumer, MessagesStreamModes } = platformatic!
      const consumer = new Consumer({
        groupId: `keys-${randomUUID()}`,
        clientId: 'x-serde-it',
        bootstrapBrokers: [brokers],
        registry: new Registry(client, { keys: kind, anyDeserializer: { useId: 'contentId' } }),
      })
      const errors: unknown[] = []
      const stream = await consumer.consume({
        topics: [topics[kind]],
        mode: MessagesStreamModes.EARLIEST,
        onDeserializationError: ({ error }: { error: unknown }) => {
          errors.push(error)
          return 'skip'
        },
      })
      const read: [unknown, unknown][] = []
      for await (const message of stream) {
        read.push([message.key, canonicalEvent(message.value as EventRecord)])
        if (read.length === COUNT) break
      }
      await stream.close()
      await consumer.close(true)
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
        const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
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
        .map((line) => JSON.parse(line) as { key: unknown; error?: unknown })
      expect(lines.map((line) => [line.key, line.error])).toEqual(
        expectedKeys[kind].map((key) => [key, undefined]),
      )
    },
  )
})
