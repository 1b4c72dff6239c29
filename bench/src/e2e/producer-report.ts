import { STARTS } from './consumer-types.js'
import type { MedianInterval } from './median-interval.js'
import type { ProducerResult } from './producer-types.js'
import { PRODUCER_PAIRS } from './producer-types.js'
import { roundFigures } from './round-figures.js'
import { FORMAT_TITLES, FORMATS } from './types.js'

/** One client's pair, a format and a start: each side's median messages/s and the median of the per-round ratios. */
export interface ProducerPairFigures {
  oursRate: number
  theirsRate: number
  oursCpu: number
  theirsCpu: number
  /** Ours ÷ theirs in messages/s, taken within each round that ran both, then the median over those rounds. */
  ratio: number
  /** The per-round ratios, in round order. */
  ratios: number[]
  /** The 95 % confidence interval of the ratios' median (`undefined` under 6 rounds). */
  interval: MedianInterval | undefined
}

/** The figures of a client's pair (`'platformatic'` or `'kafkajs'`), or `undefined` when either side did not run. */
export function producerPairFigures(
  results: readonly ProducerResult[],
  client: string,
  format: string,
  start: string,
): ProducerPairFigures | undefined {
  const pair = PRODUCER_PAIRS.find(([ours]) => ours.client === client)
  if (pair === undefined) throw new TypeError(`no producer pair of the client '${client}'`)
  const [ours, theirs] = pair
  const figures = roundFigures(results, ours.name, theirs.name, format, start)
  if (figures === undefined) return undefined
  const { mine: _mine, peer: _peer, ...common } = figures
  return common
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** One table per format: each client's pair cold and warm, its medians and ours ÷ theirs (above 1: ours ahead). */
export function renderProducers(results: readonly ProducerResult[], warmup: number): string {
  const out: string[] = []
  for (const format of FORMATS) {
    if (!results.some((r) => r.format === format)) continue
    out.push(`#### ${FORMAT_TITLES[format]}: producers from a fresh process`, '')
    out.push(
      '| ours vs theirs | start | ours msg/s | theirs msg/s | ours CPU µs/msg | theirs CPU µs/msg | **ours ÷ theirs** (msg/s, median of rounds) | 95 % interval of the median | each round |',
    )
    out.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | :---: | --- |')
    for (const [ours, theirs] of PRODUCER_PAIRS) {
      for (const start of STARTS) {
        const f = producerPairFigures(results, ours.client, format, start)
        if (f === undefined) continue
        const when = start === 'cold' ? 'cold' : `after ${integer.format(warmup)}`
        const interval =
          f.interval === undefined ? '—' : `${f.interval.low.toFixed(2)} – ${f.interval.high.toFixed(2)}`
        out.push(
          `| ${ours.label} vs ${theirs.label} | ${when} | ${integer.format(f.oursRate)} | ${integer.format(f.theirsRate)} | ${f.oursCpu.toFixed(1)} | ${f.theirsCpu.toFixed(1)} | **${f.ratio.toFixed(2)}×** | ${interval} | ${f.ratios.map((r) => r.toFixed(2)).join(' ')} |`,
        )
      }
    }
    out.push('')
  }
  return out.join('\n')
}

export const PRODUCERS_METHOD = `- **Producers from a fresh process.** Each producer is a fresh \`node\` process that loads its client and registry
  support and nothing else an application of its row would not load (not the other client, the other support or
  another format's serde), as the consumers below do; KafkaJS connects its producer first, Platformatic's connects on
  its first send. It produces N messages
  of the 10-field \`bench.Event\` in batches of 1 000, as the rows above do (KafkaJS: \`Promise.all\` of the batch's
  encodes, then one \`send\`; Platformatic: one \`send\` of 1 000 messages, its registry's hooks and serializers
  encoding). *Cold*: straight away, so the schema's lookup, lazy loading and compiling fall inside; *after N*: after
  producing N messages to a warm-up topic with the same registry support. Timed from the first batch to the last
  \`send\` acknowledged; after each process the parent checks that its topic grew by exactly N messages. Ours writes
  on the v3 API (globalIds, the artifact named); theirs on the ccompat API by contentId. JSON is validated on write
  by every row. The rounds and the interval are as for the consumers below. A producer's heap is small, and V8
  chooses per allocation site (here the bench's and the client's own objects, which every row shares) whether to
  allocate in the old generation; one choice more or less can move a row's collector time by more than the serde
  costs: \`--node-flag=--no-allocation-site-pretenuring\` runs the rounds without that choice.`
