import {
  loadPlatformatic,
  type PlatformaticMessage,
  type PlatformaticModule,
  type PlatformaticRegistry,
} from '../peers/platformatic.js'
import { Meter, SerdeClock } from './meter.js'
import { loadOurSerializer } from './our-serializer.js'
import { OUR_READER_OPTIONS, ourRecord, peerRecord } from './records.js'
import type { ConsumePhase, Phase, WorkerSetup } from './types.js'

/** Messages per `producer.send`. */
const BATCH = 1000

/**
 * A registry whose deserializers and before-deserialization hook add the time spent in them to `clock`. A hook that
 * calls back synchronously (Platformatic's own, once a schema is cached) runs the client's next steps inside that
 * callback: the time inside the callback is not the hook's and is left out.
 */
function timed(registry: PlatformaticRegistry, clock: SerdeClock): PlatformaticRegistry {
  const time =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      const t0 = performance.now()
      try {
        return fn(...args)
      } finally {
        clock.ms += performance.now() - t0
      }
    }
  return {
    getSerializers: () => registry.getSerializers(),
    getBeforeSerializationHook: () => registry.getBeforeSerializationHook(),
    getDeserializers: () => {
      const all = registry.getDeserializers() as unknown as Record<string, (...args: unknown[]) => unknown>
      return Object.fromEntries(Object.entries(all).map(([name, fn]) => [name, time(fn)])) as never
    },
    getBeforeDeserializationHook: () => {
      const hook = registry.getBeforeDeserializationHook()
      return (payload, type, message, callback) => {
        const t0 = performance.now()
        let inside = 0
        let sync = true
        const timedCallback = (error?: Error | null) => {
          if (!sync) return callback(error)
          const c0 = performance.now()
          try {
            callback(error)
          } finally {
            inside += performance.now() - c0
          }
        }
        try {
          return hook(payload, type, message, timedCallback)
        } finally {
          sync = false
          clock.ms += performance.now() - t0 - inside
        }
      }
    },
  }
}

/** With the registry support, without decoding (raw bytes), or with the engine by hand (no registry). */
export type ConsumeMode = 'serde' | 'raw' | 'hand'

export interface ClientRun {
  produce(topic: string, count: number): Promise<Phase>
  consume(topic: string, count: number, mode: ConsumeMode): Promise<ConsumePhase & { lastSeq: number }>
  close(): Promise<void>
}

/**
 * @platformatic/kafka 2.x with ours (`ApicurioSchemaRegistry` on the v3 API, the artifact named, values written by
 * our serializer of the format) or with its own `ConfluentSchemaRegistry` on Apicurio's ccompat API (the contentId
 * in each message's `metadata.schemas.value`, as its producer expects; JSON validated on write, as ours does).
 */
export async function platformaticRun(setup: WorkerSetup, support: 'ours' | 'theirs'): Promise<ClientRun> {
  const kafka: PlatformaticModule = await loadPlatformatic()
  // Only the row's registry support is loaded: a fresh process loads what an application of its row loads.
  let registry: () => PlatformaticRegistry
  let closeSupport = async () => {}
  if (support === 'ours') {
    const { ApicurioSchemaRegistry } = await import('@x/kafka')
    const { RegistryClient } = await import('@x/registry-client')
    const client = new RegistryClient({ url: setup.registryUrl, groupId: setup.groupId })
    const serializer = await loadOurSerializer(setup.format, client, setup.artifactId)
    registry = () =>
      new ApicurioSchemaRegistry(client, {
        serializer: serializer as never,
        anyDeserializer: OUR_READER_OPTIONS,
      }) as unknown as PlatformaticRegistry
    closeSupport = () => client.close()
  } else {
    registry = () =>
      new kafka.ConfluentSchemaRegistry({
        url: setup.ccompatUrl,
        jsonValidateSend: true,
        protobufTypeMapper: () => 'bench.Event',
      })
  }
  const producer = new kafka.Producer({
    clientId: `e2e-${setup.row}`,
    bootstrapBrokers: [setup.brokers],
    registry: registry(),
  })
  const message =
    support === 'ours'
      ? (topic: string, seq: number): PlatformaticMessage => ({ topic, value: ourRecord(seq) })
      : (topic: string, seq: number): PlatformaticMessage => ({
          topic,
          value: peerRecord(setup.format, seq),
          metadata: { schemas: { value: setup.contentId } },
        })
  let groups = 0
  return {
    async produce(topic, count) {
      const meter = new Meter()
      meter.begin()
      for (let sent = 0; sent < count; sent += BATCH) {
        const messages: PlatformaticMessage[] = []
        for (let i = sent; i < Math.min(count, sent + BATCH); i++) messages.push(message(topic, i))
        await producer.send({ messages })
      }
      return meter.end(count)
    },
    async consume(topic, count, mode) {
      const decode = mode === 'serde'
      const { handDecoder } = await import('./formats.js')
      const hand = handDecoder(setup.format)
      const clock = new SerdeClock()
      const consumer = new kafka.Consumer({
        groupId: `e2e-${setup.row}-${process.pid}-${groups++}`,
        clientId: `e2e-${setup.row}`,
        bootstrapBrokers: [setup.brokers],
        ...(decode ? { registry: timed(registry(), clock) } : {}),
      })
      const stream = await consumer.consume({ topics: [topic], mode: kafka.MessagesStreamModes.EARLIEST })
      // `consume` resolves once the group is joined, before the first fetch: timed from here (the join is not the
      // serde's; the hooks and deserializers of the first fetch run before its first message is handed over).
      const meter = new Meter()
      meter.begin()
      let seen = 0
      let lastSeq = -1
      try {
        for await (const m of stream) {
          seen++
          if (mode === 'serde') lastSeq = (m.value as { seq: number }).seq
          else if (mode === 'hand') lastSeq = hand(m.value as Buffer)
          else lastSeq = (m.value as Buffer).length
          if (seen === count) break
        }
      } finally {
        await stream.close().catch(() => {})
        await consumer.close(true)
      }
      if (seen !== count) throw new Error(`consumed ${seen} of ${count} messages from ${topic}`)
      return { ...meter.end(count), serdeMs: clock.ms, lastSeq }
    },
    async close() {
      await producer.close()
      await closeSupport()
    },
  }
}
