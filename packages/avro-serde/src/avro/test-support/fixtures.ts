import { type AvroCodec, type AvroOptions, createCodec, normalizeAvroOptions } from '../index.js'

/** `bytes` as lowercase hex, pairs separated by spaces (`'02 61'`). */
export function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ')
}

/** The bytes of a hex string such as `'02 61'` (spaces ignored). */
export function fromHex(text: string): Buffer {
  return Buffer.from(text.replace(/\s+/g, ''), 'hex')
}

/** A codec of `schema` with `options` (defaults when omitted). */
export function codecOf(
  schema: string | object,
  options?: AvroOptions,
  references?: (string | object)[],
): AvroCodec {
  return createCodec(schema, normalizeAvroOptions(options), references)
}

/** Encodes `value` into a fresh buffer (growing it as the codec asks) and returns exactly the written bytes. */
export function encode(codec: AvroCodec, value: unknown): Buffer {
  let target = Buffer.alloc(16)
  for (;;) {
    const end = codec.encodeInto(value, target, 0)
    if (end >= 0) return target.subarray(0, end)
    target = Buffer.alloc(target.length - end)
  }
}

export { thrown } from '@x/test-support'

/** A record using every Avro type and every built-in logical type. */
export const EVERYTHING_SCHEMA = {
  type: 'record',
  name: 'Everything',
  namespace: 'test.avro',
  fields: [
    { name: 'nothing', type: 'null' },
    { name: 'flag', type: 'boolean' },
    { name: 'count', type: 'int' },
    { name: 'big', type: 'long' },
    { name: 'ratio', type: 'float' },
    { name: 'score', type: 'double' },
    { name: 'raw', type: 'bytes' },
    { name: 'text', type: 'string' },
    { name: 'hash', type: { type: 'fixed', name: 'Hash', size: 4 } },
    { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['CREATED', 'UPDATED', 'DELETED'] } },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'attrs', type: { type: 'map', values: 'long' } },
    {
      name: 'origin',
      type: {
        type: 'record',
        name: 'Origin',
        fields: [
          { name: 'host', type: 'string' },
          { name: 'port', type: 'int' },
        ],
      },
    },
    { name: 'note', type: ['null', 'string'], default: null },
    {
      name: 'pet',
      type: [
        { type: 'record', name: 'Cat', fields: [{ name: 'lives', type: 'int' }] },
        { type: 'record', name: 'Dog', fields: [{ name: 'good', type: 'boolean' }] },
      ],
    },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'localAt', type: { type: 'long', logicalType: 'local-timestamp-millis' } },
    { name: 'atMicros', type: { type: 'long', logicalType: 'timestamp-micros' } },
    { name: 'localAtMicros', type: { type: 'long', logicalType: 'local-timestamp-micros' } },
    { name: 'timeMillis', type: { type: 'int', logicalType: 'time-millis' } },
    { name: 'timeMicros', type: { type: 'long', logicalType: 'time-micros' } },
    { name: 'day', type: { type: 'int', logicalType: 'date' } },
    { name: 'id', type: { type: 'string', logicalType: 'uuid' } },
    { name: 'price', type: { type: 'bytes', logicalType: 'decimal', precision: 10, scale: 2 } },
    {
      name: 'fixedPrice',
      type: { type: 'fixed', name: 'Money', size: 8, logicalType: 'decimal', precision: 18, scale: 4 },
    },
    { name: 'retries', type: 'int', default: 3 },
  ],
}

/** A value of `EVERYTHING_SCHEMA` in `unions: 'auto'` form. */
export function everythingValue(): Record<string, unknown> {
  return {
    nothing: null,
    flag: true,
    count: -42,
    big: 2n ** 62n + 7n,
    ratio: 1.5,
    score: Math.PI,
    raw: Buffer.from([0, 1, 254, 255]),
    text: 'héllo ✓',
    hash: Buffer.from([0xde, 0xad, 0xbe, 0xef]),
    kind: 'UPDATED',
    tags: ['alpha', 'beta'],
    attrs: { small: 1, huge: -(2n ** 63n) },
    origin: { host: 'svc-a.internal', port: 8080 },
    note: 'hello',
    pet: { 'test.avro.Dog': { good: true } },
    at: new Date('2026-01-01T00:00:00.123Z'),
    localAt: new Date('2026-01-01T08:30:00.000Z'),
    atMicros: 1767225600123456n,
    localAtMicros: -1n,
    timeMillis: 45_296_789,
    timeMicros: 45_296_789_012n,
    day: new Date('2026-01-01T00:00:00.000Z'),
    id: '123e4567-e89b-12d3-a456-426614174000',
    price: '-12345678.90',
    fixedPrice: '99999999999999.9999',
    retries: 5,
  }
}

/** The schema `bench.Event` of the benchmark (bench/src/fixtures.ts): ten fields of every kind. */
export const BENCH_EVENT_SCHEMA = {
  type: 'record',
  name: 'Event',
  namespace: 'bench',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'seq', type: 'int' },
    { name: 'ts', type: 'long' },
    { name: 'score', type: 'double' },
    { name: 'active', type: 'boolean' },
    { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['CREATED', 'UPDATED', 'DELETED'] } },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'attrs', type: { type: 'map', values: 'string' } },
    {
      name: 'origin',
      type: {
        type: 'record',
        name: 'Origin',
        fields: [
          { name: 'host', type: 'string' },
          { name: 'port', type: 'int' },
        ],
      },
    },
  ],
}

/** The record of the benchmark (bench/src/fixtures.ts). */
export const BENCH_EVENT = {
  id: '3f1c2a9e-8b7d-4c6e-9f0a-1b2c3d4e5f60',
  seq: 42,
  ts: 1767225600123,
  // biome-ignore lint/suspicious/noApproximativeNumericConstant: the exact record of the benchmark
  score: 3.14159,
  active: true,
  kind: 'UPDATED',
  tags: ['alpha', 'beta', 'gamma'],
  note: 'hello world',
  attrs: { region: 'eu-west-1', tier: 'gold' },
  origin: { host: 'svc-a.internal', port: 8080 },
}
