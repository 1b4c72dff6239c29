import { median } from '../median.js'
import type { ConsumerResult } from './consumer-types.js'
import type { ProducerResult } from './producer-types.js'
import { FORMAT_TITLES, FORMATS, type Phase, ROWS, type RowResult } from './types.js'

/** The consumer rounds of a run (fresh processes, cold and after a warm-up, ours and theirs on the same topic). */
export interface ConsumersRun {
  node?: string
  when: string
  messages: number
  warmup: number
  rounds: number
  load: string
  results: ConsumerResult[]
}

/** The producer rounds of a run (fresh processes, cold and after a warm-up, ours and theirs side by side). */
export interface ProducersRun {
  node?: string
  when: string
  messages: number
  warmup: number
  rounds: number
  load: string
  results: ProducerResult[]
}

/** What a full run keeps in bench/results/e2e-node-<major>.json and BENCHMARKS.md renders. */
export interface E2eRun {
  node: string
  when: string
  machine: string
  versions: string
  messages: number
  rounds: number
  /** Load average before and after, and what else shared the machine. */
  load: string
  /** Each round's results (rows of a round in a fresh process each). */
  results: RowResult[]
  /** The consumer rounds, when they ran (a run of the rows alone keeps the saved ones). */
  consumers?: ConsumersRun
  /** The producer rounds, when they ran (a run of another part keeps the saved ones). */
  producers?: ProducersRun
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

const rate = (p: Phase) => p.messages / p.seconds
const cpuPer = (p: Phase) => p.cpuMicros / p.messages

/** The medians over rounds of one row and format. */
export interface Figures {
  produceRate: number
  produceCpu: number
  consumeRate: number
  consumeCpu: number
  rawCpu: number
  /** (CPU per message decoding − CPU per message not decoding) ÷ CPU per message decoding. */
  shareByBaseline: number
  /** Time inside the deserializers and hooks ÷ consumer CPU time. */
  shareTimed: number
  /** Ours rows: CPU per message with the engine by hand (no registry), and its share by the same baseline. */
  handCpu: number | undefined
  shareByHand: number | undefined
}

export function figuresOf(results: readonly RowResult[], row: string, format: string): Figures | string {
  const mine = results.filter((r) => r.row === row && r.format === format)
  if (mine.length === 0) return 'not run'
  const first = mine[0]!
  if ('unsupported' in first) return first.unsupported
  const ok = mine.filter((r): r is Exclude<RowResult, { unsupported: string }> => !('unsupported' in r))
  const m = (pick: (r: (typeof ok)[number]) => number) => median(ok.map(pick))
  return {
    produceRate: m((r) => rate(r.produce)),
    produceCpu: m((r) => cpuPer(r.produce)),
    consumeRate: m((r) => rate(r.consume)),
    consumeCpu: m((r) => cpuPer(r.consume)),
    rawCpu: m((r) => cpuPer(r.raw)),
    shareByBaseline: m((r) => (cpuPer(r.consume) - cpuPer(r.raw)) / cpuPer(r.consume)),
    shareTimed: m((r) => (r.consume.serdeMs * 1000) / r.consume.cpuMicros),
    handCpu: ok.every((r) => r.hand !== undefined) ? m((r) => cpuPer(r.hand!)) : undefined,
    shareByHand: ok.every((r) => r.hand !== undefined)
      ? m((r) => (cpuPer(r.hand!) - cpuPer(r.raw)) / cpuPer(r.hand!))
      : undefined,
  }
}

const pct = (share: number) => `${(share * 100).toFixed(1)} %`

/**
 * One table per format: each client with ours, then with its own registry support, then the ratio of the pair
 * (ours ÷ theirs for messages/s, theirs ÷ ours for CPU per message: above 1 means ours is ahead either way).
 */
export function renderE2e(results: readonly RowResult[]): string {
  const out: string[] = []
  for (const format of FORMATS) {
    if (!results.some((r) => r.format === format)) continue
    out.push(`#### ${FORMAT_TITLES[format]}`, '')
    out.push(
      '| client + registry support | produce msg/s | produce CPU µs/msg | consume msg/s | consume CPU µs/msg | consume CPU µs/msg, not decoding | serde share of consumer CPU (baseline · timed) | the engine by hand: CPU µs/msg, share |',
    )
    out.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |')
    for (const client of ['platformatic', 'kafkajs'] as const) {
      const pair = ROWS.filter((row) => row.client === client)
      const figures = pair.map((row) => figuresOf(results, row.name, format))
      pair.forEach((row, i) => {
        const f = figures[i]!
        if (typeof f === 'string') {
          out.push(`| ${row.label} | ${f} | | | | | | |`)
          return
        }
        out.push(
          `| ${row.label} | ${integer.format(f.produceRate)} | ${f.produceCpu.toFixed(1)} | ${integer.format(f.consumeRate)} | ${f.consumeCpu.toFixed(1)} | ${f.rawCpu.toFixed(1)} | ${pct(f.shareByBaseline)} · ${pct(f.shareTimed)} | ${f.handCpu === undefined || f.shareByHand === undefined ? '' : `${f.handCpu.toFixed(1)}, ${pct(f.shareByHand)}`} |`,
        )
      })
      const [ours, theirs] = figures
      if (
        ours !== undefined &&
        theirs !== undefined &&
        typeof ours !== 'string' &&
        typeof theirs !== 'string'
      ) {
        out.push(
          `| **ours ÷ theirs** (above 1: ours ahead) | **${(ours.produceRate / theirs.produceRate).toFixed(2)}×** | **${(theirs.produceCpu / ours.produceCpu).toFixed(2)}×** | **${(ours.consumeRate / theirs.consumeRate).toFixed(2)}×** | **${(theirs.consumeCpu / ours.consumeCpu).toFixed(2)}×** | | | |`,
        )
      }
    }
    out.push('')
  }
  return out.join('\n')
}

export const E2E_METHOD = `- **What runs.** Each row and format in a fresh Node process: a warm-up (produce and consume the warm-up messages on
  a topic of their own: schema lookups, connections, JIT), then N messages of the 10-field \`bench.Event\` (\`seq\` = 0…N−1)
  produced in batches of 1 000 (KafkaJS: each batch encoded with \`Promise.all\`, then one \`send\`; Platformatic: one
  \`send\` of 1 000 messages, its registry hooks and serializers doing the encoding), then consumed from the start of
  the topic (1 partition) by a new group until the N-th message, whose \`seq\` must be N−1. Messages/s and CPU per
  message (\`process.cpuUsage\`, user + system, the whole client process) are taken over the produce loop and, for
  consume, from the moment the group is joined (Platformatic's \`consume()\` resolving; KafkaJS's \`GROUP_JOIN\` event)
  to the N-th message: the join is not the serde's, and Platformatic runs its hooks and deserializers over a whole
  fetch before it hands over the first message of it.
- **Registry support.** Ours on Apicurio's v3 API (globalIds in the frame, the artifact named, our defaults: Avro and
  JSON framed, Protobuf with Apicurio's \`Ref\`); theirs on the same server's Confluent-compatible API
  \`/apis/ccompat/v7\` by contentId: Platformatic's \`ConfluentSchemaRegistry\` (2.x: 1.35 ignores ccompat answers
  without \`schemaType\`) with the id in \`metadata.schemas.value\`, \`jsonValidateSend: true\` and a
  \`protobufTypeMapper\` naming \`bench.Event\`; kafkajs-SR's \`encode(contentId, value)\` / \`decode(buffer)\`. JSON is
  validated on write and on read by every row (ours with \`validate: true\`). Both peers write Protobuf as
  \`00 <id> <message>\` without Confluent's message indexes, which neither Confluent's nor Apicurio's readers take:
  their Protobuf rows only read their own messages back; and they need the enum as its number.
- **Serde share of consumer CPU**, two ways. *Baseline:* the same topic consumed again by the same client in a new
  group without decoding (Platformatic without a registry, Buffers; KafkaJS counting raw values); share = (CPU/msg
  decoding − CPU/msg not decoding) ÷ CPU/msg decoding: everything the serde costs, GC included, but the difference of
  two runs (noisy). *Timed:* \`performance.now()\` around every call of the registry's deserializers and (the
  synchronous part of) its before-deserialization hook (Platformatic), or around the decode (\`KafkaJsSerde\`'s
  \`eachMessage\` up to the handler, kafkajs-SR's \`decode\`), summed ÷ the consumer's CPU time: wall time inside the
  serde, so a contended machine inflates it. *Floor:* our rows' topic is read a third time by the same client with
  the format's engine by hand and no registry (avsc \`decode(frame, 5)\`; \`JSON.parse\` + the same ajv validation;
  protobufjs \`decode\` after the \`Ref\` + \`toObject\`): its share, by the same baseline, is what decoding this record
  costs in that client at the least, whoever does it.`
