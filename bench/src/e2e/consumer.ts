import { createRequire } from 'node:module'
import type { EachBatchPayload, EachMessagePayload } from 'kafkajs'
import type { PlatformaticRegistry } from '../peers/platformatic.js'
import { CONSUMER_ROWS, type ConsumerResult, type ConsumerRow, type ConsumerSetup } from './consumer-types.js'
import { answerOnce } from './fork-once.js'
import { Meter } from './meter.js'
import type { Phase } from './types.js'

/**
 * One consumer of the consumer rounds in a fresh process (forked by consumer-runs.ts): the client and its registry
 * support are loaded and connected, then (`start: 'warm'`) the warm-up topic is read through, and the timed topic is
 * read by a new group, timed from the first message reaching the registry support (KafkaJS: the first `eachMessage` or
 * `eachBatch` call; Platformatic: the first call of the registry's hook or deserializers, which run before the stream
 * hands the message over) to the last one handled. What a cold start costs the support (lazy loading, the schema's
 * lookup, preparing its reader, compiling) falls inside that window.
 */

/** Reads `count` messages of `topic` once; gives the timed figures and the last `seq`. */
type ReadTopic = (topic: string, count: number) => Promise<{ phase: Phase; firstMs: number; lastSeq: number }>

interface Reader {
  read: ReadTopic
  close(): Promise<void>
}

/** Starts `meter` on the first call of any of the registry's deserializers or its before-deserialization hook. */
function startingOnFirstUse(registry: PlatformaticRegistry, meter: Meter): PlatformaticRegistry {
  let begun = false
  const begin = () => {
    if (!begun) {
      begun = true
      meter.begin()
    }
  }
  return {
    getSerializers: () => registry.getSerializers(),
    getBeforeSerializationHook: () => registry.getBeforeSerializationHook(),
    getDeserializers: () => {
      const all = registry.getDeserializers() as unknown as Record<string, (...args: unknown[]) => unknown>
      const wrapped: Record<string, (...args: unknown[]) => unknown> = {}
      for (const [name, fn] of Object.entries(all)) {
        wrapped[name] = (...args) => {
          begin()
          return fn(...args)
        }
      }
      return wrapped as never
    },
    getBeforeDeserializationHook: () => {
      const hook = registry.getBeforeDeserializationHook()
      return (payload, type, message, callback) => {
        begin()
        return hook(payload, type, message, callback)
      }
    },
  }
}

/** The figures at the last message; the clock must have started at the first. */
function ended(meter: Meter, count: number): Phase {
  if (!meter.begun) throw new Error('the clock never started: no message reached the registry support')
  return meter.end(count)
}

async function platformaticReader(setup: ConsumerSetup, row: ConsumerRow): Promise<Reader> {
  const { loadPlatformatic } = await import('../peers/platformatic.js')
  const kafka = await loadPlatformatic()
  let registry: PlatformaticRegistry
  let close = async () => {}
  if (row.support === 'ours') {
    const { ApicurioSchemaRegistry } = await import('@x/kafka')
    const { RegistryClient } = await import('@x/registry-client')
    const client = new RegistryClient({ url: setup.registryUrl, groupId: setup.groupId })
    registry = new ApicurioSchemaRegistry(client, {
      anyDeserializer: { validate: true, useId: 'contentId' },
    }) as unknown as PlatformaticRegistry
    close = () => client.close()
  } else {
    registry = new kafka.ConfluentSchemaRegistry({ url: setup.ccompatUrl })
  }
  let groups = 0
  return {
    async read(topic, count) {
      const meter = new Meter()
      const consumer = new kafka.Consumer({
        groupId: `${setup.consumerGroup}-${groups++}`,
        clientId: `e2e-${setup.row}`,
        bootstrapBrokers: [setup.brokers],
        registry: startingOnFirstUse(registry, meter),
      })
      const stream = await consumer.consume({ topics: [topic], mode: kafka.MessagesStreamModes.EARLIEST })
      let seen = 0
      let lastSeq = -1
      let phase: Phase | undefined
      let firstMs = 0
      try {
        for await (const m of stream) {
          lastSeq = (m.value as { seq: number }).seq
          if (seen === 0) firstMs = meter.elapsedMs()
          if (++seen === count) {
            phase = ended(meter, count)
            break
          }
        }
      } finally {
        await stream.close().catch(() => {})
        await consumer.close(true)
      }
      if (phase === undefined) throw new Error(`consumed ${seen} of ${count} messages from ${topic}`)
      return { phase, firstMs, lastSeq }
    },
    close,
  }
}

/** A KafkaJS loop: one of its handlers. */
interface Loop {
  eachMessage?: (payload: EachMessagePayload) => Promise<void>
  eachBatch?: (payload: EachBatchPayload) => Promise<void>
}

async function kafkajsReader(setup: ConsumerSetup, row: ConsumerRow): Promise<Reader> {
  const { Kafka, logLevel } = createRequire(import.meta.url)('kafkajs') as typeof import('kafkajs')
  const kafka = new Kafka({
    clientId: `e2e-${setup.row}`,
    brokers: [setup.brokers],
    logLevel: logLevel.NOTHING,
  })
  const batch = row.pair === 'kafkajs-each-batch'
  let close = async () => {}
  // The loop of each row, given what to call per decoded value; `first` starts the clock.
  let makeRun: (first: () => void, handle: (value: { seq: number }) => void) => Loop
  if (row.support === 'ours') {
    const { KafkaJsSerde } = await import('@x/kafka')
    const { RegistryClient } = await import('@x/registry-client')
    const client = new RegistryClient({ url: setup.registryUrl, groupId: setup.groupId })
    close = () => client.close()
    const serde = new KafkaJsSerde<{ seq: number }>(client, {
      anyDeserializer: { validate: true, useId: 'contentId' },
    })
    makeRun = (first, handle) => {
      if (batch) {
        const each = serde.eachBatch(async ({ decoded }) => {
          for (const message of decoded) handle(message.value!)
        })
        return {
          eachBatch: (payload) => {
            first()
            return each(payload as never)
          },
        }
      }
      const each = serde.eachMessage(async ({ decoded }) => handle(decoded.value!))
      return {
        eachMessage: (payload) => {
          first()
          return each(payload as never)
        },
      }
    }
  } else {
    const { SchemaRegistry } = await import('@kafkajs/confluent-schema-registry')
    const registry = new SchemaRegistry({ host: setup.ccompatUrl })
    makeRun = (first, handle) =>
      batch
        ? {
            eachBatch: async ({ batch }) => {
              first()
              for (const message of batch.messages) handle(await registry.decode(message.value!))
            },
          }
        : {
            eachMessage: async ({ message }) => {
              first()
              handle(await registry.decode(message.value!))
            },
          }
  }
  let groups = 0
  return {
    async read(topic, count) {
      const meter = new Meter()
      const consumer = kafka.consumer({ groupId: `${setup.consumerGroup}-${groups++}` })
      await consumer.connect()
      await consumer.subscribe({ topics: [topic], fromBeginning: true })
      let seen = 0
      let lastSeq = -1
      let phase: Phase | undefined
      let firstMs = 0
      let done: (error?: unknown) => void = () => {}
      const finished = new Promise<void>((resolve, reject) => {
        done = (error) => (error === undefined ? resolve() : reject(error))
      })
      const run = makeRun(
        () => {
          if (!meter.begun) meter.begin()
        },
        (value) => {
          lastSeq = value.seq
          if (seen === 0) firstMs = meter.elapsedMs()
          if (++seen === count) {
            phase = ended(meter, count)
            done()
          }
        },
      )
      const guard =
        <P>(fn: (payload: P) => Promise<void>) =>
        async (payload: P) => {
          if (seen >= count) return
          try {
            await fn(payload)
          } catch (error) {
            done(error)
          }
        }
      const { eachBatch, eachMessage } = run
      await consumer.run(
        eachBatch !== undefined ? { eachBatch: guard(eachBatch) } : { eachMessage: guard(eachMessage!) },
      )
      try {
        await finished
      } finally {
        await consumer.disconnect()
      }
      return { phase: phase!, firstMs, lastSeq }
    },
    close,
  }
}

async function run(setup: ConsumerSetup): Promise<ConsumerResult> {
  const row = CONSUMER_ROWS.find((r) => r.name === setup.row)
  if (row === undefined) throw new TypeError(`no consumer row named '${setup.row}'`)
  const reader =
    row.pair === 'platformatic' ? await platformaticReader(setup, row) : await kafkajsReader(setup, row)
  try {
    if (setup.start === 'warm') {
      const warm = await reader.read(setup.warmTopic, setup.warmup)
      if (warm.lastSeq !== setup.warmup - 1)
        throw new Error(`the warm-up read seq ${warm.lastSeq} last, expected ${setup.warmup - 1}`)
    }
    const { phase, firstMs, lastSeq } = await reader.read(setup.topic, setup.messages)
    if (lastSeq !== setup.messages - 1)
      throw new Error(`the last message read back has seq ${lastSeq}, expected ${setup.messages - 1}`)
    return { row: setup.row, format: setup.format, start: setup.start, round: 0, ...phase, firstMs, lastSeq }
  } finally {
    await reader.close()
  }
}

answerOnce(run)
