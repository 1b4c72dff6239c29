import { SchemaRegistry } from '@kafkajs/confluent-schema-registry'
import { ApicurioSchemaRegistry, KafkaJsSerde } from '@x/kafka'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { GROUP_ID } from '../fixtures.js'
import { ConfluentStub } from '../peers/confluent-registry.js'
import {
  loadPlatformatic,
  type PlatformaticMessage,
  type PlatformaticRegistry,
} from '../peers/platformatic.js'
import { SCHEMAS } from './formats.js'
import { medianInterval } from './median-interval.js'
import { loadOurSerializer } from './our-serializer.js'
import { ourRecord, peerRecord } from './records.js'

/**
 * `node dist/e2e/encode-step.js [rounds] [--format=avro|json]`: the encode step of the end-to-end produce rows alone,
 * in one process and without a broker, warm: per batch of 1 000 `bench.Event` messages (Avro by default; JSON
 * validated on write by both), what each row does before its client sends
 * (KafkaJS: `Promise.all` of `KafkaJsSerde#encodeMessage` vs kafkajs-SR's `encode`; Platformatic: its producer's
 * before-serialization series over each message's key and value, then the value serializer, with ours vs its own
 * `ConfluentSchemaRegistry`). Ours and theirs alternate within each round; the ratio (theirs' time ÷ ours: above 1,
 * ours is faster) is taken per round, and the median and its 95 % interval are printed.
 */

const TOPIC = 'bench-e2e-encode'
const BATCH = 1000
/** Batches per timed slice of one side in one round. */
const BATCHES = 20

type Step = () => Promise<void>

/** Platformatic's `runAsyncSeries` as its producer drives the hooks: a synchronous callback moves on in the loop. */
function runAsyncSeries<T>(
  operation: (item: T, callback: (error: Error | null) => void) => void,
  items: readonly T[],
  start: number,
  done: (error: Error | null) => void,
): void {
  let index = start
  while (index < items.length) {
    let returned = false
    let called = false
    let failed: Error | null = null
    operation(items[index]!, (error) => {
      if (returned) {
        if (error) done(error)
        else runAsyncSeries(operation, items, index + 1, done)
        return
      }
      called = true
      failed = error
    })
    returned = true
    if (!called) return
    if (failed) {
      done(failed)
      return
    }
    index++
  }
  done(null)
}

/** What Platformatic's producer does with a batch before it sends: the hook over keys and values, then serializers. */
function platformaticStep(
  registry: PlatformaticRegistry,
  message: (seq: number) => PlatformaticMessage,
): Step {
  const hook = registry.getBeforeSerializationHook()
  const serialize = registry.getSerializers().value
  let sink = 0
  return () =>
    new Promise<void>((resolve, reject) => {
      const messages: PlatformaticMessage[] = []
      for (let i = 0; i < BATCH; i++) messages.push(message(i))
      const requests: [unknown, string, PlatformaticMessage][] = []
      for (const m of messages) requests.push([m.key, 'key', m], [m.value, 'value', m])
      runAsyncSeries<[unknown, string, PlatformaticMessage]>(
        ([data, type, m], cb) => {
          const result = hook(data, type, m, (error) => cb(error ?? null)) as unknown
          if (typeof (result as Promise<void> | undefined)?.then === 'function')
            (result as Promise<void>).then(() => cb(null), cb)
        },
        requests,
        0,
        (error) => {
          if (error) return reject(error)
          for (const m of messages) sink += serialize(m.value, m.headers, m)!.length
          resolve()
        },
      )
    }).then(() => {
      if (sink === 0) throw new Error('nothing written')
    })
}

async function time(step: Step): Promise<number> {
  const t0 = performance.now()
  for (let b = 0; b < BATCHES; b++) await step()
  return (performance.now() - t0) / (BATCHES * BATCH)
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 21)
  /** `--only=<n>`: run the n-th side alone (0: KafkaJS ours, 1: theirs, 2: Platformatic ours, 3: theirs), to profile it. */
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length)
  const registry = await InMemoryRegistry.start()
  const client = new RegistryClient({ url: registry.url, groupId: GROUP_ID })
  const format = (process.argv.find((arg) => arg.startsWith('--format='))?.slice('--format='.length) ??
    'avro') as 'avro' | 'json'
  if (format !== 'avro' && format !== 'json')
    throw new TypeError(`--format must be avro or json, got '${format}'`)
  const { artifactId: ARTIFACT, schema, artifactType } = SCHEMAS[format]
  const registered = await client.registerSchema(ARTIFACT, schema as never, { artifactType })
  const id = registered.globalId as number
  const stub = await ConfluentStub.start([
    {
      id,
      subject: `${TOPIC}-value`,
      schema: JSON.stringify(schema),
      schemaType: format === 'avro' ? 'AVRO' : 'JSON',
    },
  ])
  try {
    const serde = new KafkaJsSerde<unknown>(client, {
      serializer: (await loadOurSerializer(format, client, ARTIFACT)) as never,
    })
    const kafkajsSr = new SchemaRegistry({ host: stub.url })
    const kafka = await loadPlatformatic()
    const ours = new ApicurioSchemaRegistry(client, {
      serializer: (await loadOurSerializer(format, client, ARTIFACT)) as never,
    }) as unknown as PlatformaticRegistry
    const theirs = new kafka.ConfluentSchemaRegistry({ url: stub.url, jsonValidateSend: true })
    // Same frames first: ours with `useId: 'globalId'`, the stub serving the schema under that same id.
    const mine = (await serde.encodeMessage(TOPIC, { value: ourRecord(7) })).value as Buffer
    const peer = await kafkajsSr.encode(id, peerRecord(format, 7))
    if (!mine.equals(peer))
      throw new Error(`different frames:\n${mine.toString('hex')}\n${peer.toString('hex')}`)
    const pairs: [string, Step, Step][] = [
      [
        'KafkaJS: KafkaJsSerde#encodeMessage vs kafkajs-SR encode',
        async () => {
          const pending: Promise<unknown>[] = []
          for (let i = 0; i < BATCH; i++) pending.push(serde.encodeMessage(TOPIC, { value: ourRecord(i) }))
          await Promise.all(pending)
        },
        async () => {
          const pending: Promise<unknown>[] = []
          for (let i = 0; i < BATCH; i++) pending.push(kafkajsSr.encode(id, peerRecord(format, i)))
          await Promise.all(pending)
        },
      ],
      [
        'Platformatic: ApicurioSchemaRegistry vs ConfluentSchemaRegistry (hooks + value serializer)',
        platformaticStep(ours, (seq) => ({ topic: TOPIC, value: ourRecord(seq) })),
        platformaticStep(theirs, (seq) => ({
          topic: TOPIC,
          value: peerRecord(format, seq),
          metadata: { schemas: { value: id } },
        })),
      ],
    ]
    if (only !== undefined) {
      const step = pairs.flatMap(([, a, b]) => [a, b])[Number(only)]!
      for (let i = 0; i < rounds; i++) await time(step)
      return
    }
    for (const [, a, b] of pairs)
      for (let i = 0; i < 3; i++) {
        await time(a)
        await time(b)
      }
    for (const [name, a, b] of pairs) {
      const ratios: number[] = []
      const oursUs: number[] = []
      const theirsUs: number[] = []
      for (let round = 0; round < rounds; round++) {
        const [first, second] = round % 2 === 0 ? [a, b] : [b, a]
        const t1 = await time(first)
        const t2 = await time(second)
        const [o, t] = round % 2 === 0 ? [t1, t2] : [t2, t1]
        oursUs.push(o * 1000)
        theirsUs.push(t * 1000)
        ratios.push(t / o)
      }
      const med = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1]!
      const interval = medianInterval(ratios)
      console.log(
        `${name}\n  ours ${med(oursUs).toFixed(2)} µs/msg, theirs ${med(theirsUs).toFixed(2)} µs/msg, ` +
          `theirs ÷ ours ${med(ratios).toFixed(2)}× (95 % ${interval === undefined ? '—' : `${interval.low.toFixed(2)} – ${interval.high.toFixed(2)}`}, ${rounds} rounds)`,
      )
    }
  } finally {
    await client.close()
    await stub.close()
    await registry.close()
  }
}

await main()
