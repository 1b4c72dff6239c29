import { type ChildProcess, fork } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, loadavg } from 'node:os'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { renderBenchmarksMd } from './benchmarks-md.js'
import { type BenchEnv, CASES, type CaseDef } from './cases.js'
import { renderChart } from './chart.js'
import { checkCorrectness } from './checks.js'
import { measureColdStarts, renderCold } from './cold.js'
import { measureCompatibility, renderCompatibility } from './compatibility.js'
import { type BenchConfig, readConfig, USAGE } from './config.js'
import { loadE2e } from './e2e/results.js'
import { EVENT_ARTIFACT, EVENT_SCHEMA, GROUP_ID, PAYMENT_ARTIFACT, PAYMENT_SCHEMA } from './fixtures.js'
import { measureLambdaCold, renderLambdaCold } from './lambda-cold/measure.js'
import { median } from './median.js'
import { loadRuns, runOf, saveRun } from './node-runs.js'
import { bufbuildEvent, JSON_TOPIC, PEER_TOPIC, PROTO_TOPIC } from './peer-cases.js'
import { checkPeers } from './peer-checks.js'
import { EVENT_JSON_SCHEMA, EVENT_PROTO, JSON_ARTIFACT, PROTO_ARTIFACT } from './peer-fixtures.js'
import { ConfluentStub } from './peers/confluent-registry.js'
import { kafkajs4Version } from './peers/kafkajs-4.js'
import { platformaticVersion } from './peers/platformatic.js'
import { checkPlatformatic } from './platformatic-checks.js'
import { casesToRepeat, renderSpreads } from './repeat.js'
import {
  busyWarning,
  type RoundResult,
  renderPeers,
  renderRuleCosts,
  renderTables,
  summarize,
} from './report.js'
import { checkRules } from './rules-checks.js'
import { registerRuleArtifacts } from './rules-fixtures.js'
import { measureStartup, renderStartup, type StartupResult } from './startup/measure.js'
import { startupTarget } from './startup/target.js'
import type { ExitMessage, RunMessage, WorkerMessage } from './worker.js'

/**
 * `pnpm bench`: our serde against avsc's raw encode/decode, side by side in one run.
 *
 * The parent starts an InMemoryRegistry on 127.0.0.1, registers the bench schemas once, checks that every case
 * gives the same bytes and values as avsc, then runs each case in a fresh `node` process per round (rounds
 * interleave the cases; every other round runs them in reverse order; `--quick`, a smoke run, runs them all in one
 * process). While a worker is measuring, the registry
 * must receive no request: its request count is taken when the worker has warmed up and again when it reports,
 * and any growth fails the bench.
 */

const WORKER = new URL('./worker.js', import.meta.url)
/** Time a worker may take beyond its warm-up and measured run (process start, imports, prepare, close). */
const WORKER_SLACK_MS = 60_000

class BenchFailure extends Error {
  override name = 'BenchFailure'
}

/** The cases that can run here (a peer needing a newer Node is left out, and said so). */
function runnableCases(): CaseDef[] {
  const skipped = new Map<string, string[]>()
  const runnable = CASES.filter((def) => {
    const reason = def.unavailable?.()
    if (reason === undefined) return true
    skipped.set(reason, [...(skipped.get(reason) ?? []), def.name])
    return false
  })
  for (const [reason, names] of skipped) console.log(`skipped ${names.join(', ')}: ${reason}`)
  return runnable
}

function selectCases(config: BenchConfig): CaseDef[] {
  const runnable = runnableCases()
  if (config.filter === undefined) return runnable
  const wanted = new Set<string>()
  for (const def of runnable) {
    if (!config.filter.test(def.name)) continue
    wanted.add(def.name)
    if (def.ceiling !== undefined) wanted.add(def.ceiling)
  }
  if (wanted.size === 0) throw new BenchFailure(`BENCH_FILTER ${config.filter} matches no case`)
  return runnable.filter((def) => wanted.has(def.name))
}

/** The versions of the engines and peers measured. */
function versions(): string {
  const require = createRequire(import.meta.url)
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version
  const names = [
    'avsc',
    'ajv',
    'protobufjs',
    '@kafkajs/confluent-schema-registry',
    '@confluentinc/schemaregistry',
  ]
  const all = names.map((name) => `${name} ${version(name)}`)
  const four = kafkajs4Version()
  if (four !== undefined) all.splice(4, 0, `@kafkajs/confluent-schema-registry ${four}`)
  const platformatic = platformaticVersion()
  if (platformatic !== undefined) all.push(`@platformatic/kafka ${platformatic}`)
  return all.join(', ')
}

function machine(): string {
  const cpu = cpus()
  const avsc = createRequire(import.meta.url)('avsc/package.json') as { version: string }
  return `Node ${process.version}, avsc ${avsc.version}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${process.platform}/${process.arch}`
}

/** The 1-minute load average, for the log (on 2 cores, anything near 2 means the bench shared them). */
function loadNow(): string {
  return loadavg()[0]!.toFixed(2)
}

/** Forks a worker process (with `--cpu-prof` when profiles are asked for, named after the case and round). */
function forkWorker(profileName: string | undefined, config: BenchConfig): ChildProcess {
  const execArgv =
    config.cpuProfDir === undefined || profileName === undefined
      ? []
      : ['--cpu-prof', `--cpu-prof-dir=${config.cpuProfDir}`, `--cpu-prof-name=${profileName}.cpuprofile`]
  return fork(WORKER, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
}

/**
 * Runs one case: in a fresh process, or in `shared` (one process running cases in turn, for `--quick`). Fails if
 * the registry saw a request while it was measured.
 */
async function runWorker(
  def: CaseDef,
  round: number,
  config: BenchConfig,
  env: BenchEnv,
  registry: InMemoryRegistry,
  stub: ConfluentStub,
  shared?: ChildProcess,
): Promise<RoundResult> {
  const child = shared ?? forkWorker(`${def.name}.round${round}`, config)
  try {
    return await runCase(child, def, round, config, env, registry, stub)
  } finally {
    if (shared === undefined && child.connected) child.send({ type: 'exit' } satisfies ExitMessage)
  }
}

function runCase(
  child: ChildProcess,
  def: CaseDef,
  round: number,
  config: BenchConfig,
  env: BenchEnv,
  registry: InMemoryRegistry,
  stub: ConfluentStub,
): Promise<RoundResult> {
  const limitMs = (config.warmupSeconds + config.seconds) * 1000 + WORKER_SLACK_MS
  return new Promise<RoundResult>((resolve, reject) => {
    let requestsAtStart: number | undefined
    let stubAtStart: number | undefined
    let settled = false
    const finish = (error: Error | undefined, result?: RoundResult) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      child.off('message', onMessage)
      child.off('error', onError)
      child.off('exit', onExit)
      if (error !== undefined) {
        child.kill()
        reject(error)
      } else {
        resolve(result!)
      }
    }
    const timer = setTimeout(
      () => finish(new BenchFailure(`${def.name} (round ${round}) did not finish within ${limitMs} ms`)),
      limitMs,
    )
    const onMessage = (message: WorkerMessage) => {
      if (message.type === 'warmed') {
        requestsAtStart = registry.requests.length
        stubAtStart = stub.requests
        child.send({ type: 'go' })
      } else if (message.type === 'result') {
        const grew = registry.requests.length - (requestsAtStart ?? Number.NaN)
        const stubGrew = stub.requests - (stubAtStart ?? Number.NaN)
        if (stubGrew !== 0) {
          finish(
            new BenchFailure(
              `${def.name} (round ${round}) made ${stubGrew} Confluent registry request(s) while measured`,
            ),
          )
          return
        }
        if (grew !== 0) {
          const paths = registry.requests.slice(requestsAtStart).map((r) => `${r.method} ${r.path}`)
          finish(
            new BenchFailure(
              `${def.name} (round ${round}) made ${grew} registry request(s) while measured: ${paths.join(', ')}`,
            ),
          )
          return
        }
        const rates = message.slices.map((slice) => slice.ops / (slice.ns / 1e9))
        const ns = message.slices.reduce((sum, slice) => sum + slice.ns, 0)
        finish(undefined, {
          round,
          caseName: def.name,
          ops: message.slices.reduce((sum, slice) => sum + slice.ops, 0),
          ns,
          opsPerSec: median(rates),
          sliceRates: rates,
          cpuShare: message.cpuNs / ns,
        })
      } else if (message.type === 'error') {
        finish(new BenchFailure(`${def.name} (round ${round}) failed:\n${message.message}`))
      }
    }
    const onError = (error: Error) => finish(error)
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      finish(new BenchFailure(`${def.name} (round ${round}) exited early (${signal ?? code})`))
    child.on('message', onMessage)
    child.on('error', onError)
    child.on('exit', onExit)
    const run: RunMessage = {
      type: 'run',
      caseName: def.name,
      env,
      warmupSeconds: config.warmupSeconds,
      seconds: config.seconds,
      slices: config.slices,
    }
    child.send(run)
  })
}

async function registerSchemas(registry: InMemoryRegistry): Promise<Omit<BenchEnv, 'confluentUrl'>> {
  const client = new RegistryClient({ url: registry.url, groupId: GROUP_ID })
  try {
    const event = await client.registerSchema(EVENT_ARTIFACT, EVENT_SCHEMA)
    const payment = await client.registerSchema(PAYMENT_ARTIFACT, PAYMENT_SCHEMA)
    const json = await client.registerSchema(JSON_ARTIFACT, EVENT_JSON_SCHEMA, { artifactType: 'JSON' })
    const proto = await client.registerSchema(PROTO_ARTIFACT, EVENT_PROTO, { artifactType: 'PROTOBUF' })
    const ids = [event.globalId, payment.globalId, json.globalId, proto.globalId]
    if (ids.some((id) => typeof id !== 'number'))
      throw new BenchFailure('the registry gave no numeric globalId')
    return {
      url: registry.url,
      eventId: event.globalId as number,
      paymentId: payment.globalId as number,
      jsonId: json.globalId as number,
      protoId: proto.globalId as number,
      ruleIds: await registerRuleArtifacts(client),
    }
  } finally {
    await client.close()
  }
}

/** The Confluent stub serving the same schemas under the same ids, so every library writes the same frame. */
function startStub(ids: Omit<BenchEnv, 'confluentUrl'>): Promise<ConfluentStub> {
  return ConfluentStub.start([
    {
      id: ids.eventId,
      subject: `${PEER_TOPIC}-value`,
      schema: JSON.stringify(EVENT_SCHEMA),
      schemaType: 'AVRO',
    },
    {
      id: ids.jsonId,
      subject: `${JSON_TOPIC}-value`,
      schema: JSON.stringify(EVENT_JSON_SCHEMA),
      schemaType: 'JSON',
    },
    {
      id: ids.protoId,
      subject: `${PROTO_TOPIC}-value`,
      schema: EVENT_PROTO,
      schemaType: 'PROTOBUF',
      serialized: bufbuildEvent().serialized,
    },
  ])
}

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2), process.env)
  if (config === 'help') {
    console.log(USAGE)
    return
  }
  const started = Date.now()
  const loadBefore = loadNow()
  console.log(`# pnpm bench${config.quick ? ' (quick smoke run: figures are not meaningful)' : ''}`)
  console.log(`${machine()}`)
  const cases = selectCases(config)
  console.log(
    `${cases.length} cases × ${config.rounds} round(s), ${config.quick ? 'all in one process' : 'each a fresh process'}: ` +
      `${config.warmupSeconds} s warm-up + ${config.seconds} s measured in ${config.slices} slices\n`,
  )

  const registry = await InMemoryRegistry.start()
  let stub: ConfluentStub | undefined
  try {
    const ids = await registerSchemas(registry)
    stub = await startStub(ids)
    const env: BenchEnv = { ...ids, confluentUrl: stub.url }
    for (const line of await checkCorrectness(env)) console.log(`ok  ${line}`)
    for (const line of await checkPeers(env)) console.log(`ok  ${line}`)
    for (const line of await checkPlatformatic(env)) console.log(`ok  ${line}`)
    for (const line of await checkRules(env)) console.log(`ok  ${line}`)
    console.log('')
    const cold = await measureColdStarts(env, registry, stub, config.quick ? 1 : 3)
    console.log(renderCold(cold))
    const compatibilityMd = renderCompatibility(measureCompatibility(config.quick ? 2 : 4))
    console.log(compatibilityMd)
    const startupLoad = loadNow()
    const startup: StartupResult[] = await measureStartup(
      await startupTarget(env),
      config.quick ? 3 : 10,
      config.cpuProfDir,
    )
    const startupMd = renderStartup(startup, `${startupLoad} before, ${loadNow()} after`)
    console.log(startupMd)
    const lambdaLoad = loadNow()
    const lambdaCold = await measureLambdaCold(env, stub, registry, config.quick ? 3 : 10)
    const lambdaMd = renderLambdaCold(lambdaCold, `${lambdaLoad} before, ${loadNow()} after`)
    console.log(lambdaMd)

    const results: RoundResult[] = []
    // A smoke run checks that every case runs and gives its expected result, not how fast: one process runs them
    // all in turn (its start and imports dominated the run when each case had its own).
    const shared = config.quick ? forkWorker(undefined, config) : undefined
    try {
      for (let round = 1; round <= config.rounds; round++) {
        const order = round % 2 === 1 ? cases : [...cases].reverse()
        for (const def of order) {
          const result = await runWorker(def, round, config, env, registry, stub, shared)
          results.push(result)
          process.stderr.write(
            `round ${round}/${config.rounds}  ${def.name.padEnd(34)} ${Math.round(result.opsPerSec).toLocaleString('en-US').padStart(11)} ops/s\n`,
          )
        }
      }
    } finally {
      if (shared?.connected) shared.send({ type: 'exit' } satisfies ExitMessage)
    }
    for (let extra = 1; extra <= config.repeat; extra++) {
      const again = casesToRepeat(cases, results, config.repeatTolerance, config.rounds)
      if (again.length === 0) break
      const round = config.rounds + extra
      const order = round % 2 === 1 ? again : [...again].reverse()
      for (const def of order) {
        const result = await runWorker(def, round, config, env, registry, stub)
        results.push(result)
        process.stderr.write(
          `repeat ${extra}/${config.repeat}  ${def.name.padEnd(33)} ${Math.round(result.opsPerSec).toLocaleString('en-US').padStart(11)} ops/s\n`,
        )
      }
    }
    if (config.repeat > 0) console.log(renderSpreads(cases, results, config.repeatTolerance, config.rounds))
    const rows = summarize(cases, results)
    console.log(`\n${renderTables(rows)}`)
    console.log(renderPeers(cases, results))
    console.log(renderRuleCosts(cases, results))
    console.log(
      'Ratio: median over rounds of (ops/s of the case ÷ ops/s of its avsc ceiling in the same round); ' +
        '1.00 = as fast as raw avsc doing the same job by hand.',
    )
    console.log(
      `No registry request while measuring (checked per case and round). Took ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
        `load average before ${loadBefore}, after ${loadNow()}.`,
    )
    const warning = busyWarning(results)
    if (warning !== undefined) console.log(`\n${warning}`)
    if (!config.quick && config.filter === undefined) {
      const when = new Date().toISOString().slice(0, 16).replace('T', ' ')
      writeFileSync(
        new URL('../chart.svg', import.meta.url),
        renderChart(
          rows.map((row) => ({ name: row.def.name, opsPerSec: row.opsPerSec })),
          `${machine()}; ${when} UTC`,
          loadE2e(),
        ),
      )
      saveRun(runOf(process.version, `${when} UTC, ${config.rounds} rounds`, versions(), rows))
      writeFileSync(
        new URL('../../BENCHMARKS.md', import.meta.url),
        renderBenchmarksMd({
          machine: machine(),
          versions: versions(),
          when: `${when} UTC, load average before ${loadBefore}, after ${loadNow()}`,
          rounds: config.rounds,
          seconds: config.seconds,
          cases,
          results,
          rows,
          cold,
          compatibility: compatibilityMd,
          startup: `${startupMd}\n${lambdaMd}`,
          warning,
          byNode: loadRuns(),
        }),
      )
      console.log(
        `\nWrote BENCHMARKS.md, bench/chart.svg and bench/results/node-${process.versions.node.split('.')[0]}.json.`,
      )
    }
    if (config.jsonFile !== undefined) {
      writeFileSync(config.jsonFile, `${JSON.stringify({ machine: machine(), config, results }, null, 2)}\n`)
    }
  } finally {
    await stub?.close()
    await registry.close()
  }
}

try {
  await main()
} catch (error) {
  console.error(error instanceof BenchFailure ? `bench failed: ${error.message}` : error)
  process.exitCode = 1
}
