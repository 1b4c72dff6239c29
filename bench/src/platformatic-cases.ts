import { AvroSerializer } from '@x/avro-serde'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ApicurioSchemaRegistry } from '@x/kafka'
import { RegistryClient } from '@x/registry-client'
import { MessageField, SerializationContext } from '@x/wire-format'
import type { BenchEnv, CaseDef, Group, PreparedCase } from './cases.js'
import { EVENT_ARTIFACT, EVENT_RECORD, GROUP_ID } from './fixtures.js'
import { JSON_TOPIC, jsonFrame, PEER_TOPIC } from './peer-cases.js'
import { JSON_ARTIFACT } from './peer-fixtures.js'
import {
  loadPlatformatic,
  type PlatformaticMessage,
  type PlatformaticRegistry,
  platformaticJsonUnavailable,
  platformaticUnavailable,
  platformaticVersion,
  runDeserializationHook,
  runSerializationHook,
} from './peers/platformatic.js'

// Inside @platformatic/kafka, a registry's work per message is its synchronous serializer (after its asynchronous
// before-hook has looked the schema up once) and its synchronous deserializer. These cases time exactly that for our
// ApicurioSchemaRegistry (@x/kafka) and for Platformatic's own ConfluentSchemaRegistry (talking to the in-process
// Confluent stub), on the same records, warm: both write the same frame and read it back equal (peer-checks.ts).
// Platformatic's Protobuf is left out: it writes `00 <id> <message>` without Confluent's message indexes, a frame
// neither Confluent's nor Apicurio's readers take, so it cannot pass the equality check.

const EVENT_FRAME_LENGTH = 137

const version = platformaticVersion() ?? '(not installed)'

/** What one job is: Avro or JSON Schema, the case names' infix, the ceilings, the topic and the id. */
interface Job {
  infix: '' | '.json'
  topic: string
  encode: { group: Group; ceiling: string }
  decode: { group: Group; ceiling: string }
  id(env: BenchEnv): number
  frame(env: BenchEnv): Promise<Buffer> | Buffer
  frameLength(): number
  ours(client: RegistryClient): ApicurioSchemaRegistry
  /** Why Platformatic's registry cannot do this job here, or `undefined`. */
  unavailable(): string | undefined
}

async function avroFrame(env: BenchEnv): Promise<Buffer> {
  const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
  try {
    const ctx = new SerializationContext(PEER_TOPIC, MessageField.VALUE)
    return Buffer.from(await new AvroSerializer(client, EVENT_ARTIFACT).serialize(EVENT_RECORD, ctx))
  } finally {
    await client.close()
  }
}

const AVRO: Job = {
  infix: '',
  topic: PEER_TOPIC,
  encode: { group: 'encode', ceiling: 'avsc.encode-prealloc-copy' },
  decode: { group: 'decode', ceiling: 'avsc.decode-framed' },
  id: (env) => env.eventId,
  frame: avroFrame,
  frameLength: () => EVENT_FRAME_LENGTH,
  ours: (client) =>
    new ApicurioSchemaRegistry(client, { serializer: new AvroSerializer(client, EVENT_ARTIFACT) }),
  unavailable: platformaticUnavailable,
}

const JSON_JOB: Job = {
  infix: '.json',
  topic: JSON_TOPIC,
  encode: { group: 'json-encode', ceiling: 'json.stringify-validate-frame' },
  decode: { group: 'json-decode', ceiling: 'json.parse-frame' },
  id: (env) => env.jsonId,
  frame: (env) => jsonFrame(env.jsonId),
  frameLength: () => 5 + Buffer.byteLength(JSON.stringify(EVENT_RECORD)),
  // Platformatic validates JSON when it reads it: ours is set to validate too.
  ours: (client) =>
    new ApicurioSchemaRegistry(client, {
      serializer: new JsonSchemaSerializer(client, JSON_ARTIFACT),
      anyDeserializer: { validate: true },
    }),
  unavailable: platformaticJsonUnavailable,
}

/** Platformatic's ConfluentSchemaRegistry on the stub, JSON validated before it is written (as ours does). */
export async function platformaticRegistry(env: BenchEnv): Promise<PlatformaticRegistry> {
  const { ConfluentSchemaRegistry } = await loadPlatformatic()
  return new ConfluentSchemaRegistry({ url: env.confluentUrl, jsonValidateSend: true })
}

/** A message to produce, with the schema id where Platformatic's registry reads it (`metadata.schemas.value`). */
function toProduce(job: Job, env: BenchEnv): PlatformaticMessage {
  return {
    topic: job.topic,
    value: EVENT_RECORD,
    headers: new Map(),
    metadata: { schemas: { value: job.id(env) } },
  }
}

async function encodeBody(
  job: Job,
  registry: PlatformaticRegistry,
  env: BenchEnv,
): Promise<PreparedCase['body']> {
  const message = toProduce(job, env)
  await runSerializationHook(registry, EVENT_RECORD, message)
  const serialize = registry.getSerializers().value
  const headers = message.headers
  return { kind: 'sync', body: () => serialize(EVENT_RECORD, headers, message)!.length }
}

async function decodeBody(
  job: Job,
  registry: PlatformaticRegistry,
  env: BenchEnv,
): Promise<PreparedCase['body']> {
  const frame = await job.frame(env)
  const headers = new Map()
  await runDeserializationHook(registry, frame, { topic: job.topic, partition: 0, headers })
  const deserialize = registry.getDeserializers().value
  const topic = job.topic
  // The consumer makes a message object per record, on which both registries note the schema id: one per call here.
  return {
    kind: 'sync',
    body: () => (deserialize(frame, headers, { topic, partition: 0 }) as { seq: number }).seq,
  }
}

function cases(job: Job): CaseDef[] {
  const what = job.infix === '' ? '' : ' (JSON, validates)'
  const oursCase = (direction: 'serialize' | 'deserialize'): CaseDef => ({
    name: `ours.platformatic${job.infix}.${direction}`,
    group: direction === 'serialize' ? job.encode.group : job.decode.group,
    label: `@x/kafka \`ApicurioSchemaRegistry\` ${direction === 'serialize' ? 'value serializer after its hook' : 'value deserializer after its hook'}${what}`,
    ceiling: direction === 'serialize' ? job.encode.ceiling : job.decode.ceiling,
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
      const registry = job.ours(client) as unknown as PlatformaticRegistry
      return {
        expect: direction === 'serialize' ? job.frameLength() : EVENT_RECORD.seq,
        body:
          direction === 'serialize'
            ? await encodeBody(job, registry, env)
            : await decodeBody(job, registry, env),
        close: () => client.close(),
      }
    },
  })
  const peerCase = (direction: 'serialize' | 'deserialize'): CaseDef => ({
    name: `platformatic${job.infix}.${direction}`,
    group: direction === 'serialize' ? job.encode.group : job.decode.group,
    label: `@platformatic/kafka ${version} \`ConfluentSchemaRegistry\` ${direction === 'serialize' ? 'value serializer after its hook' : 'value deserializer after its hook'}${what}`,
    ceiling: direction === 'serialize' ? job.encode.ceiling : job.decode.ceiling,
    peerOf: `ours.platformatic${job.infix}.${direction}`,
    usesRegistry: true,
    unavailable: job.unavailable,
    async prepare(env): Promise<PreparedCase> {
      const registry = await platformaticRegistry(env)
      return {
        expect: direction === 'serialize' ? job.frameLength() : EVENT_RECORD.seq,
        body:
          direction === 'serialize'
            ? await encodeBody(job, registry, env)
            : await decodeBody(job, registry, env),
      }
    },
  })
  return [oursCase('serialize'), peerCase('serialize'), oursCase('deserialize'), peerCase('deserialize')]
}

export const PLATFORMATIC_CASES: readonly CaseDef[] = [...cases(AVRO), ...cases(JSON_JOB)]
