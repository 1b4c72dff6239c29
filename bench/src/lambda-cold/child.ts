import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * One cold Lambda invocation for the cold-invocation row: a fresh process imports a Kafka event handler, is handed
 * one MSK event, decodes its records, exits. Imports nothing of the bench at the top so that the process pays only
 * for the library measured.
 *
 * `node child.js <library> <registry url> <group id> <event file> <extra file>`; prints one JSON line
 * (`LambdaColdSample`). `library`: `ours` (`@x/lambda`'s `kafkaConsumer`, schemas from the registry), `ours:snapshot`
 * (the same, from a schema snapshot, `offline`; the extra file), `powertools` (`@aws-lambda-powertools/kafka`'s
 * `kafkaConsumer`, the Avro schema inline: the extra file; bare Avro values), `kafkajs`
 * (`@kafkajs/confluent-schema-registry`'s `decode` of each record's value, in a handler of its own).
 */

/** What one child reports. */
export interface LambdaColdSample {
  /** user + system CPU of the whole process, ms. */
  cpuMs: number
  /** From the process's start to the handler's answer, ms. */
  wallMs: number
  /** Peak resident set size of the process, KiB. */
  maxRssKb: number
  /** Registry requests of the handler (-1 here: the parent counts them at the registry or the stub). */
  requests: number
  /** How many records the handler decoded, and the first one's `id` (checked by the parent). */
  decoded: number
  firstId: string
}

interface EventShape {
  records: Record<string, { value: string }[]>
}
type Handler = (event: EventShape, context: unknown) => Promise<{ decoded: number; firstId: string }>

const [library = '', url = '', groupId = '', eventFile = '', extraFile = ''] = process.argv.slice(2)
const require = createRequire(import.meta.url)
const event = JSON.parse(readFileSync(eventFile, 'utf8')) as EventShape
let requests = 0

function answer(values: unknown[]): { decoded: number; firstId: string } {
  return { decoded: values.length, firstId: String((values[0] as { id?: unknown }).id) }
}

async function handlerOf(): Promise<Handler> {
  switch (library) {
    case 'ours':
    case 'ours:snapshot': {
      const { kafkaConsumer } = await import('@x/lambda')
      const { RegistryClient, readSnapshot } = await import('@x/registry-client')
      // As a user writes it: the registry counts the requests (a counting `fetch` here would make the client send
      // through Node's fetch, which a cold decode does not load otherwise).
      const client = new RegistryClient({
        url,
        groupId,
        ...(library === 'ours:snapshot' ? { snapshot: await readSnapshot(extraFile), offline: true } : {}),
      })
      requests = -1
      return kafkaConsumer((decoded) => answer(decoded.records.map((record) => record.value)), {
        client,
      }) as unknown as Handler
    }
    case 'powertools': {
      const { kafkaConsumer } = await import('@aws-lambda-powertools/kafka')
      const schema = readFileSync(extraFile, 'utf8')
      const wrap = kafkaConsumer as unknown as (
        handler: (decoded: { records: { value: unknown }[] }) => Promise<unknown>,
        config: unknown,
      ) => Handler
      return wrap(async (decoded) => answer(decoded.records.map((record) => record.value)), {
        value: { type: 'avro', schema },
      })
    }
    case 'kafkajs': {
      const { SchemaRegistry } =
        require('@kafkajs/confluent-schema-registry') as typeof import('@kafkajs/confluent-schema-registry')
      const registry = new SchemaRegistry({ host: url })
      requests = -1
      return async (given) => {
        const values: unknown[] = []
        for (const records of Object.values(given.records)) {
          for (const record of records)
            values.push(await registry.decode(Buffer.from(record.value, 'base64')))
        }
        return answer(values)
      }
    }
    default:
      throw new TypeError(`Unknown library '${library}'`)
  }
}

const handler = await handlerOf()
const { decoded, firstId } = await handler(event, {})
const wallMs = performance.now()
const usage = process.resourceUsage()
const sample: LambdaColdSample = {
  cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
  wallMs,
  maxRssKb: usage.maxRSS,
  requests,
  decoded,
  firstId,
}
process.stdout.write(`${JSON.stringify(sample)}\n`)
process.exit(0)
