import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs'
import { join } from 'node:path'
import { interopDir } from './paths.js'
import { lines, runProcess } from './run-process.js'

// The Apicurio Registry 2.6 serde program (interop/java2): its own Maven project, since 2.x's serde classes have the
// same names as 3.x's (interop/java).

const javaDir = join(interopDir, 'java2')
const targetDir = join(javaDir, 'target')
const jar = join(targetDir, 'java2-interop-0.0.0.jar')
const libDir = join(targetDir, 'lib')

/** How the 2.6 serde sends the id: in the frame (`headers.enabled=false`) or in a header (2.x's default). */
export type Java2Mode = 'framed' | 'headers'

/** One record as the 2.6 consumer prints it: header hex, and the fields of `Legacy.record(i)` (`n` as digits). */
export interface Java2Record {
  offset: number
  headers: Record<string, string>
  id: string
  n: string
}

function newestMtime(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

/** Builds the 2.6 program with Maven unless it is up to date (the downloads are cached in ~/.m2). */
export async function buildJava2Harness(): Promise<void> {
  if (
    existsSync(jar) &&
    existsSync(libDir) &&
    statSync(jar).mtimeMs > Math.max(newestMtime(join(javaDir, 'pom.xml')), newestMtime(join(javaDir, 'src')))
  ) {
    return
  }
  await runProcess(
    'mvn',
    [
      '-q',
      '-B',
      '-Dstyle.color=never',
      '-f',
      join(javaDir, 'pom.xml'),
      'package',
      'dependency:copy-dependencies',
      '-DincludeScope=runtime',
      `-DoutputDirectory=${libDir}`,
    ],
    { timeoutMs: 600_000 },
  )
  const now = new Date()
  utimesSync(jar, now, now)
}

/** The v2 API of the registry whose v3 API is `registryUrl` (Apicurio 3 serves both). */
export function v2Url(registryUrl: string): string {
  return registryUrl.replace(/\/apis\/registry\/v3\/?$/, '/apis/registry/v2')
}

function java2(args: string[]) {
  return runProcess(
    'java',
    [
      '-XX:+UseSerialGC',
      '-XX:TieredStopAtLevel=1',
      '-Xmx256m',
      '-cp',
      `${join(targetDir, 'classes')}:${libDir}/*`,
      'x.serde.interop.legacy.Legacy',
      ...args,
    ],
    { timeoutMs: 90_000 },
  )
}

/** The 2.6 serde writes `Legacy.record(0 .. count-1)` to `topic` (auto-registering through the v2 API). */
export async function java2Produce(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: Java2Mode,
  count: number,
): Promise<void> {
  await java2(['produce', brokers, v2Url(registryUrl), topic, mode, String(count)])
}

/** The 2.6 serde reads `count` records of `topic` from the start. */
export async function java2Consume(
  brokers: string,
  registryUrl: string,
  topic: string,
  mode: Java2Mode,
  count: number,
): Promise<Java2Record[]> {
  const { stdout } = await java2(['consume', brokers, v2Url(registryUrl), topic, mode, String(count)])
  return lines(stdout).map((line) => JSON.parse(line) as Java2Record)
}
