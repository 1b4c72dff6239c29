import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { median } from '../median.js'
import type { StartupSample } from './child.js'

const run = promisify(execFile)
const CHILD = new URL('./child.js', import.meta.url)

/** What a start-up child is pointed at: the registries, the frame it decodes and the `id` that frame holds. */
export interface StartupTarget {
  /** Our registry (Apicurio v3 API) and the group the schema is in. */
  url: string
  groupId: string
  /** The Confluent-API stub serving the same schema under the same id. */
  confluentUrl: string
  topic: string
  frame: Uint8Array
  expectedId: string
}

/** One kind of process in the start-up row and every run of it. */
export interface StartupResult {
  label: string
  /** `ours`, `ours:no-telemetry`, `kafkajs`, `confluent`, or `import:…` for an import alone. */
  library: string
  samples: StartupSample[]
}

const WHOLE = [
  { library: 'ours', label: 'ours (`@x/serde`)' },
  { library: 'ours:no-telemetry', label: 'ours, `telemetry: false`' },
  { library: 'kafkajs', label: '@kafkajs/confluent-schema-registry' },
  { library: 'confluent', label: '@confluentinc/schemaregistry' },
] as const

const IMPORTS = [
  { library: 'import:ours', label: "`import('@x/serde')`" },
  { library: 'import:kafkajs', label: "`require('@kafkajs/confluent-schema-registry')`" },
  { library: 'import:avsc', label: "`import('avsc')`" },
] as const

async function sample(
  library: string,
  target: StartupTarget,
  profile: { dir: string; name: string } | undefined,
): Promise<StartupSample> {
  const url = library.startsWith('ours') ? target.url : target.confluentUrl
  const hex = Buffer.from(target.frame).toString('hex')
  const profiling =
    profile === undefined
      ? []
      : ['--cpu-prof', `--cpu-prof-dir=${profile.dir}`, `--cpu-prof-name=${profile.name}.cpuprofile`]
  const { stdout } = await run(
    process.execPath,
    [...profiling, CHILD.pathname, library, url, target.groupId, hex, target.topic],
    {
      timeout: 60_000,
    },
  )
  const found = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as StartupSample
  if (!library.startsWith('import:') && found.id !== target.expectedId) {
    throw new Error(`start-up run of ${library} decoded id ${found.id}, expected ${target.expectedId}`)
  }
  return found
}

/**
 * Runs every kind of start-up process `runs` times, each a fresh `node`, rotating their order each run so that a
 * change in the machine's load falls on all of them alike. With `cpuProfDir`, each process also writes a CPU profile
 * there (`startup.<library>.<run>.cpuprofile`; the profiler's own cost is then in the figures).
 */
export async function measureStartup(
  target: StartupTarget,
  runs: number,
  cpuProfDir?: string,
): Promise<StartupResult[]> {
  const results: StartupResult[] = [...WHOLE, ...IMPORTS].map((kind) => ({ ...kind, samples: [] }))
  for (let round = 0; round < runs; round++) {
    for (let i = 0; i < results.length; i++) {
      const result = results[(i + round) % results.length]!
      const profile =
        cpuProfDir === undefined
          ? undefined
          : { dir: cpuProfDir, name: `startup.${result.library.replace(':', '-')}.${round + 1}` }
      result.samples.push(await sample(result.library, target, profile))
    }
  }
  return results
}

function ratio(value: number, base: number): string {
  return `${(value / base).toFixed(2)}×`
}

/** The two start-up targets: the limit each ratio is held to. */
export const STARTUP_TARGETS = { importVsAvsc: 1.5, cpuVsKafkajs: 0.9 } as const

/**
 * The median over runs of `pick(a) / pick(b)`, pairing the a and b processes of the same run (they ran next to each
 * other, so a change in the machine's load falls on both).
 */
function pairedRatio(a: StartupResult, b: StartupResult, pick: (sample: StartupSample) => number): number {
  const ratios = a.samples.map((sample, run) => pick(sample) / pick(b.samples[run]!))
  return median(ratios)
}

/**
 * The start-up targets as measured: `import('@x/serde')` ÷ `import('avsc')` (CPU of the import: on a shared machine
 * its wall time mostly measures the wait for a core), and our whole-process CPU ÷ kafkajs-SR's.
 */
export function startupRatios(results: readonly StartupResult[]): {
  importVsAvsc: number
  cpuVsKafkajs: number
} {
  const of = (library: string) => results.find((result) => result.library === library)!
  return {
    importVsAvsc: pairedRatio(of('import:ours'), of('import:avsc'), (s) => s.importCpuMs),
    cpuVsKafkajs: pairedRatio(of('ours'), of('kafkajs'), (s) => s.cpuMs),
  }
}

/** The start-up tables: medians and ratios to @kafkajs/confluent-schema-registry. */
export function renderStartup(results: readonly StartupResult[], load: string): string {
  const of = (library: string) => results.find((result) => result.library === library)!
  const cpu = (result: StartupResult) => median(result.samples.map((s) => s.cpuMs))
  const rss = (result: StartupResult) => median(result.samples.map((s) => s.maxRssKb)) / 1024
  const imported = (result: StartupResult) => median(result.samples.map((s) => s.importMs))
  const runs = of('ours').samples.length
  const base = of('kafkajs')
  const lines = [
    `### Start-up: one process imports the library, fetches one schema, decodes one Avro message, exits`,
    '',
    `Each a fresh \`node\`, ${runs} runs, medians; CPU is user + system of the whole process (Node's own start ` +
      `included) and RSS its peak, both from \`process.resourceUsage()\`. Load average ${load}.`,
    '',
    '| process | CPU, ms | × kafkajs-SR | peak RSS, MiB | × kafkajs-SR | import alone, ms |',
    '| --- | --- | --- | --- | --- | --- |',
  ]
  for (const kind of WHOLE) {
    const result = of(kind.library)
    lines.push(
      `| ${kind.label} | ${cpu(result).toFixed(0)} | ${ratio(cpu(result), cpu(base))} | ${rss(result).toFixed(1)} | ` +
        `${ratio(rss(result), rss(base))} | ${imported(result).toFixed(1)} |`,
    )
  }
  lines.push(
    '',
    '| import alone (fresh process) | ms, wall | CPU of the import, ms | CPU of the process, ms |',
    '| --- | --- | --- | --- |',
  )
  const importCpu = (result: StartupResult) => median(result.samples.map((s) => s.importCpuMs))
  for (const kind of IMPORTS) {
    const result = of(kind.library)
    lines.push(
      `| ${kind.label} | ${imported(result).toFixed(1)} | ${importCpu(result).toFixed(1)} | ${cpu(result).toFixed(0)} |`,
    )
  }
  const ratios = startupRatios(results)
  const verdict = (value: number, limit: number) => (value <= limit ? 'met' : '**not met**')
  lines.push(
    '',
    'The targets, each the median of the ratios of the two processes of the same run:',
    '',
    '| ratio | measured | target | |',
    '| --- | --- | --- | --- |',
    `| \`import('@x/serde')\` ÷ \`import('avsc')\`, CPU of the import | ${ratio(ratios.importVsAvsc, 1)} | ` +
      `≤ ${STARTUP_TARGETS.importVsAvsc}× | ${verdict(ratios.importVsAvsc, STARTUP_TARGETS.importVsAvsc)} |`,
    `| CPU of the whole process, ours ÷ kafkajs-SR | ${ratio(ratios.cpuVsKafkajs, 1)} | ` +
      `≤ ${STARTUP_TARGETS.cpuVsKafkajs}× | ${verdict(ratios.cpuVsKafkajs, STARTUP_TARGETS.cpuVsKafkajs)} |`,
  )
  return `${lines.join('\n')}\n`
}
