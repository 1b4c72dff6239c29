import { readdir, stat } from 'node:fs/promises'
import { resolve, sep } from 'node:path'
import { checkReferences, type SchemaFormat } from '@x/compatibility'
import type { Io } from '../io.js'
import { setOwn } from '../own-property.js'
import { UsageError } from '../usage-error.js'
import { type LockedSchema, lockedText, readFileText, type SourcedText } from './offline-sources.js'
import type { LockedVersion } from './pull.js'

/** The referenced schemas given, by the name a schema uses for them, each with the file it came from. */
export type GivenReferences = Map<string, SourcedText>

/**
 * `--reference-dir DIR` (every file under DIR by its path relative to DIR, `/`-separated, a link to a file as that
 * file, a link to a folder not entered; an Avro schema also by
 * the full name of the type it defines), then `--reference NAME=FILE`, which wins over a directory's name.
 */
export async function givenReferences(
  io: Io,
  dirs: readonly string[],
  items: readonly string[],
): Promise<GivenReferences> {
  const given: GivenReferences = new Map()
  for (const dir of dirs) {
    let names: string[]
    try {
      const entries = await readdir(resolve(io.cwd, dir), { recursive: true, withFileTypes: true })
      const files: string[] = []
      for (const entry of entries) {
        const path = `${entry.parentPath ?? entry.path}${sep}${entry.name}`
        // a link to a file is that file; a link to a folder is not entered (it may loop), a dangling one is skipped
        if (entry.isFile() || (entry.isSymbolicLink() && (await isFileBehind(path))))
          files.push(path.slice(resolve(io.cwd, dir).length + 1))
      }
      names = files.sort()
    } catch (error) {
      throw new UsageError(`Cannot read the --reference-dir ${dir}: ${(error as Error).message}`)
    }
    for (const name of names) {
      const source = `${dir.replace(/\/+$/, '')}/${name.split(sep).join('/')}`
      const text = await readFileText(io, source)
      given.set(name.split(sep).join('/'), { source, text })
      const avroName = avroFullName(text)
      if (avroName !== undefined && !given.has(avroName)) given.set(avroName, { source, text })
    }
  }
  for (const item of items) {
    const at = item.indexOf('=')
    if (at <= 0) throw new UsageError(`--reference must be NAME=FILE, got ${item}`)
    const source = item.slice(at + 1)
    given.set(item.slice(0, at), { source, text: await readFileText(io, source) })
  }
  return given
}

/** Whether a symbolic link leads to a file (not a folder, not nowhere). */
async function isFileBehind(link: string): Promise<boolean> {
  try {
    return (await stat(link)).isFile()
  } catch {
    return false
  }
}

/** The full name of the named Avro type a text defines at its top, if it is one. */
function avroFullName(text: string): string | undefined {
  let schema: unknown
  try {
    schema = JSON.parse(text)
  } catch {
    return undefined
  }
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return undefined
  const { type, name, namespace } = schema as Record<string, unknown>
  if (!['record', 'error', 'enum', 'fixed'].includes(type as string) || typeof name !== 'string')
    return undefined
  return name.includes('.') || typeof namespace !== 'string' || namespace === ''
    ? name
    : `${namespace}.${name}`
}

/** The references a locked version has (each locked too), by their names, with what those reference in turn. */
export async function lockedReferences(io: Io, lock: LockedSchema, into: GivenReferences): Promise<void> {
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
      if (!into.has(reference.name))
        into.set(reference.name, { source: target.file, text: await lockedText(io, target) })
    }
  }
  await visit(lock.entry)
}

/** A name a schema uses that no reference given maps. */
export interface MissingReference {
  /** The schema (or referenced schema) that uses it. */
  source: string
  name: string
}

/**
 * The references the schemas use, followed through the references they use in turn, as a map of texts to compare
 * with (only these: an unrelated file of a `--reference-dir` plays no part), or the first name used that none maps.
 */
export function usedReferences(
  format: SchemaFormat,
  schemas: readonly SourcedText[],
  given: GivenReferences,
): { references: Record<string, string>; used: Map<string, SourcedText> } | MissingReference {
  const used = new Map<string, SourcedText>()
  const pending = [...schemas]
  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    // with no reference given, checkReferences names every reference the schema uses, quoted as JSON in its message
    for (const issue of checkReferences({ format, schema: next.text })) {
      const name = /refers to ("(?:[^"\\]|\\.)*")/.exec(issue.message)?.[1]
      if (name === undefined) continue
      const referenced = JSON.parse(name) as string
      if (used.has(referenced)) continue
      const found = given.get(referenced)
      if (found === undefined) return { source: next.source, name: referenced }
      used.set(referenced, found)
      pending.push(found)
    }
  }
  const references: Record<string, string> = {}
  for (const [name, { text }] of used) setOwn(references, name, text)
  return { references, used }
}
