import type { CaseDef } from './cases.js'
import type { ColdResult } from './cold.js'
import { renderCold } from './cold.js'
import { loadE2e } from './e2e/results.js'
import { renderE2eSection } from './e2e/section.js'
import { type NodeRun, renderNodeTable } from './node-runs.js'
import type { RoundResult, Row } from './report.js'
import {
  HEADLINE_RULE_ROW,
  renderPeers,
  renderRuleCosts,
  renderTables,
  ruleCostOf,
  ruleHeadline,
} from './report.js'

/** What a full run writes to BENCHMARKS.md: every table of the run, the chart, and how to read and redo it. */
export function renderBenchmarksMd(input: {
  machine: string
  versions: string
  when: string
  rounds: number
  seconds: number
  cases: readonly CaseDef[]
  results: readonly RoundResult[]
  rows: readonly Row[]
  cold: readonly ColdResult[]
  /** The offline compatibility table, rendered (`renderCompatibility`). */
  compatibility: string
  /** The start-up tables, rendered (`renderStartup`). */
  startup: string
  warning: string | undefined
  /** The saved full runs of each Node line (this one's included). */
  byNode: readonly NodeRun[]
}): string {
  const { rows } = input
  const ratio = (name: string) => rows.find((row) => row.def.name === name)?.ratio
  const ops = (name: string) => rows.find((row) => row.def.name === name)?.opsPerSec
  const vs = (ours: string, peer: string) => {
    const a = ops(ours)
    const b = ops(peer)
    return a === undefined || b === undefined ? '–' : `${(a / b).toFixed(2)}×`
  }
  const fmt = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(2))
  const summary = [
    '| target | measured (medians) |',
    '| --- | --- |',
    `| Avro sync ≥ 0.95× of the avsc ceiling | encode ${fmt(ratio('ours.serializeSync'))}, decode ${fmt(ratio('ours.deserializeSync'))} |`,
    `| (how fast the same ceilings run in a process that never made an HTTP request, ÷ the ceilings, which fetch their schema first as ours do) | encode ${fmt(ratio('avsc.encode-prealloc-copy-no-http'))}, decode ${fmt(ratio('avsc.decode-framed-no-http'))} |`,
    `| Avro async ≥ 0.9× of the awaited ceiling | encode ${fmt(ratioOf(rows, 'ours.serialize', 'avsc.encode-prealloc-copy-awaited'))}, decode ${fmt(ratioOf(rows, 'ours.deserialize', 'avsc.decode-framed-awaited'))} |`,
    `| Avro ≥ 1.5× kafkajs-SR async (decode ≥ 1.6×) | encode ${vs('ours.serialize', 'kafkajs.serialize')}, decode ${vs('ours.deserialize', 'kafkajs.deserialize')} |`,
    ...(ops('kafkajs4.serialize') === undefined
      ? []
      : [
          `| Avro ≥ 1.5× kafkajs-SR 4.x async | encode ${vs('ours.serialize', 'kafkajs4.serialize')}, decode ${vs('ours.deserialize', 'kafkajs4.deserialize')} |`,
        ]),
    `| Avro ≥ 2× kafkajs-SR (ours sync) | encode ${vs('ours.serializeSync', 'kafkajs.serialize')}, decode ${vs('ours.deserializeSync', 'kafkajs.deserialize')} |`,
    `| Avro ≥ 10× Confluent | encode ${vs('ours.serialize', 'confluent.serialize')}, decode ${vs('ours.deserialize', 'confluent.deserialize')} |`,
    `| JSON Schema ≥ 0.9× of the hand-written ceiling (sync; decode ≥ 0.95×) | encode ${fmt(ratio('ours.json.serializeSync'))}, decode ${fmt(ratio('ours.json.deserializeSync'))} |`,
    `| JSON Schema ahead of the peers (async) | encode ${vs('ours.json.serialize', 'kafkajs.json.serialize')} kafkajs-SR, ${vs('ours.json.serialize', 'confluent.json.serialize')} Confluent; decode ${vs('ours.json.deserialize', 'kafkajs.json.deserialize')} kafkajs-SR, ${vs('ours.json.deserialize', 'confluent.json.deserialize')} Confluent |`,
    `| Protobuf ≥ 0.9× of protobufjs by hand (sync) | encode ${fmt(ratio('ours.proto.serializeSync'))}, decode ${fmt(ratio('ours.proto.deserializeSync'))} |`,
    `| Protobuf ahead of Confluent (async) | encode ${vs('ours.proto.serialize', 'confluent.proto.serialize')}, decode ${vs('ours.proto.deserialize', 'confluent.proto.deserialize')} |`,
    `| Inside @platformatic/kafka, per message after the hooks: ours (ApicurioSchemaRegistry) ahead of its ConfluentSchemaRegistry | Avro encode ${vs('ours.platformatic.serialize', 'platformatic.serialize')}, decode ${vs('ours.platformatic.deserialize', 'platformatic.deserialize')}; JSON encode ${vs('ours.platformatic.json.serialize', 'platformatic.json.serialize')}, decode ${vs('ours.platformatic.json.deserialize', 'platformatic.json.deserialize')} |`,
    `| Logical types (bench.Payment) ≥ 0.9× of avsc with LogicalType classes (the fair ceiling) | encode ${fmt(ratio('ours.payment.serializeSync'))}, decode ${fmt(ratio('ours.payment.deserializeSync'))} |`,
    `| A one-clause CEL condition costs < 1 µs a message (its share of an Avro decode) | ${ruleCost(input.cases, input.results)} |`,
  ].join('\n')
  return `# Benchmarks

Written by \`pnpm bench\` (a full run rewrites this file and [bench/chart.svg](bench/chart.svg); \`--quick\` and
\`--filter\` runs do not). Nothing here is hand-edited: the figures are those of the run below.

![ours against the peers](bench/chart.svg)

- **Run:** ${input.when}; ${input.rounds} rounds, ${input.seconds} s measured per case and round, each case in a fresh process.
- **Machine:** ${input.machine}.
- **Packages:** ${input.versions}.
${input.warning === undefined ? '' : `\n> ${input.warning}\n`}
## Summary

${summary}

Where each case spends its time, and what bounds a row that stays below its target (the profiles, piece by piece):
[bench/PROFILES.md](bench/PROFILES.md).

## Node 20, 22 and 24 side by side

The medians of the last full run on each Node line (\`pnpm bench\` on 20, \`pnpm bench:node22\`, \`pnpm bench:node24\`;
each keeps its figures in \`bench/results/\`). V8 moves these ratios between lines; \`n/a\`: the peer does not run on
that line (kafkajs-SR 4.x needs Node 22).

${renderNodeTable(input.byNode)}

## Results (this run: ${input.machine})

${renderTables(rows)}
${renderPeers(input.cases, input.results)}
${renderRuleCosts(input.cases, input.results)}
${renderCold(input.cold)}
${input.compatibility}
${input.startup}
${renderE2eSection(loadE2e())}

## How to reproduce

\`\`\`sh
pnpm install --frozen-lockfile
pnpm bench                        # every case, 5 rounds: a few minutes on 2 cores; rewrites this file
pnpm bench:node22                 # the same on Node 22 (from npm; adds the Node 22 peers), then bench:node24
pnpm bench --quick                # smoke run (CI runs it, all cases in one process): checks everything runs, figures meaningless
pnpm bench:e2e                    # end to end through a real broker (Node 24, ~35 min): rewrites its section above
pnpm bench:e2e --part=producers   # only its producer rounds (fresh processes, cold and warm; ~15 min)
pnpm bench:e2e --part=consumers   # only its consumer rounds (fresh processes, cold and warm; ~12 min)
pnpm bench --filter=json          # only the matching cases (and the ceilings they are divided by)
pnpm bench --filter=proto --repeat  # more paired rounds until each ratio's middle half is within ±3 % of its median
BENCH_ROUNDS=11 BENCH_SECONDS=2 pnpm bench        # steadier figures
BENCH_CPU_PROF=/tmp/prof BENCH_FILTER='^ours.proto' BENCH_ROUNDS=1 BENCH_SECONDS=4 pnpm bench   # profiles
\`\`\`

## Method

- **Registries.** An \`InMemoryRegistry\` on 127.0.0.1 holds the bench schemas (Avro \`bench.Event\` and
  \`bench.Payment\`, and the JSON Schema and \`.proto\` versions of \`bench.Event\`); the peers talk to an in-process
  Confluent REST stub (\`bench/src/peers/confluent-registry.ts\`) that serves the same schemas under the same ids. The
  parent counts the requests of both while each case is measured and **fails the bench if any was sent**: every
  figure is warm, no HTTP.
- **Correctness first.** Before timing, every library writes the same bytes (5-byte header + identical body) and
  reads the frames back to values deep-equal to the record; a mismatch aborts the bench.
- **Peers and their settings.** \`@kafkajs/confluent-schema-registry\` 3.9.0, and its newest line 4.x on Node 22 and
  24 (it needs Node 22: the bench installs it as the optional \`kafkajs-schema-registry-4\`, which pnpm skips on Node
  20): \`registry.encode(id, value)\` / \`registry.decode(buffer)\`, which is how its users write a known schema id. \`@confluentinc/schemaregistry\`
  1.10.1, the newest release, runs on Node 20 once its Azure key-vault dependencies are held at their last Node 20
  releases (\`overrides\` in \`pnpm-workspace.yaml\`): \`AvroSerializer\`/\`JsonSerializer\` with \`useLatestVersion: true,
  autoRegisterSchemas: false\` (a user writing an existing subject's schema has no other way), \`validate: true\` for
  JSON (as ours and kafkajs-SR validate), deserializers with defaults. Confluent asks its registry for subject
  associations; the stub answers none, which it caches. Protobuf: Confluent's serde writes @bufbuild/protobuf
  messages, so the bench builds the message descriptor from the same \`.proto\` at run time
  (\`bench/src/peers/bufbuild-descriptor.ts\`, what protoc-gen-es would generate) and each call makes the message
  from the plain record (as \`fromObject\` does for the ceiling); ours runs with \`framing: 'confluent'\` and both
  write the same bytes. \`@platformatic/kafka\`'s own \`ConfluentSchemaRegistry\` (2.12.1 on Node 22 and 24; 1.35.0 on
  Node 20, Avro only: 1.35 compiles JSON schemas as draft 2020-12 and refuses the bench's draft-07 one) is timed as
  Platformatic's clients drive it: its before-hook once (the schema fetched from the stub), then its synchronous value
  serializer (the id in \`metadata.schemas.value\`, \`jsonValidateSend: true\`) or deserializer (a fresh message object
  per call, on which it notes the id), against our \`ApicurioSchemaRegistry\` (@x/kafka) driven the same way (JSON
  read with \`validate: true\`, as Platformatic always validates); its Protobuf is left out (it writes
  \`00 <id> <message>\`, as kafkajs-SR does). kafkajs-SR is not compared for Protobuf: it writes \`00 <id> <message>\` without Confluent's
  message-index byte, a frame neither Confluent's nor Apicurio's readers take, so it cannot pass the equality check.
- **A fresh process per case and round**, rounds interleaved (every other round reversed); in each worker: prepare,
  check one call, warm up, measure in slices; a run's figure is the median of its slices, a case's the median over
  rounds. Ratios are paired per round (a case ÷ its ceiling, ours ÷ a peer, in the same round) and their median is
  shown with the spread over rounds.
- **Ceilings** are the engine doing the same job by hand: avsc encoding into a reused buffer and copying the frame
  out (decode: check the header, \`type.decode(framed, 5)\`); \`validate\` with the same compiled ajv + \`JSON.stringify\`
  + frame (decode: \`JSON.parse\` after the header); protobufjs \`Type.encode(Type.fromObject(r))\` after the same
  header and \`Ref\` (decode: \`Type.toObject(Type.decode(…))\` with enum names and defaults); for \`bench.Payment\`,
  avsc with \`LogicalType\` classes doing our conversions as a careful user would write them (\`Date\` ↔ millis and
  days, decimal string ↔ two's complement bytes through \`bigint\`, micros ↔ \`bigint\`) and exact longs through
  avsc's documented \`LongType.__with\` (\`bench/src/payment-logical.ts\`). The awaited ceilings
  return the same through \`Promise.resolve\`: the floor for any Promise API.
- **Data-contract rules.** Each format's \`serializeSync\` and \`deserializeSync\` with \`rules: { enabled: true }\`
  on an artifact of \`bench.Event\` whose artifact-level ruleset, served by the same \`InMemoryRegistry\`, holds one
  \`WRITEREAD\` rule: the CEL condition \`seq > 0\` or the JSONata transform \`$merge([$, {"note": "***"}])\`. The
  ruleset is fetched and compiled in \`prepare\`, so the measured calls make no request (checked as for every row).
  Each row's ratio is taken against the same call with rules off, and the rule's cost per message is the difference
  of the two, paired per round. Before timing, the CEL rows write the record's bytes and refuse \`seq: 0\`, and the
  JSONata rows write and read the masked record.
- **Cold start:** a newly registered id, a fresh client per library, 1000 concurrent deserializations: requests sent
  and time until all resolved, ${input.cold[0]?.ms.length ?? 0} rounds in rotating order.
- **Start-up:** each library in a fresh \`node\` (\`bench/src/startup/child.ts\`): import, fetch the one schema
  (ours from the InMemoryRegistry, the peers from the Confluent-API stub), decode one Avro message, print
  \`process.resourceUsage()\` and exit; 10 runs (3 with \`--quick\`) in rotating order, medians. The two targets
  are the median of the ratios of the two processes of each run: the CPU of \`import('@x/serde')\` against that of
  \`import('avsc')\`, and the whole process's CPU against kafkajs-SR's.
- **Cold Lambda invocation:** each handler in a fresh \`node\` (\`bench/src/lambda-cold/child.ts\`) that imports it
  as Lambda's runtime does, is handed one MSK event of 10 Avro records and answers: ours from the registry and from a
  schema snapshot (\`offline\`), Powertools' \`kafkaConsumer\` with the schema inline, kafkajs-SR's \`decode\` per
  record; 10 runs (3 with \`--quick\`) in rotating order, medians. \`pnpm --filter @x/bench startup\` runs the start-up
  and cold-invocation parts alone (\`BENCH_STARTUP_RUNS\`, \`BENCH_CPU_PROF\` for the start-up processes), on any Node
  line with \`scripts/with-node.sh 22 node bench/dist/startup/main.js\`.
`
}

/** The headline rule row's cost per message and its share of the rules-off decode, paired per round. */
function ruleCost(cases: readonly CaseDef[], results: readonly RoundResult[]): string {
  const def = cases.find((one) => one.name === HEADLINE_RULE_ROW)
  const cost = def === undefined ? undefined : ruleCostOf(def, results)
  return cost === undefined ? '–' : ruleHeadline(cost)
}

function ratioOf(rows: readonly Row[], name: string, of: string): number | undefined {
  const a = rows.find((row) => row.def.name === name)?.opsPerSec
  const b = rows.find((row) => row.def.name === of)?.opsPerSec
  return a === undefined || b === undefined ? undefined : a / b
}
