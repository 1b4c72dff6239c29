import { describe, expect, it } from 'vitest'
import type { AvscType } from './avsc-internals.js'
import { createCodec } from './codec.js'
import { normalizeAvroOptions } from './options.js'
import { fromRuleValue, toRuleFields, toRuleValue } from './rule-values.js'

/** Stands for `RuleDouble` of `@x/rules`, made by the core: the brand is all the mapping reads. */
class Double {
  readonly value: number
  constructor(value: number) {
    this.value = value
  }
  get [Symbol.for('@x/rules.RuleDouble')]() {
    return true
  }
}
const double = (value: number) => new Double(value)

const codecOf = (schema: object, unions: 'auto' | 'wrapped' = 'auto') =>
  createCodec(schema, normalizeAvroOptions({ unions }))

const hex = (codec: ReturnType<typeof codecOf>, value: unknown) => {
  const out = Buffer.alloc(256)
  return out.subarray(0, codec.encodeInto(value, out, 0)).toString('hex')
}

describe("toRuleValue: the record Apicurio's Java serde 3.3 hands its rules for a GenericRecord", () => {
  const codec = codecOf({
    type: 'record',
    name: 'R',
    fields: [
      { name: 'total', type: 'double' },
      { name: 'ratio', type: 'double' },
      { name: 'f', type: 'float' },
      { name: 'nan', type: 'double' },
      { name: 'count', type: 'int' },
      { name: 'big', type: 'long' },
      { name: 'small', type: 'long' },
      { name: 'data', type: 'bytes' },
      { name: 'digest', type: { type: 'fixed', name: 'Digest', size: 3 } },
      { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
      { name: 'day', type: { type: 'int', logicalType: 'date' } },
      { name: 'price', type: { type: 'bytes', logicalType: 'decimal', precision: 6, scale: 2 } },
      { name: 'uuid', type: { type: 'string', logicalType: 'uuid' } },
      { name: 'color', type: { type: 'enum', name: 'Color', symbols: ['RED', 'GREEN'] } },
      { name: 'maybe', type: ['null', 'double', 'string'] },
      { name: 'tags', type: { type: 'map', values: 'double' } },
      { name: 'list', type: { type: 'array', items: 'bytes' } },
    ],
  })
  const value = {
    total: 5,
    ratio: 1.25,
    f: Math.fround(1.1),
    nan: Number.NaN,
    count: 3,
    big: 9_007_199_254_740_993n,
    small: 7n,
    data: Buffer.from([0x00, 0xff, 0x41]),
    digest: Buffer.from([0x01, 0xfe, 0x80]),
    at: new Date(1_700_000_000_123),
    day: new Date(Date.UTC(2026, 0, 2)),
    price: '12.50',
    uuid: '123e4567-e89b-12d3-a456-426614174000',
    color: 'GREEN',
    maybe: 2,
    tags: { a: 1.5, b: 2 },
    list: [Buffer.from('hi')],
  }

  it('maps each kind of value as GenericData#toString writes it and Jackson reads it back', () => {
    expect(toRuleValue(codec.type as AvscType, value, double)).toEqual({
      total: new Double(5),
      ratio: 1.25,
      f: 1.1,
      nan: 'NaN',
      count: 3,
      big: 9_007_199_254_740_993n,
      small: 7,
      data: '\u0000\u00ffA',
      digest: [1, -2, -128],
      at: 1_700_000_000_123,
      day: 20455,
      price: '\u0004\u00e2',
      uuid: value.uuid,
      color: 'GREEN',
      maybe: new Double(2),
      tags: { a: 1.5, b: new Double(2) },
      list: ['hi'],
    })
  })

  it('gives only the named fields when the rules read only those', () => {
    expect(toRuleFields(codec.type as AvscType, value, ['count', 'total'], double)).toEqual({
      total: new Double(5),
      count: 3,
    })
  })

  it('is inverted by fromRuleValue: the record writes the same bytes', () => {
    const seen = toRuleValue(codec.type as AvscType, value, double) as Record<string, unknown>
    const back = fromRuleValue(codec.type as AvscType, seen) as Record<string, unknown>
    expect(hex(codec, back)).toBe(hex(codec, value))
    expect(back.at).toEqual(value.at)
    expect(back.price).toBe('12.50')
    expect(back.digest).toEqual(value.digest)
    expect(Number.isNaN(back.nan)).toBe(true)
  })

  it('writes an integral number beyond 2^53 a transform computed for a long as that long, as the registry does', () => {
    const longs = codecOf({ type: 'record', name: 'L', fields: [{ name: 'id', type: 'long' }] })
    const back = fromRuleValue(longs.type as AvscType, { id: 9_007_199_254_740_992 })
    expect(back).toEqual({ id: 9_007_199_254_740_992n })
  })
})

describe('fromRuleValue', () => {
  const schema = {
    type: 'record',
    name: 'R',
    fields: [
      { name: 'either', type: ['null', 'string', 'bytes'] },
      { name: 'stamp', type: ['null', { type: 'long', logicalType: 'timestamp-millis' }] },
    ],
  }

  it('takes RFC 3339 text for a timestamp a transform wrote as text, and a union branch by its value', () => {
    const codec = codecOf(schema)
    const back = fromRuleValue(codec.type as AvscType, { either: 'x', stamp: '2026-11-27T00:00:00.001Z' })
    expect(back).toEqual({ either: 'x', stamp: new Date('2026-11-27T00:00:00.001Z') })
  })

  it('reads a wrapped union by the branch its one key names', () => {
    const codec = codecOf(schema, 'wrapped')
    const record = { either: { bytes: '\u0001\u0002' }, stamp: { long: 1_700_000_000_000 } }
    expect(fromRuleValue(codec.type as AvscType, record)).toEqual({
      either: { bytes: Buffer.from([1, 2]) },
      stamp: { long: new Date(1_700_000_000_000) },
    })
  })
})

describe('fromRuleValue with names that Object.prototype also has', () => {
  it('converts a field named __proto__ and map keys named __proto__ as own data fields', () => {
    const codec = codecOf({
      type: 'record',
      name: 'Odd',
      fields: [
        { name: '__proto__', type: 'bytes' },
        { name: 'blobs', type: { type: 'map', values: 'bytes' } },
      ],
    })
    const record = JSON.parse(
      '{"__proto__":"\\u0001\\u0002","blobs":{"__proto__":"\\u0003","constructor":"\\u0004"}}',
    )
    const out = fromRuleValue(codec.type as AvscType, record) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual(Buffer.from([1, 2]))
    const blobs = out.blobs as Record<string, unknown>
    expect(Object.getPrototypeOf(blobs)).toBe(Object.prototype)
    expect(Object.keys(blobs)).toEqual(['__proto__', 'constructor'])
    expect(Object.getOwnPropertyDescriptor(blobs, '__proto__')?.value).toEqual(Buffer.from([3]))
    expect(hex(codec, out)).toBe('04010204125f5f70726f746f5f5f020316636f6e7374727563746f72020400')
  })

  it('maps a field named __proto__ to the rules as an own data field', () => {
    const codec = codecOf({ type: 'record', name: 'P', fields: [{ name: '__proto__', type: 'double' }] })
    const out = toRuleValue(codec.type as AvscType, JSON.parse('{"__proto__": 1.5}'), double) as object
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe(1.5)
  })
})
