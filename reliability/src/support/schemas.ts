/** A record with every Avro type and the logical types the serde maps, for fuzzing and soaking. */
export const RICH_SCHEMA = {
  type: 'record',
  name: 'Rich',
  namespace: 'reliability',
  fields: [
    { name: 'nothing', type: 'null' },
    { name: 'flag', type: 'boolean' },
    { name: 'small', type: 'int' },
    { name: 'big', type: 'long' },
    { name: 'ratio', type: 'float' },
    { name: 'precise', type: 'double' },
    { name: 'raw', type: 'bytes' },
    { name: 'text', type: 'string' },
    { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['A', 'B', 'C'] } },
    { name: 'hash', type: { type: 'fixed', name: 'Hash', size: 4 } },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'counts', type: { type: 'map', values: 'long' } },
    { name: 'maybe', type: ['null', 'string', 'long'] },
    {
      name: 'child',
      type: {
        type: 'record',
        name: 'Child',
        fields: [
          { name: 'id', type: 'long' },
          { name: 'next', type: ['null', 'Child'], default: null },
        ],
      },
    },
    { name: 'amount', type: { type: 'bytes', logicalType: 'decimal', precision: 20, scale: 2 } },
    { name: 'day', type: { type: 'int', logicalType: 'date' } },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'atMicros', type: { type: 'long', logicalType: 'timestamp-micros' } },
    { name: 'id', type: { type: 'string', logicalType: 'uuid' } },
  ],
} as const

/** A valid value of RICH_SCHEMA, with a long beyond 2^53. */
export function richValue(i = 0): Record<string, unknown> {
  return {
    nothing: null,
    flag: i % 2 === 0,
    small: i,
    big: 2n ** 60n + BigInt(i),
    ratio: 1.5,
    precise: Math.PI,
    raw: Buffer.from([i & 0xff, 1, 2]),
    text: `text ${i}`,
    kind: 'B',
    hash: Buffer.from([1, 2, 3, 4]),
    tags: ['a', 'b'],
    counts: { x: 1, y: 9007199254740993n },
    maybe: i % 3 === 0 ? null : `m${i}`,
    child: { id: i, next: { id: i + 1, next: null } },
    amount: '12345.67',
    day: new Date(Date.UTC(2026, 0, 1 + (i % 28))),
    at: new Date(1_767_225_600_000 + i),
    atMicros: 1_767_225_600_000_000n + BigInt(i),
    id: '123e4567-e89b-12d3-a456-426614174000',
  }
}

export const JSON_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'reliability.Order',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    lines: {
      type: 'array',
      items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } } },
    },
    note: { type: ['string', 'null'] },
  },
  required: ['id', 'lines'],
}

export const PROTO_SCHEMA = `syntax = "proto3";
package reliability;
message Order {
  int64 id = 1;
  repeated Line lines = 2;
  map<string, int64> counts = 3;
  oneof payment { string card = 4; bytes token = 5; }
  Kind kind = 6;
  message Line { string sku = 1; uint32 qty = 2; double price = 3; }
  enum Kind { NONE = 0; WEB = 1; SHOP = 2; }
}
`
