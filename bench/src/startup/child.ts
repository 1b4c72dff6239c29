import { createRequire } from 'node:module'

/**
 * One whole process for the start-up row: import a library, fetch one schema from a registry, decode one Avro
 * message, exit. Imports nothing of the bench at the top so that the process pays only for the library measured.
 *
 * `node child.js <library> <registry url> <group id> <frame hex> <topic>`; prints one JSON line (`StartupSample`).
 * `library` is `ours`, `ours:no-telemetry` (`telemetry: false`: no `@opentelemetry/api` looked for), `kafkajs`,
 * `confluent` (the whole job), or `import:ours`, `import:kafkajs`, `import:avsc`
 * (the import alone).
 */

/** What one child reports. */
export interface StartupSample {
  /** user + system CPU of the whole process, from `process.resourceUsage()` just before exit, ms. */
  cpuMs: number
  /** Peak resident set size of the process, KiB. */
  maxRssKb: number
  /** Wall time of the import (or require) alone, ms. */
  importMs: number
  /** CPU time (user + system) of the process during the import alone, ms: steadier than wall time on a busy machine. */
  importCpuMs: number
  /** The decoded message's `id` field (checked by the parent), or undefined for an import alone. */
  id: string | undefined
}

type Decoded = { id?: unknown }

const [library = '', url = '', groupId = '', frameHex = '', topic = ''] = process.argv.slice(2)
const require = createRequire(import.meta.url)
const frame = Buffer.from(frameHex, 'hex')

const cpuAtStart = process.cpuUsage()
/** CPU of the process since `cpuAtStart`, ms. */
function cpuSinceStart(): number {
  const used = process.cpuUsage(cpuAtStart)
  return (used.user + used.system) / 1000
}

async function run(): Promise<{ importMs: number; importCpuMs: number; id: string | undefined }> {
  const started = performance.now()
  switch (library) {
    case 'import:ours': {
      await import('@x/serde')
      return { importMs: performance.now() - started, importCpuMs: cpuSinceStart(), id: undefined }
    }
    case 'import:kafkajs': {
      require('@kafkajs/confluent-schema-registry')
      return { importMs: performance.now() - started, importCpuMs: cpuSinceStart(), id: undefined }
    }
    case 'import:avsc': {
      await import('avsc')
      return { importMs: performance.now() - started, importCpuMs: cpuSinceStart(), id: undefined }
    }
    case 'ours':
    case 'ours:no-telemetry': {
      const serde = await import('@x/serde')
      const importMs = performance.now() - started
      const importCpuMs = cpuSinceStart()
      const client = new serde.RegistryClient({
        url,
        groupId,
        ...(library === 'ours' ? {} : { telemetry: false }),
      })
      try {
        const deserializer = new serde.AvroDeserializer(client)
        const ctx = new serde.SerializationContext(topic, serde.MessageField.VALUE)
        const value = (await deserializer.deserialize(frame, ctx)) as Decoded
        return { importMs, importCpuMs, id: String(value.id) }
      } finally {
        await client.close()
      }
    }
    case 'kafkajs': {
      const { SchemaRegistry } =
        require('@kafkajs/confluent-schema-registry') as typeof import('@kafkajs/confluent-schema-registry')
      const importMs = performance.now() - started
      const importCpuMs = cpuSinceStart()
      const value = (await new SchemaRegistry({ host: url }).decode(frame)) as Decoded
      return { importMs, importCpuMs, id: String(value.id) }
    }
    case 'confluent': {
      const confluent =
        require('@confluentinc/schemaregistry') as typeof import('@confluentinc/schemaregistry')
      const importMs = performance.now() - started
      const importCpuMs = cpuSinceStart()
      const client = new confluent.SchemaRegistryClient({ baseURLs: [url] })
      const deserializer = new confluent.AvroDeserializer(client, confluent.SerdeType.VALUE, {})
      const value = (await deserializer.deserialize(topic, frame)) as Decoded
      client.close()
      return { importMs, importCpuMs, id: String(value.id) }
    }
    default:
      throw new TypeError(`Unknown library '${library}'`)
  }
}

const { importMs, importCpuMs, id } = await run()
const usage = process.resourceUsage()
const sample: StartupSample = {
  cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
  maxRssKb: usage.maxRSS,
  importMs,
  importCpuMs,
  id,
}
process.stdout.write(`${JSON.stringify(sample)}\n`)
// Exit now, as a short-lived tool would: an open handle a library left behind must not keep the process alive.
process.exit(0)
