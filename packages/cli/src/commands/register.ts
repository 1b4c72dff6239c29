import { basename } from 'node:path'
import { IF_EXISTS, type IfExists } from '@x/registry-client'
import type { Config, FileEntry } from '../config.js'
import { artifactTypeOfFile, type ConnectionFlags, connect } from '../connection.js'
import { type Io, readText } from '../io.js'
import { UsageError } from '../usage-error.js'
import { orderByDependencies } from './file-references.js'

export interface RegisterFlags extends ConnectionFlags {
  artifact?: string
  type?: string
  ifExists?: string
}

/** A local schema file and the artifact it goes to. */
export interface SchemaFile {
  path: string
  text: string
  groupId: string
  artifactId: string
  artifactType: 'AVRO' | 'JSON' | 'PROTOBUF'
  references: { name: string; groupId?: string; artifactId: string; version: string }[]
}

/** Reads each file and maps it to its artifact: `--artifact` (one file), the config's `files` entry, or its name. */
export async function schemaFiles(
  paths: readonly string[],
  flags: { artifact?: string; type?: string },
  config: Config,
  groupId: string,
  io: Io,
): Promise<SchemaFile[]> {
  if (paths.length === 0) throw new UsageError('Give at least one schema file')
  if (flags.artifact !== undefined && paths.length > 1)
    throw new UsageError('--artifact names one artifact: give one file')
  const files: SchemaFile[] = []
  for (const path of paths) {
    const entry: FileEntry = config.files?.[path] ?? {}
    let text: string
    try {
      text = await readText(io, path)
    } catch (error) {
      throw new UsageError(`Cannot read ${path}: ${(error as Error).message}`)
    }
    files.push({
      path,
      text,
      groupId: entry.groupId ?? groupId,
      artifactId: flags.artifact ?? entry.artifactId ?? basename(path).replace(/\.[^.]+$/, ''),
      artifactType: artifactTypeOfFile(path, flags.type ?? entry.type),
      references: entry.references ?? [],
    })
  }
  return files
}

/**
 * `x-serde register FILE…`: registers each file under its artifact, honouring `--if-exists`; prints the ids. A file
 * that uses another given file (a `.proto` import, a JSON Schema `$ref`, an Avro type defined there) is registered
 * after it, with a reference to the version just registered, besides the config's `references`.
 */
export async function register(
  paths: readonly string[],
  flags: RegisterFlags,
  config: Config,
  io: Io,
): Promise<void> {
  const ifExists = (flags.ifExists ?? 'FIND_OR_CREATE_VERSION') as IfExists
  if (!IF_EXISTS.includes(ifExists))
    throw new UsageError(`--if-exists must be one of ${IF_EXISTS.join(', ')}, got ${ifExists}`)
  await using connection = connect(flags, config, io)
  const { order, uses } = orderByDependencies(await schemaFiles(paths, flags, config, connection.groupId, io))
  const versions = new Map<SchemaFile, string>()
  for (const file of order) {
    const linked = (uses.get(file) ?? []).map(({ name, file: target }) => ({
      name,
      groupId: target.groupId,
      artifactId: target.artifactId,
      version: versions.get(target)!,
    }))
    const known = new Set(file.references.map((reference) => reference.name))
    const references = [...file.references, ...linked.filter((reference) => !known.has(reference.name))]
    const registered = await connection.clientFor(file.groupId).registerSchema(file.artifactId, file.text, {
      artifactType: file.artifactType,
      ifExists,
      references,
    })
    if (registered.version === undefined)
      throw new Error(`The registry named no version for ${file.groupId}/${file.artifactId}`)
    versions.set(file, registered.version)
    const via =
      linked.length === 0 ? '' : `, referencing ${linked.map((reference) => reference.name).join(', ')}`
    io.stdout(
      `${file.path} → ${file.groupId}/${file.artifactId} version ${registered.version} (globalId ${registered.globalId}, contentId ${registered.contentId}${via})\n`,
    )
  }
}
