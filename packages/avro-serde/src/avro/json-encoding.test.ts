import { DeserializationError } from '@x/errors'
import avro from 'avsc'
import { describe, expect, it } from 'vitest'
import { AvroPayloadCodec } from '../avro-payload-codec.js'
import { type AvroOptions, createCodec, normalizeAvroOptions } from './index.js'
import { javaDouble } from './json-text.js'

// Every schema type Avro's JSON encoding has a rule for, with logical types in and out of unions.
const EVERY_TYPE = {
  type: 'record',
  name: 'R',
  namespace: 'x.j',
  fields: [
    { name: 's', type: 'string' },
    { name: 'i', type: 'int' },
    { name: 'l', type: 'long' },
    { name: 'f', type: 'float' },
    { name: 'd', type: 'double' },
    { name: 'b', type: 'bytes' },
    { name: 'fx', type: { type: 'fixed', name: 'F2', size: 2 } },
    { name: 'e', type: { type: 'enum', name: 'E', symbols: ['A', 'B'] } },
    { name: 'a', type: { type: 'array', items: 'long' } },
    { name: 'm', type: { type: 'map', values: 'string' } },
    {
      name: 'u',
      type: ['null', 'string', 'long', { type: 'record', name: 'Sub', fields: [{ name: 'x', type: 'int' }] }],
    },
    { name: 'u2', type: ['null', 'string'] },
    { name: 'ts', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'dt', type: { type: 'int', logicalType: 'date' } },
    { name: 'dec', type: { type: 'bytes', logicalType: 'decimal', precision: 9, scale: 2 } },
    { name: 'uu', type: { type: 'string', logicalType: 'uuid' } },
    { name: 'ul', type: ['null', { type: 'long', logicalType: 'timestamp-micros' }] },
  ],
}

const everyValue = {
  s: 'a\u0000\u001f"\\\b\t\n\f\r\u007f\u00fc\u20ac/',
  i: -5,
  l: -9223372036854775808n,
  f: 0.1,
  d: 1e-7,
  b: Buffer.from([0x00, 0x01, 0xfe, 0xff]),
  fx: Buffer.from([0x80, 0x61]),
  e: 'B',
  a: [9007199254740993n, -1],
  m: { a: 'x', b: 'y' },
  u: { x: 3 },
  u2: 'z',
  ts: new Date(1_700_000_000_000),
  dt: new Date(Date.UTC(2022, 0, 8)),
  dec: '123.45',
  uu: '0f0e0d0c-0b0a-0908-0706-050403020100',
  ul: 12345n,
}

// What Avro 1.12.1's JsonEncoder (the one Apicurio's serde 3.1.7 runs) wrote for `everyValue`, recorded 2026-11-25
// with GenericDatumWriter + EncoderFactory.jsonEncoder, as UTF-8 bytes. As text:
// {"s":"a\u0000\u001F\"\\\b\t\n\f\r<7F>ü€/","i":-5,"l":-9223372036854775808,"f":0.10000000149011612,"d":1.0E-7,
//  "b":"\u0000\u0001þÿ","fx":"<80>a","e":"B","a":[9007199254740993,-1],"m":{"a":"x","b":"y"},"u":{"x.j.Sub":{"x":3}},
//  "u2":{"string":"z"},"ts":1700000000000,"dt":19000,"dec":"09","uu":"0f0e0d0c-…","ul":{"long":12345}}
const JAVA_EVERY_TYPE = Buffer.from(
  '7b2273223a22615c75303030305c75303031465c225c5c5c625c745c6e5c665c727fc3bce282ac2f222c2269223a2d352c226c223a2d393232333337323033363835343737353830382c2266223a302e31303030303030303134393031313631322c2264223a312e30452d372c2262223a225c75303030305c7530303031c3bec3bf222c226678223a22c28061222c2265223a2242222c2261223a5b393030373139393235343734303939332c2d315d2c226d223a7b2261223a2278222c2262223a2279227d2c2275223a7b22782e6a2e537562223a7b2278223a337d7d2c227532223a7b22737472696e67223a227a227d2c227473223a313730303030303030303030302c226474223a31393030302c22646563223a223039222c227575223a2230663065306430632d306230612d303930382d303730362d303530343033303230313030222c22756c223a7b226c6f6e67223a31323334357d7d',
  'hex',
)

function jsonCodec(schema: object, options: AvroOptions = {}, strict = false): AvroPayloadCodec {
  return new AvroPayloadCodec(
    createCodec(schema, normalizeAvroOptions({ ...options, encoding: 'json' })),
    strict,
    'json',
  )
}

function encode(codec: AvroPayloadCodec, value: unknown): Buffer {
  let target = Buffer.alloc(8)
  let end = codec.encodeInto(value, target, 0)
  if (end < 0) {
    target = Buffer.alloc(target.length - end)
    end = codec.encodeInto(value, target, 0)
  }
  return target.subarray(0, end)
}

const decode = (codec: AvroPayloadCodec, text: string | Buffer): unknown => {
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8')
  return codec.decode(bytes, 0, bytes.length)
}

function decodeError(codec: AvroPayloadCodec, text: string): DeserializationError {
  try {
    decode(codec, text)
  } catch (error) {
    expect(error).toBeInstanceOf(DeserializationError)
    return error as DeserializationError
  }
  throw new Error(`expected ${text} to be refused`)
}

describe("Avro's JSON encoding, against what Java's JsonEncoder wrote", () => {
  const codec = jsonCodec(EVERY_TYPE)

  it('writes every type byte for byte as Avro 1.12.1 does (Jackson escapes, full union names, floats widened)', () => {
    expect(encode(codec, everyValue).toString('hex')).toBe(JAVA_EVERY_TYPE.toString('hex'))
  })

  it("reads Java's text back into the values it was written from, longs exact beyond 2^53", () => {
    expect(decode(codec, JAVA_EVERY_TYPE)).toEqual({
      ...everyValue,
      f: Math.fround(0.1),
      u: expect.objectContaining({ x: 3 }),
    })
    const read = decode(codec, JAVA_EVERY_TYPE) as { l: bigint; a: unknown[] }
    expect(read.l).toBe(-9223372036854775808n)
    expect(read.a).toEqual([9007199254740993n, -1])
  })

  it('writes into the buffer given when it fits, and says how many bytes are missing when it does not', () => {
    const small = jsonCodec({ type: 'record', name: 'S', fields: [{ name: 'n', type: 'long' }] })
    const target = Buffer.alloc(20, 0xee)
    expect(small.encodeInto({ n: 12 }, target, 5)).toBe(13)
    expect(target.subarray(5, 13).toString()).toBe('{"n":12}')
    expect(small.encodeInto({ n: 12 }, Buffer.alloc(10), 5)).toBe(-3)
  })
})

describe('Java number and string forms', () => {
  it.each([
    [1.5, '1.5'],
    [-0.125, '-0.125'],
    [100, '100.0'],
    [1e7, '1.0E7'],
    [9999999, '9999999.0'],
    [0.001, '0.001'],
    [0.0001, '1.0E-4'],
    [5e-324, '4.9E-324'],
    [1.7976931348623157e308, '1.7976931348623157E308'],
    [123456789.125, '1.23456789125E8'],
    [-0, '-0.0'],
    [0, '0.0'],
    [Number.NaN, '"NaN"'],
    [Number.NEGATIVE_INFINITY, '"-Infinity"'],
  ])('writes the double %s as %s (as Java 17 and later print it)', (value, text) => {
    expect(javaDouble(value)).toBe(text)
  })

  it('writes 1e23 as JDK 19+ does (1.0E23); JDK 17 prints 9.999999999999999E22, the same double', () => {
    expect(javaDouble(1e23)).toBe('1.0E23')
    expect(Number('9.999999999999999E22')).toBe(1e23)
  })

  it('reads the non-numbers Jackson writes as strings, and numbers in any JSON form', () => {
    const doubles = jsonCodec({ type: 'array', items: 'double' })
    expect(decode(doubles, '["NaN","Infinity","-Infinity",1,1.0E-7,-2.5e3]')).toEqual([
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      1,
      1e-7,
      -2500,
    ])
    expect(encode(doubles, [Number.NaN, 1, 1e-7]).toString()).toBe('["NaN",1.0,1.0E-7]')
  })
})

describe('reading Avro JSON as Java reads it', () => {
  const schema = {
    type: 'record',
    name: 'T',
    fields: [
      { name: 'l', type: 'long' },
      { name: 'u', type: ['null', 'string'] },
      { name: 'b', type: 'bytes' },
      { name: 'i', type: 'int' },
    ],
  }
  const codec = jsonCodec(schema)

  it('takes fields in any order and skips fields the schema does not name, as JsonDecoder does', () => {
    expect(decode(codec, '{"zz":{"a":[1]},"i":1,"b":"","u":null,"l":2}')).toEqual({
      l: 2,
      u: null,
      b: Buffer.alloc(0),
      i: 1,
    })
  })

  it('reads an integral number written with a fraction or exponent as an int or long, exactly', () => {
    expect(decode(codec, '{"l":9.007199254740993E15,"u":null,"b":"","i":1.0}')).toEqual({
      l: 9007199254740993n,
      u: null,
      b: Buffer.alloc(0),
      i: 1,
    })
  })

  it('keeps longs exact at both ends of the 64-bit range', () => {
    const longs = jsonCodec({ type: 'array', items: 'long' })
    const text = '[9223372036854775807,-9223372036854775808,9007199254740993]'
    expect(decode(longs, text)).toEqual([9223372036854775807n, -9223372036854775808n, 9007199254740993n])
    expect(encode(longs, [9223372036854775807n, -9223372036854775808n, 9007199254740993n]).toString()).toBe(
      text,
    )
  })

  it.each([
    ['a union value without its wrapper', '{"l":1,"u":"x","b":"","i":1}', 'u'],
    ['a union wrapper naming no branch of the union', '{"l":1,"u":{"long":1},"b":"","i":1}', 'u'],
    ['a union wrapper with two branches', '{"l":1,"u":{"string":"a","null":null},"b":"","i":1}', 'u'],
    ['a long beyond the 64-bit range', '{"l":9223372036854775808,"u":null,"b":"","i":1}', 'l'],
    ['a long below the 64-bit range', '{"l":-9223372036854775809,"u":null,"b":"","i":1}', 'l'],
    ['a long with a fraction', '{"l":1.5,"u":null,"b":"","i":1}', 'l'],
    ['a long as a string', '{"l":"1","u":null,"b":"","i":1}', 'l'],
    ['an int beyond the 32-bit range', '{"l":1,"u":null,"b":"","i":2147483648}', 'i'],
    ['bytes with a code point above 255', '{"l":1,"u":null,"b":"\\u0100","i":1}', 'b'],
    ['a missing field', '{"l":1,"u":null,"i":1}', 'b'],
  ])('refuses %s with a DeserializationError naming the path', (_, text, path) => {
    const error = decodeError(codec, text)
    expect(error.message).toMatch(new RegExp(`^Invalid Avro JSON at ${path}: expected `))
  })

  it('names nested paths: array items, map keys, union branches', () => {
    const nested = jsonCodec({
      type: 'record',
      name: 'N',
      fields: [
        { name: 'tags', type: { type: 'array', items: 'string' } },
        { name: 'attrs', type: { type: 'map', values: ['null', 'bytes'] } },
      ],
    })
    expect(decodeError(nested, '{"tags":["a",2],"attrs":{}}').message).toBe(
      'Invalid Avro JSON at tags[1]: expected a string, got the number 2',
    )
    expect(decodeError(nested, '{"tags":[],"attrs":{"k":{"bytes":"\\u20ac"}}}').message).toBe(
      'Invalid Avro JSON at attrs["k"].bytes: expected bytes as a string of code points 0–255, got code point U+20AC at index 0',
    )
  })

  it('refuses text that is not JSON, or not UTF-8, or with bytes after the value', () => {
    expect(decodeError(codec, '{"l":1,').message).toBe(
      'Invalid Avro JSON: Expected a property name in double quotes, got the end of the text at position 7',
    )
    expect(decodeError(codec, '{"l":1,"u":null,"b":"","i":1} x').message).toBe(
      'Invalid Avro JSON: Expected the end of the JSON text, got "x" at position 30',
    )
    expect(decodeError(codec, '{"l":1,"l":2}').message).toBe(
      'Invalid Avro JSON: Repeated property name "l" at position 7',
    )
    const bad = Buffer.from([0x22, 0xff, 0x22])
    expect(() => jsonCodec({ type: 'string' }).decode(bad, 0, 3)).toThrow(
      'Invalid Avro JSON: the payload is not UTF-8 text',
    )
  })

  it('refuses enum symbols and fixed sizes the schema does not have', () => {
    const e = jsonCodec({ type: 'enum', name: 'E', symbols: ['A'] })
    expect(decodeError(e, '"B"').message).toBe(
      'Invalid Avro JSON at (value): expected a symbol of enum E (A), got string "B"',
    )
    const f = jsonCodec({ type: 'fixed', name: 'F', size: 2 })
    expect(decodeError(f, '"abc"').message).toBe(
      'Invalid Avro JSON at (value): expected fixed F of 2 bytes, got 3 bytes',
    )
  })

  it('reads with the writer schema, then resolves into the reader schema', () => {
    const writer = jsonCodec({ type: 'record', name: 'V', fields: [{ name: 'a', type: 'int' }] })
    const reader = jsonCodec({
      type: 'record',
      name: 'V',
      fields: [
        { name: 'a', type: 'long' },
        { name: 'b', type: 'string', default: 'x' },
      ],
    })
    const bytes = Buffer.from('{"a":7}')
    expect(reader.decode(bytes, 0, bytes.length, writer)).toEqual({ a: 7, b: 'x' })
  })

  it('reads binary instead when the hint (a message header) says BINARY, whatever the codec writes', () => {
    const both = jsonCodec({ type: 'record', name: 'S', fields: [{ name: 'n', type: 'long' }] })
    expect(both.decode(Buffer.from([0x18]), 0, 1, undefined, 'binary')).toEqual({ n: 12 })
    const json = Buffer.from('{"n":12}')
    expect(both.decode(json, 0, json.length, undefined, 'json')).toEqual({ n: 12 })
  })

  it('refuses nesting deeper than 1000 levels before it can exhaust the stack', () => {
    const deep = jsonCodec({ type: 'array', items: 'int' })
    expect(decodeError(deep, '['.repeat(1002) + ']'.repeat(1002)).message).toBe(
      'Invalid Avro JSON: JSON nested deeper than 1000 arrays and objects at position 1000',
    )
  })
})

describe('writing Avro JSON', () => {
  it('refuses a value that does not match the schema with the TypeError of the binary codec', () => {
    const codec = jsonCodec({ type: 'record', name: 'S', fields: [{ name: 'n', type: 'long' }] })
    expect(() => encode(codec, { n: 'x' })).toThrow(
      expect.objectContaining({ code: 'INVALID_DATA', paths: ['n'] }),
    )
  })

  it('refuses undeclared fields with strict before writing', () => {
    const codec = jsonCodec({ type: 'record', name: 'S', fields: [{ name: 'n', type: 'long' }] }, {}, true)
    expect(() => encode(codec, { n: 1, extra: 2 })).toThrow(
      expect.objectContaining({ code: 'INVALID_DATA', paths: ['extra'] }),
    )
  })

  it('writes a union of a logical type under the underlying type name, as Java labels it', () => {
    const legal = jsonCodec({
      type: 'array',
      items: ['null', { type: 'long', logicalType: 'timestamp-millis' }],
    })
    expect(encode(legal, [null, new Date(5)]).toString()).toBe('[null,{"long":5}]')
    expect(decode(legal, '[null,{"long":5}]')).toEqual([null, new Date(5)])
  })

  it('writes the same text whatever the union representation of the JavaScript values', () => {
    const schema = { type: 'array', items: ['null', 'int', 'string'] }
    const wrapped = jsonCodec(schema, { unions: 'wrapped' })
    expect(encode(wrapped, [null, { int: 1 }, { string: 'a' }]).toString()).toBe(
      '[null,{"int":1},{"string":"a"}]',
    )
    expect(encode(jsonCodec(schema), [null, 1, 'a']).toString()).toBe('[null,{"int":1},{"string":"a"}]')
    expect(decode(wrapped, '[null,{"int":1}]')).toEqual([null, { int: 1 }])
  })
})

describe("avsc's own JSON (Type#toString / fromString), checked against Java's rather than assumed", () => {
  const schema = {
    type: 'record',
    name: 'R',
    namespace: 'x.j',
    fields: [
      { name: 's', type: 'string' },
      { name: 'f', type: 'float' },
      { name: 'd', type: 'double' },
      { name: 'b', type: 'bytes' },
      { name: 'u', type: ['null', { type: 'record', name: 'Sub', fields: [{ name: 'x', type: 'int' }] }] },
    ],
  }
  const value = { s: 'a\u001f', f: 0.1, d: 1, b: Buffer.from([0, 0xfe]), u: { x: 3 } }

  it('has the same structure (full-name union wrappers, bytes as ISO-8859-1) but not the bytes Java writes', () => {
    const plain = avro.Type.forSchema(schema as avro.Schema)
    expect(plain.toString(value)).toBe(
      '{"s":"a\\u001f","f":0.1,"d":1,"b":"\\u0000þ","u":{"x.j.Sub":{"x":3}}}',
    )
    expect(encode(jsonCodec(schema), value).toString()).toBe(
      '{"s":"a\\u001F","f":0.10000000149011612,"d":1.0,"b":"\\u0000þ","u":{"x.j.Sub":{"x":3}}}',
    )
  })

  it('reads longs through JSON.parse: one beyond 2^53 is refused (or rounded), where the codec here keeps it', () => {
    const plain = avro.Type.forSchema({ type: 'array', items: 'long' })
    expect(() => plain.fromString('[9007199254740993]')).toThrow('invalid "long": 9007199254740992')
    expect(decode(jsonCodec({ type: 'array', items: 'long' }), '[9007199254740993]')).toEqual([
      9007199254740993n,
    ])
  })
})
