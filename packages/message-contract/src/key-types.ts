import { DeserializationError, describeValue, invalidConfigError } from '@x/errors'

/**
 * The key types of Kafka's standard serializers, each read and written byte for byte as Java's serializer of that
 * name (`org.apache.kafka.common.serialization`): `'string'` (`StringSerializer`, UTF-8), `'bytes'`
 * (`ByteArraySerializer`, as they are), `'long'` (`LongSerializer`, 8 bytes big-endian two's complement), `'int'`
 * (`IntegerSerializer`, 4), `'short'` (`ShortSerializer`, 2), `'double'` (`DoubleSerializer`, IEEE 754 binary64
 * big-endian), `'float'` (`FloatSerializer`, binary32 big-endian), `'uuid'` (`UUIDSerializer`: the UUID's
 * 36-character string form, lowercase, as UTF-8).
 */
export type KeyType = 'string' | 'bytes' | 'long' | 'int' | 'short' | 'double' | 'float' | 'uuid'

/** How a `'long'` key is given back: a number when it is a safe integer, else a bigint (`'auto'`); or always one. */
export type KeyLongs = 'auto' | 'number' | 'bigint'

/** The key types, as a set (for option checks). */
export const KEY_TYPES: ReadonlySet<string> = new Set<KeyType>([
  'string',
  'bytes',
  'long',
  'int',
  'short',
  'double',
  'float',
  'uuid',
])

/** What a key of each type decodes to. */
export type KeyOf<T extends KeyType> = T extends 'string' | 'uuid'
  ? string
  : T extends 'bytes'
    ? Buffer
    : T extends 'long'
      ? number | bigint
      : number

const SIZES: Partial<Record<KeyType, number>> = { long: 8, int: 4, short: 2, double: 8, float: 4 }
const JAVA: Record<KeyType, string> = {
  string: 'StringSerializer',
  bytes: 'ByteArraySerializer',
  long: 'LongSerializer',
  int: 'IntegerSerializer',
  short: 'ShortSerializer',
  double: 'DoubleSerializer',
  float: 'FloatSerializer',
  uuid: 'UUIDSerializer',
}
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/
const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/**
 * Decodes a key of `type` as Java's deserializer of that type reads it. A key of the wrong size for a fixed-size
 * type, or not a UUID's string form for `'uuid'`, is a `DeserializationError` naming the type (as Java's
 * deserializers refuse it).
 */
export function decodeKey(type: KeyType, bytes: Uint8Array, longs: KeyLongs = 'auto'): unknown {
  const key = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  switch (type) {
    case 'string':
      return key.toString('utf8')
    case 'bytes':
      return key
    case 'uuid': {
      const text = key.toString('utf8')
      if (!UUID.test(text)) {
        throw new DeserializationError(
          `A key read as 'uuid' (Java's UUIDSerializer: the UUID's string form as UTF-8) is not a UUID: ${describeValue(text.slice(0, 64))}`,
        )
      }
      return text.toLowerCase()
    }
  }
  const size = SIZES[type]!
  if (key.length !== size) {
    throw new DeserializationError(
      `A key read as '${type}' (Java's ${JAVA[type]}: ${size} bytes) has ${key.length} bytes`,
    )
  }
  switch (type) {
    case 'long': {
      const value = key.readBigInt64BE(0)
      if (longs === 'bigint') return value
      if (longs === 'number' || (value >= -9007199254740991n && value <= 9007199254740991n))
        return Number(value)
      return value
    }
    case 'int':
      return key.readInt32BE(0)
    case 'short':
      return key.readInt16BE(0)
    case 'double':
      return key.readDoubleBE(0)
    default:
      return key.readFloatBE(0)
  }
}

/**
 * Encodes a key of `type` as Java's serializer of that type writes it. A Buffer (or Uint8Array) is taken as the
 * key's bytes already written, whatever the type, and sent as it is.
 *
 * @throws TypeError (code `INVALID_CONFIG`) for a key that is not of the type (a string for
 *   `'string'`, a Buffer or Uint8Array for `'bytes'`, an integer in range — a number or a bigint — for `'long'`,
 *   `'int'` and `'short'`, a number for `'double'` and `'float'`, a UUID's string form for `'uuid'`).
 */
export function encodeKey(type: KeyType, key: unknown): Buffer {
  const refuse = (what: string) =>
    invalidConfigError(
      `A key written as '${type}' (Java's ${JAVA[type]}) must be ${what}, got ${describeValue(key)}`,
    )
  if (key instanceof Uint8Array) {
    return Buffer.isBuffer(key) ? key : Buffer.from(key.buffer, key.byteOffset, key.byteLength)
  }
  switch (type) {
    case 'string':
      if (typeof key !== 'string') throw refuse('a string')
      return Buffer.from(key, 'utf8')
    case 'bytes':
      throw refuse('a Buffer')
    case 'uuid':
      if (typeof key !== 'string' || !UUID.test(key)) throw refuse("a UUID's string form")
      return Buffer.from(key.toLowerCase(), 'utf8')
    case 'double':
    case 'float': {
      if (typeof key !== 'number') throw refuse('a number')
      const out = Buffer.allocUnsafe(SIZES[type]!)
      if (type === 'double') out.writeDoubleBE(key, 0)
      else out.writeFloatBE(key, 0)
      return out
    }
    case 'long': {
      const value =
        typeof key === 'bigint'
          ? key
          : typeof key === 'number' && Number.isSafeInteger(key)
            ? BigInt(key)
            : undefined
      if (value === undefined || value < INT64_MIN || value > INT64_MAX) {
        throw refuse('an integer from -2^63 to 2^63 - 1 (a safe-integer number or a bigint)')
      }
      const out = Buffer.allocUnsafe(8)
      out.writeBigInt64BE(value, 0)
      return out
    }
    default: {
      const bits = type === 'int' ? 32 : 16
      const number = typeof key === 'bigint' ? Number(key) : key
      if (
        typeof number !== 'number' ||
        !Number.isInteger(number) ||
        Math.abs(number + 0.5) > 2 ** (bits - 1)
      ) {
        throw refuse(`an integer from -2^${bits - 1} to 2^${bits - 1} - 1`)
      }
      const out = Buffer.allocUnsafe(bits / 8)
      if (bits === 32) out.writeInt32BE(number, 0)
      else out.writeInt16BE(number, 0)
      return out
    }
  }
}
