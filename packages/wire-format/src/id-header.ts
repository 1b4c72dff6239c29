import { DeserializationError, describeValue, idOutOfRangeError, invalidConfigError } from '@x/errors'
import { allocBytes } from './bytes.js'
import { truncate } from './describe.js'
import { isMessageField, type MessageField } from './message-field.js'
import { type IdType, INT64_MAX, INT64_MIN, isIdType, isInt64, type SchemaId } from './schema-id.js'

const ID_HEADER_SIZE = 8
const TWO_POW_32 = 0x100000000
const TWO_POW_21 = 0x200000

/**
 * The name of the Kafka header that carries a schema id in `WireFormat.MESSAGE_HEADERS` mode, as Apicurio's
 * Java serde writes and reads it: `apicurio.<field>.<idType>`.
 *
 * @param field - `'key'` or `'value'` (see `MessageField`).
 * @param idType - `'globalId'` or `'contentId'`.
 * @throws `TypeError` (code `INVALID_CONFIG`) for any other `field` or `idType`.
 * @example
 * ```ts
 * idHeaderName(MessageField.VALUE, 'globalId')   // 'apicurio.value.globalId'
 * idHeaderName('key', 'contentId')               // 'apicurio.key.contentId'
 * ```
 */
export function idHeaderName(field: MessageField, idType: IdType): string {
  if (!isMessageField(field)) {
    throw invalidConfigError(`field must be 'key' or 'value' (MessageField), got ${describeValue(field)}`)
  }
  if (!isIdType(idType)) {
    throw invalidConfigError(`idType must be 'globalId' or 'contentId', got ${describeValue(idType)}`)
  }
  return `apicurio.${field}.${idType}`
}

function outOfRange(id: SchemaId): RangeError {
  return idOutOfRangeError(
    `Schema id ${truncate(String(id))} does not fit an id header, which is signed 64-bit (${INT64_MIN}..${INT64_MAX})`,
  )
}

function write(out: Uint8Array, hi: number, lo: number): Uint8Array {
  out[0] = hi >>> 24
  out[1] = (hi >>> 16) & 0xff
  out[2] = (hi >>> 8) & 0xff
  out[3] = hi & 0xff
  out[4] = lo >>> 24
  out[5] = (lo >>> 16) & 0xff
  out[6] = (lo >>> 8) & 0xff
  out[7] = lo & 0xff
  return out
}

/**
 * The value of an id header: the id as 8 bytes big-endian two's complement, exactly as Java's
 * `ByteBuffer.putLong` writes it (so Apicurio's Java deserializer reads it back).
 *
 * @param id - A safe integer `number`, or a `bigint` in the signed 64-bit range.
 * @returns 8 new bytes; a `Buffer` whenever `globalThis.Buffer` exists (so kafkajs sends them as bytes).
 * @throws `RangeError` (code `ID_OUT_OF_RANGE`) for an id outside signed 64-bit, or a `number` that is not a safe
 *   integer (it may have been rounded already: pass a `bigint`); `TypeError` (code `INVALID_CONFIG`) for a value
 *   that is neither a number nor a bigint.
 * @example
 * ```ts
 * encodeIdHeader(42)    // <00 00 00 00 00 00 00 2a>
 * encodeIdHeader(-1n)   // <ff ff ff ff ff ff ff ff>
 * ```
 */
export function encodeIdHeader(id: SchemaId): Uint8Array {
  if (typeof id === 'number') {
    if (!Number.isSafeInteger(id)) {
      if (Number.isInteger(id) && id >= -(2 ** 63) && id < 2 ** 63) {
        throw idOutOfRangeError(
          `Schema id ${String(id)} is not a safe integer, so it may have been rounded; pass it as a bigint`,
        )
      }
      throw outOfRange(id)
    }
    const hi = Math.floor(id / TWO_POW_32)
    return write(allocBytes(ID_HEADER_SIZE), hi, id - hi * TWO_POW_32)
  }
  if (typeof id === 'bigint') {
    if (!isInt64(id)) throw outOfRange(id)
    const bits = BigInt.asUintN(64, id)
    return write(allocBytes(ID_HEADER_SIZE), Number(bits >> 32n), Number(bits & 0xffffffffn))
  }
  throw invalidConfigError(`Schema id must be a number or bigint, got ${describeValue(id)}`)
}

/**
 * Reads the value of an id header (8 bytes, big-endian two's complement, as Java's `ByteBuffer.getLong`).
 *
 * Takes bytes only. kafkajs hands header values over as `Buffer`s, but a header set by hand may arrive as a
 * string: turning that into bytes (or rejecting it) is the deserializer's decision, not this function's.
 *
 * @param bytes - The header value.
 * @returns The id: a `number` while it is a safe integer, a `bigint` beyond (lossless, negative values too).
 * @throws `DeserializationError` (code `DESERIALIZATION`) for anything but a `Uint8Array` of exactly 8 bytes.
 * @example
 * ```ts
 * decodeIdHeader(Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 42))   // 42
 * ```
 */
export function decodeIdHeader(bytes: Uint8Array): SchemaId {
  if (!(bytes instanceof Uint8Array)) {
    throw new DeserializationError(
      `Cannot decode an id header: expected a Uint8Array of ${ID_HEADER_SIZE} bytes, got ${describeValue(bytes)}`,
    )
  }
  if (bytes.length !== ID_HEADER_SIZE) {
    throw new DeserializationError(
      `Cannot decode an id header: expected exactly ${ID_HEADER_SIZE} bytes (a big-endian signed 64-bit id), got ${bytes.length}`,
    )
  }
  const hi = (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!
  const lo = bytes[4]! * 0x1000000 + ((bytes[5]! << 16) | (bytes[6]! << 8) | bytes[7]!)
  // With hi in [-2^21, 2^21) the value lies in [-2^53, 2^53) and the double arithmetic is exact.
  if (hi >= -TWO_POW_21 && hi < TWO_POW_21) {
    const value = hi * TWO_POW_32 + lo
    if (value >= -Number.MAX_SAFE_INTEGER) return value
  }
  return BigInt(hi) * 0x100000000n + BigInt(lo)
}
