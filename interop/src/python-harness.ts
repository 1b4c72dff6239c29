import { createHash } from 'node:crypto'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { interopDir, itDir } from './paths.js'
import { lines, ProcessError, runProcess } from './run-process.js'

const pythonDir = join(interopDir, 'python')
const requirements = join(pythonDir, 'requirements.txt')
const venvDir = join(itDir, 'venv')
const venvPython = join(venvDir, 'bin', 'python')
const stamp = join(venvDir, '.requirements-sha256')

/**
 * Creates `.it/venv` with the pinned apicurio-serdes (interop/python/requirements.txt) unless it is already there.
 * When the machine's Python lacks the venv module (Debian ships it as `python3-venv`), installs that package with
 * apt-get if running as root, otherwise fails saying what to install.
 */
export async function ensureVenv(): Promise<void> {
  const digest = createHash('sha256').update(readFileSync(requirements)).digest('hex')
  if (existsSync(venvPython) && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return
  rmSync(venvDir, { recursive: true, force: true })
  try {
    await runProcess('python3', ['-m', 'venv', venvDir], { timeoutMs: 120_000 })
  } catch (error) {
    if (
      !(error instanceof ProcessError) ||
      !/ensurepip|No module named venv/.test(error.stdout + error.stderr)
    ) {
      throw error
    }
    await installDebianVenv(error)
    rmSync(venvDir, { recursive: true, force: true })
    await runProcess('python3', ['-m', 'venv', venvDir], { timeoutMs: 120_000 })
  }
  await runProcess(
    venvPython,
    ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input', '-r', requirements],
    { timeoutMs: 300_000 },
  )
  writeFileSync(stamp, digest)
}

async function installDebianVenv(cause: ProcessError): Promise<void> {
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    throw new Error(
      `python3 has no venv module; install Debian's python3-venv (apt-get install python3-venv)\n${cause.message}`,
    )
  }
  const env = { DEBIAN_FRONTEND: 'noninteractive' }
  await runProcess('apt-get', ['update', '-q'], { timeoutMs: 300_000, env })
  await runProcess('apt-get', ['install', '-y', '-q', 'python3-venv'], { timeoutMs: 300_000, env })
}

/** apicurio-serdes serializes records 0 .. count-1 (auto-registering `artifactId` in `groupId`); the hex frames. */
export async function pythonProduce(
  registryUrl: string,
  groupId: string,
  artifactId: string,
  useId: 'globalId' | 'contentId',
  count: number,
): Promise<Buffer[]> {
  const { stdout } = await runProcess(
    venvPython,
    [join(pythonDir, 'produce.py'), registryUrl, groupId, artifactId, useId, String(count)],
    { timeoutMs: 60_000 },
  )
  return lines(stdout).map((line) => Buffer.from(line, 'hex'))
}

/** apicurio-serdes deserializes the frames; the records in canonical JSON form, in order. */
export async function pythonConsume(
  registryUrl: string,
  groupId: string,
  useId: 'globalId' | 'contentId',
  frames: readonly Uint8Array[],
): Promise<Record<string, unknown>[]> {
  const input = frames.map((frame) => `${Buffer.from(frame).toString('hex')}\n`).join('')
  const { stdout } = await runProcess(
    venvPython,
    [join(pythonDir, 'consume.py'), registryUrl, groupId, useId],
    {
      input,
      timeoutMs: 60_000,
    },
  )
  return lines(stdout).map((line) => JSON.parse(line) as Record<string, unknown>)
}
