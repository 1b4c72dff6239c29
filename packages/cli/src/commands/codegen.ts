import { readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { dirname, relative, resolve } from 'node:path'
import { MissingImportError, type ProtoImportFile } from '@x/protobuf-serde'
import { avroToTypeScript } from '../codegen/avro-types.js'
import { jsonSchemaToTypeScript } from '../codegen/json-schema-types.js'
import { protobufToTypeScript } from '../codegen/protobuf-types.js'
import type { Config } from '../config.js'
import { artifactTypeOfFile, type ConnectionFlags, connect } from '../connection.js'
import { type Io, readText } from '../io.js'
import { referenceTexts } from '../reference-texts.js'
import { UsageError } from '../usage-error.js'
import { endsWithPath, protoImports } from './file-references.js'

export interface CodegenFlags extends ConnectionFlags {
  artifact?: string
  version?: string
  type?: string
  out?: string
  longs?: string
  unions?: string
  enums?: string
  defaults?: boolean
  protoPath?: string[]
}

/**
 * `x-serde codegen [FILE…]`: TypeScript types from local schema files, or from an artifact (`--artifact`), that match
 * what this library's deserializer returns under the chosen options. Writes to `--out`, else standard output.
 */
export async function codegen(
  paths: readonly string[],
  flags: CodegenFlags,
  config: Config,
  io: Io,
): Promise<void> {
  const longs = choice('--longs', flags.longs ?? 'auto', ['auto', 'number', 'bigint'] as const)
  const unions = choice('--unions', flags.unions ?? 'auto', ['auto', 'wrapped'] as const)
  const enums = choice('--enums', flags.enums ?? 'name', ['name', 'number'] as const)
  const sources: { text: string; type: 'AVRO' | 'JSON' | 'PROTOBUF'; source: string; path?: string }[] = []
  // `.proto` imports by import path: the artifact's references (fetched below), then the files given, then
  // `--proto-path` folders (read when asked).
  const imported = new Map<string, string>()
  if (flags.artifact !== undefined) {
    await using connection = connect(flags, config, io)
    const version = flags.version ?? 'branch=latest'
    const path = `/groups/${encodeURIComponent(connection.groupId)}/artifacts/${encodeURIComponent(flags.artifact)}/versions/${version.startsWith('branch=') ? version : encodeURIComponent(version)}`
    const meta = await connection.rest('GET', path)
    if (meta.status !== 200)
      throw new UsageError(
        `No artifact ${connection.groupId}/${flags.artifact} version ${version} (HTTP ${meta.status})`,
      )
    const facts = JSON.parse(meta.text) as { artifactType: string; globalId: number; version: string }
    const schema = await connection.client.getSchemaByGlobalId(facts.globalId)
    if (facts.artifactType === 'PROTOBUF') {
      for (const [name, text] of await referenceTexts(connection, facts.globalId)) imported.set(name, text)
    }
    sources.push({
      text: schema.schema,
      type: artifactTypeOfFile('', flags.type ?? facts.artifactType),
      source: `${connection.groupId}/${flags.artifact} version ${facts.version}`,
    })
  }
  for (const path of paths) {
    let text: string
    try {
      text = await readText(io, path)
    } catch (error) {
      throw new UsageError(`Cannot read ${path}: ${(error as Error).message}`)
    }
    sources.push({ text, type: artifactTypeOfFile(path, flags.type), source: path, path })
  }
  const protoFiles = sources.filter((source) => source.type === 'PROTOBUF' && source.path !== undefined)
  // As protoc: an import is looked for beside the importing file, then in each --proto-path folder (after the
  // artifact's references and the files given). A file's name is its absolute path; a reference's, its import path.
  const protoPaths = (flags.protoPath ?? []).map((dir) => resolve(io.cwd, dir))
  const importOf = (importPath: string, importer: string): ProtoImportFile | undefined => {
    const known = imported.get(importPath)
    if (known !== undefined) return { name: importPath, text: known }
    const given = protoFiles.find((file) => endsWithPath(file.path!, importPath))
    if (given !== undefined) return { name: resolve(io.cwd, given.path!), text: given.text }
    const importerFile = protoFiles.find((file) => file.path === importer)
    const beside =
      importerFile !== undefined ? dirname(resolve(io.cwd, importerFile.path!)) : fileDir(importer)
    for (const dir of beside === undefined ? protoPaths : [beside, ...protoPaths]) {
      const file = resolve(dir, importPath)
      try {
        return { name: file, text: readFileSync(file, 'utf8') }
      } catch {
        // Not in this folder.
      }
    }
    return undefined
  }
  /** The folder of an imported file read from disk (its name is an absolute path), else `undefined`. */
  const fileDir = (name: string): string | undefined => (name.startsWith('/') ? dirname(name) : undefined)
  // A given .proto that another given .proto imports is declared with its importer, not twice.
  const importedByOthers = new Set(
    protoFiles.flatMap((file) =>
      protoFiles.filter(
        (other) => other !== file && protoImports(file.text).some((path) => endsWithPath(other.path!, path)),
      ),
    ),
  )
  if (sources.length === 0) throw new UsageError('Give schema files or --artifact')
  const parts: string[] = []
  for (const entry of sources) {
    const { text, type, source } = entry
    if (type === 'PROTOBUF') {
      if (importedByOthers.has(entry)) continue
      try {
        parts.push(
          protobufToTypeScript(
            text,
            { longs, enums, defaults: flags.defaults ?? true, imports: importOf },
            source,
          ),
        )
      } catch (error) {
        if (!(error instanceof MissingImportError)) throw error
        throw new UsageError(missingImportsMessage(error, protoPaths, io.cwd))
      }
      continue
    }
    let schema: unknown
    try {
      schema = JSON.parse(text)
    } catch (error) {
      throw new UsageError(`${source} is not JSON: ${(error as Error).message}`)
    }
    parts.push(
      type === 'AVRO'
        ? avroToTypeScript(schema, { longs, unions }, source)
        : await jsonSchemaToTypeScript(schema as object, source),
    )
  }
  const output = parts.join('\n')
  if (flags.out === undefined) {
    io.stdout(output)
    return
  }
  await writeFile(resolve(io.cwd, flags.out), output)
  io.stderr(`wrote ${flags.out}\n`)
}

/** Which imports were not found, by which file, and where they were looked for. */
function missingImportsMessage(
  error: MissingImportError,
  protoPaths: readonly string[],
  cwd: string,
): string {
  const lines = error.imports.map((path, i) => {
    const importer = error.importers[i]!
    const shown = importer.startsWith('/') ? relativeTo(cwd, importer) : importer
    return `${shown} imports '${path}', which is found neither beside it${
      protoPaths.length === 0
        ? ''
        : ` nor in --proto-path ${protoPaths.map((dir) => relativeTo(cwd, dir)).join(', ')}`
    }`
  })
  return `Cannot find a .proto import: ${lines.join('; ')} (give the file, or its folder with --proto-path)`
}

function relativeTo(cwd: string, path: string): string {
  const shown = relative(cwd, path)
  return shown === '' ? '.' : shown.startsWith('..') ? path : shown
}

function choice<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${flag} must be one of ${allowed.join(', ')}, got ${value}`)
  return value as T
}
