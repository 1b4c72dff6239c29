import { existsSync, readFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * `@platformatic/kafka`'s own `ConfluentSchemaRegistry`, the registry support a Platformatic user gets without us.
 * 2.x needs Node 22 or newer (the optional dependency `@platformatic/kafka` 2.12.1, which pnpm installs on Node 22+);
 * on Node 20 the bench uses 1.35 (the optional alias `platformatic-kafka-1`), whose registry has the same
 * serializers and works against the in-process stub (it ignores schema responses without `schemaType`, which the stub
 * always sends; Apicurio's ccompat API does not, so the end-to-end bench runs 2.x only).
 */
export const PLATFORMATIC_2 = '@platformatic/kafka'
export const PLATFORMATIC_1 = 'platformatic-kafka-1'

/** A message as Platformatic's registries see it (the parts the bench sets). */
export interface PlatformaticMessage {
  topic: string
  partition?: number
  key?: unknown
  value?: unknown
  headers?: Map<unknown, unknown>
  metadata?: Record<string, unknown>
}

type Callback = (error?: Error | null) => void

/** The `SchemaRegistry` interface Platformatic's producer and consumer drive (ours implements it too). */
export interface PlatformaticRegistry {
  getSerializers(): {
    value(data?: unknown, headers?: Map<unknown, unknown>, message?: PlatformaticMessage): Buffer | undefined
  }
  getDeserializers(): {
    value(data?: Buffer, headers?: Map<unknown, unknown>, message?: PlatformaticMessage): unknown
  }
  getBeforeSerializationHook(): (
    payload: unknown,
    type: string,
    message: PlatformaticMessage,
    callback: Callback,
  ) => void | Promise<void>
  getBeforeDeserializationHook(): (
    payload: Buffer | null,
    type: string,
    message: PlatformaticMessage,
    callback: Callback,
  ) => void | Promise<void>
}

/** The options of its `ConfluentSchemaRegistry` the bench uses. */
export interface ConfluentRegistryOptions {
  url: string
  /** Validate JSON before writing it (off by default; the bench turns it on, as ours and kafkajs-SR validate). */
  jsonValidateSend?: boolean
  /** The Protobuf type of a message (by default `<topic>-<key|value>`, Confluent's subject, not a type name). */
  protobufTypeMapper?: (id: number, type: string, message: unknown) => string
}

/** The part of the package the benches use. */
export interface PlatformaticModule {
  ConfluentSchemaRegistry: new (options: ConfluentRegistryOptions) => PlatformaticRegistry
  Producer: new (options: Record<string, unknown>) => PlatformaticProducer
  Consumer: new (options: Record<string, unknown>) => PlatformaticConsumer
  Admin: new (
    options: Record<string, unknown>,
  ) => {
    createTopics(options: { topics: string[]; partitions: number; replicas: number }): Promise<unknown>
    close(): Promise<void>
  }
  MessagesStreamModes: { EARLIEST: string }
}

export interface PlatformaticProducer {
  send(request: { messages: PlatformaticMessage[] }): Promise<unknown>
  close(): Promise<void>
}

export interface PlatformaticStream extends AsyncIterable<PlatformaticMessage & { value: unknown }> {
  close(): Promise<void>
}

export interface PlatformaticConsumer {
  consume(options: Record<string, unknown>): Promise<PlatformaticStream>
  close(force?: boolean): Promise<void>
}

function nodeMajor(): number {
  return Number(process.versions.node.split('.')[0])
}

/** The installed version of `name` (read from its package.json file: the package's exports leave it out). */
function installed(name: string): string | undefined {
  let dir: string
  try {
    dir = dirname(fileURLToPath(import.meta.resolve(name)))
  } catch {
    return undefined
  }
  for (; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package.json')
    if (!existsSync(file)) continue
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
    if (pkg.name === '@platformatic/kafka') return pkg.version
  }
  return undefined
}

/** Whether `dependency` is installed beside package `name` (pnpm's layout: siblings in one `node_modules`). */
function dependencyInstalled(name: string, dependency: string): boolean {
  let dir: string
  try {
    dir = dirname(fileURLToPath(import.meta.resolve(name)))
  } catch {
    return false
  }
  for (; dir !== dirname(dir); dir = dirname(dir)) {
    if (basename(dir) === 'node_modules') return existsSync(join(dir, dependency, 'package.json'))
  }
  return false
}

/** The package this Node runs (2.x on Node 22+, else 1.35), or why none can. */
export function platformaticPackage(): { name: string; version: string } | { reason: string } {
  if (nodeMajor() >= 22) {
    const version = installed(PLATFORMATIC_2)
    if (version !== undefined) return { name: PLATFORMATIC_2, version }
  }
  const version = installed(PLATFORMATIC_1)
  if (version !== undefined) {
    // 1.35 needs @platformatic/dynamic-buffer, whose every version declares Node >= 22.19: pnpm installs it only when
    // the install ran on such a Node (it works on Node 20), so an install made on Node 20 leaves 1.35 unloadable.
    if (!dependencyInstalled(PLATFORMATIC_1, '@platformatic/dynamic-buffer')) {
      return {
        reason: `@platformatic/kafka ${version} cannot load: its dependency @platformatic/dynamic-buffer (engines: Node >= 22.19) was left out by \`pnpm install\` on Node ${nodeMajor()}; install on Node 22+ once (\`pnpm bench:node24\` does) to bench it here`,
      }
    }
    return { name: PLATFORMATIC_1, version }
  }
  return {
    reason: `@platformatic/kafka is not installed: run \`pnpm install\` on Node ${nodeMajor()} first (its optional dependencies)`,
  }
}

/** Why the Platformatic cases cannot run here, or `undefined` when they can. */
export function platformaticUnavailable(): string | undefined {
  const found = platformaticPackage()
  return 'reason' in found ? found.reason : undefined
}

/**
 * Why Platformatic's JSON Schema cases cannot run here: 1.35's `ConfluentSchemaRegistry` compiles every JSON schema
 * with Ajv's 2020-12 dialect only, which refuses the bench schema's draft-07 `$schema` (2.x picks the dialect).
 */
export function platformaticJsonUnavailable(): string | undefined {
  const found = platformaticPackage()
  if ('reason' in found) return found.reason
  if (found.version.startsWith('1.'))
    return `@platformatic/kafka ${found.version}'s ConfluentSchemaRegistry compiles JSON schemas as draft 2020-12 only and refuses the bench's draft-07 schema (2.x, on Node 22+, reads it)`
  return undefined
}

/** Its version (`2.12.1`, or `1.35.0` on Node 20), or `undefined` when it cannot run here. */
export function platformaticVersion(): string | undefined {
  const found = platformaticPackage()
  return 'reason' in found ? undefined : found.version
}

/** The package loaded (2.x on Node 22+, else 1.35). */
export async function loadPlatformatic(): Promise<PlatformaticModule> {
  const found = platformaticPackage()
  if ('reason' in found) throw new Error(found.reason)
  return (await import(found.name)) as PlatformaticModule
}

/** Runs a registry's before-serialization hook for one payload, as the producer does before its serializers. */
export function runSerializationHook(
  registry: PlatformaticRegistry,
  payload: unknown,
  message: PlatformaticMessage,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const returned = registry.getBeforeSerializationHook()(payload, 'value', message, (error) =>
      error ? reject(error) : resolve(),
    )
    if (returned instanceof Promise) returned.catch(reject)
  })
}

/** Runs a registry's before-deserialization hook for one payload, as the consumer does before its deserializers. */
export function runDeserializationHook(
  registry: PlatformaticRegistry,
  payload: Buffer,
  message: PlatformaticMessage,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const returned = registry.getBeforeDeserializationHook()(payload, 'value', message, (error) =>
      error ? reject(error) : resolve(),
    )
    if (returned instanceof Promise) returned.catch(reject)
  })
}
