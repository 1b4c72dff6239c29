import avro from 'avsc'
import { describe, expect, test } from 'vitest'
import { codecOf, encode, fromHex, hex, thrown } from './test-support/fixtures.js'

const long = (logicalType: string) => ({ type: 'long', logicalType })
const decimalBytes = (precision: number, scale: number) => ({
  type: 'bytes',
  logicalType: 'decimal',
  precision,
  scale,
})
const decimalFixed = (size: number, precision: number, scale: number) => ({
  type: 'fixed',
  name: 'D',
  size,
  logicalType: 'decimal',
  precision,
  scale,
})

describe('golden bytes and decoded values', () => {
  const uuid = '123e4567-e89b-12d3-a456-426614174000'
  const cases: [string, object, unknown, string][] = [
    ['timestamp-millis Date(0)', long('timestamp-millis'), new Date(0), '00'],
    ['timestamp-millis Date(1000)', long('timestamp-millis'), new Date(1000), 'd0 0f'],
    ['timestamp-millis before 1970', long('timestamp-millis'), new Date(-1), '01'],
    ['local-timestamp-millis', long('local-timestamp-millis'), new Date(1000), 'd0 0f'],
    ['timestamp-micros', long('timestamp-micros'), 1n, '02'],
    ['timestamp-micros of 2023', long('timestamp-micros'), 1_700_000_000_000_000n, '80 80 f2 81 83 89 85 06'],
    ['local-timestamp-micros', long('local-timestamp-micros'), -1n, '01'],
    ['timestamp-nanos', long('timestamp-nanos'), 2n ** 63n - 1n, 'fe ff ff ff ff ff ff ff ff 01'],
    ['time-micros', long('time-micros'), 1000n, 'd0 0f'],
    ['time-millis', { type: 'int', logicalType: 'time-millis' }, 1, '02'],
    ['date 1970-01-02', { type: 'int', logicalType: 'date' }, new Date(Date.UTC(1970, 0, 2)), '02'],
    ['date 1969-12-31', { type: 'int', logicalType: 'date' }, new Date(Date.UTC(1969, 11, 31)), '01'],
    ['uuid on string', { type: 'string', logicalType: 'uuid' }, uuid, `48 ${hex(Buffer.from(uuid))}`],
    [
      'uuid on fixed 16',
      { type: 'fixed', name: 'U', size: 16, logicalType: 'uuid' },
      uuid,
      '12 3e 45 67 e8 9b 12 d3 a4 56 42 66 14 17 40 00',
    ],
    ['decimal "1.23" scale 2 (bytes)', decimalBytes(5, 2), '1.23', '02 7b'],
    ['decimal "-1.23" (bytes)', decimalBytes(5, 2), '-1.23', '02 85'],
    ['decimal "1.28" needs a sign byte', decimalBytes(5, 2), '1.28', '04 00 80'],
    ['decimal "0.00" is one zero byte', decimalBytes(5, 2), '0.00', '02 00'],
    ['decimal "-0.01" in fixed 4', decimalFixed(4, 9, 2), '-0.01', 'ff ff ff ff'],
    ['decimal "1.00" in fixed 2', decimalFixed(2, 4, 2), '1.00', '00 64'],
    ['decimal scale 0', decimalBytes(3, 0), '123', '02 7b'],
  ]
  test.each(cases)('%s', (_name, schema, value, bytes) => {
    const codec = codecOf(schema)
    expect(hex(encode(codec, value))).toBe(bytes)
    expect(codec.decode(fromHex(bytes), 0)).toEqual(value)
  })

  test('decimals decode with exactly `scale` fraction digits', () => {
    expect(codecOf(decimalBytes(5, 2)).decode(fromHex('02 05'), 0)).toBe('0.05')
    expect(codecOf(decimalBytes(5, 2)).decode(fromHex('02 fb'), 0)).toBe('-0.05')
    expect(codecOf(decimalBytes(5, 3)).decode(fromHex('02 7b'), 0)).toBe('0.123')
    expect(codecOf(decimalBytes(5, 0)).decode(fromHex('00'), 0)).toBe('0')
  })

  test('a decimal beyond 2^64 keeps every digit', () => {
    const codec = codecOf(decimalBytes(40, 10))
    const value = '-123456789012345678901234567890.1234567890'
    expect(codec.decode(encode(codec, value), 0)).toBe(value)
  })
})

describe('values taken on write', () => {
  test('timestamp-millis takes a safe integer number of milliseconds', () => {
    expect(hex(encode(codecOf(long('timestamp-millis')), 1000))).toBe('d0 0f')
  })

  test('timestamp-micros and -nanos take a Date (exactly scaled) or a number', () => {
    expect(hex(encode(codecOf(long('timestamp-micros')), new Date(1)))).toBe('d0 0f')
    expect(
      codecOf(long('timestamp-nanos')).decode(encode(codecOf(long('timestamp-nanos')), new Date(1)), 0),
    ).toBe(1_000_000n)
    expect(hex(encode(codecOf(long('timestamp-micros')), 1))).toBe('02')
  })

  test('date takes an integer number of days', () => {
    expect(hex(encode(codecOf({ type: 'int', logicalType: 'date' }), -1))).toBe('01')
  })

  test('decimal takes a number, a bigint, an exponent and trailing zeros beyond the scale (nothing is rounded)', () => {
    const codec = codecOf(decimalBytes(6, 2))
    const decode = (value: unknown) => codec.decode(encode(codec, value), 0)
    expect(decode(1.5)).toBe('1.50')
    expect(decode(-0.07)).toBe('-0.07')
    expect(decode(12n)).toBe('12.00')
    expect(decode('1.5e2')).toBe('150.00')
    expect(decode('12.3400')).toBe('12.34')
    expect(decode('+.5')).toBe('0.50')
  })
})

describe('values refused on write (TypeError INVALID_DATA, never rounded)', () => {
  const cases: [string, object, unknown, string][] = [
    [
      'a date that is not at UTC midnight',
      { type: 'int', logicalType: 'date' },
      new Date(Date.UTC(2026, 0, 1, 12)),
      'expected date (a Date at UTC midnight or an integer number of days), got Date 2026-01-01T12:00:00.000Z (not at UTC midnight: dates are never rounded)',
    ],
    [
      'an invalid Date',
      long('timestamp-millis'),
      new Date(Number.NaN),
      'expected timestamp-millis (a Date or a safe integer number of milliseconds), got an invalid Date (an invalid Date)',
    ],
    [
      'a fractional millisecond',
      long('timestamp-millis'),
      1.5,
      'expected timestamp-millis (a Date or a safe integer number of milliseconds), got number 1.5 (not a safe integer)',
    ],
    [
      'a micros Date beyond the nanos range',
      long('timestamp-nanos'),
      new Date(8.64e15),
      'expected timestamp-nanos (a bigint or a safe integer number of nanoseconds, or a Date), got Date +275760-09-13T00:00:00.000Z (outside the signed 64-bit range)',
    ],
    [
      'a time-micros Date',
      long('time-micros'),
      new Date(0),
      'expected time-micros (a bigint or a safe integer number of microseconds), got Date 1970-01-01T00:00:00.000Z (not a bigint or number)',
    ],
    [
      'a malformed uuid',
      { type: 'string', logicalType: 'uuid' },
      'not-a-uuid',
      'expected uuid (a string such as "123e4567-e89b-12d3-a456-426614174000"), got string "not-a-uuid" (not in the 8-4-4-4-12 hexadecimal form)',
    ],
    [
      'a decimal with more fraction digits than the scale',
      decimalBytes(5, 2),
      '1.234',
      'expected decimal(5,2) (a decimal string, number or bigint with at most 2 fraction digits and 5 digits), got string "1.234" (more than 2 fraction digits)',
    ],
    [
      'a decimal with more digits than the precision',
      decimalBytes(5, 2),
      '1234.5',
      'expected decimal(5,2) (a decimal string, number or bigint with at most 2 fraction digits and 5 digits), got string "1234.5" (more than 5 digits)',
    ],
    [
      'a decimal with more digits than its fixed size can hold',
      decimalFixed(1, 2, 0),
      '-100',
      'expected decimal(2,0) (a decimal string, number or bigint with at most 0 fraction digits and 2 digits in 1 byte), got string "-100" (more than 2 digits)',
    ],
    [
      'a decimal number that may have been rounded',
      decimalBytes(30, 0),
      2 ** 60,
      'got number 1152921504606847000 (an unsafe integer number, which may already have been rounded: pass a string or a bigint)',
    ],
    [
      'a decimal that is not a number',
      decimalBytes(5, 2),
      '1,5',
      'expected decimal(5,2) (a decimal string, number or bigint with at most 2 fraction digits and 5 digits), got string "1,5" (not a decimal number)',
    ],
    ['a decimal NaN', decimalBytes(5, 2), Number.NaN, 'got number NaN (not a finite number)'],
  ]
  test.each(cases)('%s', (_name, schema, value, message) => {
    const error = thrown(() => codecOf(schema).encodeInto(value, Buffer.alloc(64), 0))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual([''])
    expect(error.message).toContain(message)
  })
})

describe('defaults of logical fields', () => {
  test('are read from the schema as the logical value and written when a field is left out', () => {
    const writer = codecOf({
      type: 'record',
      name: 'Defaults',
      fields: [
        { name: 'price', type: decimalBytes(5, 2), default: '\u0000\u007b' },
        { name: 'day', type: { type: 'int', logicalType: 'date' }, default: 1 },
        { name: 'at', type: long('timestamp-micros'), default: 5 },
        {
          name: 'id',
          type: { type: 'string', logicalType: 'uuid' },
          default: '123e4567-e89b-12d3-a456-426614174000',
        },
      ],
    })
    expect(writer.decode(encode(writer, {}), 0)).toEqual({
      price: '1.23',
      day: new Date(Date.UTC(1970, 0, 2)),
      at: 5n,
      id: '123e4567-e89b-12d3-a456-426614174000',
    })
  })
})

describe('decoding values a Date cannot hold', () => {
  test('a timestamp-millis beyond the Date range is refused rather than turned into an invalid Date', () => {
    const bytes = encode(codecOf('long'), 8.64e15 + 1)
    const error = thrown(() => codecOf(long('timestamp-millis')).decode(bytes, 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toBe(
      'Invalid Avro data for schema timestamp-millis: logical:timestamp-millis value 8640000000000001 is outside the range of a JavaScript Date',
    )
  })

  test('a date beyond the Date range is refused', () => {
    const bytes = encode(codecOf('int'), 100_000_001)
    expect(thrown(() => codecOf({ type: 'int', logicalType: 'date' }).decode(bytes, 0)).name).toBe(
      'DeserializationError',
    )
  })
})

describe('encoding values this serde could not read back as a Date', () => {
  // Found by the reliability fuzzer (fuzz-encode): the writer took 9007199254740957 ms, which its own reader refuses.
  test('a timestamp-millis number beyond the Date range is refused with INVALID_DATA, not written', () => {
    for (const value of [8.64e15 + 1, -8.64e15 - 1, 9007199254740957]) {
      const error = thrown(() => encode(codecOf(long('timestamp-millis')), value))
      expect([error.name, error.code]).toEqual(['TypeError', 'INVALID_DATA'])
      expect(error.message).toContain('outside the range of a JavaScript Date')
    }
    expect(hex(encode(codecOf(long('timestamp-millis')), 8.64e15))).toBe('80 80 e0 ad 98 82 d9 1e')
  })

  test('a date number beyond the Date range is refused with INVALID_DATA, not written', () => {
    const error = thrown(() => encode(codecOf({ type: 'int', logicalType: 'date' }), 100_000_001))
    expect([error.name, error.code]).toEqual(['TypeError', 'INVALID_DATA'])
    expect(error.message).toContain('outside the range of a JavaScript Date')
  })
})

describe('invalid annotations fall back to the underlying type (Avro specification)', () => {
  const cases: [string, object, unknown][] = [
    ['timestamp-millis on a string', { type: 'string', logicalType: 'timestamp-millis' }, 'x'],
    ['date on a long', { type: 'long', logicalType: 'date' }, 5],
    [
      'decimal with scale above precision',
      { type: 'bytes', logicalType: 'decimal', precision: 2, scale: 3 },
      Buffer.from([1]),
    ],
    ['decimal without precision', { type: 'bytes', logicalType: 'decimal' }, Buffer.from([1])],
    ['decimal too precise for its fixed', decimalFixed(1, 3, 0), Buffer.from([1])],
    ['uuid on a fixed of 8', { type: 'fixed', name: 'U8', size: 8, logicalType: 'uuid' }, Buffer.alloc(8, 1)],
    ['an unknown logical type', { type: 'string', logicalType: 'no-such-thing' }, 'y'],
  ]
  test.each(cases)('%s', (_name, schema, value) => {
    const codec = codecOf(schema)
    expect(codec.decode(encode(codec, value), 0)).toEqual(value)
  })

  test('a named fixed under an invalid decimal is registered once and usable by name', () => {
    const codec = codecOf({
      type: 'record',
      name: 'R',
      fields: [
        { name: 'a', type: { type: 'fixed', name: 'F', size: 1, logicalType: 'decimal', precision: 9 } },
        { name: 'b', type: 'F' },
      ],
    })
    const value = { a: Buffer.from([1]), b: Buffer.from([2]) }
    expect(codec.decode(encode(codec, value), 0)).toEqual(value)
  })
})

describe('logical types in the options', () => {
  class UpperCase extends (avro.types.LogicalType as unknown as new (
    schema: unknown,
    opts: unknown,
  ) => object) {
    _fromValue(value: string): string {
      return value.toUpperCase()
    }
    _toValue(value: unknown): string | undefined {
      return typeof value === 'string' ? value.toLowerCase() : undefined
    }
  }

  test('an extra logical type is used by its name', () => {
    const codec = codecOf({ type: 'string', logicalType: 'upper' }, { logicalTypes: { upper: UpperCase } })
    expect(hex(encode(codec, 'AB'))).toBe('04 61 62')
    expect(codec.decode(fromHex('04 61 62'), 0)).toBe('AB')
  })

  test('a value an extra logical type refuses is reported with its path', () => {
    const codec = codecOf(
      { type: 'record', name: 'R', fields: [{ name: 'u', type: { type: 'string', logicalType: 'upper' } }] },
      { logicalTypes: { upper: UpperCase } },
    )
    const error = thrown(() => codec.encodeInto({ u: 5 }, Buffer.alloc(8), 0))
    expect(error.paths).toEqual(['u'])
    expect(error.message).toBe('Value does not match the Avro schema R: u: expected upper, got number 5')
  })

  test('null turns a built-in off: the underlying type is used', () => {
    const codec = codecOf(long('timestamp-millis'), { logicalTypes: { 'timestamp-millis': null } })
    expect(codec.decode(fromHex('d0 0f'), 0)).toBe(1000)
  })

  test('a typeHook type is used as is', () => {
    const special = avro.Type.forSchema('string')
    const codec = codecOf(
      { type: 'record', name: 'R', fields: [{ name: 's', type: { type: 'int', special: true } }] },
      { typeHook: (schema) => ((schema as { special?: boolean }).special ? special : undefined) },
    )
    expect(codec.decode(encode(codec, { s: 'a' }), 0)).toEqual({ s: 'a' })
  })
})

describe('schema resolution of logical types', () => {
  const read = (writer: object, reader: object, value: unknown) => {
    const w = codecOf(writer)
    return codecOf(reader).decode(encode(w, value), 0, undefined, w)
  }

  test('a plain long is read as timestamp-millis, and timestamp-millis as a plain long', () => {
    expect(read({ type: 'long' }, long('timestamp-millis'), 1000)).toEqual(new Date(1000))
    expect(read(long('timestamp-millis'), { type: 'long' }, new Date(1000))).toBe(1000)
  })

  test('an int is promoted to a long-based logical type', () => {
    expect(read({ type: 'int' }, long('timestamp-millis'), 1000)).toEqual(new Date(1000))
    expect(read({ type: 'int' }, long('timestamp-micros'), 7)).toBe(7n)
  })

  test('the same logical type reads directly', () => {
    expect(read(long('timestamp-micros'), long('timestamp-micros'), 5n)).toBe(5n)
    expect(read(decimalBytes(10, 2), decimalBytes(12, 2), '1.25')).toBe('1.25')
    expect(read({ type: 'string' }, { type: 'string', logicalType: 'uuid' }, 'x')).toBe('x')
    expect(read({ type: 'bytes' }, decimalBytes(5, 2), Buffer.from([0x7b]))).toBe('1.23')
  })

  test('another logical type is refused rather than silently rescaled', () => {
    const writer = codecOf(long('timestamp-millis'))
    const error = thrown(() =>
      codecOf(long('timestamp-micros')).decode(encode(writer, new Date(1)), 0, undefined, writer),
    )
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toMatch(
      /^Writer schema timestamp-millis cannot be read as reader schema timestamp-micros: /,
    )
    const scaled = codecOf(decimalBytes(5, 2))
    expect(
      thrown(() => codecOf(decimalBytes(5, 3)).decode(encode(scaled, '1.00'), 0, undefined, scaled)).name,
    ).toBe('DeserializationError')
  })

  test('a logical type inside a union resolves', () => {
    expect(read(['null', 'long'], ['null', long('timestamp-millis')], 1000)).toEqual(new Date(1000))
  })
})
