import { Buffer } from 'node:buffer'
import { DeserializationError } from '@x/errors'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeIdHeader, encodeIdHeader, idHeaderName } from './id-header.js'
import { MessageField } from './message-field.js'
import { thrown } from './test-support/thrown.js'

const hex = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex')
const fromHex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'hex'))

/** What Java's `ByteBuffer.allocate(8).putLong(id)` writes, via Node's own writer. */
function javaPutLong(id: bigint): string {
  const out = Buffer.alloc(8)
  out.writeBigInt64BE(id)
  return out.toString('hex')
}

describe('idHeaderName', () => {
  it('names the header apicurio.<field>.<idType> for every field and id type', () => {
    expect(idHeaderName(MessageField.VALUE, 'globalId')).toBe('apicurio.value.globalId')
    expect(idHeaderName(MessageField.VALUE, 'contentId')).toBe('apicurio.value.contentId')
    expect(idHeaderName(MessageField.KEY, 'globalId')).toBe('apicurio.key.globalId')
    expect(idHeaderName('key', 'contentId')).toBe('apicurio.key.contentId')
  })

  it.each([
    ['VALUE', 'globalId', "field must be 'key' or 'value' (MessageField), got string \"VALUE\""],
    ['__proto__', 'globalId', "field must be 'key' or 'value' (MessageField), got string \"__proto__\""],
    [undefined, 'globalId', "field must be 'key' or 'value' (MessageField), got undefined"],
    ['value', 'globalid', "idType must be 'globalId' or 'contentId', got string \"globalid\""],
    ['key', 'schemaId', "idType must be 'globalId' or 'contentId', got string \"schemaId\""],
  ])('refuses field %s with idType %s as TypeError INVALID_CONFIG', (field, idType, message) => {
    const error = thrown(() => idHeaderName(field as never, idType as never))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toBe(message)
  })
})

describe('encodeIdHeader', () => {
  it.each([
    [42, '000000000000002a'],
    [0, '0000000000000000'],
    [-1, 'ffffffffffffffff'],
    [1, '0000000000000001'],
    [2 ** 32 - 1, '00000000ffffffff'],
    [2 ** 32, '0000000100000000'],
    [Number.MAX_SAFE_INTEGER, '001fffffffffffff'],
    [-Number.MAX_SAFE_INTEGER, 'ffe0000000000001'],
    [-(2 ** 32), 'ffffffff00000000'],
    [2n ** 53n, '0020000000000000'],
    [2n ** 63n - 1n, '7fffffffffffffff'],
    [-(2n ** 63n), '8000000000000000'],
    [-1n, 'ffffffffffffffff'],
    [42n, '000000000000002a'],
  ])('writes %s as 8 bytes big-endian signed: %s (golden vector)', (id, expected) => {
    const bytes = encodeIdHeader(id)
    expect(hex(bytes)).toBe(expected)
    expect(hex(bytes)).toBe(javaPutLong(BigInt(id)))
  })

  it('returns a Buffer when Buffer exists', () => {
    expect(Buffer.isBuffer(encodeIdHeader(42))).toBe(true)
    expect(Buffer.isBuffer(encodeIdHeader(42n))).toBe(true)
  })

  it.each([
    [2n ** 63n, '9223372036854775808'],
    [-(2n ** 63n) - 1n, '-9223372036854775809'],
    [2 ** 64, '18446744073709552000'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [Number.NaN, 'NaN'],
    [0.5, '0.5'],
  ])('refuses %s, outside signed 64-bit or not an integer, with RangeError ID_OUT_OF_RANGE', (id, shown) => {
    const error = thrown(() => encodeIdHeader(id))
    expect(error).toBeInstanceOf(RangeError)
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toBe(
      `Schema id ${shown} does not fit an id header, which is signed 64-bit (-9223372036854775808..9223372036854775807)`,
    )
  })

  it('refuses a number beyond the safe range, which may have been rounded, and asks for a bigint', () => {
    const error = thrown(() => encodeIdHeader(2 ** 53))
    expect(error).toBeInstanceOf(RangeError)
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toBe(
      'Schema id 9007199254740992 is not a safe integer, so it may have been rounded; pass it as a bigint',
    )
  })

  it('refuses a value that is neither a number nor a bigint with TypeError INVALID_CONFIG', () => {
    const error = thrown(() => encodeIdHeader('42' as never))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toBe('Schema id must be a number or bigint, got string "42"')
  })
})

describe('decodeIdHeader', () => {
  it.each([
    ['000000000000002a', 42],
    ['ffffffffffffffff', -1],
    ['0000000000000000', 0],
    ['00000000ffffffff', 4294967295],
    ['0000000100000000', 4294967296],
    ['001fffffffffffff', Number.MAX_SAFE_INTEGER],
    ['ffe0000000000001', -Number.MAX_SAFE_INTEGER],
    ['0020000000000000', 2n ** 53n],
    ['ffe0000000000000', -(2n ** 53n)],
    ['0020000000000001', 2n ** 53n + 1n],
    ['7fffffffffffffff', 2n ** 63n - 1n],
    ['8000000000000000', -(2n ** 63n)],
    ['8000000000000001', -(2n ** 63n) + 1n],
  ])('reads %s as %s: a number while safe, a bigint beyond', (text, expected) => {
    const value = decodeIdHeader(fromHex(text))
    expect(typeof value).toBe(typeof expected)
    expect(value).toBe(expected)
  })

  it('reads a Buffer that is a view into a larger pool', () => {
    const pool = Buffer.from('aaaa000000000000002abbbb', 'hex')
    expect(decodeIdHeader(pool.subarray(2, 10))).toBe(42)
  })

  it.each([0, 1, 4, 7, 9, 16])('refuses %i bytes with a DeserializationError naming the length', (n) => {
    const error = thrown(() => decodeIdHeader(new Uint8Array(n)))
    expect(error).toBeInstanceOf(DeserializationError)
    expect(error.code).toBe('DESERIALIZATION')
    expect(error.message).toBe(
      `Cannot decode an id header: expected exactly 8 bytes (a big-endian signed 64-bit id), got ${n}`,
    )
  })

  it('refuses a string header value (turning one into bytes is the deserializer’s job) and other types', () => {
    const error = thrown(() => decodeIdHeader('42' as never))
    expect(error).toBeInstanceOf(DeserializationError)
    expect(error.message).toBe(
      'Cannot decode an id header: expected a Uint8Array of 8 bytes, got string "42"',
    )
    expect(thrown(() => decodeIdHeader(undefined as never))).toBeInstanceOf(DeserializationError)
    expect(thrown(() => decodeIdHeader([0, 0, 0, 0, 0, 0, 0, 1] as never))).toBeInstanceOf(
      DeserializationError,
    )
  })
})

describe('id header properties', () => {
  const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })

  it('decodeIdHeader(encodeIdHeader(id)) is id for any signed 64-bit bigint, as a number exactly when safe', () => {
    fc.assert(
      fc.property(int64, (id) => {
        const bytes = encodeIdHeader(id)
        expect(hex(bytes)).toBe(javaPutLong(id))
        const back = decodeIdHeader(bytes)
        expect(BigInt(back)).toBe(id)
        const safe = id >= -BigInt(Number.MAX_SAFE_INTEGER) && id <= BigInt(Number.MAX_SAFE_INTEGER)
        expect(typeof back).toBe(safe ? 'number' : 'bigint')
      }),
    )
  })

  it('a safe integer given as a number writes the same bytes as the bigint and reads back as that number', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (id) => {
        const bytes = encodeIdHeader(id)
        expect(hex(bytes)).toBe(javaPutLong(BigInt(id)))
        expect(decodeIdHeader(bytes)).toBe(id)
      }),
    )
  })

  it('decodeIdHeader on arbitrary bytes or values throws only DeserializationError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ minLength: 8, maxLength: 8 }),
          fc.uint8Array({ maxLength: 12 }),
          fc.anything(),
        ),
        (input) => {
          try {
            const value = decodeIdHeader(input as never)
            expect(input).toBeInstanceOf(Uint8Array)
            expect((input as Uint8Array).length).toBe(8)
            expect(BigInt(value)).toBe(Buffer.from(input as Uint8Array).readBigInt64BE())
          } catch (error) {
            expect(error).toBeInstanceOf(DeserializationError)
          }
        },
      ),
    )
  })
})
