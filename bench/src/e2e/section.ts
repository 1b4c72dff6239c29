import { CONSUMERS_METHOD, renderConsumers } from './consumer-report.js'
import { PRODUCERS_METHOD, renderProducers } from './producer-report.js'
import { type ConsumersRun, E2E_METHOD, type E2eRun, type ProducersRun, renderE2e } from './report.js'

/** The markers around the end-to-end section of BENCHMARKS.md, which `pnpm bench:e2e` rewrites on its own. */
export const E2E_START = '<!-- e2e: written by pnpm bench:e2e -->'
export const E2E_END = '<!-- /e2e -->'

/** The consumer rounds' part of the section. */
function renderConsumersPart(run: ConsumersRun | undefined): string {
  if (run === undefined) return 'No consumer rounds saved yet: `pnpm bench:e2e --part=consumers` runs them.'
  return `Every consumer in a fresh process, reading the same ${run.messages.toLocaleString('en-US')} frames of its
format, cold or after ${run.warmup.toLocaleString('en-US')} messages of warm-up; ${run.rounds === 1 ? 'one round' : `${run.rounds} rounds`}.

- **Run:** ${run.when}${run.node === undefined ? '' : `, Node ${run.node}`}, ${run.load}.

${renderConsumers(run.results, run.warmup)}`
}

/** The producer rounds' part of the section. */
function renderProducersPart(run: ProducersRun | undefined): string {
  if (run === undefined) return 'No producer rounds saved yet: `pnpm bench:e2e --part=producers` runs them.'
  return `Every producer in a fresh process, writing ${run.messages.toLocaleString('en-US')} messages of its format, cold
or after ${run.warmup.toLocaleString('en-US')} messages of warm-up; ${run.rounds === 1 ? 'one round' : `${run.rounds} rounds`}.

- **Run:** ${run.when}${run.node === undefined ? '' : `, Node ${run.node}`}, ${run.load}.

${renderProducers(run.results, run.warmup)}`
}

/** The end-to-end section of BENCHMARKS.md, from the saved run (or how to make one). */
export function renderE2eSection(run: E2eRun | undefined): string {
  const body =
    run === undefined
      ? 'No end-to-end run saved yet: `pnpm bench:e2e` makes one (bench/results/e2e-node-24.json).'
      : `Written by \`pnpm bench:e2e\` (Node 24; a full run rewrites this section and the end-to-end bars of the
chart). Produce then consume ${run.messages.toLocaleString('en-US')} messages per client, registry support and
format through a real Kafka broker, with the schemas in a real Apicurio Registry; ${run.rounds === 1 ? 'one round' : `medians of ${run.rounds} rounds`}.

- **Run:** ${run.when}, ${run.load}.
- **Machine:** ${run.machine}.
- **Packages:** ${run.versions}.

${renderE2e(run.results)}
Ratios: ours ÷ theirs for messages/s, theirs ÷ ours for CPU per message: above 1, ours is ahead on that figure.

### Producers from a fresh process

${renderProducersPart(run.producers)}

### Consumers from a fresh process

${renderConsumersPart(run.consumers)}`
  return `${E2E_START}
## End to end through a real broker

${body}

### Method (end to end)

${E2E_METHOD}
${PRODUCERS_METHOD}
${CONSUMERS_METHOD}

\`\`\`sh
pnpm bench:e2e            # starts Apicurio 3.3.3 and Kafka 3.9 (the integration stage's starters); 100 000 messages, 3 rounds
pnpm bench:e2e --part=producers   # only the producer rounds (5 rounds, cold and after 5 000)
pnpm bench:e2e --part=consumers   # only the consumer rounds (5 rounds, cold and after 5 000)
pnpm bench:e2e --quick    # 2 000 messages, one round, writes nothing (the integration stage runs it)
REGISTRY_URL=http://127.0.0.1:8080/apis/registry/v3 KAFKA_BROKERS=127.0.0.1:9092 pnpm bench:e2e   # use running ones
\`\`\`
${E2E_END}`
}

/** `text` (BENCHMARKS.md) with its end-to-end section replaced, or added before "## How to reproduce". */
export function replaceE2eSection(text: string, section: string): string {
  const start = text.indexOf(E2E_START)
  const end = text.indexOf(E2E_END)
  if (start !== -1 && end > start)
    return `${text.slice(0, start)}${section}${text.slice(end + E2E_END.length)}`
  const before = text.indexOf('## How to reproduce')
  if (before === -1) return `${text.trimEnd()}\n\n${section}\n`
  return `${text.slice(0, before)}${section}\n\n${text.slice(before)}`
}
