import { Ajv } from 'ajv'
import avro from 'avsc'
import { EVENT_SCHEMA } from '../fixtures.js'
import { EVENT_JSON_SCHEMA, EVENT_PROTO, protoEventType } from '../peer-fixtures.js'
import type { Event } from './records.js'
import type { Format } from './types.js'

/** How each format's schema is registered (one artifact per format, the bench's `bench.Event`). */
export const SCHEMAS: Record<Format, { artifactId: string; schema: unknown; artifactType: string }> = {
  avro: { artifactId: 'bench-e2e.Event.avro', schema: EVENT_SCHEMA, artifactType: 'AVRO' },
  json: { artifactId: 'bench-e2e.Event.json', schema: EVENT_JSON_SCHEMA, artifactType: 'JSON' },
  protobuf: { artifactId: 'bench-e2e.Event.proto', schema: EVENT_PROTO, artifactType: 'PROTOBUF' },
}

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
