/** How long and how often: from the command line (`--quick`, `--filter=<regex>`) and the environment. */
export interface BenchConfig {
  /** Rounds: in each, every selected case runs once, each in a fresh process; medians are taken over rounds. */
  rounds: number
  /** Measured seconds per case and round. */
  seconds: number
  /** Slices the measured seconds are split into; a run's figure is the median of its slices. */
  slices: number
  /** Warm-up seconds per case and round, before the measured run (same process). */
  warmupSeconds: number
  /** Only the cases whose name matches (their ceilings are added so ratios stay computable). */
  filter: RegExp | undefined
  /** Directory for `--cpu-prof` profiles of every worker, or undefined. */
  cpuProfDir: string | undefined
  /** File to write the raw results to as JSON, or undefined. */
  jsonFile: string | undefined
  /**
   * `--repeat[=N]`: up to N more paired rounds (0: none) for the cases whose ratio is not yet settled (its
   * interquartile range within ±`repeatTolerance` of its median).
   */
  repeat: number
  repeatTolerance: number
  quick: boolean
}

export const USAGE = `pnpm bench [--quick] [--filter=<regex>] [--repeat[=N]] [--help]

  --repeat[=N]              after the rounds, rerun (paired with its ceiling) each case whose ratio is not settled
                            yet, until the middle half of its ratios lies within ±BENCH_REPEAT_TOLERANCE of their
                            median, at most N more rounds (default 10)

Environment:
  BENCH_ROUNDS=5            rounds (each case once per round, each in a fresh node process; medians over rounds)
  BENCH_SECONDS=0.5         measured seconds per case and round
  BENCH_SLICES=5            the measured seconds are split into slices; a run's figure is their median
  BENCH_WARMUP_SECONDS=0.3  warm-up seconds per case and round
  BENCH_QUICK=1             smoke run: 1 round, 0.05 s warm-up and measure, every case in one process (same as --quick)
  BENCH_FILTER=<regex>      only cases whose name matches (plus their ceilings)
  BENCH_CPU_PROF=<dir>      run every worker and start-up process with node --cpu-prof, profiles written to <dir>
  BENCH_JSON=<file>         also write every round's raw figures to <file>
  BENCH_REPEAT_TOLERANCE=0.03  how tight --repeat makes a ratio: its interquartile range within ±3 % of its median`

/** More rounds `--repeat` may add, at most, when given without a number. */
const DEFAULT_REPEAT = 10

function positive(name: string, text: string | undefined, fallback: number, integer: boolean): number {
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new TypeError(`${name} must be a positive ${integer ? 'integer' : 'number'}, got '${text}'`)
  }
  return value
}

export function readConfig(argv: readonly string[], env: NodeJS.ProcessEnv): BenchConfig | 'help' {
  let quick = env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true'
  let filterText = env.BENCH_FILTER
  let repeat = 0
  for (const arg of argv) {
    if (arg === '--') continue
    if (arg === '--help' || arg === '-h') return 'help'
    if (arg === '--quick') quick = true
    else if (arg === '--repeat') repeat = DEFAULT_REPEAT
    else if (arg.startsWith('--repeat='))
      repeat = positive('--repeat', arg.slice('--repeat='.length), 0, true)
    else if (arg.startsWith('--filter=')) filterText = arg.slice('--filter='.length)
    else throw new TypeError(`Unknown argument '${arg}'\n\n${USAGE}`)
  }
  return {
    rounds: positive('BENCH_ROUNDS', env.BENCH_ROUNDS, quick ? 1 : 5, true),
    seconds: positive('BENCH_SECONDS', env.BENCH_SECONDS, quick ? 0.05 : 0.5, false),
    slices: positive('BENCH_SLICES', env.BENCH_SLICES, quick ? 1 : 5, true),
    warmupSeconds: positive('BENCH_WARMUP_SECONDS', env.BENCH_WARMUP_SECONDS, quick ? 0.05 : 0.3, false),
    filter: filterText === undefined || filterText === '' ? undefined : new RegExp(filterText),
    cpuProfDir: env.BENCH_CPU_PROF || undefined,
    jsonFile: env.BENCH_JSON || undefined,
    repeat,
    repeatTolerance: positive('BENCH_REPEAT_TOLERANCE', env.BENCH_REPEAT_TOLERANCE, 0.03, false),
    quick,
  }
}
