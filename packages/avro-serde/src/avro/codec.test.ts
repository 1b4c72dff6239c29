import avro from 'avsc'
import { describe, expect, test } from 'vitest'
import {
  BENCH_EVENT,
  BENCH_EVENT_SCHEMA,
  codecOf,
  EVERYTHING_SCHEMA,
  encode,
  everythingValue,
  fromHex,
  hex,
  thrown,
} from './test-support/fixtures.js'

describe('golden bytes of each Avro type', () => {
  const cases: [string, object | string, unknown, string][] = [
    ['null', 'null', null, ''],
    ['boolean true', 'boolean', true, '01'],
    ['boolean false', 'boolean', false, '00'],
    ['int 1', 'int', 1, '02'],
    ['int -1', 'int', -1, '01'],
    ['int 64', 'int', 64, '80 01'],
    ['int -65', 'int', -65, '81 01'],
    ['int 2^31-1', 'int', 2147483647, 'fe ff ff ff 0f'],
    ['long -1', 'long', -1, '01'],
    ['long 1767225600123', 'long', 1767225600123, 'f6 a1 d5 ed ee 66'],
    ['float 1.5', 'float', 1.5, '00 00 c0 3f'],
    ['double 1.5', 'double', 1.5, '00 00 00 00 00 00 f8 3f'],
    ['string "a"', 'string', 'a', '02 61'],
    ['string "é"', 'string', 'é', '04 c3 a9'],
    ['bytes 01 02', 'bytes', Buffer.from([1, 2]), '04 01 02'],
    ['fixed of 2', { type: 'fixed', name: 'F', size: 2 }, Buffer.from([1, 2]), '01 02'],
    ['enum symbol 1', { type: 'enum', name: 'E', symbols: ['A', 'B'] }, 'B', '02'],
    ['array of ints', { type: 'array', items: 'int' }, [1, 2], '04 02 04 00'],
    ['empty array', { type: 'array', items: 'int' }, [], '00'],
    ['map of ints', { type: 'map', values: 'int' }, { a: 1 }, '02 02 61 02 00'],
    ['union null branch', ['null', 'string'], null, '00'],
    ['union string branch', ['null', 'string'], 'a', '02 02 61'],
    [
      'record',
      {
        type: 'record',
        name: 'R',
        fields: [
          { name: 'a', type: 'int' },
          { name: 'b', type: 'string' },
        ],
      },
      { a: 1, b: 'a' },
      '02 02 61',
    ],
  ]
  test.each(cases)('%s', (_name, schema, value, bytes) => {
    const codec = codecOf(schema)
    expect(hex(encode(codec, value))).toBe(bytes)
    expect(codec.decode(fromHex(bytes), 0)).toEqual(value)
  })
})

describe('round trips', () => {
  test('a record using every type and logical type decodes equal to the input (unions: auto)', () => {
    const codec = codecOf(EVERYTHING_SCHEMA)
    const value = everythingValue()
    const bytes = encode(codec, value)
    expect(codec.decode(bytes, 0)).toEqual(value)
  })

  test('the same record round-trips with unions: wrapped, where every union value is { branch: value }', () => {
    const codec = codecOf(EVERYTHING_SCHEMA, { unions: 'wrapped' })
    const value = { ...everythingValue(), note: { string: 'hello' } }
    const decoded = codec.decode(encode(codec, value), 0) as Record<string, unknown>
    expect(decoded).toEqual(value)
    expect(decoded.pet).toEqual({ 'test.avro.Dog': { good: true } })
    const withNull = codec.decode(encode(codec, { ...value, note: null }), 0) as Record<string, unknown>
    expect(withNull.note).toBeNull()
  })

  test('wrapped and auto unions write the same bytes', () => {
    const auto = codecOf(EVERYTHING_SCHEMA)
    const wrapped = codecOf(EVERYTHING_SCHEMA, { unions: 'wrapped' })
    const value = everythingValue()
    expect(encode(wrapped, { ...value, note: { string: 'hello' } })).toEqual(encode(auto, value))
  })

  test('fields left out take their defaults on write', () => {
    const codec = codecOf(EVERYTHING_SCHEMA)
    const { note: _note, retries: _retries, ...rest } = everythingValue()
    const decoded = codec.decode(encode(codec, rest), 0) as Record<string, unknown>
    expect(decoded.note).toBeNull()
    expect(decoded.retries).toBe(3)
  })

  test('the bench.Event record encodes to the same 132 bytes as raw avsc', () => {
    const codec = codecOf(BENCH_EVENT_SCHEMA)
    const bytes = encode(codec, BENCH_EVENT)
    const raw = avro.Type.forSchema(BENCH_EVENT_SCHEMA as never).toBuffer(BENCH_EVENT)
    expect(bytes.length).toBe(132)
    expect(hex(bytes)).toBe(hex(raw))
    expect(codec.decode(bytes, 0)).toEqual(BENCH_EVENT)
  })

  test('any Uint8Array is taken for bytes and fixed, and they decode to Buffers', () => {
    const codec = codecOf({
      type: 'record',
      name: 'B',
      fields: [
        { name: 'b', type: 'bytes' },
        { name: 'f', type: { type: 'fixed', name: 'F', size: 3 } },
      ],
    })
    const backing = new Uint8Array([9, 1, 2, 3, 4, 5, 9])
    const bytes = encode(codec, { b: backing.subarray(1, 3), f: backing.subarray(3, 6) })
    expect(hex(bytes)).toBe('04 01 02 03 04 05')
    const decoded = codec.decode(bytes, 0) as { b: Buffer; f: Buffer }
    expect(Buffer.isBuffer(decoded.b)).toBe(true)
    expect(Buffer.isBuffer(decoded.f)).toBe(true)
    expect([...decoded.b, ...decoded.f]).toEqual([1, 2, 3, 4, 5])
  })
})

describe('encodeInto', () => {
  test('writes at the offset and returns the end offset', () => {
    const codec = codecOf('string')
    const target = Buffer.alloc(8, 0xaa)
    expect(codec.encodeInto('a', target, 5)).toBe(7)
    expect(hex(target)).toBe('aa aa aa aa aa 02 61 aa')
  })

  test('returns minus the number of missing bytes when the target is too small, and writes nothing past it', () => {
    const codec = codecOf('string')
    const target = Buffer.alloc(4, 0xaa)
    const backing = Buffer.alloc(8, 0xbb)
    backing.set(target)
    expect(codec.encodeInto('abcdef', backing.subarray(0, 4), 1)).toBe(-4)
    expect(hex(backing.subarray(4))).toBe('bb bb bb bb')
  })

  test('writes into a plain Uint8Array', () => {
    const target = new Uint8Array(4)
    expect(codecOf('string').encodeInto('ab', target, 1)).toBe(4)
    expect(hex(target)).toBe('00 04 61 62')
  })

  test('names every failing field path with its expected type', () => {
    const codec = codecOf({
      type: 'record',
      name: 'Outer',
      fields: [
        { name: 'a', type: 'int' },
        { name: 'b', type: { type: 'record', name: 'Inner', fields: [{ name: 'c', type: 'int' }] } },
      ],
    })
    const error = thrown(() => codec.encodeInto({ a: 'x', b: { c: true } }, Buffer.alloc(64), 0))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual(['a', 'b.c'])
    expect(error.message).toBe(
      'Value does not match the Avro schema Outer: a: expected int, got string "x"; b.c: expected int, got boolean true',
    )
    expect(error.cause).toBeInstanceOf(Error)
  })

  test('paths use [index] for array items and ["key"] for map entries and wrapped union branches', () => {
    const codec = codecOf({
      type: 'record',
      name: 'P',
      fields: [
        { name: 'tags', type: { type: 'array', items: 'string' } },
        { name: 'attrs', type: { type: 'map', values: 'int' } },
        { name: 'choice', type: ['int', 'long'] },
        { name: 'deep', type: { type: 'array', items: { type: 'map', values: ['null', 'string'] } } },
      ],
    })
    const error = thrown(() =>
      codec.encodeInto(
        { tags: ['ok', 'ok', 7], attrs: { 'k.1': 'v' }, choice: { int: 1.5 }, deep: [{}, { x: 1 }] },
        Buffer.alloc(64),
        0,
      ),
    )
    expect(error.paths).toEqual(['tags[2]', 'attrs["k.1"]', 'choice["int"]', 'deep[1]["x"]'])
    expect(error.message).toContain('deep[1]["x"]: expected one of null, string, got number 1')
  })

  test('a missing required field and a wrong top-level value are named', () => {
    const codec = codecOf({ type: 'record', name: 'R', fields: [{ name: 'id', type: 'string' }] })
    expect(thrown(() => codec.encodeInto({}, Buffer.alloc(8), 0)).message).toBe(
      'Value does not match the Avro schema R: id: expected string, got undefined',
    )
    const top = thrown(() => codec.encodeInto(null, Buffer.alloc(8), 0))
    expect(top.paths).toEqual([''])
    expect(top.message).toBe('Value does not match the Avro schema R: (value): expected record R, got null')
  })

  test('the message lists ten failures and counts the rest; paths holds them all', () => {
    const codec = codecOf({ type: 'array', items: 'int' })
    const error = thrown(() =>
      codec.encodeInto(
        Array.from({ length: 12 }, () => 'x'),
        Buffer.alloc(64),
        0,
      ),
    )
    expect(error.paths).toHaveLength(12)
    expect(error.message.endsWith('; and 2 more')).toBe(true)
  })

  test('long strings are cut in messages', () => {
    const codec = codecOf('int')
    expect(thrown(() => codec.encodeInto('x'.repeat(100), Buffer.alloc(8), 0)).message).toBe(
      `Value does not match the Avro schema int: (value): expected int, got string "${'x'.repeat(40)}…"`,
    )
  })
})

describe('checkStrict', () => {
  const codec = codecOf({
    type: 'record',
    name: 'S',
    fields: [
      { name: 'id', type: 'string' },
      { name: 'child', type: { type: 'record', name: 'Child', fields: [{ name: 'n', type: 'int' }] } },
      { name: 'list', type: { type: 'array', items: 'Child' } },
      { name: 'byKey', type: { type: 'map', values: 'Child' } },
      { name: 'maybe', type: ['null', 'Child'] },
      { name: 'either', type: ['Child', { type: 'record', name: 'Other', fields: [] }] },
    ],
  })
  const valid = {
    id: 'a',
    child: { n: 1 },
    list: [{ n: 2 }],
    byKey: { k: { n: 3 } },
    maybe: { n: 4 },
    either: { Child: { n: 5 } },
  }

  test('accepts a value with only declared fields', () => {
    expect(() => codec.checkStrict(valid)).not.toThrow()
  })

  test('names every undeclared field at any depth', () => {
    const error = thrown(() =>
      codec.checkStrict({
        ...valid,
        extra: 1,
        child: { n: 1, x: 1 },
        list: [{ n: 2 }, { n: 2, y: 1 }],
        byKey: { k: { n: 3, z: 1 } },
        maybe: { n: 4, w: 1 },
        either: { Child: { n: 5, v: 1 } },
      }),
    )
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual([
      'extra',
      'child.x',
      'list[1].y',
      'byKey["k"].z',
      'maybe.w',
      'either["Child"].v',
    ])
    expect(error.message).toBe(
      'Value has fields not in the Avro schema S (strict mode): extra, child.x, list[1].y, byKey["k"].z, maybe.w, either["Child"].v',
    )
  })

  test('quotes an undeclared name that is not an identifier, as every format writes such a name', () => {
    const error = thrown(() => codec.checkStrict({ ...valid, 'first name': 1, child: { n: 1, 'a.b': 2 } }))
    expect(error.paths).toEqual(['["first name"]', 'child["a.b"]'])
  })
})

describe('decode', () => {
  const codec = codecOf({
    type: 'record',
    name: 'D',
    fields: [
      { name: 'a', type: 'int' },
      { name: 'b', type: 'string' },
    ],
  })

  test('decodes between offset and end', () => {
    expect(codec.decode(fromHex('ff ff 02 02 61 ff'), 2, 5)).toEqual({ a: 1, b: 'a' })
  })

  test('decodes a plain Uint8Array', () => {
    expect(codec.decode(new Uint8Array([2, 2, 0x61]), 0)).toEqual({ a: 1, b: 'a' })
  })

  test('refuses trailing bytes after a complete value and says how many', () => {
    const error = thrown(() => codec.decode(fromHex('02 02 61 00 00'), 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.code).toBe('DESERIALIZATION')
    expect(error.message).toBe(
      'Invalid Avro data for schema D: 2 trailing bytes after a complete value (it ends at offset 3 of 5)',
    )
  })

  test('refuses truncated data', () => {
    const error = thrown(() => codec.decode(fromHex('02 04 61'), 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toBe('Invalid Avro data for schema D: truncated (the 3 bytes end inside a value)')
  })

  test('wraps a malformed value in a DeserializationError with the cause', () => {
    const union = codecOf(['null', 'string'])
    const error = thrown(() => union.decode(fromHex('08'), 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toBe('Invalid Avro data for schema union: invalid union index: 4')
    expect(error.cause).toBeInstanceOf(Error)
  })

  test('refuses a range outside the bytes as misuse', () => {
    const error = thrown(() => codec.decode(fromHex('02 02 61'), 2, 4))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_CONFIG')
  })
})

describe('createCodec', () => {
  test('exposes the schema JSON and the full name of named types', () => {
    const codec = codecOf(JSON.stringify(BENCH_EVENT_SCHEMA))
    expect(codec.schema).toEqual(BENCH_EVENT_SCHEMA)
    expect(codec.fullName).toBe('bench.Event')
    expect(codecOf({ type: 'enum', name: 'E', namespace: 'n', symbols: ['A'] }).fullName).toBe('n.E')
    expect(
      codecOf({ type: 'fixed', name: 'Money', size: 8, logicalType: 'decimal', precision: 10, scale: 2 })
        .fullName,
    ).toBe('Money')
    expect(codecOf(['null', 'string']).fullName).toBeUndefined()
  })

  test('a primitive schema given as a name has the schema { type: name }', () => {
    expect(codecOf('"long"').schema).toEqual({ type: 'long' })
    expect(codecOf('int').schema).toEqual({ type: 'int' })
  })
})
