import { median } from '../median.js'
import { CONSUMER_ROWS, type ConsumerResult, STARTS } from './consumer-types.js'
import type { MedianInterval } from './median-interval.js'
import { roundFigures } from './round-figures.js'
import { FORMAT_TITLES, FORMATS } from './types.js'

/** One pair of rows, a format and a start: each side's median messages/s and the median of the per-round ratios. */
export interface PairFigures {
  oursRate: number
  theirsRate: number
  oursCpu: number
  theirsCpu: number
  /** Median milliseconds from the clock's start to the first message handled. */
  oursFirstMs: number
  theirsFirstMs: number
  /** Ours ÷ theirs in messages/s, taken within each round that ran both, then the median over those rounds. */
  ratio: number
  /** The per-round ratios, in round order. */
  ratios: number[]
  /** The 95 % confidence interval of the ratios' median (`undefined` under 6 rounds). */
  interval: MedianInterval | undefined
}

export function pairFigures(
  results: readonly ConsumerResult[],
  pair: string,
  format: string,
  start: string,
): PairFigures | undefined {
  const ours = CONSUMER_ROWS.find((row) => row.pair === pair && row.support === 'ours')
  const theirs = CONSUMER_ROWS.find((row) => row.pair === pair && row.support === 'theirs')
  if (ours === undefined || theirs === undefined) throw new TypeError(`no consumer pair named '${pair}'`)
  const figures = roundFigures(results, ours.name, theirs.name, format, start)
  if (figures === undefined) return undefined
  const { mine, peer, ...common } = figures
  return {
    ...common,
    oursFirstMs: median(mine.map((r) => r.firstMs)),
    theirsFirstMs: median(peer.map((r) => r.firstMs)),
  }
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

/** One table per format: each pair cold and warm, its medians and ours ÷ theirs (above 1: ours ahead). */
export function renderConsumers(results: readonly ConsumerResult[], warmup: number): string {
  const out: string[] = []
  const pairs = [...new Set(CONSUMER_ROWS.map((row) => row.pair))]
  for (const format of FORMATS) {
    if (!results.some((r) => r.format === format)) continue
    out.push(`#### ${FORMAT_TITLES[format]}: consumers from a fresh process`, '')
    out.push(
      '| ours vs theirs | start | ours msg/s | theirs msg/s | ours CPU µs/msg | theirs CPU µs/msg | ours first message, ms | theirs first message, ms | **ours ÷ theirs** (msg/s, median of rounds) | 95 % interval of the median | each round |',
    )
    out.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: | --- |')
    for (const pair of pairs) {
      const [ours, theirs] = CONSUMER_ROWS.filter((row) => row.pair === pair)
      for (const start of STARTS) {
        const f = pairFigures(results, pair, format, start)
        if (f === undefined) continue
        const when = start === 'cold' ? 'cold' : `after ${integer.format(warmup)}`
        const interval =
          f.interval === undefined ? '—' : `${f.interval.low.toFixed(2)} – ${f.interval.high.toFixed(2)}`
        out.push(
          `| ${ours!.label} vs ${theirs!.label} | ${when} | ${integer.format(f.oursRate)} | ${integer.format(f.theirsRate)} | ${f.oursCpu.toFixed(1)} | ${f.theirsCpu.toFixed(1)} | ${integer.format(f.oursFirstMs)} | ${integer.format(f.theirsFirstMs)} | **${f.ratio.toFixed(2)}×** | ${interval} | ${f.ratios.map((r) => r.toFixed(2)).join(' ')} |`,
        )
      }
    }
    out.push('')
  }
  return out.join('\n')
}

export const CONSUMERS_METHOD = `- **Consumers from a fresh process.** One topic per format is produced once (kafkajs-SR's \`encode(contentId,
  value)\`, checked byte for byte against ours with \`useId: 'contentId'\` first), and every consumer reads that same
  topic: the same frames for ours and theirs. Each consumer is a fresh \`node\` process that loads its client and
  registry support, joins a new group and reads the topic from the start; *cold*: straight away, *after N*: after
  reading N messages of a warm-up topic (the same frames) with the same registry support. Timed from the first
  message reaching the registry support (KafkaJS: the first \`eachMessage\` or \`eachBatch\` call; Platformatic: the
  first call of its registry's hook or deserializers) to the last one handled, so the schema's lookup, lazy loading
  and compiling fall inside. Ours reads with \`useId: 'contentId'\` on the v3 API; theirs on the ccompat API. JSON is
  validated on read by every row. \`eachBatch\`: ours is \`KafkaJsSerde.eachBatch\` (the handler gets the batch
  decoded), theirs a plain loop \`for (const m of batch.messages) handle(await registry.decode(m.value))\`.
- **Rounds.** Ours and theirs of a pair run one after the other, ours first in odd rounds and theirs first in even
  ones; each round starts one pair further along. The ratio is taken within each round, and the median of the rounds'
  ratios is given (each round's beside it); msg/s, CPU and the first message's wait (from the clock's start to the
  first message handled: the lookup and first-use costs, and for Platformatic the decoding of its whole first
  fetch) are medians over rounds.
- **95 % interval of the median.** The distribution-free confidence interval of the median ratio: the k-th smallest
  and the k-th largest of the rounds' ratios, k from the binomial distribution (the 6th of 21 rounds, the 2nd of 9;
  none under 6 rounds). It assumes nothing about the machine's noise. An interval that spans 1.0 means the rounds
  cannot tell ours from theirs apart on this machine.`
