import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { Io } from './io.js'
import { UsageError } from './usage-error.js'

/** An artifact to pull: its group (default: the config's or the connection's), id and version expression. */
export interface ArtifactEntry {
  groupId?: string
  artifactId: string
  /** A version or `branch=latest`. @default the latest version */
  version?: string
}

/** A reference a local schema file declares, as Apicurio stores it. */
export interface ReferenceEntry {
  name: string
  groupId?: string
  artifactId: string
  version: string
}

/** How `register` and `check` map a local file to an artifact. */
export interface FileEntry {
  artifactId?: string
  groupId?: string
  type?: string
  references?: ReferenceEntry[]
}

/**
 * `x-serde.config.json`: what `pull` downloads and where, and how `register`/`check` map files to artifacts.
 *
 * ```json
 * { "group": "default", "outDir": "schemas", "artifacts": [{ "artifactId": "orders-value" }],
 *   "files": { "schemas/order.avsc": { "artifactId": "orders-value", "references": [] } } }
 * ```
 */
export interface Config {
  registry?: string
  group?: string
  /** @default `schemas` */
  outDir?: string
  /** @default `x-serde.lock.json` */
  lockfile?: string
  artifacts?: ArtifactEntry[]
  files?: Record<string, FileEntry>
}

/** The config file (`--config`, else `x-serde.config.json` when it exists), or an empty one. */
export async function loadConfig(io: Io, path: string | undefined): Promise<Config> {
  const file = resolve(io.cwd, path ?? 'x-serde.config.json')
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if (path === undefined && (error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw new UsageError(`Cannot read the config ${file}: ${(error as Error).message}`)
  }
  let config: unknown
  try {
    config = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`The config ${file} is not JSON: ${(error as Error).message}`)
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    throw new UsageError(`The config ${file} must be a JSON object`)
  }
  const artifacts = (config as Config).artifacts
  if (
    artifacts !== undefined &&
    (!Array.isArray(artifacts) || artifacts.some((a) => typeof a?.artifactId !== 'string'))
  ) {
    throw new UsageError(
      `The config ${file}: "artifacts" must be a list of { "artifactId", "groupId"?, "version"? }`,
    )
  }
  return config as Config
}
