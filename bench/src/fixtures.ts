import avro from 'avsc'
import { EVENT_RECORD } from './event-record.js'

/**
 * The schemas and records the bench encodes and decodes. `bench.Event` is a 10-field record (strings, an int, a
 * long, a double, a boolean, an enum, an array, a union, a map and a nested record) whose Avro body is 132 bytes and
 * whose frame is 137 bytes, kept unchanged so that figures stay comparable across runs; `bench.Payment` adds logical types
 * and a long beyond 2^53.
 */

/** Artifact ids under which the bench registers its schemas (one group, `bench`). */
export const GROUP_ID = 'bench'
export const EVENT_ARTIFACT = 'bench.Event'
export const PAYMENT_ARTIFACT = 'bench.Payment'

export const EVENT_SCHEMA = {
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
} as const

export { EVENT_RECORD }

/**
 * A later version of `bench.Event` read by the resolver cases: `note` dropped, `seq` promoted from int to long,
 * `kind` with one more symbol, and a new field `region` filled from its default.
 */
export const EVENT_READER_SCHEMA = {
  type: 'record',
  name: 'Event',
  namespace: 'bench',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'seq', type: 'long' },
    { name: 'ts', type: 'long' },
    { name: 'score', type: 'double' },
    { name: 'active', type: 'boolean' },
    {
      name: 'kind',
      type: { type: 'enum', name: 'Kind', symbols: ['CREATED', 'UPDATED', 'DELETED', 'ARCHIVED'] },
    },
    { name: 'tags', type: { type: 'array', items: 'string' } },
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
    { name: 'region', type: 'string', default: 'unknown' },
  ],
} as const

/** What reading `EVENT_RECORD` with `EVENT_READER_SCHEMA` gives. */
export const EVENT_READ_AS_V2 = {
  id: EVENT_RECORD.id,
  seq: EVENT_RECORD.seq,
  ts: EVENT_RECORD.ts,
  score: EVENT_RECORD.score,
  active: EVENT_RECORD.active,
  kind: EVENT_RECORD.kind,
  tags: EVENT_RECORD.tags,
  attrs: EVENT_RECORD.attrs,
  origin: EVENT_RECORD.origin,
  region: 'unknown',
}

export const PAYMENT_SCHEMA = {
  type: 'record',
  name: 'Payment',
  namespace: 'bench',
  fields: [
    { name: 'id', type: { type: 'string', logicalType: 'uuid' } },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'day', type: { type: 'int', logicalType: 'date' } },
    { name: 'amount', type: { type: 'bytes', logicalType: 'decimal', precision: 12, scale: 2 } },
    { name: 'ledger', type: 'long' },
    { name: 'micros', type: { type: 'long', logicalType: 'timestamp-micros' } },
    { name: 'seq', type: 'long' },
    { name: 'currency', type: 'string' },
  ],
} as const

const AT_MS = 1767225600123
const DAY = 20454 // 2026-01-01
const LEDGER = 2n ** 60n + 7n
const MICROS = 1767225600123456n
/** 12345.67 with scale 2: the unscaled 1234567 as minimal big-endian two's complement. */
const AMOUNT_BYTES = Buffer.from([0x12, 0xd6, 0x87])

/** The `bench.Payment` record as our serde takes and returns it (`longs: 'auto'`, built-in logical types). */
export const PAYMENT_RECORD = {
  id: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  at: new Date(AT_MS),
  day: new Date(DAY * 86_400_000),
  amount: '12345.67',
  ledger: LEDGER,
  micros: MICROS,
  seq: 42,
  currency: 'EUR',
}

/**
 * The closest record raw avsc (default long: numbers only, no logical types) can write: every logical value as its
 * underlying type, and `ledger` brought down to 2^53 − 2 (avsc refuses longs beyond). Its body is one byte shorter
 * than `PAYMENT_RECORD`'s (`ledger` takes 8 varint bytes instead of 9); everything else is the same bytes.
 */
export const PAYMENT_RECORD_AVSC = {
  id: PAYMENT_RECORD.id,
  at: AT_MS,
  day: DAY,
  amount: AMOUNT_BYTES,
  ledger: Number.MAX_SAFE_INTEGER - 1,
  micros: Number(MICROS),
  seq: 42,
  currency: 'EUR',
}

/**
 * avsc's documented way to read longs exactly (`LongType.__with`, 8-byte little-endian buffers), used only to
 * check our `bench.Payment` bytes against an independent encoder; it is far too slow to be a fair baseline.
 */
const exactLong = avro.types.LongType.__with({
  fromBuffer: (buf: Buffer) => buf.readBigInt64LE(),
  toBuffer: (n: bigint) => {
    const buf = Buffer.alloc(8)
    buf.writeBigInt64LE(n)
    return buf
  },
  fromJSON: (json: unknown) => BigInt(json as string),
  toJSON: (n: bigint) => n.toString(),
  isValid: (n: unknown) => typeof n === 'bigint',
  compare: (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0),
})

/**
 * `bench.Payment` with every logical type replaced by its underlying primitive: avsc parses `{ type: 'long',
 * logicalType }` into a fresh built-in long, ignoring the `long` of its registry, so only bare names pick it up.
 */
const PAYMENT_UNDERLYING_SCHEMA = {
  ...PAYMENT_SCHEMA,
  fields: PAYMENT_SCHEMA.fields.map((field) => ({
    name: field.name,
    type: typeof field.type === 'string' ? field.type : field.type.type,
  })),
}

export const paymentExactType = avro.Type.forSchema(PAYMENT_UNDERLYING_SCHEMA as unknown as avro.Schema, {
  registry: { long: exactLong },
})

/** `PAYMENT_RECORD` in underlying types for `paymentExactType` (every long a bigint): the exact same bytes. */
export const PAYMENT_RECORD_EXACT = {
  id: PAYMENT_RECORD.id,
  at: BigInt(AT_MS),
  day: DAY,
  amount: AMOUNT_BYTES,
  ledger: LEDGER,
  micros: MICROS,
  seq: 42n,
  currency: 'EUR',
}

/** avsc's type of `bench.Event`, from the schema given (by default the fixture's). */
export function eventType(schema: avro.Schema = EVENT_SCHEMA as unknown as avro.Schema): avro.Type {
  return avro.Type.forSchema(schema)
}

export function eventReaderType(): avro.Type {
  return avro.Type.forSchema(EVENT_READER_SCHEMA as unknown as avro.Schema)
}

/** avsc's type of `bench.Payment`, from the schema given (by default the fixture's). */
export function paymentType(schema: avro.Schema = PAYMENT_SCHEMA as unknown as avro.Schema): avro.Type {
  return avro.Type.forSchema(schema)
}
