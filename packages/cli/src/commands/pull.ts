import { createHash } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { isSerdeError, SchemaNotFoundError } from '@x/errors'
import type { ArtifactReference } from '@x/registry-client'
import { parseExactJson } from '@x/registry-client/json'
import { collectReferences } from '@x/serde-core'
import type { Config } from '../config.js'
import { type Connection, type ConnectionFlags, connect, extensionOf } from '../connection.js'
import type { Io } from '../io.js'
import { CheckFailed, UsageError } from '../usage-error.js'
import { pullSnapshot } from './pull-snapshot.js'

export interface PullFlags extends ConnectionFlags {
  artifact?: string
  version?: string
  outDir?: string
  lockfile?: string
  check?: boolean
  snapshot?: string
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
 * no longer matches the lockfile. `--snapshot FILE` writes them into one schema snapshot instead (nothing else).
 */
export async function pull(flags: PullFlags, config: Config, io: Io): Promise<void> {
  await using connection = connect(flags, config, io)
  const wanted =
    flags.artifact !== undefined
      ? [{ groupId: connection.groupId, artifactId: flags.artifact, version: flags.version }]
      : (config.artifacts ?? []).map((entry) => ({ ...entry, groupId: entry.groupId ?? connection.groupId }))
  if (wanted.length === 0)
    throw new UsageError('Nothing to pull: give --artifact, or "artifacts" in x-serde.config.json')
  if (flags.snapshot !== undefined) {
    if (flags.check) throw new UsageError('give --snapshot or --check, not both')
    const artifacts = wanted.map(({ groupId, artifactId, version }) => ({
      groupId: groupId as string,
      artifactId,
      ...(version === undefined ? {} : { version }),
    }))
    await pullSnapshot(connection, artifacts, flags.snapshot, io)
    return
  }
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

/**
 * Records the version `version` of an artifact and every artifact version it references, recursively: the references
 * are walked by the serdes' own reference loader (each version once, a reference that names no group in `default`),
 * so what is pulled is what a reader of the artifact loads.
 */
async function pullVersion(
  connection: Connection,
  groupId: string,
  artifactId: string,
  version: string,
  outDir: string,
  pulled: Map<string, Pulled>,
): Promise<void> {
  const client = connection.client
  // The version asked for through the CLI's own request: a registry's refusal of it is quoted (exit 1).
  const path = `/groups/${encodeURIComponent(groupId)}/artifacts/${encodeURIComponent(artifactId)}/versions/${version.startsWith('branch=') ? version : encodeURIComponent(version)}`
  const answer = await connection.rest('GET', path)
  if (answer.status === 404) {
    throw new SchemaNotFoundError(undefined, {
      groupId,
      artifactId,
      ...(version === LATEST ? {} : { version }),
    })
  }
  const meta = parseExactJson(answer.text).value as {
    version: string
    artifactType: string
    globalId: number | bigint
    contentId: number | bigint
  }
  const { schema } = await client.getSchemaByGlobalId(meta.globalId)
  const references = await record(connection, { ...meta, groupId, artifactId, schema }, outDir, pulled)
  if (references.length === 0) return
  for (const reference of await collectReferences(client, undefined, references)) {
    const group = reference.groupId ?? DEFAULT_GROUP
    // Cached where the reference names its version: the loader has just looked it up.
    const target = await client.getSchemaVersion(reference.artifactId, reference.version ?? LATEST, {
      groupId: group,
    })
    await record(
      connection,
      {
        groupId: group,
        artifactId: reference.artifactId,
        version: target.version ?? reference.version ?? LATEST,
        // A version's metadata always names both ids (the client refuses it otherwise) and, from Apicurio, its type.
        artifactType: target.artifactType ?? '',
        globalId: target.globalId!,
        contentId: target.contentId!,
        schema: target.schema,
      },
      outDir,
      pulled,
    )
  }
}

const DEFAULT_GROUP = 'default'
const LATEST = 'branch=latest'

/** One artifact version as the registry names it, with its content. */
interface Facts {
  groupId: string
  artifactId: string
  version: string
  artifactType: string
  globalId: number | bigint
  contentId: number | bigint
  schema: string
}

/** Adds one artifact version to `pulled` (once); gives its references, as the registry lists them. */
async function record(
  connection: Connection,
  facts: Facts,
  outDir: string,
  pulled: Map<string, Pulled>,
): Promise<readonly ArtifactReference[]> {
  const { groupId, artifactId, version, artifactType } = facts
  const references = await connection.client.getReferencesByGlobalId(facts.globalId)
  const key = `${groupId}\u0000${artifactId}\u0000${version}`
  if (pulled.has(key)) return references
  pulled.set(key, {
    groupId,
    artifactId,
    version,
    artifactType,
    globalId: String(facts.globalId),
    contentId: String(facts.contentId),
    sha256: createHash('sha256').update(facts.schema, 'utf8').digest('hex'),
    file: join(outDir, groupId, `${artifactId}.${extensionOf(artifactType)}`),
    ...optional('compatibility', await compatibilityOf(connection, groupId, artifactId)),
    references: references.map((r) => ({
      name: r.name,
      groupId: r.groupId ?? DEFAULT_GROUP,
      artifactId: r.artifactId,
      version: r.version ?? LATEST,
    })),
    content: facts.schema,
  })
  return references
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
