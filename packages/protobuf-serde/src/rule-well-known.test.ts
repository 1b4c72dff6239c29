import { describe, expect, it } from 'vitest'
import { wellKnownJson } from './rule-well-known.js'

// The one mapping of Protobuf's well-known types into the record rules see: proto3's JSON mapping as Java's
// JsonFormat prints it (64-bit integers kept numbers), and an INVALID_DATA RangeError where JsonFormat refuses.

const double = (value: number) => ({ double: value })
const json = (typeName: string, value: Record<string, unknown>) =>
  wellKnownJson(`google.protobuf.${typeName}`, value, double, 0)

function refusal(typeName: string, value: Record<string, unknown>): unknown {
  try {
    json(typeName, value)
  } catch (error) {
    return error
  }
  throw new Error(`${typeName} ${String(value.seconds)} was given to the rules`)
}

describe('wellKnownJson of a Timestamp and a Duration', () => {
  it('writes proto3 JSON text with 0, 3, 6 or 9 fraction digits', () => {
    expect(json('Timestamp', { seconds: 1735689600, nanos: 0 })).toBe('2025-01-01T00:00:00Z')
    expect(json('Timestamp', { seconds: 930745800n, nanos: 500_000_000 })).toBe('1999-06-30T12:30:00.500Z')
    expect(json('Timestamp', { seconds: 0, nanos: 1500 })).toBe('1970-01-01T00:00:00.000001500Z')
    expect(json('Timestamp', { seconds: -1, nanos: 250_000 })).toBe('1969-12-31T23:59:59.000250Z')
    expect(json('Duration', { seconds: 3600, nanos: 0 })).toBe('3600s')
    expect(json('Duration', { seconds: 0, nanos: 1500 })).toBe('0.000001500s')
    expect(json('Duration', { seconds: -2, nanos: -500_000_000 })).toBe('-2.500s')
    expect(json('Duration', { seconds: 0, nanos: -500_000_000 })).toBe('-0.500s')
    expect(json('Duration', {})).toBe('0s')
  })

  it('reads seconds from a bigint, integer text or a protobufjs Long', () => {
    const long = { low: 0, high: 0, toString: () => '1735689600' }
    expect(json('Timestamp', { seconds: long })).toBe('2025-01-01T00:00:00Z')
    expect(json('Duration', { seconds: '-90', nanos: -250_000_000 })).toBe('-90.250s')
  })

  it('writes a Timestamp from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, as Java does', () => {
    expect(json('Timestamp', { seconds: -62_135_596_800n })).toBe('0001-01-01T00:00:00Z')
    expect(json('Timestamp', { seconds: 253_402_300_799, nanos: 999_999_999 })).toBe(
      '9999-12-31T23:59:59.999999999Z',
    )
  })

  it('refuses with INVALID_DATA a Timestamp outside years 1 to 9999 or with nanos outside 0..999999999', () => {
    const range =
      'A google.protobuf.Timestamp must have seconds from -62135596800 to 253402300799 ' +
      '(0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z) and nanos from 0 to 999999999 ' +
      'to be given to data-contract rules as proto3 JSON, not '
    const cases: [Record<string, unknown>, string][] = [
      [{ seconds: 253_402_300_800, nanos: 0 }, 'seconds 253402300800 and nanos 0'],
      [{ seconds: -62_135_596_801n }, 'seconds -62135596801 and nanos 0'],
      [{ seconds: 9_000_000_000_000_000n }, 'seconds 9000000000000000 and nanos 0'],
      [{ seconds: 0, nanos: -1 }, 'seconds 0 and nanos -1'],
      [{ seconds: 0, nanos: 1_000_000_000 }, 'seconds 0 and nanos 1000000000'],
      [{ seconds: 'soon' }, 'seconds "soon" and nanos 0'],
      [{ seconds: 1.5 }, 'seconds 1.5 and nanos 0'],
    ]
    for (const [value, came] of cases) {
      const error = refusal('Timestamp', value)
      expect(error).toBeInstanceOf(RangeError)
      expect(error).toMatchObject({ code: 'INVALID_DATA', message: `${range}${came}` })
    }
  })

  it('refuses with INVALID_DATA a Duration beyond 315576000000 seconds or whose nanos are out of range or of the other sign', () => {
    expect(json('Duration', { seconds: 315_576_000_000, nanos: 999_999_999 })).toBe('315576000000.999999999s')
    expect(json('Duration', { seconds: -315_576_000_000n })).toBe('-315576000000s')
    const range =
      'A google.protobuf.Duration must have seconds from -315576000000 to 315576000000 and nanos from ' +
      '-999999999 to 999999999 of the same sign to be given to data-contract rules as proto3 JSON, not '
    const cases: [Record<string, unknown>, string][] = [
      [{ seconds: 315_576_000_001 }, 'seconds 315576000001 and nanos 0'],
      [{ seconds: -315_576_000_001n }, 'seconds -315576000001 and nanos 0'],
      [{ seconds: 1, nanos: -500_000_000 }, 'seconds 1 and nanos -500000000'],
      [{ seconds: -1, nanos: 500_000_000 }, 'seconds -1 and nanos 500000000'],
      [{ seconds: 0, nanos: 1_000_000_000 }, 'seconds 0 and nanos 1000000000'],
    ]
    for (const [value, came] of cases) {
      const error = refusal('Duration', value)
      expect(error).toBeInstanceOf(RangeError)
      expect(error).toMatchObject({ code: 'INVALID_DATA', message: `${range}${came}` })
    }
  })
})

describe('wellKnownJson of wrappers, Struct, Value, ListValue, FieldMask and Empty', () => {
  it('unwraps wrappers and writes Struct, FieldMask and Empty as their JSON', () => {
    expect(json('Int32Value', { value: 12 })).toBe(12)
    expect(
      json('Struct', {
        fields: {
          a: { number_value: 1.5 },
          b: { list_value: { values: [{ string_value: 'x' }, { bool_value: true }, { null_value: 0 }] } },
        },
      }),
    ).toEqual({ a: 1.5, b: ['x', true, null] })
    expect(json('FieldMask', { paths: ['a', 'b.c'] })).toBe('a,b.c')
    expect(json('Empty', {})).toEqual({})
    const other = { x: 1 }
    expect(wellKnownJson('my.Message', other, double, 0)).toBe(other)
  })

  it('writes an unset wrapper as its default and a double wrapper as the other doubles', () => {
    expect(json('DoubleValue', {})).toEqual({ double: 0 })
    expect(json('FloatValue', { value: 2 })).toEqual({ double: 2 })
    expect(json('DoubleValue', { value: Number.NaN })).toBe('NaN')
    expect(json('FloatValue', { value: -Infinity })).toBe('-Infinity')
    expect(json('Int64Value', {})).toBe(0)
    expect(json('UInt64Value', { value: 18_446_744_073_709_551_615n })).toBe(18_446_744_073_709_551_615n)
    expect(json('BoolValue', {})).toBe(false)
    expect(json('StringValue', {})).toBe('')
    expect(json('BytesValue', {})).toEqual(new Uint8Array())
  })

  it('writes a Value number as a double, as Java writes 5.0, and refuses one that is not finite with INVALID_DATA', () => {
    expect(json('Struct', { fields: { n: { number_value: 5 }, m: { numberValue: -0.25 } } })).toEqual({
      n: { double: 5 },
      m: -0.25,
    })
    expect(json('ListValue', { values: [{ number_value: 0 }] })).toEqual([{ double: 0 }])
    for (const number of [Number.NaN, Infinity, -Infinity]) {
      const error = refusal('Value', { number_value: number })
      expect(error).toBeInstanceOf(RangeError)
      expect(error).toMatchObject({
        code: 'INVALID_DATA',
        message: `A google.protobuf.Value must hold a finite number to be given to data-contract rules as proto3 JSON, not ${number}`,
      })
    }
  })

  it('writes FieldMask paths in lowerCamelCase, as Java does, leaving out empty ones', () => {
    expect(json('FieldMask', { paths: ['user_id', 'profile.display_name', '', 'a__b'] })).toBe(
      'userId,profile.displayName,aB',
    )
  })

  it('keeps Struct keys named __proto__ and constructor as own data keys, read from own fields only', () => {
    const struct = json('Struct', {
      fields: JSON.parse('{"__proto__":{"string_value":"admin"},"constructor":{"bool_value":true}}'),
    })
    expect(Object.getPrototypeOf(struct)).toBe(Object.prototype)
    expect(JSON.stringify(struct)).toBe('{"__proto__":"admin","constructor":true}')
    const inherits = Object.create({ struct_value: { fields: {} } }) as Record<string, unknown>
    inherits.number_value = 2.5
    expect(json('Value', inherits)).toBe(2.5)
  })
})
