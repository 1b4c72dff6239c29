import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { isSerdeError, SchemaNotFoundError } from '@x/errors'
import type { Config } from '../config.js'
import { type Connection, type ConnectionFlags, connect, extensionOf } from '../connection.js'
import type { Io } from '../io.js'
import { CheckFailed, UsageError } from '../usage-error.js'

export interface PullFlags extends ConnectionFlags {
  artifact?: string
  version?: string
  outDir?: string
  lockfile?: string
  check?: boolean
}

/** One artifact version in the lockfile. */
export interface LockedVersion {
  groupId: string
  artifactId: string
  version: string
  artifactType: string
  globalId: string
  contentId: string
  /** SHA-256 (hex) of the content as the registry serves it. */
  sha256: string
  /** Where it was written, relative to the working folder. */
  file: string
  /**
   * The COMPATIBILITY level in force when it was pulled (the artifact's rule, else its group's, else the global
   * one); absent when none is set or the registry would not say. `check --offline` takes it as its level.
   */
  compatibility?: string
  references: { name: string; groupId: string; artifactId: string; version: string }[]
}

export interface Lockfile {
  lockfileVersion: 1
  artifacts: LockedVersion[]
}

interface Pulled extends LockedVersion {
  content: string
}

/**
 * `x-serde pull`: downloads the artifacts of the config (or `--artifact`) with everything they reference, writes
 * each to `<outDir>/<group>/<artifact>.<avsc|json|proto>`, and records group, artifact, version, globalId,
 * contentId and the SHA-256 of each in the lockfile. `--check` writes nothing and fails (exit 1) when the registry
 * no longer matches the lockfile.
 */
export async function pull(flags: PullFlags, config: Config, io: Io): Promise<void> {
  await using connection = connect(flags, config, io)
  const wanted =
    flags.artifact !== undefined
      ? [{ groupId: connection.groupId, artifactId: flags.artifact, version: flags.version }]
      : (config.artifacts ?? []).map((entry) => ({ ...entry, groupId: entry.groupId ?? connection.groupId }))
  if (wanted.length === 0)
    throw new UsageError('Nothing to pull: give --artifact, or "artifacts" in x-serde.config.json')
  const outDir = flags.outDir ?? config.outDir ?? 'schemas'
  const lockPath = resolve(io.cwd, flags.lockfile ?? config.lockfile ?? 'x-serde.lock.json')
  const pulled = new Map<string, Pulled>()
  let done = 0
  for (const entry of wanted) {
    done += 1
    io.stderr(`pulling ${entry.groupId}/${entry.artifactId} (${done}/${wanted.length})\n`)
    await pullVersion(
      connection,
      entry.groupId as string,
      entry.artifactId,
      entry.version ?? 'branch=latest',
      outDir,
      pulled,
    )
  }
  const lock: Lockfile = {
    lockfileVersion: 1,
    artifacts: [...pulled.values()]
      .map(({ content: _content, ...locked }) => locked)
      .sort((a, b) => key(a).localeCompare(key(b))),
  }
  if (flags.check) {
    const differences = compare(await readLock(lockPath), lock)
    if (differences.length > 0) {
      for (const line of differences) io.stdout(`${line}\n`)
      throw new CheckFailed(`The registry has moved from ${relative(io.cwd, lockPath)}`)
    }
    io.stdout(`${lock.artifacts.length} artifact versions match ${relative(io.cwd, lockPath)}\n`)
    return
  }
  for (const version of pulled.values()) {
    const target = resolve(io.cwd, version.file)
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, version.content)
    io.stdout(
      `${version.file}  ${version.groupId}/${version.artifactId} version ${version.version} (globalId ${version.globalId})\n`,
    )
  }
  await writeFile(lockPath, `${JSON.stringify(lock, null, 2)}\n`)
  io.stdout(`wrote ${relative(io.cwd, lockPath)} (${lock.artifacts.length} artifact versions)\n`)
}

async function pullVersion(
  connection: Connection,
  groupId: string,
  artifactId: string,
  version: string,
  outDir: string,
  pulled: Map<string, Pulled>,
): Promise<Pulled> {
  const path = `/groups/${encodeURIComponent(groupId)}/artifacts/${encodeURIComponent(artifactId)}/versions/${version.startsWith('branch=') ? version : encodeURIComponent(version)}`
  const answer = await connection.rest('GET', path)
  if (answer.status === 404) {
    throw new SchemaNotFoundError(undefined, {
      groupId,
      artifactId,
      ...(version === 'branch=latest' ? {} : { version }),
    })
  }
  const meta = JSON.parse(answer.text) as {
    version: string
    artifactType: string
    globalId: number
    contentId: number
  }
  const already = pulled.get(`${groupId}\u0000${artifactId}\u0000${meta.version}`)
  if (already !== undefined) return already
  const schema = await connection.client.getSchemaByGlobalId(meta.globalId)
  const references = await connection.client.getReferencesByGlobalId(meta.globalId)
  const entry: Pulled = {
    groupId,
    artifactId,
    version: meta.version,
    artifactType: meta.artifactType,
    globalId: String(meta.globalId),
    contentId: String(meta.contentId),
    sha256: createHash('sha256').update(schema.schema, 'utf8').digest('hex'),
    file: join(outDir, groupId, `${artifactId}.${extensionOf(meta.artifactType)}`),
    ...optional('compatibility', await compatibilityOf(connection, groupId, artifactId)),
    references: references.map((r) => ({
      name: r.name,
      groupId: r.groupId ?? 'default',
      artifactId: r.artifactId,
      version: r.version ?? 'branch=latest',
    })),
    content: schema.schema,
  }
  pulled.set(`${groupId}\u0000${artifactId}\u0000${meta.version}`, entry)
  for (const reference of entry.references) {
    await pullVersion(connection, reference.groupId, reference.artifactId, reference.version, outDir, pulled)
  }
  return entry
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}

/**
 * The COMPATIBILITY level in force for an artifact: its own rule, else its group's, else the global one (a 404 goes
 * on to the next). `undefined` when none is set, or when the registry does not let us read one (403 on the global
 * rules for a user who is not an admin).
 */
async function compatibilityOf(
  connection: Connection,
  groupId: string,
  artifactId: string,
): Promise<string | undefined> {
  const group = `/groups/${encodeURIComponent(groupId)}`
  for (const path of [
    `${group}/artifacts/${encodeURIComponent(artifactId)}/rules/COMPATIBILITY`,
    `${group}/rules/COMPATIBILITY`,
    '/admin/rules/COMPATIBILITY',
  ]) {
    let answer: { status: number; text: string }
    try {
      answer = await connection.rest('GET', path)
    } catch (error) {
      if (isSerdeError(error, 'REGISTRY_CONNECTION') && (error as { status?: number }).status === 403)
        return undefined
      throw error
    }
    if (answer.status === 200) return (JSON.parse(answer.text) as { config?: string }).config
    if (answer.status !== 404) return undefined
  }
  return undefined
}

function key(version: Pick<LockedVersion, 'groupId' | 'artifactId' | 'version'>): string {
  return `${version.groupId}/${version.artifactId}@${version.version}`
}

async function readLock(path: string): Promise<Lockfile> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Lockfile
  } catch (error) {
    throw new UsageError(
      `Cannot read the lockfile ${path}: ${(error as Error).message} (run x-serde pull first)`,
    )
  }
}

/** What differs between the lockfile and the registry, one line each. */
function compare(locked: Lockfile, current: Lockfile): string[] {
  const lines: string[] = []
  const byArtifact = (lock: Lockfile) =>
    new Map(lock.artifacts.map((v) => [`${v.groupId}/${v.artifactId}`, v]))
  const before = byArtifact(locked)
  const now = byArtifact(current)
  for (const [name, version] of now) {
    const was = before.get(name)
    if (was === undefined) lines.push(`new:    ${name} version ${version.version} is not in the lockfile`)
    else if (was.version !== version.version || was.globalId !== version.globalId) {
      lines.push(
        `moved:  ${name} version ${was.version} (globalId ${was.globalId}) → version ${version.version} (globalId ${version.globalId})`,
      )
    } else if (was.sha256 !== version.sha256)
      lines.push(`changed: ${name} version ${version.version}: its content differs`)
  }
  for (const name of before.keys())
    if (!now.has(name)) lines.push(`gone:   ${name} is in the lockfile but no longer pulled`)
  return lines
}
