import avro from 'avsc'
import { describe, expect, test } from 'vitest'
import { unwrapsUnion, valueKindOf } from '../union-rule.js'
import { codecOf, encode, fromHex, hex, thrown } from './test-support/fixtures.js'

const cat = { type: 'record', name: 'Cat', namespace: 'pets', fields: [{ name: 'lives', type: 'int' }] }
const dog = { type: 'record', name: 'Dog', namespace: 'pets', fields: [{ name: 'good', type: 'boolean' }] }
const millis = { type: 'long', logicalType: 'timestamp-millis' }
const decimal = { type: 'bytes', logicalType: 'decimal', precision: 5, scale: 2 }

class Custom extends (avro.types.LogicalType as unknown as new (schema: unknown, opts: unknown) => object) {
  _fromValue(value: unknown): unknown {
    return value
  }
  _toValue(value: unknown): unknown {
    return value
  }
}

describe("unions: 'auto' unwraps a union when no two branches take the same JavaScript value", () => {
  const unwrapped: [string, unknown[], unknown, string][] = [
    ['null | string', ['null', 'string'], 'a', '02 02 61'],
    ['null | record', ['null', cat], { lives: 9 }, '02 12'],
    ['long | string (a bigint is a long)', ['long', 'string'], 2n ** 60n, '00 80 80 80 80 80 80 80 80 20'],
    ['null | bytes (any Uint8Array)', ['null', 'bytes'], new Uint8Array([7]), '02 02 07'],
    ['null | timestamp-millis', ['null', millis], new Date(1), '02 02'],
    ['record | timestamp-millis (a Date is not a record)', [cat, millis], new Date(1), '02 02'],
    ['null | decimal', ['null', decimal], '1.23', '02 02 7b'],
    [
      'boolean | int | string | array | map',
      ['boolean', 'int', 'string', { type: 'array', items: 'int' }, { type: 'map', values: 'int' }],
      { a: 1 },
      '08 02 02 61 02 00',
    ],
  ]
  test.each(unwrapped)('%s is unwrapped', (_name, schema, value, bytes) => {
    const codec = codecOf(schema)
    expect(hex(encode(codec, value))).toBe(bytes)
    expect(codec.decode(fromHex(bytes), 0)).toEqual(value instanceof Uint8Array ? Buffer.from(value) : value)
  })

  const wrapped: [string, unknown[], unknown, string][] = [
    ['int | long', ['int', 'long'], { long: 5 }, '02 0a'],
    ['string | enum', ['string', { type: 'enum', name: 'E', symbols: ['A'] }], { E: 'A' }, '02 00'],
    ['two records', [cat, dog], { 'pets.Dog': { good: true } }, '02 01'],
    ['map | record', [{ type: 'map', values: 'int' }, cat], { map: { a: 1 } }, '00 02 02 61 02 00'],
    ['int | timestamp-millis (both take a number)', ['int', millis], { int: 1 }, '00 02'],
    [
      'enum | uuid (both take a string)',
      [
        { type: 'enum', name: 'E', symbols: ['A'] },
        { type: 'string', logicalType: 'uuid' },
      ],
      { string: '123e4567-e89b-12d3-a456-426614174000' },
      `02 48 ${hex(Buffer.from('123e4567-e89b-12d3-a456-426614174000'))}`,
    ],
    ['long | decimal (both take a bigint)', ['long', decimal], { bytes: '1.23' }, '02 02 7b'],
  ]
  test.each(wrapped)('%s is wrapped', (_name, schema, value, bytes) => {
    const codec = codecOf(schema)
    expect(hex(encode(codec, value))).toBe(bytes)
    expect(codec.decode(fromHex(bytes), 0)).toEqual(value)
  })

  test('null stays null in a wrapped union', () => {
    const codec = codecOf(['null', 'int', 'long'])
    expect(hex(encode(codec, null))).toBe('00')
    expect(codec.decode(fromHex('00'), 0)).toBeNull()
  })

  test('a union with a custom logical type is unwrapped only next to null', () => {
    const options = { logicalTypes: { custom: Custom } }
    const alone = codecOf(['null', { type: 'string', logicalType: 'custom' }], options)
    expect(alone.decode(encode(alone, 'x'), 0)).toBe('x')
    const beside = codecOf(['int', { type: 'string', logicalType: 'custom' }], options)
    expect(beside.decode(encode(beside, { string: 'x' }), 0)).toEqual({ string: 'x' })
  })
})

describe("unions: 'wrapped' wraps every union", () => {
  test('a non-null value is { branchName: value }, null stays null', () => {
    const codec = codecOf(['null', 'string', cat], { unions: 'wrapped' })
    expect(hex(encode(codec, { string: 'a' }))).toBe('02 02 61')
    expect(codec.decode(fromHex('02 02 61'), 0)).toEqual({ string: 'a' })
    expect(codec.decode(fromHex('04 12'), 0)).toEqual({ 'pets.Cat': { lives: 9 } })
    expect(codec.decode(fromHex('00'), 0)).toBeNull()
  })

  test('a logical branch is named after its underlying type', () => {
    const codec = codecOf(['null', millis], { unions: 'wrapped' })
    expect(codec.decode(encode(codec, { long: new Date(5) }), 0)).toEqual({ long: new Date(5) })
  })
})

describe('union values that match no branch', () => {
  test('an unwrapped union names the branches it takes', () => {
    const codec = codecOf({ type: 'record', name: 'R', fields: [{ name: 'u', type: ['null', 'string'] }] })
    const error = thrown(() => codec.encodeInto({ u: 5 }, Buffer.alloc(8), 0))
    expect(error.paths).toEqual(['u'])
    expect(error.message).toBe(
      'Value does not match the Avro schema R: u: expected one of null, string, got number 5',
    )
  })

  test('a wrapped union names its branches, and a bare value is refused', () => {
    const codec = codecOf(['int', 'long'])
    const error = thrown(() => codec.encodeInto(5, Buffer.alloc(8), 0))
    expect(error.message).toBe(
      'Value does not match the Avro schema union: (value): expected a wrapped union value { "<branch>": value } with a branch of int, long, got number 5',
    )
  })

  test('a wrapped union without a null branch refuses null', () => {
    expect(thrown(() => codecOf(['int', 'long']).encodeInto(null, Buffer.alloc(8), 0)).message).toContain(
      'got null (no null branch)',
    )
  })
})

describe('the rule of unions: auto (shared with code generation)', () => {
  test('unwraps when every kind of value is taken by one branch at most, and wraps otherwise', () => {
    expect(unwrapsUnion([['null'], ['string']])).toBe(true)
    expect(unwrapsUnion([['null'], ['number', 'bigint'], ['string']])).toBe(true)
    expect(unwrapsUnion([['number'], ['number', 'bigint']])).toBe(false)
    expect(unwrapsUnion([['date', 'number'], ['number']])).toBe(false)
  })

  test('a branch that may take anything is unwrapped beside null only', () => {
    expect(unwrapsUnion([['null'], undefined])).toBe(true)
    expect(unwrapsUnion([['string'], undefined])).toBe(false)
    expect(unwrapsUnion([undefined, undefined])).toBe(false)
  })
})

describe('the kind of a value, as unions and the CLI tell branches apart', () => {
  test('names each kind of JavaScript value a branch takes, and none for undefined or a function', () => {
    const kinds = [null, true, 1.5, 2n, 'a', Buffer.from([1]), new Uint8Array(1), new Date(0), [1], { a: 1 }]
    expect(kinds.map(valueKindOf)).toEqual([
      'null',
      'boolean',
      'number',
      'bigint',
      'string',
      'bytes',
      'bytes',
      'date',
      'array',
      'object',
    ])
    expect(valueKindOf(undefined)).toBeUndefined()
    expect(valueKindOf(() => 1)).toBeUndefined()
  })

  test('picks the branch of an unwrapped union by that kind: a Date is a timestamp, not a record', () => {
    const type = codecOf(['null', cat, millis])
    expect(hex(encode(type, new Date(1)))).toBe('04 02')
    expect(hex(encode(type, { lives: 1 }))).toBe('02 02')
  })
})
