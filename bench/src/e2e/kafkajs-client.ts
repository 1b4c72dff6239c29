import { createRequire } from 'node:module'
import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry'
import type { KafkaJsSerde } from '@x/kafka'
import type { Kafka as KafkaType, Message } from 'kafkajs'
import { Meter, SerdeClock } from './meter.js'
import { loadOurSerializer } from './our-serializer.js'
import type { ClientRun } from './platformatic-client.js'
import { OUR_READER_OPTIONS, ourRecord, peerRecord } from './records.js'
import type { WorkerSetup } from './types.js'

const { Kafka, logLevel } = createRequire(import.meta.url)('kafkajs') as typeof import('kafkajs')

/** Messages per `producer.send`, each batch encoded with `Promise.all` (as an application would). */
const BATCH = 1000

/**
 * KafkaJS 2.2.4 with ours (`KafkaJsSerde`: `encodeMessage`, and its `eachMessage` wrapper reading any format) or with
 * `@kafkajs/confluent-schema-registry` on Apicurio's ccompat API (`encode(contentId, value)`, `decode(buffer)` in
 * `eachMessage`).
 */
export async function kafkajsRun(setup: WorkerSetup, support: 'ours' | 'theirs'): Promise<ClientRun> {
  const kafka: KafkaType = new Kafka({
    clientId: `e2e-${setup.row}`,
    brokers: [setup.brokers],
    logLevel: logLevel.NOTHING,
  })
  // Only the row's registry support is loaded: a fresh process loads what an application of its row loads.
  let serde: KafkaJsSerde<unknown> | undefined
  let registry: SchemaRegistry | undefined
  let closeSupport = async () => {}
  if (support === 'ours') {
    const { KafkaJsSerde } = await import('@x/kafka')
    const { RegistryClient } = await import('@x/registry-client')
    const client = new RegistryClient({ url: setup.registryUrl, groupId: setup.groupId })
    serde = new KafkaJsSerde<unknown>(client, {
      serializer: (await loadOurSerializer(setup.format, client, setup.artifactId)) as never,
      anyDeserializer: OUR_READER_OPTIONS,
    })
    closeSupport = () => client.close()
  } else {
    const { SchemaRegistry } = await import('@kafkajs/confluent-schema-registry')
    registry = new SchemaRegistry({ host: setup.ccompatUrl })
  }
  const ours = serde
  const theirs = registry
  const encode =
    ours !== undefined
      ? (topic: string, seq: number): Promise<Message> =>
          ours.encodeMessage(topic, { value: ourRecord(seq) }) as Promise<Message>
      : async (_topic: string, seq: number): Promise<Message> => ({
          value: await theirs!.encode(setup.contentId, peerRecord(setup.format, seq)),
        })
  const producer = kafka.producer()
  await producer.connect()
  let groups = 0
  return {
    async produce(topic, count) {
      const meter = new Meter()
      meter.begin()
      for (let sent = 0; sent < count; sent += BATCH) {
        const pending: Promise<Message>[] = []
        for (let i = sent; i < Math.min(count, sent + BATCH); i++) pending.push(encode(topic, i))
        await producer.send({ topic, messages: await Promise.all(pending) })
      }
      return meter.end(count)
    },
    async consume(topic, count, mode) {
      const { handDecoder } = await import('./formats.js')
      const hand = handDecoder(setup.format)
      const clock = new SerdeClock()
      const consumer = kafka.consumer({ groupId: `e2e-${setup.row}-${process.pid}-${groups++}` })
      await consumer.connect()
      await consumer.subscribe({ topics: [topic], fromBeginning: true })
      // Timed from the group join (KafkaJS's GROUP_JOIN event) to the last message, as for Platformatic.
      const meter = new Meter()
      consumer.on(consumer.events.GROUP_JOIN, () => {
        if (!meter.begun) meter.begin()
      })
      let seen = 0
      let lastSeq = -1
      let done: (error?: unknown) => void = () => {}
      const finished = new Promise<void>((resolve, reject) => {
        done = (error) => (error === undefined ? resolve() : reject(error))
      })
      const count1 = (value: number) => {
        seen++
        lastSeq = value
        if (seen === count) done()
      }
      let t0 = 0
      const oursEach = ours?.eachMessage(async ({ decoded }) => {
        clock.ms += performance.now() - t0
        count1((decoded.value as { seq: number }).seq)
      })
      await consumer.run({
        eachMessage: async (payload) => {
          if (seen >= count) return
          try {
            if (mode === 'raw') return count1(payload.message.value?.length ?? 0)
            if (mode === 'hand') return count1(hand(payload.message.value!))
            t0 = performance.now()
            if (oursEach !== undefined) return await oursEach(payload as never)
            const value = (await theirs!.decode(payload.message.value!)) as { seq: number }
            clock.ms += performance.now() - t0
            count1(value.seq)
          } catch (error) {
            done(error)
          }
        },
      })
      let figures: ReturnType<Meter['end']>
      try {
        await finished
        figures = meter.end(count)
      } finally {
        await consumer.disconnect()
      }
      return { ...figures, serdeMs: clock.ms, lastSeq }
    },
    async close() {
      await producer.disconnect()
      await closeSupport()
    },
  }
}
