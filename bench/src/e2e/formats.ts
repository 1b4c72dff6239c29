import { AvroSerializer } from '@x/avro-serde'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufSerializer } from '@x/protobuf-serde'
import type { RegistryClient } from '@x/registry-client'
import { Ajv } from 'ajv'
import avro from 'avsc'
import { EVENT_RECORD, EVENT_SCHEMA } from '../fixtures.js'
import { EVENT_JSON_SCHEMA, EVENT_PROTO, protoEventType } from '../peer-fixtures.js'
import type { Format } from './types.js'

/** How each format's schema is registered (one artifact per format, the bench's `bench.Event`). */
export const SCHEMAS: Record<Format, { artifactId: string; schema: unknown; artifactType: string }> = {
  avro: { artifactId: 'bench-e2e.Event.avro', schema: EVENT_SCHEMA, artifactType: 'AVRO' },
  json: { artifactId: 'bench-e2e.Event.json', schema: EVENT_JSON_SCHEMA, artifactType: 'JSON' },
  protobuf: { artifactId: 'bench-e2e.Event.proto', schema: EVENT_PROTO, artifactType: 'PROTOBUF' },
}

export type Event = typeof EVENT_RECORD

/** Message `seq` of the bench record (one object per message, as an application makes them). */
export function ourRecord(seq: number): Event {
  return { ...EVENT_RECORD, seq }
}

/**
 * The record as the peers take it. Their Protobuf encoders (protobufjs `create` + `encode`, no `fromObject`) need the
 * enum as its number; Avro and JSON take the record as it is.
 */
export function peerRecord(format: Format, seq: number): Record<string, unknown> {
  return format === 'protobuf' ? { ...EVENT_RECORD, seq, kind: 1 } : { ...EVENT_RECORD, seq }
}

/** Our serializer of the format for the artifact (Apicurio defaults: frame, 4-byte globalId; Protobuf with `Ref`). */
export function ourSerializer(format: Format, client: RegistryClient, artifactId: string) {
  if (format === 'avro') return new AvroSerializer<Event>(client, artifactId)
  if (format === 'json') return new JsonSchemaSerializer<Event>(client, artifactId)
  return new ProtobufSerializer<Event>(client, artifactId)
}

/** Reading JSON, every peer validates (Platformatic's and kafkajs-SR's readers always do): ours is set to as well. */
export const OUR_READER_OPTIONS = { validate: true }

/**
 * The engine by hand on our frames, no registry: what decoding costs at the least (the floor of the serde's share).
 * Avro: avsc `decode(frame, 5)`; JSON: `JSON.parse` after the header and the same ajv validation; Protobuf: protobufjs
 * `decode` after the header and Apicurio's `Ref`, then `toObject` with enum names and defaults. Returns `seq`.
 */
export function handDecoder(format: Format): (frame: Buffer) => number {
  if (format === 'avro') {
    const type = avro.Type.forSchema(EVENT_SCHEMA as unknown as avro.Schema)
    return (frame) => (type.decode(frame, 5).value as Event).seq
  }
  if (format === 'json') {
    const validate = new Ajv({ strict: false }).compile(EVENT_JSON_SCHEMA)
    return (frame) => {
      const value = JSON.parse(frame.toString('utf8', 5)) as Event
      if (!validate(value)) throw new TypeError('invalid')
      return value.seq
    }
  }
  const type = protoEventType()
  const options = { enums: String, longs: Number, defaults: true }
  return (frame) => {
    const start = 6 + frame[5]!
    return (type.toObject(type.decode(frame.subarray(start)), options) as Event).seq
  }
}
