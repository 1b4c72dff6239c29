import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { basename, extname, relative, resolve } from 'node:path'
import { promisify } from 'node:util'
import type { Config } from '../config.js'
import { type Io, readText } from '../io.js'
import { UsageError } from '../usage-error.js'
import type { LockedVersion, Lockfile } from './pull.js'

const run = promisify(execFile)

/** A schema text and where it came from, as error messages name it. */
export interface SourcedText {
  /** The file, `git:REF` or lockfile entry the text was read from. */
  source: string
  text: string
}

/** The lockfile of `--against lockfile` and the entry of one schema's artifact in it. */
export interface LockedSchema {
  file: Lockfile
  entry: LockedVersion
}

/** A file relative to the working folder; a file that cannot be read is a usage error naming it. */
export async function readFileText(io: Io, path: string): Promise<string> {
  try {
    return await readText(io, path)
  } catch (error) {
    throw new UsageError(`Cannot read ${path}: ${(error as Error).message}`)
  }
}

/** FILE as it is at the git ref `ref`, read with `git show REF:./FILE` in the working folder. */
export async function gitShow(io: Io, ref: string, path: string): Promise<string> {
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
export async function lockedEntry(
  io: Io,
  lockfile: string | undefined,
  config: Config,
  path: string,
  artifactId: string,
  groupId: string | undefined,
): Promise<LockedSchema> {
  const lockPath = resolve(io.cwd, lockfile ?? config.lockfile ?? 'x-serde.lock.json')
  let parsed: unknown
  try {
    parsed = JSON.parse(await readText(io, lockPath))
  } catch (error) {
    throw new UsageError(
      `Cannot read the lockfile ${lockPath}: ${(error as Error).message} (run x-serde pull first)`,
    )
  }
  const file = lockfileOf(parsed, lockPath)
  const matches = file.artifacts.filter(
    (v) => v.artifactId === artifactId && (groupId === undefined || v.groupId === groupId),
  )
  if (matches.length !== 1) {
    throw new UsageError(
      matches.length === 0
        ? `The lockfile has no artifact ${artifactId} (for ${path}): give --artifact (and --group) or pull it first`
        : `The lockfile has ${artifactId} in several groups: give --group`,
    )
  }
  return { file, entry: matches[0] as LockedVersion }
}

const STRING_FIELDS = ['groupId', 'artifactId', 'version', 'file', 'sha256'] as const
const REFERENCE_FIELDS = ['name', 'groupId', 'artifactId', 'version'] as const

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The lockfile as `x-serde pull` writes it, or a usage error naming the first entry that is not: an object with an
 * `artifacts` array, each entry with the strings it locks and a `references` array.
 */
function lockfileOf(parsed: unknown, lockPath: string): Lockfile {
  const refuse = (what: string): never => {
    throw new UsageError(
      `The lockfile ${lockPath} is not one x-serde pull wrote: ${what} (run x-serde pull again)`,
    )
  }
  if (!isObject(parsed) || !Array.isArray(parsed.artifacts))
    refuse('expected an object with an artifacts array')
  for (const [index, entry] of (parsed as { artifacts: unknown[] }).artifacts.entries()) {
    if (!isObject(entry)) refuse(`artifacts[${index}] is not an object`)
    const locked = entry as Record<string, unknown>
    for (const field of STRING_FIELDS)
      if (typeof locked[field] !== 'string') refuse(`artifacts[${index}].${field} is not a string`)
    if (locked.compatibility !== undefined && typeof locked.compatibility !== 'string')
      refuse(`artifacts[${index}].compatibility is not a string`)
    if (!Array.isArray(locked.references)) refuse(`artifacts[${index}].references is not an array`)
    for (const [at, reference] of (locked.references as unknown[]).entries()) {
      if (!isObject(reference) || REFERENCE_FIELDS.some((field) => typeof reference[field] !== 'string'))
        refuse(
          `artifacts[${index}].references[${at}] is not a reference { name, groupId, artifactId, version }`,
        )
    }
  }
  return parsed as unknown as Lockfile
}

/** The artifact id of FILE: `--artifact`, the config's files entry, else the file's name without extension. */
export function artifactOf(path: string, given: string | undefined, configured: string | undefined): string {
  return given ?? configured ?? basename(path, extname(path))
}

/** The text `x-serde pull` wrote for a locked version; refused when it no longer has the locked SHA-256. */
export async function lockedText(io: Io, entry: LockedVersion): Promise<string> {
  const text = await readFileText(io, entry.file)
  if (createHash('sha256').update(text, 'utf8').digest('hex') !== entry.sha256) {
    throw new UsageError(
      `${entry.file} no longer matches the lockfile (changed since x-serde pull?): run x-serde pull again`,
    )
  }
  return text
}
