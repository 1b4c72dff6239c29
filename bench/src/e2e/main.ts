import { writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, loadavg } from 'node:os'
import { RegistryClient } from '@x/registry-client'
import type { Admin, Kafka as KafkaType } from 'kafkajs'
import { platformaticPackage } from '../peers/platformatic.js'
import { type E2eConfig, readConfig, USAGE, writesResults } from './config.js'
import { renderConsumers } from './consumer-report.js'
import { produceConsumerTopics, runConsumerJobs } from './consumer-runs.js'
import { consumerSchedule } from './consumer-schedule.js'
import { CONSUMER_FORMATS, type ConsumerResult } from './consumer-types.js'
import { forkOnce } from './fork-once.js'
import { SCHEMAS } from './formats.js'
import { type Infra, openInfra } from './infra.js'
import { renderProducers } from './producer-report.js'
import { producerTopics, runProducerJobs } from './producer-runs.js'
import { producerSchedule } from './producer-schedule.js'
import { PRODUCER_FORMATS } from './producer-types.js'
import { type ConsumersRun, type E2eRun, type ProducersRun, renderE2e } from './report.js'
import { loadE2e, saveE2e } from './results.js'
import { FORMATS, type Format, ROWS, type RowResult, type WorkerSetup } from './types.js'
import { writeE2eOutputs } from './write.js'

/**
 * `pnpm bench:e2e`: the serdes inside real Kafka clients through a real broker, ours against each client's own
 * registry support, side by side in one run (see report.ts for the method). Node 22+ (Platformatic 2.x).
 */

const GROUP = 'e2e-bench-e2e'
const WORKER = new URL('./worker.js', import.meta.url)
/** A worker may take this long per 1 000 messages, plus a minute (joins, warm-up, closing). */
const WORKER_MS_PER_1000 = 3000

function versions(): string {
  const require = createRequire(import.meta.url)
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version
  const platformatic = platformaticPackage()
  return [
    'version' in platformatic ? `@platformatic/kafka ${platformatic.version}` : '@platformatic/kafka (none)',
    `kafkajs ${version('kafkajs')}`,
    `@kafkajs/confluent-schema-registry ${version('@kafkajs/confluent-schema-registry')}`,
    'Apicurio Registry 3 (`/system/info` below), Kafka 3.9',
  ].join(', ')
}

function machine(): string {
  const cpu = cpus()
  return `Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${process.platform}/${process.arch}`
}

async function registerSchemas(
  registryUrl: string,
): Promise<Record<Format, { globalId: number; contentId: number }>> {
  const client = new RegistryClient({ url: registryUrl, groupId: GROUP })
  try {
    const ids = {} as Record<Format, { globalId: number; contentId: number }>
    for (const format of FORMATS) {
      const { artifactId, schema, artifactType } = SCHEMAS[format]
      const registered = await client.registerSchema(artifactId, schema as never, { artifactType })
      if (typeof registered.globalId !== 'number' || typeof registered.contentId !== 'number')
        throw new Error(`the registry gave no numeric ids for ${artifactId}`)
      ids[format] = { globalId: registered.globalId, contentId: registered.contentId }
    }
    return ids
  } finally {
    await client.close()
  }
}

function runWorker(setup: WorkerSetup): Promise<RowResult> {
  const limit = 60_000 + ((setup.messages * 3 + setup.warmup * 3) / 1000) * WORKER_MS_PER_1000
  return forkOnce<WorkerSetup, RowResult>(WORKER, setup, limit, `${setup.format}/${setup.row}`)
}

/** The rows that produce and consume in one process after a warm-up, `rounds` rounds; their results. */
async function runRows(
  config: E2eConfig,
  infra: Infra,
  admin: Admin,
  ids: Record<Format, { globalId: number; contentId: number }>,
  run: string,
  topics: string[],
): Promise<RowResult[]> {
  const jobs: WorkerSetup[][] = []
  const mine: string[] = []
  for (let round = 1; round <= config.rounds; round++) {
    const order: WorkerSetup[] = []
    for (const format of FORMATS) {
      for (const row of ROWS) {
        if (config.filter !== undefined && !config.filter.test(`${format}/${row.name}`)) continue
        const topic = `bench-e2e-${run}-r${round}-${format}-${row.name.replace('+', '-')}`
        order.push({
          row: row.name,
          format,
          brokers: infra.brokers,
          registryUrl: infra.registryUrl,
          ccompatUrl: infra.ccompatUrl,
          groupId: GROUP,
          artifactId: SCHEMAS[format].artifactId,
          ...ids[format],
          messages: config.messages,
          warmup: config.warmup,
          topic,
          warmTopic: `${topic}-warm`,
        })
        mine.push(topic, `${topic}-warm`)
      }
    }
    jobs.push(round % 2 === 1 ? order : order.reverse())
  }
  if (mine.length === 0) return []
  topics.push(...mine)
  await admin.createTopics({
    topics: mine.map((topic) => ({ topic, numPartitions: 1 })),
    waitForLeaders: true,
  })
  console.log(
    `${mine.length / 2} runs: ${config.messages.toLocaleString('en-US')} messages each (after ${config.warmup.toLocaleString('en-US')} to warm up), each in a fresh process\n`,
  )
  const results: RowResult[] = []
  for (const [index, order] of jobs.entries()) {
    for (const setup of order) {
      const result = await runWorker(setup)
      results.push(result)
      const line =
        'unsupported' in result
          ? `unsupported: ${result.unsupported}`
          : `produce ${Math.round(result.produce.messages / result.produce.seconds).toLocaleString('en-US')} msg/s, consume ${Math.round(result.consume.messages / result.consume.seconds).toLocaleString('en-US')} msg/s (${(result.consume.cpuMicros / result.consume.messages).toFixed(1)} µs CPU/msg; without decoding ${(result.raw.cpuMicros / result.raw.messages).toFixed(1)})`
      process.stderr.write(
        `round ${index + 1}/${config.rounds}  ${`${setup.format}/${setup.row}`.padEnd(34)} ${line}\n`,
      )
    }
  }
  console.log(`\n${renderE2e(results)}`)
  return results
}

/** The producer rounds: every producer a fresh process, cold and after a warm-up, ours and theirs side by side. */
async function runProducers(
  config: E2eConfig,
  infra: Infra,
  admin: Admin,
  ids: Record<Format, { globalId: number; contentId: number }>,
  run: string,
  topics: string[],
): Promise<ProducersRun | undefined> {
  const filter = config.filter
  const jobs = producerSchedule(
    PRODUCER_FORMATS,
    config.producerRounds,
    filter === undefined ? undefined : (job) => filter.test(`${job.format}/${job.row.name}/${job.start}`),
  )
  if (jobs.length === 0) return undefined
  const loadBefore = loadavg()[0]!.toFixed(2)
  const mine = new Set<string>()
  for (const job of jobs) {
    const { topic, warmTopic } = producerTopics(run, job.format, job.row.name)
    mine.add(topic).add(warmTopic)
  }
  topics.push(...mine)
  await admin.createTopics({
    topics: [...mine].map((topic) => ({ topic, numPartitions: 1 })),
    waitForLeaders: true,
  })
  console.log(
    `\nProducer rounds: ${jobs.length} fresh processes, each producing ${config.messages.toLocaleString('en-US')} messages of its format (cold, or after ${config.warmup.toLocaleString('en-US')})\n`,
  )
  const execArgv = processFlags(config)
  const results = await runProducerJobs(
    jobs,
    admin,
    {
      brokers: infra.brokers,
      registryUrl: infra.registryUrl,
      ccompatUrl: infra.ccompatUrl,
      groupId: GROUP,
      messages: config.messages,
      warmup: config.warmup,
    },
    (format) => ({ artifactId: SCHEMAS[format].artifactId, ...ids[format] }),
    run,
    (job, result) =>
      process.stderr.write(
        `round ${job.round}/${config.producerRounds}  ${`${job.format}/${job.row.name}/${job.start}`.padEnd(36)} ${Math.round(result.messages / result.seconds).toLocaleString('en-US')} msg/s (${(result.cpuMicros / result.messages).toFixed(1)} µs CPU/msg)\n`,
      ),
    execArgv,
  )
  console.log(`\n${renderProducers(results, config.warmup)}`)
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ')
  return {
    when: `${when} UTC`,
    node: process.version,
    messages: config.messages,
    warmup: config.warmup,
    rounds: config.producerRounds,
    load: `load average before ${loadBefore}, after ${loadavg()[0]!.toFixed(2)}`,
    results,
  }
}

/** The consumer rounds: every consumer a fresh process reading the same topic, cold and after a warm-up. */
async function runConsumers(
  config: E2eConfig,
  infra: Infra,
  admin: Admin,
  kafka: KafkaType,
  ids: Record<Format, { globalId: number; contentId: number }>,
  run: string,
  topics: string[],
): Promise<ConsumersRun | undefined> {
  const filter = config.filter
  const jobs = consumerSchedule(
    CONSUMER_FORMATS,
    config.consumerRounds,
    filter === undefined ? undefined : (job) => filter.test(`${job.format}/${job.row.name}/${job.start}`),
  )
  if (jobs.length === 0) return undefined
  const loadBefore = loadavg()[0]!.toFixed(2)
  const formats = CONSUMER_FORMATS.filter((format) => jobs.some((job) => job.format === format))
  const produced = await produceConsumerTopics({
    infra,
    admin,
    kafka,
    formats,
    ids,
    schemas: SCHEMAS,
    groupId: GROUP,
    run,
    messages: config.messages,
    warmup: config.warmup,
  })
  topics.push(...produced.created)
  console.log(
    `\nConsumer rounds: ${jobs.length} fresh processes, each reading the same ${config.messages.toLocaleString('en-US')} messages of its format (cold, or after ${config.warmup.toLocaleString('en-US')})\n`,
  )
  const execArgv = processFlags(config)
  const results: ConsumerResult[] = await runConsumerJobs(
    jobs,
    {
      brokers: infra.brokers,
      registryUrl: infra.registryUrl,
      ccompatUrl: infra.ccompatUrl,
      groupId: GROUP,
      messages: config.messages,
      warmup: config.warmup,
    },
    produced.topics,
    (job, result) =>
      process.stderr.write(
        `round ${job.round}/${config.consumerRounds}  ${`${job.format}/${job.row.name}/${job.start}`.padEnd(36)} ${Math.round(result.messages / result.seconds).toLocaleString('en-US')} msg/s (${(result.cpuMicros / result.messages).toFixed(1)} µs CPU/msg; first message after ${result.firstMs.toFixed(1)} ms)\n`,
      ),
    execArgv,
  )
  console.log(`\n${renderConsumers(results, config.warmup)}`)
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ')
  return {
    when: `${when} UTC`,
    messages: config.messages,
    warmup: config.warmup,
    rounds: config.consumerRounds,
    load: `load average before ${loadBefore}, after ${loadavg()[0]!.toFixed(2)}`,
    results,
  }
}

async function main(): Promise<void> {
  const config = readConfig(process.argv.slice(2), process.env)
  if (config === 'help') {
    console.log(USAGE)
    return
  }
  const platformatic = platformaticPackage()
  if (!('version' in platformatic) || platformatic.version.startsWith('1.')) {
    throw new Error(
      `the end-to-end bench needs @platformatic/kafka 2.x, i.e. Node 22 or newer with its optional dependencies installed (this is ${process.version}): run \`pnpm bench:e2e\`, which switches to Node 24`,
    )
  }
  const started = Date.now()
  const loadBefore = loadavg()[0]!.toFixed(2)
  console.log(`# pnpm bench:e2e${config.quick ? ' (quick smoke run: figures are not meaningful)' : ''}`)
  console.log(machine())
  const infra = await openInfra(process.env)
  const { Kafka, logLevel } = createRequire(import.meta.url)('kafkajs') as typeof import('kafkajs')
  const kafka: KafkaType = new Kafka({
    clientId: 'e2e-admin',
    brokers: [infra.brokers],
    logLevel: logLevel.NOTHING,
  })
  const admin = kafka.admin()
  const topics: string[] = []
  try {
    const info = (await (await fetch(`${infra.registryUrl}/system/info`)).json()) as { version?: string }
    console.log(
      `registry ${infra.registryUrl} (Apicurio ${info.version ?? '?'}; ccompat ${infra.ccompatUrl}), broker ${infra.brokers}` +
        `${infra.started === undefined ? '' : ` (started here: ${infra.started})`}`,
    )
    const ids = await registerSchemas(infra.registryUrl)
    await admin.connect()
    const run = Date.now().toString(36)
    const results = config.parts.rows ? await runRows(config, infra, admin, ids, run, topics) : []
    const producers = config.parts.producers
      ? await runProducers(config, infra, admin, ids, run, topics)
      : undefined
    const consumers = config.parts.consumers
      ? await runConsumers(config, infra, admin, kafka, ids, run, topics)
      : undefined
    if (results.length === 0 && producers === undefined && consumers === undefined)
      throw new Error(`--filter=${config.filter} matches no row`)
    const took = ((Date.now() - started) / 1000).toFixed(1)
    const load = `load average before ${loadBefore}, after ${loadavg()[0]!.toFixed(2)}`
    const checked = [
      ...(results.length > 0 || consumers !== undefined
        ? ['every message produced was consumed back (counts and the last seq checked)']
        : []),
      ...(producers !== undefined ? ["every producer's topic grew by its messages"] : []),
    ].join('; ')
    console.log(`${checked[0]!.toUpperCase()}${checked.slice(1)}. Took ${took} s; ${load}.`)
    if (writesResults(config)) {
      const when = new Date().toISOString().slice(0, 16).replace('T', ' ')
      const saved = loadE2e()
      const e2e: E2eRun = config.parts.rows
        ? {
            node: process.version,
            when: `${when} UTC`,
            machine: machine(),
            versions: versions().replace(
              'Apicurio Registry 3 (`/system/info` below)',
              `Apicurio Registry ${info.version ?? '3'}`,
            ),
            messages: config.messages,
            rounds: config.rounds,
            load,
            results,
            ...(saved?.consumers === undefined ? {} : { consumers: saved.consumers }),
            ...(saved?.producers === undefined ? {} : { producers: saved.producers }),
          }
        : {
            ...(saved ?? {
              node: process.version,
              when: `${when} UTC`,
              machine: machine(),
              versions: versions(),
              messages: config.messages,
              rounds: 0,
              load,
              results: [],
            }),
          }
      if (producers !== undefined) e2e.producers = producers
      if (consumers !== undefined) e2e.consumers = { ...consumers, node: process.version }
      saveE2e(e2e)
      writeE2eOutputs(e2e)
      console.log(
        '\nWrote bench/results/e2e-node-24.json, and its tables into BENCHMARKS.md and bench/chart.svg.',
      )
    }
    if (config.jsonFile !== undefined)
      writeFileSync(
        config.jsonFile,
        `${JSON.stringify({ config, results, producers: producers?.results ?? [], consumers: consumers?.results ?? [] }, null, 2)}\n`,
      )
  } finally {
    if (topics.length > 0) await admin.deleteTopics({ topics }).catch(() => {})
    await admin.disconnect().catch(() => {})
    await infra.stop()
  }
}

try {
  await main()
} catch (error) {
  console.error(error instanceof Error ? `bench:e2e failed: ${error.stack ?? error.message}` : error)
  process.exitCode = 1
}

/** The `node` flags of each producer and consumer process: `--node-flag`'s, then `--cpu-prof`'s. */
function processFlags(config: E2eConfig): string[] {
  const profile = config.cpuProf === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${config.cpuProf}`]
  return [...config.nodeFlags, ...profile]
}
