import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { freePort, logTail, runTool, sleep, stopProcess } from './processes.js'

// Global setup of the integration stage: a real Apicurio Registry 3 from Maven Central, run on 127.0.0.1 and handed
// to the tests as `inject('registryUrl')` (`http://127.0.0.1:<port>/apis/registry/v3`). With X_SERDE_TEST_REGISTRY_URL set,
// that registry is used instead and nothing is started (REGISTRY_URL, which a developer may have exported for the CLI
// or the demo, is never read here: the suites write test artifacts into the registry they use).
//
// 3.3.3 (`io.apicurio:apicurio-registry-app:3.3.3:tar.gz:all`, a Quarkus fast-jar, `quarkus-run.jar` at the root)
// needs a JDK 21 or newer: JAVA_HOME if it is one, else the newest under /usr/lib/jvm. Without one, 3.0.9
// (`zip:all`, legacy jar `apicurio-registry-app-3.0.9-runner.jar` + `lib/`) runs on Java 17. 3.3.1 is not on Maven
// Central. The archive is fetched with Maven (cached in ~/.m2) and extracted once under .it/apicurio-<version>/.

const here = dirname(fileURLToPath(import.meta.url))
const repo = resolve(here, '../..')
const itDir = join(repo, '.it')
const logFile = join(itDir, 'apicurio.log')

/** The release the integration stage runs (exported for tests that start a registry of their own, e.g. over TLS). */
export const MODERN = { version: '3.3.3', packaging: 'tar.gz', minJava: 21 }
const FALLBACK = { version: '3.0.9', packaging: 'zip', minJava: 17 }
const MAVEN_TIMEOUT_MS = 600_000
const READY_TIMEOUT_MS = 120_000
const STOP_GRACE_MS = 10_000
// Start-up speed on two cores: a small heap, the serial collector and the C1 compiler only.
export const JVM_FLAGS = [
  '-Xmx512m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-Djava.awt.headless=true',
]

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by vitest's global setup, which runs outside any turbo task
  const external = process.env.X_SERDE_TEST_REGISTRY_URL
  if (external) {
    const url = external.replace(/\/+$/, '')
    console.log(
      `apicurio: using the registry at ${redactUserinfo(url)} (X_SERDE_TEST_REGISTRY_URL); starting none`,
    )
    project.provide('registryUrl', url)
    return undefined
  }
  const started = Date.now()
  const modernJava = await findJava(MODERN.minJava)
  const release = modernJava === undefined ? FALLBACK : MODERN
  const java = modernJava ?? (await findJava(FALLBACK.minJava))
  if (java === undefined) {
    throw new Error(
      'apicurio: no JDK 17 or newer found (JAVA_HOME, /usr/lib/jvm, PATH); cannot run Apicurio Registry',
    )
  }
  const home = await installRelease(release)
  const launcher = findLauncher(home)

  const httpPort = await freePort()
  const managementPort = await freePort()
  mkdirSync(itDir, { recursive: true })
  const out = openSync(logFile, 'w')
  const registry = spawn(
    java,
    [
      ...JVM_FLAGS,
      '-Dquarkus.http.host=127.0.0.1',
      `-Dquarkus.http.port=${httpPort}`,
      `-Dquarkus.management.port=${managementPort}`,
      '-Dquarkus.management.host=127.0.0.1',
      '-Dapicurio.rest.deletion.artifact.enabled=true',
      '-Dapicurio.rest.deletion.artifact-version.enabled=true',
      '-Dapicurio.rest.deletion.group.enabled=true',
      '-jar',
      launcher,
    ],
    { cwd: home, stdio: ['ignore', out, out] },
  )
  closeSync(out)
  const killOnExit = () => registry.kill('SIGKILL')
  process.once('exit', killOnExit)

  const url = `http://127.0.0.1:${httpPort}/apis/registry/v3`
  try {
    await waitUntilReady(registry, url)
  } catch (error) {
    process.removeListener('exit', killOnExit)
    await stopProcess(registry, STOP_GRACE_MS)
    throw error
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  process.stdout.write(
    `apicurio: Apicurio Registry ${release.version} (${java}) at ${url}, ready in ${seconds} s\n`,
  )
  project.provide('registryUrl', url)

  return async () => {
    process.removeListener('exit', killOnExit)
    await stopProcess(registry, STOP_GRACE_MS)
  }
}

/** The `java` of JAVA_HOME if it is at least `minimum`, else of the newest such JDK under /usr/lib/jvm, else on PATH. */
export async function findJava(minimum: number): Promise<string | undefined> {
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by vitest's global setup, which runs outside any turbo task
  const javaHome = process.env.JAVA_HOME
  if (javaHome) {
    const java = join(javaHome, 'bin/java')
    if (((await javaMajor(java)) ?? 0) >= minimum) return java
  }
  const jvmDir = '/usr/lib/jvm'
  const installed = existsSync(jvmDir)
    ? readdirSync(jvmDir).map((entry) => join(jvmDir, entry, 'bin/java'))
    : []
  let best: { java: string; major: number } | undefined
  for (const java of [...installed.filter((path) => existsSync(path)), 'java']) {
    const major = await javaMajor(java)
    if (major !== undefined && major >= minimum && (best === undefined || major > best.major))
      best = { java, major }
  }
  return best?.java
}

/** The major version `java -version` reports (`"21.0.3"` → 21, `"1.8.0_392"` → 8). */
function javaMajor(java: string): Promise<number | undefined> {
  return new Promise((done) => {
    execFile(java, ['-version'], { timeout: 15_000 }, (error, stdout, stderr) => {
      if (error) return done(undefined)
      const match = /version "(\d+)(?:\.(\d+))?/.exec(`${stderr}${stdout}`)
      if (match === null) return done(undefined)
      const first = Number(match[1])
      done(first === 1 ? Number(match[2]) : first)
    })
  })
}

/** Fetches (Maven, cached in ~/.m2) and extracts the release once; returns its directory under .it/. */
export async function installRelease(release: { version: string; packaging: string }): Promise<string> {
  const home = join(itDir, `apicurio-${release.version}`)
  const marker = join(home, '.extracted')
  if (existsSync(marker)) return home
  const download = join(itDir, 'download')
  mkdirSync(download, { recursive: true })
  const artifact = `io.apicurio:apicurio-registry-app:${release.version}:${release.packaging}:all`
  await runTool(
    'apicurio',
    repo,
    'mvn',
    [
      '-q',
      '-B',
      '-Dstyle.color=never',
      'dependency:copy',
      `-Dartifact=${artifact}`,
      `-DoutputDirectory=${download}`,
    ],
    MAVEN_TIMEOUT_MS,
  )
  const archive = join(download, `apicurio-registry-app-${release.version}-all.${release.packaging}`)
  rmSync(home, { recursive: true, force: true })
  mkdirSync(home, { recursive: true })
  if (release.packaging === 'zip')
    await runTool('apicurio', repo, 'unzip', ['-q', '-o', archive, '-d', home], MAVEN_TIMEOUT_MS)
  else await runTool('apicurio', repo, 'tar', ['-xzf', archive, '-C', home], MAVEN_TIMEOUT_MS)
  writeFileSync(marker, `${artifact}\n`)
  return home
}

/** The jar to run: `quarkus-run.jar` (fast-jar, at the root or under quarkus-app/) or the legacy `*-runner.jar`. */
export function findLauncher(home: string): string {
  for (const candidate of ['quarkus-run.jar', 'quarkus-app/quarkus-run.jar']) {
    if (existsSync(join(home, candidate))) return join(home, candidate)
  }
  const runner = readdirSync(home).find((name) => name.endsWith('-runner.jar'))
  if (runner !== undefined) return join(home, runner)
  throw new Error(`apicurio: no quarkus-run.jar nor *-runner.jar in ${home}; delete it to extract again`)
}

/** Ready when `/system/info` answers 200; fails early if the JVM exits, and after 120 s with the log's tail. */
async function waitUntilReady(registry: ChildProcess, url: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  let lastError = 'no answer yet'
  while (Date.now() < deadline) {
    if (registry.exitCode !== null || registry.signalCode !== null) {
      throw new Error(
        `apicurio: the registry exited (${registry.exitCode ?? registry.signalCode}) before it was ready\n${logTail(logFile)}`,
      )
    }
    try {
      const response = await fetch(`${url}/system/info`, { signal: AbortSignal.timeout(2000) })
      await response.arrayBuffer()
      if (response.status === 200) return
      lastError = `HTTP ${response.status}`
    } catch (error) {
      lastError = String(error)
    }
    await sleep(500)
  }
  throw new Error(
    `apicurio: ${url} was not ready after ${READY_TIMEOUT_MS / 1000} s (last: ${lastError})\n${logTail(logFile)}`,
  )
}

/** The URL without a password in its userinfo, for the log. */
function redactUserinfo(url: string): string {
  return url.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@')
}
