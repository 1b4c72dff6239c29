import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { MessageField, SerializationContext } from '@x/wire-format'
import type { BenchEnv, CaseDef, PreparedCase } from './cases.js'
import { EVENT_RECORD, eventType, GROUP_ID } from './fixtures.js'
import { expectedFrame } from './frames.js'
import { protoHeader } from './peer-cases.js'
import { protoEventType } from './peer-fixtures.js'
import { MASKED_RECORD, type RuleFormat, type RuleKindName, ruleArtifact } from './rules-fixtures.js'
import type { Body } from './timing.js'

/**
 * Data-contract rules through the serdes' own `rules` option, each row beside the same call with rules off (its
 * ceiling): the ruleset is fetched from the bench's registry and compiled once in `prepare`, and the parent checks
 * that no request is sent while measuring. The rule's cost per message is this row's time less the rules-off row's
 * (see `renderRuleCosts`).
 */

const RULES = { rules: { enabled: true } } as const

interface Serde {
  serializeSync(value: unknown, ctx: SerializationContext): Uint8Array
  prepare(ctx: SerializationContext): Promise<void>
}

interface Reader {
  deserializeSync(bytes: Uint8Array, ctx: SerializationContext): unknown
  prepare(id: number): Promise<void>
}

/** What differs between the formats: the serdes, the frames, and the rules-off rows each rule row is set beside. */
interface FormatLine {
  label: string
  ctx: SerializationContext
  serializer(client: RegistryClient, artifactId: string): Serde
  deserializer(client: RegistryClient): Reader
  /** The frame of a record written with the schema of `id`. */
  frame(record: typeof EVENT_RECORD, id: number): Buffer
  /** The rules-off rows. */
  off: { serializeSync: string; deserializeSync: string }
}

/** The frame of a record in JSON: the header and `JSON.stringify` of the record. */
export function jsonRecordFrame(record: typeof EVENT_RECORD, id: number): Buffer {
  const text = Buffer.from(JSON.stringify(record))
  const out = Buffer.alloc(5 + text.length)
  out.writeUInt32BE(id, 1)
  text.copy(out, 5)
  return out
}

/** The frame of a record in Protobuf: the header and `Ref`, then protobufjs's encoding. */
export function protoRecordFrame(record: typeof EVENT_RECORD, id: number): Buffer {
  const type = protoEventType()
  return Buffer.concat([protoHeader(id), Buffer.from(type.encode(type.fromObject(record)).finish())])
}

export const RULE_FORMATS: Readonly<Record<RuleFormat, FormatLine>> = {
  avro: {
    label: 'Avro',
    ctx: new SerializationContext('bench-events', MessageField.VALUE),
    serializer: (client, artifactId) => new AvroSerializer(client, artifactId, RULES),
    deserializer: (client) => new AvroDeserializer(client, RULES),
    frame: (record, id) => expectedFrame(eventType(), record, id),
    off: { serializeSync: 'ours.serializeSync', deserializeSync: 'ours.deserializeSync' },
  },
  json: {
    label: 'JSON Schema',
    ctx: new SerializationContext('bench-json', MessageField.VALUE),
    serializer: (client, artifactId) => new JsonSchemaSerializer(client, artifactId, RULES),
    deserializer: (client) => new JsonSchemaDeserializer(client, RULES),
    frame: jsonRecordFrame,
    off: { serializeSync: 'ours.json.serializeSync', deserializeSync: 'ours.json.deserializeSync' },
  },
  proto: {
    label: 'Protobuf',
    ctx: new SerializationContext('bench-proto', MessageField.VALUE),
    serializer: (client, artifactId) => new ProtobufSerializer(client, artifactId, RULES),
    deserializer: (client) => new ProtobufDeserializer(client, RULES),
    frame: protoRecordFrame,
    off: {
      serializeSync: 'ours.proto.serializeSync',
      deserializeSync: 'ours.proto.deserializeSync',
    },
  },
}

const RULE_LABELS: Record<RuleKindName, string> = {
  cel: 'one CEL condition `seq > 0`',
  jsonata: 'one JSONata transform `$merge([$, {"note": "***"}])`',
}

/** The record a rule row writes and reads back: the JSONata transform masks `note`. */
function recordAfter(rule: RuleKindName): typeof EVENT_RECORD {
  return rule === 'jsonata' ? MASKED_RECORD : EVENT_RECORD
}

function sync(body: () => number): Body {
  return { kind: 'sync', body }
}

/** The rule row's name: `rules.<format>.<serializeSync|deserializeSync>-<cel|jsonata>`. */
export function ruleCaseName(
  format: RuleFormat,
  op: 'serializeSync' | 'deserializeSync',
  rule: RuleKindName,
) {
  return `rules.${format}.${op}-${rule}`
}

function serializeCase(format: RuleFormat, rule: RuleKindName): CaseDef {
  const line = RULE_FORMATS[format]
  return {
    name: ruleCaseName(format, 'serializeSync', rule),
    group: 'rules',
    label: `${line.label} \`serializeSync(r, ctx)\` with \`rules: { enabled: true }\`, ${RULE_LABELS[rule]}`,
    ceiling: line.off.serializeSync,
    usesRegistry: true,
    async prepare(env: BenchEnv): Promise<PreparedCase> {
      const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
      const serializer = line.serializer(client, ruleArtifact(format, rule))
      await serializer.prepare(line.ctx)
      return {
        // The length of the record the rule leaves: the transform's frame is shorter by the masked text.
        expect: line.frame(recordAfter(rule), env.ruleIds[format][rule]).length,
        body: sync(() => serializer.serializeSync(EVENT_RECORD, line.ctx).length),
        close: () => client.close(),
      }
    },
  }
}

function deserializeCase(format: RuleFormat, rule: RuleKindName): CaseDef {
  const line = RULE_FORMATS[format]
  return {
    name: ruleCaseName(format, 'deserializeSync', rule),
    group: 'rules',
    label: `${line.label} \`deserializeSync(frame, ctx)\` with \`rules: { enabled: true }\`, ${RULE_LABELS[rule]}`,
    ceiling: line.off.deserializeSync,
    usesRegistry: true,
    async prepare(env: BenchEnv): Promise<PreparedCase> {
      const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
      const id = env.ruleIds[format][rule]
      const deserializer = line.deserializer(client)
      await deserializer.prepare(id)
      const frame = line.frame(EVENT_RECORD, id)
      const note = recordAfter(rule).note
      return {
        // `seq` when the record came out as the rule leaves it (masked by the transform), else -1.
        expect: EVENT_RECORD.seq,
        body: sync(() => {
          const value = deserializer.deserializeSync(frame, line.ctx) as { seq: number; note: string }
          return value.note === note ? value.seq : -1
        }),
        close: () => client.close(),
      }
    },
  }
}

/** Each format's `serializeSync` and `deserializeSync` with one CEL condition and with one JSONata transform. */
export const RULES_CASES: readonly CaseDef[] = (['avro', 'json', 'proto'] as const).flatMap((format) =>
  (['cel', 'jsonata'] as const).flatMap((rule) => [
    serializeCase(format, rule),
    deserializeCase(format, rule),
  ]),
)
