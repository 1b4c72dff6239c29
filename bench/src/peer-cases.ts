import * as confluent from '@confluentinc/schemaregistry'
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry'
import { AvroSerializer } from '@x/avro-serde'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { MessageField, SerializationContext } from '@x/wire-format'
import { Ajv } from 'ajv'
import { schemaByHand } from './by-hand.js'
import type { BenchEnv, CaseDef, Group, PreparedCase } from './cases.js'
import { EVENT_ARTIFACT, EVENT_RECORD, GROUP_ID } from './fixtures.js'
import { EVENT_PROTO, JSON_ARTIFACT, PROTO_ARTIFACT, protoEventType } from './peer-fixtures.js'
import { type BufbuildSchema, bufbuildSchema } from './peers/bufbuild-descriptor.js'
import { type KafkajsRegistry, kafkajs4Registry, kafkajs4Unavailable } from './peers/kafkajs-4.js'
import type { Body } from './timing.js'

// The serdes a user would pick instead (@kafkajs/confluent-schema-registry 3.9.0, and 4.x on Node 22+, and
// @confluentinc/schemaregistry 1.10.1) against ours on the same records, warm, and our JSON Schema and Protobuf serdes against their engines
// done by hand. Each peer talks to the in-process Confluent stub (peers/confluent-registry.ts), which serves every
// schema under the id our registry gave it, so every library writes the same frame (checked before timing).

/** The topic of every bench record: its value subject is `bench-events-value`. */
export const PEER_TOPIC = 'bench-events'
export const JSON_TOPIC = 'bench-json'
const ctx = new SerializationContext(PEER_TOPIC, MessageField.VALUE)
const jsonCtx = new SerializationContext(JSON_TOPIC, MessageField.VALUE)
const protoCtx = new SerializationContext('bench-proto', MessageField.VALUE)

/** A frame of `bench.Event` is 137 bytes; the JSON one is 5 + its text; the Protobuf one 5 + Ref + message. */
const EVENT_FRAME_LENGTH = 137

function asyncBody<R>(call: () => Promise<R>, pick: (result: R) => number): Body {
  return { kind: 'async', body: { call, pick } }
}

function sync(body: () => number): Body {
  return { kind: 'sync', body }
}

async function client(env: BenchEnv): Promise<RegistryClient> {
  return new RegistryClient({ url: env.url, groupId: GROUP_ID })
}

/** Our frame of a record, written once in the worker (the peers' decode cases read it). */
async function ourAvroFrame(env: BenchEnv): Promise<Buffer> {
  const c = await client(env)
  try {
    return Buffer.from(await new AvroSerializer(c, EVENT_ARTIFACT).serialize(EVENT_RECORD, ctx))
  } finally {
    await c.close()
  }
}

/**
 * @confluentinc/schemaregistry as a user sets it up to write a known subject's schema: `useLatestVersion: true`
 * (there is no schema object to hand it, as with Apicurio's artifact id) and `autoRegister: false`.
 */
function confluentClient(env: BenchEnv): confluent.SchemaRegistryClient {
  return new confluent.SchemaRegistryClient({ baseURLs: [env.confluentUrl] })
}

const seqOf = (value: unknown): number => (value as { seq: number }).seq

/** One line of @kafkajs/confluent-schema-registry: 3.9.0 on every Node, 4.x where it runs (Node 22+). */
interface KafkajsLine {
  /** Case-name prefix: `kafkajs` (3.9.0) or `kafkajs4`. */
  prefix: string
  /** How the label names it. */
  title: string
  registry(env: BenchEnv): Promise<KafkajsRegistry>
  unavailable?: () => string | undefined
}

const KAFKAJS_LINES: readonly KafkajsLine[] = [
  {
    prefix: 'kafkajs',
    title: '@kafkajs/confluent-schema-registry',
    registry: async (env) => new SchemaRegistry({ host: env.confluentUrl }),
  },
  {
    prefix: 'kafkajs4',
    title: '@kafkajs/confluent-schema-registry 4.x',
    registry: (env) => kafkajs4Registry(env.confluentUrl),
    unavailable: kafkajs4Unavailable,
  },
]

/** What one kafkajs-SR job is: Avro or JSON Schema, the case names, ceilings and the schema id or frame it uses. */
interface KafkajsJob {
  /** `''` for Avro, `.json` for JSON Schema: the infix of the case names (`kafkajs.json.serialize`). */
  infix: '' | '.json'
  encode: { group: Group; ceiling: string; id: (env: BenchEnv) => number; expect: () => number }
  decode: { group: Group; ceiling: string; frame: (env: BenchEnv) => Promise<Buffer> | Buffer }
}

const AVRO_JOB: KafkajsJob = {
  infix: '',
  encode: {
    group: 'encode',
    ceiling: 'avsc.encode-prealloc-copy',
    id: (env) => env.eventId,
    expect: () => EVENT_FRAME_LENGTH,
  },
  decode: { group: 'decode', ceiling: 'avsc.decode-framed', frame: ourAvroFrame },
}

const JSON_JOB: KafkajsJob = {
  infix: '.json',
  encode: {
    group: 'json-encode',
    ceiling: 'json.stringify-validate-frame',
    id: (env) => env.jsonId,
    expect: jsonFrameLength,
  },
  decode: { group: 'json-decode', ceiling: 'json.parse-frame', frame: (env) => jsonFrame(env.jsonId) },
}

function kafkajsEncode(job: KafkajsJob, line: KafkajsLine): CaseDef {
  return {
    name: `${line.prefix}${job.infix}.serialize`,
    group: job.encode.group,
    label: `${line.title} \`await registry.encode(id, r)\`${job.infix === '' ? '' : ' (JSON, validates)'}`,
    ceiling: job.encode.ceiling,
    peerOf: `ours${job.infix}.serialize`,
    usesRegistry: true,
    unavailable: line.unavailable,
    async prepare(env): Promise<PreparedCase> {
      const registry = await line.registry(env)
      const id = job.encode.id(env)
      return {
        expect: job.encode.expect(),
        body: asyncBody(
          () => registry.encode(id, EVENT_RECORD),
          (bytes) => bytes.length,
        ),
      }
    },
  }
}

function kafkajsDecode(job: KafkajsJob, line: KafkajsLine): CaseDef {
  return {
    name: `${line.prefix}${job.infix}.deserialize`,
    group: job.decode.group,
    label: `${line.title} \`await registry.decode(frame)\`${job.infix === '' ? '' : ' (JSON)'}`,
    ceiling: job.decode.ceiling,
    peerOf: `ours${job.infix}.deserialize`,
    usesRegistry: true,
    unavailable: line.unavailable,
    async prepare(env): Promise<PreparedCase> {
      const registry = await line.registry(env)
      const frame = await job.decode.frame(env)
      return { expect: EVENT_RECORD.seq, body: asyncBody(() => registry.decode(frame), seqOf) }
    },
  }
}

export const PEER_CASES: readonly CaseDef[] = [
  // ---- Avro peers ---------------------------------------------------------------------------------------------
  ...KAFKAJS_LINES.map((line) => kafkajsEncode(AVRO_JOB, line)),
  {
    name: 'confluent.serialize',
    group: 'encode',
    label: '@confluentinc/schemaregistry `await serializer.serialize(topic, r)` (`useLatestVersion`)',
    ceiling: 'avsc.encode-prealloc-copy',
    peerOf: 'ours.serialize',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const serializer = new confluent.AvroSerializer(confluentClient(env), confluent.SerdeType.VALUE, {
        useLatestVersion: true,
        autoRegisterSchemas: false,
      })
      return {
        expect: EVENT_FRAME_LENGTH,
        body: asyncBody(
          () => serializer.serialize(PEER_TOPIC, EVENT_RECORD),
          (bytes) => bytes.length,
        ),
      }
    },
  },
  ...KAFKAJS_LINES.map((line) => kafkajsDecode(AVRO_JOB, line)),
  {
    name: 'confluent.deserialize',
    group: 'decode',
    label: '@confluentinc/schemaregistry `await deserializer.deserialize(topic, frame)`',
    ceiling: 'avsc.decode-framed',
    peerOf: 'ours.deserialize',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const deserializer = new confluent.AvroDeserializer(confluentClient(env), confluent.SerdeType.VALUE, {})
      const frame = await ourAvroFrame(env)
      return {
        expect: EVENT_RECORD.seq,
        body: asyncBody(() => deserializer.deserialize(PEER_TOPIC, frame), seqOf),
      }
    },
  },

  // ---- JSON Schema ----------------------------------------------------------------------------------------------
  {
    name: 'json.stringify-validate-frame',
    group: 'json-encode',
    label: '`validate(r)` (the same compiled ajv) + `JSON.stringify(r)` + frame (**ceiling**)',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const validate = new Ajv({ strict: false }).compile(JSON.parse(await schemaByHand(env, env.jsonId)))
      return {
        expect: jsonFrameLength(),
        body: sync(() => {
          if (!validate(EVENT_RECORD)) throw new TypeError('invalid')
          const text = JSON.stringify(EVENT_RECORD)
          const out = Buffer.allocUnsafe(5 + Buffer.byteLength(text))
          out[0] = 0
          out.writeUInt32BE(env.jsonId, 1)
          out.write(text, 5)
          return out.length
        }),
      }
    },
  },
  {
    name: 'ours.json.serializeSync',
    group: 'json-encode',
    label: '`JsonSchemaSerializer#serializeSync(r, ctx)` (validates)',
    ceiling: 'json.stringify-validate-frame',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const c = await client(env)
      const serializer = new JsonSchemaSerializer(c, JSON_ARTIFACT)
      await serializer.prepare(jsonCtx)
      return {
        expect: jsonFrameLength(),
        body: sync(() => serializer.serializeSync(EVENT_RECORD, jsonCtx).length),
        close: () => c.close(),
      }
    },
  },
  {
    name: 'ours.json.serialize',
    group: 'json-encode',
    label: '`await JsonSchemaSerializer#serialize(r, ctx)` (validates)',
    ceiling: 'json.stringify-validate-frame',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const c = await client(env)
      const serializer = new JsonSchemaSerializer(c, JSON_ARTIFACT)
      await serializer.prepare(jsonCtx)
      return {
        expect: jsonFrameLength(),
        body: asyncBody(
          () => serializer.serialize(EVENT_RECORD, jsonCtx),
          (bytes) => bytes.length,
        ),
        close: () => c.close(),
      }
    },
  },
  ...KAFKAJS_LINES.map((line) => kafkajsEncode(JSON_JOB, line)),
  {
    name: 'confluent.json.serialize',
    group: 'json-encode',
    label: '@confluentinc/schemaregistry `await JsonSerializer#serialize(topic, r)` (validates)',
    ceiling: 'json.stringify-validate-frame',
    peerOf: 'ours.json.serialize',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const serializer = new confluent.JsonSerializer(confluentClient(env), confluent.SerdeType.VALUE, {
        useLatestVersion: true,
        autoRegisterSchemas: false,
        validate: true,
      })
      return {
        expect: jsonFrameLength(),
        body: asyncBody(
          () => serializer.serialize(JSON_TOPIC, EVENT_RECORD),
          (bytes) => bytes.length,
        ),
      }
    },
  },
  {
    name: 'json.parse-frame',
    group: 'json-decode',
    label: '`JSON.parse` of the frame after its header (**ceiling**)',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      // Code by hand looks the message's id up before reading it (the schema is not needed to parse).
      await schemaByHand(env, env.jsonId)
      const frame = jsonFrame(env.jsonId)
      return {
        expect: EVENT_RECORD.seq,
        body: sync(() => {
          if (frame[0] !== 0 || frame.readUInt32BE(1) !== env.jsonId) throw new TypeError('not our frame')
          return (JSON.parse(frame.toString('utf8', 5)) as { seq: number }).seq
        }),
      }
    },
  },
  {
    name: 'ours.json.deserializeSync',
    group: 'json-decode',
    label: '`JsonSchemaDeserializer#deserializeSync(frame, ctx)`',
    ceiling: 'json.parse-frame',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const c = await client(env)
      const deserializer = new JsonSchemaDeserializer(c)
      await deserializer.prepare(env.jsonId)
      const frame = jsonFrame(env.jsonId)
      return {
        expect: EVENT_RECORD.seq,
        body: sync(() => seqOf(deserializer.deserializeSync(frame, jsonCtx))),
        close: () => c.close(),
      }
    },
  },
  {
    name: 'ours.json.deserialize',
    group: 'json-decode',
    label: '`await JsonSchemaDeserializer#deserialize(frame, ctx)`',
    ceiling: 'json.parse-frame',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const c = await client(env)
      const deserializer = new JsonSchemaDeserializer(c)
      await deserializer.prepare(env.jsonId)
      const frame = jsonFrame(env.jsonId)
      return {
        expect: EVENT_RECORD.seq,
        body: asyncBody(() => deserializer.deserialize(frame, jsonCtx), seqOf),
        close: () => c.close(),
      }
    },
  },
  ...KAFKAJS_LINES.map((line) => kafkajsDecode(JSON_JOB, line)),
  {
    name: 'confluent.json.deserialize',
    group: 'json-decode',
    label: '@confluentinc/schemaregistry `await JsonDeserializer#deserialize(topic, frame)`',
    ceiling: 'json.parse-frame',
    peerOf: 'ours.json.deserialize',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const deserializer = new confluent.JsonDeserializer(confluentClient(env), confluent.SerdeType.VALUE, {})
      const frame = jsonFrame(env.jsonId)
      return {
        expect: EVENT_RECORD.seq,
        body: asyncBody(() => deserializer.deserialize(JSON_TOPIC, frame), seqOf),
      }
    },
  },

  // ---- Protobuf ------------------------------------------------------------------------------------------------
  {
    name: 'protobufjs.encode-framed',
    group: 'proto-encode',
    label: 'protobufjs `Type.encode(Type.fromObject(r))` after the same header and `Ref` (**ceiling**)',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const type = protoEventType(await schemaByHand(env, env.protoId))
      const header = protoHeader(env.protoId)
      return {
        expect: protoFrameLength(env.protoId),
        body: sync(() => {
          const writer = type.encode(type.fromObject(EVENT_RECORD))
          const body = writer.finish()
          const out = Buffer.allocUnsafe(header.length + body.length)
          header.copy(out, 0)
          out.set(body, header.length)
          return out.length
        }),
      }
    },
  },
  {
    name: 'ours.proto.serializeSync',
    group: 'proto-encode',
    label: '`ProtobufSerializer#serializeSync(r, ctx)` (Apicurio `Ref` framing)',
    ceiling: 'protobufjs.encode-framed',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const c = await client(env)
      const serializer = new ProtobufSerializer(c, PROTO_ARTIFACT)
      await serializer.prepare(protoCtx)
      return {
        expect: protoFrameLength(env.protoId),
        body: sync(() => serializer.serializeSync(EVENT_RECORD, protoCtx).length),
        close: () => c.close(),
      }
    },
  },
  {
    name: 'ours.proto.serialize',
    group: 'proto-encode',
    label: '`await ProtobufSerializer#serialize(r, ctx)` (`framing: confluent`, as the peer writes)',
    ceiling: 'protobufjs.encode-framed',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const c = await client(env)
      const serializer = new ProtobufSerializer(c, PROTO_ARTIFACT, { framing: 'confluent' })
      await serializer.prepare(protoCtx)
      return {
        expect: protoConfluentFrame(env.protoId).length,
        body: asyncBody(
          () => serializer.serialize(EVENT_RECORD, protoCtx),
          (bytes) => bytes.length,
        ),
        close: () => c.close(),
      }
    },
  },
  {
    name: 'confluent.proto.serialize',
    group: 'proto-encode',
    label:
      '@confluentinc/schemaregistry `await ProtobufSerializer#serialize(topic, message)` (a @bufbuild message made from the record)',
    ceiling: 'protobufjs.encode-framed',
    peerOf: 'ours.proto.serialize',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const schema = bufbuildEvent()
      const serializer = new confluent.ProtobufSerializer(confluentClient(env), confluent.SerdeType.VALUE, {
        useLatestVersion: true,
        autoRegisterSchemas: false,
        registry: schema.registry,
      })
      // A user holds plain data too: making the @bufbuild message is part of each call, as fromObject is for ours.
      const init = { ...EVENT_RECORD, kind: 1 }
      return {
        expect: protoConfluentFrame(env.protoId).length,
        body: asyncBody(
          () => serializer.serialize(PROTO_TOPIC, schema.create(init)),
          (bytes) => bytes.length,
        ),
      }
    },
  },
  {
    name: 'protobufjs.decode-framed',
    group: 'proto-decode',
    label: 'protobufjs `Type.toObject(Type.decode(…))` after the header and `Ref` (**ceiling**)',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const type = protoEventType(await schemaByHand(env, env.protoId))
      const frame = protoFrame(env.protoId)
      const start = protoHeader(env.protoId).length
      const options = { enums: String, longs: Number, defaults: true }
      return {
        expect: EVENT_RECORD.seq,
        body: sync(() => {
          if (frame[0] !== 0 || frame.readUInt32BE(1) !== env.protoId) throw new TypeError('not our frame')
          return (type.toObject(type.decode(frame.subarray(start)), options) as { seq: number }).seq
        }),
      }
    },
  },
  {
    name: 'ours.proto.deserialize',
    group: 'proto-decode',
    label: '`await ProtobufDeserializer#deserialize(frame, ctx)` (`framing: confluent`)',
    ceiling: 'protobufjs.decode-framed',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const c = await client(env)
      const deserializer = new ProtobufDeserializer(c, { framing: 'confluent' })
      await deserializer.prepare(env.protoId)
      const frame = protoConfluentFrame(env.protoId)
      return {
        expect: EVENT_RECORD.seq,
        body: asyncBody(() => deserializer.deserialize(frame, protoCtx), seqOf),
        close: () => c.close(),
      }
    },
  },
  {
    name: 'confluent.proto.deserialize',
    group: 'proto-decode',
    label: '@confluentinc/schemaregistry `await ProtobufDeserializer#deserialize(topic, frame)`',
    ceiling: 'protobufjs.decode-framed',
    peerOf: 'ours.proto.deserialize',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const deserializer = new confluent.ProtobufDeserializer(
        confluentClient(env),
        confluent.SerdeType.VALUE,
        {},
      )
      const frame = protoConfluentFrame(env.protoId)
      return {
        expect: EVENT_RECORD.seq,
        body: asyncBody(() => deserializer.deserialize(PROTO_TOPIC, frame), seqOf),
      }
    },
  },
  {
    name: 'ours.proto.deserializeSync',
    group: 'proto-decode',
    label: '`ProtobufDeserializer#deserializeSync(frame, ctx)`',
    ceiling: 'protobufjs.decode-framed',
    usesRegistry: true,
    async prepare(env): Promise<PreparedCase> {
      const c = await client(env)
      const deserializer = new ProtobufDeserializer(c)
      await deserializer.prepare(env.protoId)
      const frame = protoFrame(env.protoId)
      return {
        expect: EVENT_RECORD.seq,
        body: sync(() => seqOf(deserializer.deserializeSync(frame, protoCtx))),
        close: () => c.close(),
      }
    },
  },
]

/** The JSON frame every library writes: the header and `JSON.stringify` of the record. */
export function jsonFrame(id: number): Buffer {
  const text = Buffer.from(JSON.stringify(EVENT_RECORD))
  const out = Buffer.alloc(5 + text.length)
  out.writeUInt32BE(id, 1)
  text.copy(out, 5)
  return out
}

function jsonFrameLength(): number {
  return 5 + Buffer.byteLength(JSON.stringify(EVENT_RECORD))
}

/** `0x00`, the id, then the length-delimited `Ref` naming `Event` (Apicurio 3.x `writeRef(descriptor.getName())`). */
export function protoHeader(id: number): Buffer {
  const name = Buffer.from('Event')
  const ref = Buffer.concat([Buffer.from([0x0a, name.length]), name])
  const out = Buffer.alloc(5 + 1 + ref.length)
  out.writeUInt32BE(id, 1)
  out[5] = ref.length
  ref.copy(out, 6)
  return out
}

/** The topic of the Protobuf record: its value subject is `bench-proto-value`. */
export const PROTO_TOPIC = 'bench-proto'

let bufbuild: BufbuildSchema | undefined
/** `bench.Event` as @bufbuild/protobuf describes it (built once per process). */
export function bufbuildEvent(): BufbuildSchema {
  bufbuild ??= bufbuildSchema(EVENT_PROTO, 'bench/event.proto', 'bench.Event')
  return bufbuild
}

/** The record in Confluent's Protobuf framing: header, message index `[0]` as one `0x00`, then the message. */
export function protoConfluentFrame(id: number): Buffer {
  const type = protoEventType()
  const header = Buffer.alloc(6)
  header.writeUInt32BE(id, 1)
  return Buffer.concat([header, Buffer.from(type.encode(type.fromObject(EVENT_RECORD)).finish())])
}

/** The Protobuf frame of the record, as protobufjs encodes it after the header. */
export function protoFrame(id: number): Buffer {
  const type = protoEventType()
  return Buffer.concat([protoHeader(id), Buffer.from(type.encode(type.fromObject(EVENT_RECORD)).finish())])
}

function protoFrameLength(id: number): number {
  return protoFrame(id).length
}
