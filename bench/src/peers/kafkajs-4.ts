import { createRequire } from 'node:module'

/**
 * `@kafkajs/confluent-schema-registry` 4.x, the newest line, beside 3.9.0. It needs Node 22 or newer, so the bench
 * installs it as the optional dependency `kafkajs-schema-registry-4` (an npm alias): pnpm skips it when it installs
 * on Node 20 and adds it when it installs on 22+ (`pnpm bench:node22` does both). Its cases run only where it loads.
 */
export const KAFKAJS4_PACKAGE = 'kafkajs-schema-registry-4'

/** The part of its API the bench uses: the same `encode(id, value)` / `decode(buffer)` as 3.9.0. */
export interface KafkajsRegistry {
  encode(id: number, value: unknown): Promise<Buffer>
  decode(buffer: Buffer): Promise<unknown>
}

const require = createRequire(import.meta.url)

/** Why the 4.x cases cannot run here, or `undefined` when they can. */
export function kafkajs4Unavailable(): string | undefined {
  const major = Number(process.versions.node.split('.')[0])
  if (major < 22)
    return `@kafkajs/confluent-schema-registry 4.x needs Node 22 or newer (this is ${process.version})`
  try {
    require.resolve(`${KAFKAJS4_PACKAGE}/package.json`)
    return undefined
  } catch {
    return `@kafkajs/confluent-schema-registry 4.x is not installed: run \`pnpm install\` on Node ${major} first (pnpm bench:node${major} does)`
  }
}

/** Its version, or `undefined` when it cannot run here. */
export function kafkajs4Version(): string | undefined {
  if (kafkajs4Unavailable() !== undefined) return undefined
  return (require(`${KAFKAJS4_PACKAGE}/package.json`) as { version: string }).version
}

/** A 4.x client of the Confluent stub at `host`. */
export async function kafkajs4Registry(host: string): Promise<KafkajsRegistry> {
  const reason = kafkajs4Unavailable()
  if (reason !== undefined) throw new Error(reason)
  const module = (await import(KAFKAJS4_PACKAGE)) as {
    SchemaRegistry?: new (args: { host: string }) => KafkajsRegistry
    default?: { SchemaRegistry: new (args: { host: string }) => KafkajsRegistry }
  }
  const SchemaRegistry = module.SchemaRegistry ?? module.default?.SchemaRegistry
  if (SchemaRegistry === undefined) throw new Error(`${KAFKAJS4_PACKAGE} exports no SchemaRegistry`)
  return new SchemaRegistry({ host })
}
