import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { freePort, logTail, runTool, sleep, stopProcess } from './processes.js'

// Global setup of the integration stage: a real Kafka broker (3.9, KRaft, one node acting as broker and controller)
// run from Maven Central jars on 127.0.0.1, handed to the tests as `inject('kafkaBrokers')`. With X_SERDE_TEST_KAFKA_BROKERS
// set, that broker is used instead and nothing is started (KAFKA_BROKERS, which the kafka example reads, is never read
// here).

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '../..')
const itDir = join(repo, '.it')
const libDir = join(itDir, 'kafka-lib')
const pom = join(here, 'kafka/pom.xml')
const log4jConfig = join(here, 'kafka/log4j.properties')
const template = join(here, 'kafka/server.properties.template')
const logFile = join(itDir, 'kafka.log')

/** The part of kafkajs the readiness check uses (kafkajs is required from the interop package, see below). */
interface KafkaJs {
  logLevel: { NOTHING: number }
  Kafka: new (config: {
    clientId: string
    brokers: string[]
    logLevel: number
    connectionTimeout: number
    requestTimeout: number
    retry: { retries: number }
  }) => {
    admin(): { connect(): Promise<void>; listTopics(): Promise<string[]>; disconnect(): Promise<void> }
  }
}

const MAVEN_TIMEOUT_MS = 600_000
const TOOL_TIMEOUT_MS = 60_000
const READY_TIMEOUT_MS = 90_000
const STOP_GRACE_MS = 15_000
// Start-up speed on two cores: a small heap, the serial collector and the C1 compiler only.
const JVM_FLAGS = ['-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true']

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by vitest's global setup, which runs outside any turbo task
  const external = process.env.X_SERDE_TEST_KAFKA_BROKERS
  if (external) {
    console.log(`kafka: using the broker at ${external} (X_SERDE_TEST_KAFKA_BROKERS); starting none`)
    project.provide('kafkaBrokers', external)
    return undefined
  }
  const started = Date.now()
  await resolveJars()
  const plaintextPort = await freePort()
  const controllerPort = await freePort()
  mkdirSync(itDir, { recursive: true })
  const runDir = mkdtempSync(join(itDir, 'kafka-run-'))
  const properties = join(runDir, 'server.properties')
  writeFileSync(
    properties,
    readFileSync(template, 'utf8')
      .replaceAll('@PLAINTEXT_PORT@', String(plaintextPort))
      .replaceAll('@CONTROLLER_PORT@', String(controllerPort))
      .replaceAll('@LOG_DIR@', join(runDir, 'data')),
  )
  const clusterId = (
    await runTool(
      'kafka',
      repo,
      'java',
      [...javaArgs(), 'kafka.tools.StorageTool', 'random-uuid'],
      TOOL_TIMEOUT_MS,
    )
  ).trim()
  await runTool(
    'kafka',
    repo,
    'java',
    [...javaArgs(), 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', properties],
    TOOL_TIMEOUT_MS,
  )

  const out = openSync(logFile, 'w')
  const broker = spawn('java', [...javaArgs(), 'kafka.Kafka', properties], { stdio: ['ignore', out, out] })
  closeSync(out)
  const killOnExit = () => broker.kill('SIGKILL')
  process.once('exit', killOnExit)

  const brokers = `127.0.0.1:${plaintextPort}`
  try {
    await waitUntilReady(broker, brokers)
  } catch (error) {
    process.removeListener('exit', killOnExit)
    await stopProcess(broker, STOP_GRACE_MS)
    rmSync(runDir, { recursive: true, force: true })
    throw error
  }
  process.stdout.write(`kafka: broker ${brokers} ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`)
  project.provide('kafkaBrokers', brokers)

  return async () => {
    process.removeListener('exit', killOnExit)
    await stopProcess(broker, STOP_GRACE_MS)
    rmSync(runDir, { recursive: true, force: true })
  }
}

function javaArgs(): string[] {
  return [...JVM_FLAGS, `-Dlog4j.configuration=file:${log4jConfig}`, '-cp', `${libDir}/*`]
}

/** Copies the broker's jars into .it/kafka-lib once per version of the pom (Maven caches them in ~/.m2). */
async function resolveJars(): Promise<void> {
  const stamp = join(libDir, '.pom-sha256')
  const digest = createHash('sha256').update(readFileSync(pom)).digest('hex')
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return
  rmSync(libDir, { recursive: true, force: true })
  await runTool(
    'kafka',
    repo,
    'mvn',
    [
      '-q',
      '-B',
      '-Dstyle.color=never',
      '-f',
      pom,
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${libDir}`,
    ],
    MAVEN_TIMEOUT_MS,
  )
  writeFileSync(stamp, digest)
}

/** Ready when an admin client lists the topics; fails early if the JVM exits, and after 90 s with the log's tail. */
async function waitUntilReady(broker: ChildProcess, brokers: string): Promise<void> {
  // kafkajs is a dependency of the interop package, not of the root.
  const { Kafka, logLevel } = createRequire(join(repo, 'interop/package.json'))('kafkajs') as KafkaJs
  const kafka = new Kafka({
    clientId: 'it-ready-check',
    brokers: [brokers],
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1000,
    requestTimeout: 2000,
    retry: { retries: 0 },
  })
  const deadline = Date.now() + READY_TIMEOUT_MS
  let lastError: unknown
  while (Date.now() < deadline) {
    if (broker.exitCode !== null || broker.signalCode !== null) {
      throw new Error(
        `kafka: the broker exited (${broker.exitCode ?? broker.signalCode}) before it was ready\n${logTail(logFile)}`,
      )
    }
    const admin = kafka.admin()
    try {
      await admin.connect()
      await admin.listTopics()
      return
    } catch (error) {
      lastError = error
    } finally {
      await admin.disconnect().catch(() => {})
    }
    await sleep(250)
  }
  throw new Error(
    `kafka: the broker at ${brokers} was not ready after ${READY_TIMEOUT_MS / 1000} s ` +
      `(last error: ${String(lastError)})\n${logTail(logFile)}`,
  )
}
