import { DeserializationError } from '@x/errors'
import { describe, expect, it } from 'vitest'
import { decodeKey, encodeKey, type KeyType } from './key-types.js'

// The bytes Kafka's Java serializers (org.apache.kafka.common.serialization) write for each value: LongSerializer
// 8 bytes big-endian, IntegerSerializer 4, ShortSerializer 2, DoubleSerializer / FloatSerializer IEEE 754
// big-endian (doubleToLongBits / floatToRawIntBits), UUIDSerializer the UUID's toString() (lowercase) as UTF-8,
// StringSerializer UTF-8.
const JAVA: [KeyType, unknown, string][] = [
  ['long', 42, '000000000000002a'],
  ['long', -1, 'ffffffffffffffff'],
  ['long', 9223372036854775807n, '7fffffffffffffff'],
  ['long', -9223372036854775808n, '8000000000000000'],
  ['int', 42, '0000002a'],
  ['int', -2147483648, '80000000'],
  ['short', 42, '002a'],
  ['short', -2, 'fffe'],
  ['double', 1.5, '3ff8000000000000'],
  ['double', -0.1, 'bfb999999999999a'],
  ['float', 1.5, '3fc00000'],
  ['string', 'ключ-1', Buffer.from('ключ-1', 'utf8').toString('hex')],
  [
    'uuid',
    '123e4567-e89b-12d3-a456-426614174000',
    Buffer.from('123e4567-e89b-12d3-a456-426614174000').toString('hex'),
  ],
  ['bytes', Buffer.from([0, 1, 2]), '000102'],
]

describe('key types', () => {
  it.each(JAVA)(
    "write a '%s' key %s as Java's serializer of that type does (%s), and read it back",
    (type, value, hex) => {
      expect(encodeKey(type, value).toString('hex')).toBe(hex)
      expect(decodeKey(type, Buffer.from(hex, 'hex'))).toEqual(value)
    },
  )

  it("give a 'long' key as a number when it is safe, else a bigint; or always as longs says", () => {
    const big = Buffer.from('0020000000000000', 'hex')
    expect(decodeKey('long', big)).toBe(2n ** 53n)
    expect(decodeKey('long', Buffer.from('000000000000002a', 'hex'), 'bigint')).toBe(42n)
    expect(decodeKey('long', big, 'number')).toBe(2 ** 53)
  })

  it('write a UUID in lowercase, as java.util.UUID#toString does, and read one back lowercase', () => {
    const upper = '123E4567-E89B-12D3-A456-426614174000'
    expect(encodeKey('uuid', upper).toString('utf8')).toBe(upper.toLowerCase())
    expect(decodeKey('uuid', Buffer.from(upper))).toBe(upper.toLowerCase())
  })

  it('refuse a key of the wrong size or form as a DeserializationError naming the type and Java serializer', () => {
    expect(() => decodeKey('long', Buffer.from([0, 0, 0, 0, 0, 42]))).toThrow(
      new DeserializationError("A key read as 'long' (Java's LongSerializer: 8 bytes) has 6 bytes"),
    )
    expect(() => decodeKey('int', Buffer.alloc(8))).toThrow(DeserializationError)
    expect(() => decodeKey('short', Buffer.alloc(4))).toThrow(DeserializationError)
    expect(() => decodeKey('uuid', Buffer.from('not-a-uuid'))).toThrow(DeserializationError)
  })

  it('read any bytes as a string key (invalid UTF-8 becomes U+FFFD, as Java does), never refusing a leading 0x00', () => {
    expect(decodeKey('string', Buffer.from([0, 0, 0, 0, 1, 2]))).toBe('\u0000\u0000\u0000\u0000\u0001\u0002')
    expect(decodeKey('string', Buffer.from([0xff]))).toBe('\ufffd')
  })

  it('refuse to write a key that is not of its type (INVALID_CONFIG), and send a Buffer as it is', () => {
    expect(() => encodeKey('long', 2 ** 53)).toThrow(TypeError)
    expect(() => encodeKey('long', 2n ** 63n)).toThrow(TypeError)
    expect(() => encodeKey('int', 2 ** 31)).toThrow(TypeError)
    expect(() => encodeKey('short', 1.5)).toThrow(TypeError)
    expect(() => encodeKey('double', '1')).toThrow(TypeError)
    expect(() => encodeKey('uuid', 'x')).toThrow(TypeError)
    expect(() => encodeKey('string', 5)).toThrow(
      "A key written as 'string' (Java's StringSerializer) must be a string",
    )
    const raw = Buffer.from([1, 2, 3])
    expect(encodeKey('long', raw)).toBe(raw)
  })
})
