/** What a `pnpm bench:e2e` run does, from its arguments and environment. */
export interface E2eConfig {
  quick: boolean
  filter: RegExp | undefined
  /**
   * Which parts run: the produce-and-consume rows, the producer rounds and the consumer rounds (fresh processes,
   * cold and warm); all by default, one with `--part`.
   */
  parts: { rows: boolean; producers: boolean; consumers: boolean }
  messages: number
  warmup: number
  rounds: number
  producerRounds: number
  consumerRounds: number
  /** Each consumer process profiled with `--cpu-prof` into this directory. */
  cpuProf: string | undefined
  /** Flags given to `node` for every producer and consumer process (`--node-flag`, repeatable). */
  nodeFlags: string[]
  jsonFile: string | undefined
}

export const USAGE = `pnpm bench:e2e [--quick] [--part=rows|producers|consumers] [--filter=<regex>] [--cpu-prof=<dir>] [--node-flag=<flag>] [--help]
  (runs on Node 24: scripts/with-node.sh)

  --quick                 smoke run: 2 000 messages per row, 200 to warm up, one round; writes nothing
  --part=rows             only the rows that produce and consume in one process (after a warm-up)
  --part=producers        only the producer rounds: every producer a fresh process, cold and after a warm-up,
                          ours and theirs side by side
  --part=consumers        only the consumer rounds: every consumer a fresh process, cold and after a warm-up,
                          ours and theirs reading the same topic
  --filter=<regex>        only rows whose '<format>/<row>' (producer and consumer rounds: '<format>/<row>/<cold|warm>')
                          matches (e.g. avro/, /kafkajs, /warm); writes nothing
  --cpu-prof=<dir>        run each producer and consumer process with --cpu-prof into <dir>; writes nothing
  --node-flag=<flag>      give <flag> to node in each producer and consumer process (repeatable), e.g.
                          --node-flag=--no-allocation-site-pretenuring to see the rounds without V8's choice of
                          which objects to allocate in the old generation; writes nothing
Environment:
  E2E_MESSAGES=100000     messages per row and format
  E2E_WARMUP=5000         warm-up messages per row and format (own topic, not timed)
  E2E_ROUNDS=3            rounds of the rows (every other one in reverse order); medians over rounds
  E2E_PRODUCER_ROUNDS=5   rounds of the producers (ours and theirs side by side, rotating); medians over rounds
  E2E_CONSUMER_ROUNDS=5   rounds of the consumers (ours and theirs side by side, rotating); medians over rounds
  E2E_JSON=<file>         also write the raw results to <file>
  REGISTRY_URL=http://host:port/apis/registry/v3   use this Apicurio 3 instead of starting 3.3.3
  KAFKA_BROKERS=host:port                          use this broker instead of starting Kafka 3.9`

function count(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value <= 0)
    throw new TypeError(`${name} must be a positive integer, got '${text}'`)
  return value
}

/** The run's configuration, or `'help'`; a TypeError for an unknown argument or a count that is not one. */
export function readConfig(argv: readonly string[], env: NodeJS.ProcessEnv): E2eConfig | 'help' {
  let quick = false
  let filter: RegExp | undefined
  let part: 'rows' | 'producers' | 'consumers' | undefined
  let cpuProf: string | undefined
  const nodeFlags: string[] = []
  for (const arg of argv) {
    if (arg === '--') continue
    if (arg === '--help' || arg === '-h') return 'help'
    if (arg === '--quick') quick = true
    else if (arg.startsWith('--filter=')) filter = new RegExp(arg.slice('--filter='.length))
    else if (arg === '--part=rows' || arg === '--part=producers' || arg === '--part=consumers')
      part = arg.slice('--part='.length) as 'rows' | 'producers' | 'consumers'
    else if (arg.startsWith('--cpu-prof=') && arg.length > '--cpu-prof='.length)
      cpuProf = arg.slice('--cpu-prof='.length)
    else if (arg.startsWith('--node-flag=--') && arg.length > '--node-flag=--'.length)
      nodeFlags.push(arg.slice('--node-flag='.length))
    else throw new TypeError(`Unknown argument '${arg}'\n\n${USAGE}`)
  }
  return {
    quick,
    filter,
    parts: {
      rows: part === undefined || part === 'rows',
      producers: part === undefined || part === 'producers',
      consumers: part === undefined || part === 'consumers',
    },
    messages: count('E2E_MESSAGES', env.E2E_MESSAGES, quick ? 2000 : 100_000),
    warmup: count('E2E_WARMUP', env.E2E_WARMUP, quick ? 200 : 5000),
    rounds: count('E2E_ROUNDS', env.E2E_ROUNDS, quick ? 1 : 3),
    producerRounds: count('E2E_PRODUCER_ROUNDS', env.E2E_PRODUCER_ROUNDS, quick ? 1 : 5),
    consumerRounds: count('E2E_CONSUMER_ROUNDS', env.E2E_CONSUMER_ROUNDS, quick ? 1 : 5),
    cpuProf,
    nodeFlags,
    jsonFile: env.E2E_JSON || undefined,
  }
}

/** Whether a run's figures are written to the saved results and BENCHMARKS.md: full runs only. */
export function writesResults(config: E2eConfig): boolean {
  return (
    !config.quick &&
    config.filter === undefined &&
    config.cpuProf === undefined &&
    config.nodeFlags.length === 0
  )
}
