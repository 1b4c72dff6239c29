import { randomUUID } from 'node:crypto'
import { AvroSerializer } from '@x/avro-serde'
import { RegistryConnectionError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { type Admin, type Consumer, type ConsumerConfig, Kafka, logLevel, type Producer } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { type KafkaBroker, startKafkaBroker } from '../../../scripts/integration/kafka-broker.js'
import { KafkaJsSerde } from './index.js'
import { TcpProxy } from './test-support/tcp-proxy.js'

// Faults, with KafkaJS (the most installed client) on the real broker and Apicurio Registry of the integration stage.
// The registry goes "down" for the consumer only: its registry client talks through a TCP proxy that refuses every
// connection on demand, while producers reach the registry directly. The broker restart uses a broker of its own.
// Every test counts the messages in and out; the counts are printed (`faults:` lines) for the report.

const registryUrl = new URL(inject('registryUrl'))
const group = `faults-it-${randomUUID().slice(0, 8)}`
const AVRO = {
  type: 'record',
  name: 'Tick',
  namespace: 'it.faults',
  fields: [
    { name: 'n', type: 'int' },
    { name: 'run', type: 'string' },
  ],
}
/** Quick retries, so an outage surfaces in about a second rather than the defaults' ~7 s. */
const READER_RETRIES = { maxRetries: 1, retryBackoffMs: 100, timeoutMs: 2000 }
/** The consumer retries a failing message every 100 to 500 ms, and restarts (the default) after 5 failed retries. */
const CONSUMER_RETRY: ConsumerConfig['retry'] = { retries: 5, initialRetryTime: 100, maxRetryTime: 500 }

let proxy: TcpProxy
let writer: RegistryClient
const closers: (() => Promise<unknown>)[] = []

beforeAll(async () => {
  proxy = await TcpProxy.start({ host: registryUrl.hostname, port: Number(registryUrl.port) })
  writer = new RegistryClient({ url: registryUrl.href, groupId: group })
})

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined)
  await writer?.close()
  await proxy?.close()
})

/** A registry client that reaches the registry through the proxy, with fresh (cold) caches. */
function readerClient(): RegistryClient {
  const url = new URL(registryUrl.href)
  url.port = String(proxy.port)
  const client = new RegistryClient({ url: url.href, groupId: group, ...READER_RETRIES })
  closers.push(() => client.close())
  return client
}

function kafkaAt(brokers: string): Kafka {
  return new Kafka({
    clientId: 'x-serde-faults-it',
    brokers: [brokers],
    logLevel: logLevel.NOTHING,
    retry: { retries: 30, initialRetryTime: 200, maxRetryTime: 2000 },
  })
}

async function connected<T extends Producer | Consumer | Admin>(client: T): Promise<T> {
  await client.connect()
  closers.push(() => client.disconnect())
  return client
}

/** Sends ticks `from` … `to - 1` of `run`, Avro framed, to `topic`. */
async function produceTicks(producer: Producer, topic: string, run: string, from: number, to: number) {
  const serde = new KafkaJsSerde(writer, {
    serializer: new AvroSerializer(writer, `tick-${run}`, { autoRegister: true, schema: AVRO }),
  })
  const messages = []
  for (let n = from; n < to; n += 1)
    messages.push(await serde.encodeMessage(topic, { key: `k${n}`, value: { n, run } }))
  await producer.send({ topic, messages })
}

async function committed(admin: Admin, groupId: string, topic: string): Promise<string> {
  const [offsets] = await admin.fetchOffsets({ groupId, topics: [topic] })
  return offsets?.partitions[0]?.offset ?? 'none'
}

/** The committed offset once it is `expected`, or what it is after 10 s (commits trail the handler a little). */
async function committedOnceSettled(
  admin: Admin,
  groupId: string,
  topic: string,
  expected: string,
): Promise<string> {
  const deadline = Date.now() + 10_000
  let offset = await committed(admin, groupId, topic)
  while (offset !== expected && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100))
    offset = await committed(admin, groupId, topic)
  }
  return offset
}

async function until(what: string, condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`)
    await new Promise((done) => setTimeout(done, 50))
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

describe('faults: the registry down, a dead-letter handler down, the broker restarted (KafkaJS)', () => {
  const kafka = kafkaAt(inject('kafkaBrokers'))
  let producer: Producer
  let admin: Admin

  beforeAll(async () => {
    producer = await connected(kafka.producer({ allowAutoTopicCreation: true }))
    admin = await connected(kafka.admin())
  })

  it('reads on without a registry request or a stall when the registry goes down after the caches are warm', async () => {
    const topic = `faults-warm-${randomUUID()}`
    const run = randomUUID().slice(0, 8)
    await admin.createTopics({ topics: [{ topic }] })
    const reader = new KafkaJsSerde(readerClient())
    const seen: number[] = []
    const consumer = await connected(kafka.consumer({ groupId: `${group}-warm`, retry: CONSUMER_RETRY }))
    await consumer.subscribe({ topic, fromBeginning: true })
    await consumer.run({
      eachMessage: reader.eachMessage(
        async ({ decoded }) => void seen.push((decoded.value as { n: number }).n),
      ),
    })
    await produceTicks(producer, topic, run, 0, 50)
    await until('the first 50 ticks', () => seen.length >= 50)

    proxy.down()
    const connectionsBefore = proxy.connections
    const sent = Date.now()
    await produceTicks(producer, topic, run, 50, 100)
    await until('ticks 50 to 99 with the registry down', () => seen.length >= 100, 10_000)
    const tookMs = Date.now() - sent
    proxy.up()
    await consumer.stop()
    console.log(
      `faults: warm caches, registry down: 50 in, ${seen.length - 50} out in ${tookMs} ms, ` +
        `${proxy.connections - connectionsBefore} registry connections`,
    )
    expect(proxy.connections - connectionsBefore).toBe(0)
    expect(seen).toEqual(Array.from({ length: 100 }, (_, n) => n))
    expect(tookMs).toBeLessThan(5000)
  })

  it('retries a message whose schema it cannot fetch while the registry is down, commits nothing past it, dead-letters nothing, and reads every message once the registry is back', async () => {
    const topic = `faults-cold-${randomUUID()}`
    const run = randomUUID().slice(0, 8)
    const groupId = `${group}-cold`
    await admin.createTopics({ topics: [{ topic }] })
    await produceTicks(producer, topic, run, 0, 20)
    proxy.down()
    const refusedBefore = proxy.refused
    const reader = new KafkaJsSerde(readerClient())
    const seen: number[] = []
    const thrown: unknown[] = []
    const deadLettered: string[] = []
    const handle = reader.eachMessage(
      async ({ decoded }) => void seen.push((decoded.value as { n: number }).n),
      {
        deadLetter: ({ message }) => void deadLettered.push(message.offset),
      },
    )
    const consumer = await connected(kafka.consumer({ groupId, retry: CONSUMER_RETRY }))
    await consumer.subscribe({ topic, fromBeginning: true })
    await consumer.run({
      eachMessage: async (payload) => {
        try {
          await handle(payload)
        } catch (error) {
          thrown.push(error)
          throw error
        }
      },
    })
    await until('three failed attempts', () => thrown.length >= 3)
    await sleep(1000)
    const committedWhileDown = await committed(admin, groupId, topic)
    const attemptsWhileDown = thrown.length
    const seenWhileDown = seen.length

    proxy.up()
    await until('the 20 ticks after the registry came back', () => seen.length >= 20)
    await consumer.stop()
    console.log(
      `faults: cold id, registry down: 20 in; while down ${seenWhileDown} out, ${attemptsWhileDown} attempts thrown ` +
        `(${thrown.map((e) => (e as Error).name).filter((n, i, all) => all.indexOf(n) === i)}), ` +
        `${proxy.refused - refusedBefore} connections refused, committed offset ${committedWhileDown}, ` +
        `${deadLettered.length} dead-lettered; after it came back ${seen.length} out`,
    )
    expect(seenWhileDown).toBe(0)
    expect(thrown.every((error) => error instanceof RegistryConnectionError)).toBe(true)
    expect(['-1', '0']).toContain(committedWhileDown)
    expect(deadLettered).toEqual([])
    expect(seen).toEqual(Array.from({ length: 20 }, (_, n) => n))
    expect(await committedOnceSettled(admin, groupId, topic, '20')).toBe('20')
  })

  it('stops at a dead-letter handler that throws: nothing is committed past the poison message until the handler succeeds', async () => {
    const topic = `faults-dlq-down-${randomUUID()}`
    const run = randomUUID().slice(0, 8)
    const groupId = `${group}-dlq-down`
    await admin.createTopics({ topics: [{ topic }] })
    await produceTicks(producer, topic, run, 0, 3)
    await producer.send({ topic, messages: [{ key: 'bad', value: Buffer.from([0xff, 1]) }] })
    await produceTicks(producer, topic, run, 4, 7)
    const reader = new KafkaJsSerde(writer)
    const handled: string[] = []
    const letters: string[] = []
    const committedDuringFailures: string[] = []
    let failures = 0
    const consumer = await connected(kafka.consumer({ groupId, retry: CONSUMER_RETRY }))
    await consumer.subscribe({ topic, fromBeginning: true })
    await consumer.run({
      eachBatchAutoResolve: false,
      eachBatch: reader.eachBatch(
        async ({ decoded, resolveOffset }) => {
          for (const message of decoded) {
            handled.push(message.offset)
            resolveOffset(message.offset)
          }
        },
        {
          deadLetter: async ({ message }) => {
            if (failures < 3) {
              failures += 1
              committedDuringFailures.push(await committed(admin, groupId, topic))
              throw new Error('the dead-letter topic is down')
            }
            letters.push(message.offset)
          },
        },
      ),
    })
    await until('the six good messages', () => new Set(handled).size >= 6)
    await consumer.stop()
    console.log(
      `faults: dead-letter handler down: 7 in (1 poison), ${handled.length} handled (${new Set(handled).size} distinct), ` +
        `${failures} handler failures, committed offsets seen during them ${committedDuringFailures.join(',')}, ` +
        `dead-lettered ${letters.length}`,
    )
    expect(failures).toBe(3)
    for (const offset of committedDuringFailures) expect(Number(offset)).toBeLessThanOrEqual(3)
    expect(letters).toEqual(['3'])
    expect([...new Set(handled)].sort()).toEqual(['0', '1', '2', '4', '5', '6'])
    expect(await committedOnceSettled(admin, groupId, topic, '7')).toBe('7')
  })
})

describe('faults: the broker restarted mid-consume (KafkaJS, a broker of its own)', () => {
  let broker: KafkaBroker

  beforeAll(async () => {
    broker = await startKafkaBroker()
  }, 120_000)

  afterAll(async () => {
    await broker?.stop()
  })

  it('resumes from the committed offset after a broker restart: no message skipped, duplicates only from the last uncommitted batch', async () => {
    const kafka = kafkaAt(broker.brokers)
    const topic = `faults-restart-${randomUUID()}`
    const run = randomUUID().slice(0, 8)
    const groupId = `${group}-restart`
    const admin = await connected(kafka.admin())
    await admin.createTopics({ topics: [{ topic }] })
    const producer = await connected(kafka.producer())
    // Thirty sends of ten: thirty record batches, so that a fetch of 1 kB takes a few of them, not the whole topic.
    const total = 300
    for (let from = 0; from < total; from += 10) await produceTicks(producer, topic, run, from, from + 10)
    await producer.disconnect()
    await admin.disconnect()

    const reader = new KafkaJsSerde(writer)
    const delivered: number[] = []
    let restarted = false
    let firstAfterRestart: number | undefined
    let lastBeforeRestart = -1
    // Small fetches (a few record batches each, committed after each) and 20 ms per message (6 s in all): the restart
    // lands mid-consume, with some batches committed and one in flight.
    const consumer = await connected(
      kafka.consumer({ groupId, maxBytesPerPartition: 1024, maxBytes: 1024, retry: CONSUMER_RETRY }),
    )
    await consumer.subscribe({ topic, fromBeginning: true })
    await consumer.run({
      eachMessage: reader.eachMessage(async ({ decoded }) => {
        const n = (decoded.value as { n: number }).n
        if (restarted && firstAfterRestart === undefined) firstAfterRestart = n
        if (!restarted) lastBeforeRestart = Math.max(lastBeforeRestart, n)
        delivered.push(n)
        await sleep(20)
      }),
    })
    await until('60 messages before the restart', () => delivered.length >= 60)
    const started = Date.now()
    await broker.restart()
    restarted = true
    const restartMs = Date.now() - started
    await until('every message after the restart', () => new Set(delivered).size >= total, 90_000)
    await consumer.disconnect()
    const distinct = new Set(delivered)
    const duplicates = delivered.length - distinct.size
    console.log(
      `faults: broker restart (${restartMs} ms): ${total} in, ${delivered.length} out, ${distinct.size} distinct, ` +
        `${duplicates} duplicates; last before restart ${lastBeforeRestart}, first after ${firstAfterRestart}`,
    )
    expect([...distinct].sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, n) => n))
    expect(firstAfterRestart).toBeDefined()
    expect(firstAfterRestart as number).toBeLessThanOrEqual(lastBeforeRestart + 1)
    // At least once: only messages delivered before the restart but not yet committed come again.
    const again = [...distinct].filter((n) => delivered.indexOf(n) !== delivered.lastIndexOf(n))
    for (const n of again) {
      expect(n).toBeGreaterThanOrEqual(firstAfterRestart as number)
      expect(n).toBeLessThanOrEqual(lastBeforeRestart)
    }
  })
})
