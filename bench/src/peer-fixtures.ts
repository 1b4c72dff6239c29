import protobuf from 'protobufjs'

/**
 * The JSON Schema and Protobuf versions of `bench.Event` (the same 10 fields), for the JSON Schema and Protobuf rows
 * and the peers' JSON and Protobuf serdes. The JSON record has no integer beyond 2^53, so every library writes the
 * same text (the peers cannot write exact 64-bit integers).
 */
export const JSON_ARTIFACT = 'bench.Event.json'
export const PROTO_ARTIFACT = 'bench.Event.proto'

export const EVENT_JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'bench.Event',
  type: 'object',
  properties: {
    id: { type: 'string' },
    seq: { type: 'integer' },
    ts: { type: 'integer' },
    score: { type: 'number' },
    active: { type: 'boolean' },
    kind: { enum: ['CREATED', 'UPDATED', 'DELETED'] },
    tags: { type: 'array', items: { type: 'string' } },
    note: { type: ['string', 'null'] },
    attrs: { type: 'object', additionalProperties: { type: 'string' } },
    origin: {
      type: 'object',
      properties: { host: { type: 'string' }, port: { type: 'integer' } },
      required: ['host', 'port'],
    },
  },
  required: ['id', 'seq', 'ts', 'score', 'active', 'kind', 'tags', 'attrs', 'origin'],
}

export const EVENT_PROTO = `syntax = "proto3";
package bench;
message Event {
  string id = 1;
  int32 seq = 2;
  int64 ts = 3;
  double score = 4;
  bool active = 5;
  Kind kind = 6;
  repeated string tags = 7;
  string note = 8;
  map<string, string> attrs = 9;
  Origin origin = 10;
  enum Kind { CREATED = 0; UPDATED = 1; DELETED = 2; }
  message Origin { string host = 1; int32 port = 2; }
}
`

/** The protobufjs type of `bench.Event`, for the engine's own encode/decode (the Protobuf ceiling). */
export function protoEventType(proto: string = EVENT_PROTO): protobuf.Type {
  return protobuf.parse(proto, { keepCase: true }).root.lookupType('bench.Event')
}
