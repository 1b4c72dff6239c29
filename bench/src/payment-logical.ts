import avro from 'avsc'
import { PAYMENT_SCHEMA } from './fixtures.js'

/**
 * The fair ceiling for `bench.Payment`: avsc with `LogicalType` classes doing the conversions our serde does, the way
 * a careful user would write them (avsc's documented extension points, nothing of ours): `timestamp-millis` and
 * `date` ↔ `Date`, `decimal` ↔ its exact string (two's complement bytes through `bigint`), `timestamp-micros` ↔
 * `bigint`, and every plain `long` exact through avsc's documented `LongType.__with` (8-byte buffers of `bigint`s).
 */

const DAY_MS = 86_400_000

class TimestampMillis extends avro.types.LogicalType {
  override _fromValue(value: unknown): Date {
    return new Date(value as number)
  }
  override _toValue(value: unknown): number | undefined {
    return value instanceof Date ? value.getTime() : undefined
  }
}

class DateDays extends avro.types.LogicalType {
  override _fromValue(value: unknown): Date {
    return new Date((value as number) * DAY_MS)
  }
  override _toValue(value: unknown): number | undefined {
    return value instanceof Date ? value.getTime() / DAY_MS : undefined
  }
}

class MicrosBigint extends avro.types.LogicalType {
  override _fromValue(value: unknown): bigint {
    return BigInt(value as number)
  }
  override _toValue(value: unknown): number | undefined {
    return typeof value === 'bigint' ? Number(value) : undefined
  }
}

class Decimal extends avro.types.LogicalType {
  readonly #scale: number
  constructor(schema: { scale?: number }, opts?: unknown) {
    super(schema as avro.Schema, opts as avro.ForSchemaOptions)
    this.#scale = schema.scale ?? 0
  }
  override _fromValue(value: unknown): string {
    const bytes = value as Buffer
    let n = 0n
    for (const byte of bytes) n = (n << 8n) | BigInt(byte)
    if (bytes.length > 0 && bytes[0]! & 0x80) n -= 1n << BigInt(bytes.length * 8)
    const negative = n < 0n
    const digits = (negative ? -n : n).toString().padStart(this.#scale + 1, '0')
    const text = this.#scale === 0 ? digits : `${digits.slice(0, -this.#scale)}.${digits.slice(-this.#scale)}`
    return negative ? `-${text}` : text
  }
  override _toValue(value: unknown): Buffer | undefined {
    if (typeof value !== 'string') return undefined
    const [whole = '', fraction = ''] = value.replace('-', '').split('.')
    let n = BigInt(whole + fraction.padEnd(this.#scale, '0'))
    if (value.startsWith('-')) n = -n
    const out: number[] = []
    for (;;) {
      out.unshift(Number(n & 0xffn))
      const rest = n >> 8n
      const sign = out[0]! & 0x80
      if ((rest === 0n && !sign) || (rest === -1n && sign)) break
      n = rest
    }
    return Buffer.from(out)
  }
}

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

/** `bench.Payment` parsed by avsc with the logical types above and exact plain longs. */
export function paymentLogicalType(
  schema: avro.Schema = PAYMENT_SCHEMA as unknown as avro.Schema,
): avro.Type {
  return avro.Type.forSchema(schema, {
    logicalTypes: {
      'timestamp-millis': TimestampMillis,
      date: DateDays,
      'timestamp-micros': MicrosBigint,
      decimal: Decimal as unknown as typeof avro.types.LogicalType,
    },
    registry: { long: exactLong },
  })
}

/** `PAYMENT_RECORD` as this type takes and gives it: the same values as ours, except `seq` (a plain long): a bigint. */
export function paymentLogicalRecord<T extends { seq: number }>(record: T): Omit<T, 'seq'> & { seq: bigint } {
  return { ...record, seq: BigInt(record.seq) }
}
