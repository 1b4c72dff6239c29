import type { CaseDef, Group } from './cases.js'
import { median } from './median.js'

/** One measured run of one case in one round. */
export interface RoundResult {
  round: number
  caseName: string
  /** Calls made in all the measured slices, and the nanoseconds they took. */
  ops: number
  ns: number
  /** The median of the slices' ops/s: the figure of this run. */
  opsPerSec: number
  /** ops/s of each slice, in order. */
  sliceRates: number[]
  /**
   * CPU time of the worker process (all its threads) ÷ wall time while measured. About 1 on an idle machine (a bit
   * more when GC helper threads work); well below 1 means the worker waited for a core and the figure is low.
   */
  cpuShare: number
}

export interface Row {
  def: CaseDef
  /** Median over rounds. */
  opsPerSec: number
  nsPerOp: number
  min: number
  max: number
  /** Median over rounds of (this case's ops/s ÷ its ceiling's ops/s in the same round); undefined for a ceiling. */
  ratio: number | undefined
  /** Median over rounds of {@link RoundResult.cpuShare}. */
  cpuShare: number
}

const GROUP_TITLES: Record<Group, string> = {
  encode: 'Encode: `bench.Event` (10 fields, 132-byte body, 137-byte frame)',
  decode: 'Decode: `bench.Event` from its 137-byte frame',
  logical: 'Logical types and a long beyond 2^53: `bench.Payment` (8 fields, 77-byte frame)',
  'json-encode': 'JSON Schema encode: `bench.Event` as JSON (validated)',
  'json-decode': 'JSON Schema decode: `bench.Event` from its JSON frame',
  'proto-encode': 'Protobuf encode: `bench.Event` as a `.proto` message (Apicurio `Ref` framing)',
  'proto-decode': 'Protobuf decode: `bench.Event` from its Protobuf frame',
  rules:
    'Data-contract rules through the `rules` option: `bench.Event`, each call beside the same call with rules off (ratio: ops/s with the rule ÷ ops/s without)',
}

export function summarize(cases: readonly CaseDef[], results: readonly RoundResult[]): Row[] {
  const byRound = new Map<string, number>()
  for (const r of results) byRound.set(`${r.round}|${r.caseName}`, r.opsPerSec)
  return cases.map((def) => {
    const mine = results.filter((r) => r.caseName === def.name)
    const rates = mine.map((r) => r.opsPerSec)
    const ratios: number[] = []
    if (def.ceiling !== undefined) {
      for (const r of mine) {
        const ceiling = byRound.get(`${r.round}|${def.ceiling}`)
        if (ceiling !== undefined) ratios.push(r.opsPerSec / ceiling)
      }
    }
    const opsPerSec = median(rates)
    return {
      def,
      opsPerSec,
      nsPerOp: 1e9 / opsPerSec,
      min: Math.min(...rates),
      max: Math.max(...rates),
      ratio: ratios.length > 0 ? median(ratios) : undefined,
      cpuShare: median(mine.map((r) => r.cpuShare)),
    }
  })
}

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })

function ratioCell(row: Row): string {
  if (row.def.ceiling === undefined) return '1 (ceiling)'
  if (row.ratio === undefined) return '–'
  return `**${row.ratio.toFixed(2)}**`
}

/** Markdown tables, one per group, with the ceiling each ratio is taken against. */
export function renderTables(rows: readonly Row[]): string {
  const out: string[] = []
  for (const group of Object.keys(GROUP_TITLES) as Group[]) {
    const mine = rows.filter((row) => row.def.group === group)
    if (mine.length === 0) continue
    out.push(`### ${GROUP_TITLES[group]}`, '')
    out.push('| case | ops/s (median) | ns/op | ratio to the ceiling | ops/s min – max | CPU ÷ wall |')
    out.push('| --- | ---: | ---: | ---: | --- | ---: |')
    for (const row of mine) {
      const ceiling = row.def.ceiling === undefined ? '' : ` ÷ \`${row.def.ceiling}\``
      out.push(
        `| ${row.def.label}<br>\`${row.def.name}\` | ${integer.format(row.opsPerSec)} | ${integer.format(
          row.nsPerOp,
        )} | ${ratioCell(row)}${row.ratio === undefined ? '' : ceiling} | ${integer.format(row.min)} – ${integer.format(row.max)} | ${row.cpuShare.toFixed(2)} |`,
      )
    }
    out.push('')
  }
  return out.join('\n')
}

/** Below this CPU ÷ wall share a worker spent a noticeable part of its measured run waiting for a core. */
export const BUSY_SHARE = 0.9

/** A warning when some worker waited for a core while measured (other load on the machine), else undefined. */
export function busyWarning(results: readonly RoundResult[]): string | undefined {
  const busy = results.filter((r) => r.cpuShare < BUSY_SHARE)
  if (busy.length === 0) return undefined
  const worst = Math.min(...busy.map((r) => r.cpuShare))
  return (
    `WARNING: ${busy.length} of ${results.length} measured runs got less than ${BUSY_SHARE} of a core (lowest ` +
    `${worst.toFixed(2)}): something else was running, so these figures understate the speed and ratios are noisy.`
  )
}

/** Ours ÷ each peer doing the same job, per round (paired), as medians with their spread. */
export function renderPeers(cases: readonly CaseDef[], results: readonly RoundResult[]): string {
  const peers = cases.filter((def) => def.peerOf !== undefined)
  if (peers.length === 0) return ''
  const byRound = new Map<string, number>()
  for (const r of results) byRound.set(`${r.round}|${r.caseName}`, r.opsPerSec)
  const rounds = [...new Set(results.map((r) => r.round))]
  const out = [
    '### Ours against the serdes users pick instead (same records, warm, same bytes)',
    '',
    '| ours | peer | ours ÷ peer (median) | min – max over rounds |',
    '| --- | --- | ---: | --- |',
  ]
  for (const peer of peers) {
    const ratios = rounds
      .map(
        (round) =>
          (byRound.get(`${round}|${peer.peerOf}`) ?? Number.NaN) /
          (byRound.get(`${round}|${peer.name}`) ?? Number.NaN),
      )
      .filter((ratio) => Number.isFinite(ratio))
    if (ratios.length === 0) continue
    out.push(
      `| \`${peer.peerOf}\` | ${peer.label} | **${median(ratios).toFixed(2)}×** | ${Math.min(...ratios).toFixed(2)} – ${Math.max(...ratios).toFixed(2)} |`,
    )
  }
  return `${out.join('\n')}\n`
}

/** The row whose rule cost is the headline: a one-clause CEL condition on an Avro decode. */
export const HEADLINE_RULE_ROW = 'rules.avro.deserializeSync-cel'

/** A rule row's figures: ns per call off and on, the rule's cost (their difference) and its share of the call. */
export interface RuleCost {
  off: number
  on: number
  cost: number
  share: number
}

/**
 * What a data-contract rule costs per message: per round, the rule row's ns per call less its rules-off row's (its
 * ceiling) in the same round, and that difference's share of the rules-off call; medians over rounds. Undefined
 * when no round ran both.
 */
export function ruleCostOf(def: CaseDef, results: readonly RoundResult[]): RuleCost | undefined {
  const byRound = new Map<string, number>()
  for (const r of results) byRound.set(`${r.round}|${r.caseName}`, r.opsPerSec)
  const rounds = [...new Set(results.map((r) => r.round))]
  const pairs = rounds
    .map((round) => ({
      on: 1e9 / (byRound.get(`${round}|${def.name}`) ?? Number.NaN),
      off: 1e9 / (byRound.get(`${round}|${def.ceiling}`) ?? Number.NaN),
    }))
    .filter((pair) => Number.isFinite(pair.on) && Number.isFinite(pair.off))
  if (pairs.length === 0) return undefined
  return {
    off: median(pairs.map((pair) => pair.off)),
    on: median(pairs.map((pair) => pair.on)),
    cost: median(pairs.map((pair) => pair.on - pair.off)),
    share: median(pairs.map((pair) => (pair.on - pair.off) / pair.off)),
  }
}

/** The headline as a sentence: the one-clause CEL condition's cost per message and its share of an Avro decode. */
export function ruleHeadline(cost: RuleCost): string {
  return (
    `${integer.format(cost.cost)} ns a message, ${(cost.share * 100).toFixed(1)} % of an Avro \`deserializeSync\` ` +
    `(${integer.format(cost.off)} ns without rules)`
  )
}

/** The table of what each data-contract rule row costs per message, then the headline. */
export function renderRuleCosts(cases: readonly CaseDef[], results: readonly RoundResult[]): string {
  const rules = cases.filter((def) => def.group === 'rules' && def.ceiling !== undefined)
  if (rules.length === 0) return ''
  const out = [
    '### What one rule costs per message (with the rule less without, paired per round)',
    '',
    '| call with the rule | rules off | ns/message off | ns/message with the rule | the rule’s cost, ns/message | share of the call |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ]
  let headline: RuleCost | undefined
  for (const def of rules) {
    const cost = ruleCostOf(def, results)
    if (cost === undefined) continue
    out.push(
      `| \`${def.name}\` | \`${def.ceiling}\` | ${integer.format(cost.off)} | ${integer.format(cost.on)} | **${integer.format(cost.cost)}** | ${(cost.share * 100).toFixed(1)} % |`,
    )
    if (def.name === HEADLINE_RULE_ROW) headline = cost
  }
  if (headline !== undefined) {
    out.push('', `One-clause CEL condition \`seq > 0\`: **${ruleHeadline(headline)}**.`)
  }
  return `${out.join('\n')}\n`
}
