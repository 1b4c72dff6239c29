import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { basename, extname, relative, resolve } from 'node:path'
import { promisify } from 'node:util'
import {
  type CompatibilityLevel,
  type CompatibilityResult,
  checkCompatibility,
  isCompatibilityLevel,
  isSchemaFormat,
  type SchemaFormat,
} from '@x/compatibility'
import type { Config } from '../config.js'
import { type Io, readText } from '../io.js'
import { toJsonText } from '../json-output.js'
import { setOwn } from '../own-property.js'
import { CheckFailed, UsageError } from '../usage-error.js'
import type { LockedVersion, Lockfile } from './pull.js'

const run = promisify(execFile)

export interface OfflineCheckFlags {
  level?: string
  against?: string[]
  reference?: string[]
  artifact?: string
  group?: string
  type?: string
  lockfile?: string
  json?: boolean
}

/** One earlier version: where it came from and its text. */
interface Earlier {
  source: string
  text: string
}

const EXTENSIONS: Readonly<Record<string, SchemaFormat>> = {
  '.avsc': 'AVRO',
  '.avro': 'AVRO',
  '.json': 'JSON',
  '.proto': 'PROTOBUF',
}

/**
 * `x-serde check --offline FILE --level LEVEL --against SOURCE…`: whether FILE may follow the earlier versions
 * (oldest first) under the compatibility level, decided as Apicurio Registry 3.3.3 decides it, with no registry.
 * A source is a file, `git:REF` (FILE as it is at that git ref), or `lockfile` (the version `x-serde pull` wrote
 * for FILE's artifact, checked against its SHA-256; the level defaults to the rule `pull` recorded for it). Prints
 * the verdict and each issue (or one JSON document with `--json`); exits 1 when FILE is not compatible, 2 on bad
 * usage.
 */
export async function checkOffline(
  paths: readonly string[],
  flags: OfflineCheckFlags,
  config: Config,
  io: Io,
): Promise<void> {
  if (paths.length !== 1) throw new UsageError(`--offline checks one file, got ${paths.length}`)
  const path = paths[0] as string
  const against = flags.against ?? []
  if (against.length === 0) {
    throw new UsageError(
      '--offline needs at least one --against FILE|git:REF|lockfile (the earlier versions)',
    )
  }
  const proposed = await readFileText(io, path)
  const configured = config.files?.[relative(io.cwd, resolve(io.cwd, path))]
  let lock: { path: string; file: Lockfile; entry: LockedVersion } | undefined
  const earlier: Earlier[] = []
  for (const source of against) {
    if (source.startsWith('git:')) {
      earlier.push({ source, text: await gitShow(io, source.slice(4), path) })
    } else if (source === 'lockfile') {
      lock ??= await lockedEntry(io, flags, config, path, configured?.artifactId, configured?.groupId)
      earlier.push({ source: `${lock.entry.file} (lockfile)`, text: await lockedText(io, lock.entry) })
    } else {
      earlier.push({ source, text: await readFileText(io, source) })
    }
  }
  const level = levelOf(flags.level ?? lock?.entry.compatibility, lock !== undefined)
  const format = formatOf(flags.type ?? configured?.type ?? lock?.entry.artifactType, path)
  const references = await referencesOf(io, flags.reference ?? [], lock)
  const result = checkCompatibility({
    format,
    level,
    existing: earlier.map((e) => e.text),
    proposed,
    references,
  })
  if (flags.json) {
    io.stdout(
      `${toJsonText({ file: path, format, level, against: earlier.map((e) => e.source), ...result })}\n`,
    )
  } else {
    printHuman(io, path, level, earlier, result)
  }
  if (!result.compatible) {
    throw new CheckFailed(`${path} is not ${level} compatible with ${describeAgainst(earlier)}`)
  }
}

/** `--level`, else the lockfile's level for the artifact. */
function levelOf(given: string | undefined, fromLockfile: boolean): CompatibilityLevel {
  if (given === undefined) {
    throw new UsageError(
      fromLockfile
        ? '--offline needs --level: the lockfile records no COMPATIBILITY rule for this artifact'
        : '--offline needs --level (one of the seven compatibility levels)',
    )
  }
  const level = given.toUpperCase()
  if (!isCompatibilityLevel(level)) {
    throw new UsageError(
      `--level must be one of BACKWARD, BACKWARD_TRANSITIVE, FORWARD, FORWARD_TRANSITIVE, FULL, FULL_TRANSITIVE, NONE, got ${given}`,
    )
  }
  return level
}

function describeAgainst(earlier: readonly Earlier[]): string {
  return earlier.length === 1 ? (earlier[0] as Earlier).source : `${earlier.length} earlier versions`
}

function printHuman(
  io: Io,
  path: string,
  level: CompatibilityLevel,
  earlier: readonly Earlier[],
  result: CompatibilityResult,
): void {
  const verdict = result.compatible ? 'compatible  ' : 'incompatible'
  io.stdout(`${verdict} ${path} under ${level} against ${earlier.map((e) => e.source).join(', ')}\n`)
  for (const issue of result.issues) {
    io.stdout(`  - ${issue.path === '' ? '(schema)' : issue.path}: ${issue.message}\n`)
  }
}

function formatOf(type: string | undefined, path: string): SchemaFormat {
  if (type !== undefined) {
    const upper = type.toUpperCase()
    if (isSchemaFormat(upper)) return upper
    throw new UsageError(`--type must be AVRO, JSON or PROTOBUF, got ${type}`)
  }
  const format = EXTENSIONS[extname(path).toLowerCase()]
  if (format === undefined) {
    throw new UsageError(
      `Cannot tell the format of ${path} from its extension: give --type AVRO|JSON|PROTOBUF`,
    )
  }
  return format
}

async function readFileText(io: Io, path: string): Promise<string> {
  try {
    return await readText(io, path)
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as Error).message}`)
  }
}

/** FILE as it is at the git ref `ref`, read with `git show REF:./FILE` in the working folder. */
async function gitShow(io: Io, ref: string, path: string): Promise<string> {
  if (ref === '' || ref.startsWith('-')) throw new UsageError(`git:${ref} names no git ref`)
  const relativePath = relative(io.cwd, resolve(io.cwd, path))
  try {
    const { stdout } = await run('git', ['show', `${ref}:./${relativePath}`], {
      cwd: io.cwd,
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
    })
    return stdout
  } catch (error) {
    const said = ((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split('\n')[0]
    throw new UsageError(`Cannot read ${relativePath} at git:${ref}: ${said}`)
  }
}

/** The lockfile entry of FILE's artifact: `--artifact`, the config's files entry, else FILE's name. */
async function lockedEntry(
  io: Io,
  flags: OfflineCheckFlags,
  config: Config,
  path: string,
  configuredArtifact: string | undefined,
  configuredGroup: string | undefined,
): Promise<{ path: string; file: Lockfile; entry: LockedVersion }> {
  const lockPath = resolve(io.cwd, flags.lockfile ?? config.lockfile ?? 'x-serde.lock.json')
  let file: Lockfile
  try {
    file = JSON.parse(await readText(io, lockPath)) as Lockfile
  } catch (error) {
    throw new UsageError(
      `Cannot read the lockfile ${lockPath}: ${(error as Error).message} (run x-serde pull first)`,
    )
  }
  const artifactId = flags.artifact ?? configuredArtifact ?? basename(path, extname(path))
  const groupId = flags.group ?? configuredGroup
  const matches = (file.artifacts ?? []).filter(
    (v) => v.artifactId === artifactId && (groupId === undefined || v.groupId === groupId),
  )
  if (matches.length !== 1) {
    throw new UsageError(
      matches.length === 0
        ? `The lockfile has no artifact ${artifactId}: give --artifact (and --group) or pull it first`
        : `The lockfile has ${artifactId} in several groups: give --group`,
    )
  }
  return { path: lockPath, file, entry: matches[0] as LockedVersion }
}

/** The text `x-serde pull` wrote for a locked version; refused when it no longer has the locked SHA-256. */
async function lockedText(io: Io, entry: LockedVersion): Promise<string> {
  const text = await readFileText(io, entry.file)
  if (createHash('sha256').update(text, 'utf8').digest('hex') !== entry.sha256) {
    throw new UsageError(
      `${entry.file} no longer matches the lockfile (changed since x-serde pull?): run x-serde pull again`,
    )
  }
  return text
}

/** `--reference NAME=FILE`, and the references of the locked version (each locked too) by their names. */
async function referencesOf(
  io: Io,
  given: readonly string[],
  lock: { file: Lockfile; entry: LockedVersion } | undefined,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  if (lock !== undefined) {
    const seen = new Set<LockedVersion>()
    const visit = async (entry: LockedVersion) => {
      for (const reference of entry.references) {
        const target = lock.file.artifacts.find(
          (v) =>
            v.groupId === reference.groupId &&
            v.artifactId === reference.artifactId &&
            (v.version === reference.version || reference.version === 'branch=latest'),
        )
        if (target === undefined || seen.has(target)) continue
        seen.add(target)
        await visit(target)
        if (!Object.hasOwn(out, reference.name)) setOwn(out, reference.name, await lockedText(io, target))
      }
    }
    await visit(lock.entry)
  }
  for (const item of given) {
    const at = item.indexOf('=')
    if (at <= 0) throw new UsageError(`--reference must be NAME=FILE, got ${item}`)
    setOwn(out, item.slice(0, at), await readFileText(io, item.slice(at + 1)))
  }
  return out
}
