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
import { freePort, logTail, runTool, sleep, stopProcess } from './processes.js'

// A real Kafka broker (3.9, KRaft, one node acting as broker and controller) run from Maven Central jars on
// 127.0.0.1, in a data directory of its own under .it/. The integration stage's global setup (kafka.ts) starts the
// shared one; a test that must stop and restart a broker (the fault tests) starts a dedicated one with it.

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '../..')
const itDir = join(repo, '.it')
const libDir = join(itDir, 'kafka-lib')
const pom = join(here, 'kafka/pom.xml')
const log4jConfig = join(here, 'kafka/log4j.properties')
const template = join(here, 'kafka/server.properties.template')

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

/** A broker started by {@link startKafkaBroker}. */
export interface KafkaBroker {
  /** `127.0.0.1:<port>`, PLAINTEXT. */
  readonly brokers: string
  /** Its log file. */
  readonly logFile: string
  /** Stops the broker (SIGTERM: a clean shutdown) and starts it again on the same ports and data; resolves when ready. */
  restart(): Promise<void>
  /** Stops the broker and deletes its data. */
  stop(): Promise<void>
}

/**
 * Starts a broker on free ports with a fresh data directory (formatted with a new cluster id) and resolves once an
 * admin client lists its topics. `logFile` defaults to `kafka.log` in its data directory.
 */
export async function startKafkaBroker(options: { logFile?: string } = {}): Promise<KafkaBroker> {
  await resolveJars()
  const plaintextPort = await freePort()
  const controllerPort = await freePort()
  mkdirSync(itDir, { recursive: true })
  const runDir = mkdtempSync(join(itDir, 'kafka-run-'))
  const logFile = options.logFile ?? join(runDir, 'kafka.log')
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
  const brokers = `127.0.0.1:${plaintextPort}`
  let broker: ChildProcess | undefined
  const killOnExit = () => broker?.kill('SIGKILL')
  process.once('exit', killOnExit)
  const launch = async (append: boolean) => {
    const out = openSync(logFile, append ? 'a' : 'w')
    const child = spawn('java', [...javaArgs(), 'kafka.Kafka', properties], { stdio: ['ignore', out, out] })
    closeSync(out)
    broker = child
    await waitUntilReady(child, brokers, logFile)
  }
  const stop = async () => {
    process.removeListener('exit', killOnExit)
    if (broker !== undefined) await stopProcess(broker, STOP_GRACE_MS)
    rmSync(runDir, { recursive: true, force: true })
  }
  try {
    await launch(false)
  } catch (error) {
    await stop()
    throw error
  }
  return {
    brokers,
    logFile,
    async restart() {
      if (broker !== undefined) await stopProcess(broker, STOP_GRACE_MS)
      await launch(true)
    },
    stop,
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
async function waitUntilReady(broker: ChildProcess, brokers: string, logFile: string): Promise<void> {
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
