import { describe, expect, it } from 'vitest'
import type { AvscType } from './avsc-internals.js'
import { createCodec } from './codec.js'
import { normalizeAvroOptions } from './options.js'
import { fromRuleValue } from './rule-values.js'

const codecOf = (schema: object, unions: 'auto' | 'wrapped' = 'auto') =>
  createCodec(schema, normalizeAvroOptions({ unions }))

const hex = (codec: ReturnType<typeof codecOf>, value: unknown) => {
  const out = Buffer.alloc(256)
  return out.subarray(0, codec.encodeInto(value, out, 0)).toString('hex')
}

describe('fromRuleValue', () => {
  const schema = {
    type: 'record',
    name: 'R',
    fields: [
      { name: 'uuid', type: { type: 'string', logicalType: 'uuid' } },
      { name: 'price', type: { type: 'bytes', logicalType: 'decimal', precision: 6, scale: 2 } },
      { name: 'either', type: ['null', 'string', 'bytes'] },
      { name: 'stamp', type: ['null', { type: 'long', logicalType: 'timestamp-millis' }] },
      { name: 'big', type: 'long' },
    ],
  }

  it('inverts toRuleRecord for logical types and unions, so the record writes the same bytes', () => {
    const codec = codecOf(schema)
    const value = {
      uuid: '123e4567-e89b-12d3-a456-426614174000',
      price: '12.50',
      either: Buffer.from([1, 2]),
      stamp: new Date('2026-11-27T00:00:00.001Z'),
      big: 9_007_199_254_740_993n,
    }
    // What toRuleRecord of @x/rules makes of `value` (the JSON the registry would be sent).
    const seen = {
      uuid: value.uuid,
      price: '12.50',
      either: 'AQI=',
      stamp: '2026-11-27T00:00:00.001Z',
      big: 9_007_199_254_740_993n,
    }
    const back = fromRuleValue(codec.type as AvscType, seen)
    // A union of string and bytes takes base64 text as the string it is: the JSON cannot tell them apart.
    expect(back).toEqual({ ...value, either: 'AQI=' })
    expect(hex(codec, { ...back!, either: Buffer.from([1, 2]) })).toBe(hex(codec, value))
  })

  it('reads a wrapped union by the branch its one key names, and leaves a number beyond 2^53 for the writer to refuse', () => {
    const codec = codecOf(schema, 'wrapped')
    const record = {
      uuid: '123e4567-e89b-12d3-a456-426614174000',
      price: '1.00',
      either: { bytes: 'AQI=' },
      stamp: { long: '2026-11-27T00:00:00.001Z' },
      big: 9_007_199_254_740_992,
    }
    expect(fromRuleValue(codec.type as AvscType, record)).toEqual({
      ...record,
      either: { bytes: Buffer.from([1, 2]) },
      stamp: { long: new Date('2026-11-27T00:00:00.001Z') },
    })
    expect(() => hex(codec, fromRuleValue(codec.type as AvscType, record))).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'INVALID_DATA' }),
    )
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
    const record = JSON.parse('{"__proto__":"AQI=","blobs":{"__proto__":"Aw==","constructor":"BA=="}}')
    const out = fromRuleValue(codec.type as AvscType, record) as Record<string, unknown>
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual(Buffer.from([1, 2]))
    const blobs = out.blobs as Record<string, unknown>
    expect(Object.getPrototypeOf(blobs)).toBe(Object.prototype)
    expect(Object.keys(blobs)).toEqual(['__proto__', 'constructor'])
    expect(Object.getOwnPropertyDescriptor(blobs, '__proto__')?.value).toEqual(Buffer.from([3]))
    expect(hex(codec, out)).toBe('04010204125f5f70726f746f5f5f020316636f6e7374727563746f72020400')
  })
})
