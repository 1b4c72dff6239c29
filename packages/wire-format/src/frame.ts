import { DeserializationError, describeValue, idOutOfRangeError, invalidConfigError } from '@x/errors'
import { allocBytes } from './bytes.js'
import { truncate } from './describe.js'
import type { SchemaId } from './schema-id.js'

/** The first byte of a framed payload (Confluent / Apicurio "magic byte"). */
export const MAGIC_BYTE = 0

/** Bytes in front of the payload of a frame: the magic byte and the 4-byte big-endian schema id. */
export const FRAME_HEADER_SIZE = 5

const MAX_FRAME_ID = 0xffffffff

/** What {@link decodeFrame} found in a frame. */
export interface DecodedFrame {
  /** The schema id of bytes 1–4 (big-endian unsigned), 0..4294967295. */
  schemaId: number
  /** The bytes after the header: a view of the input (it shares its memory), not a copy. */
  payload: Uint8Array
}

/** A schema id as the 4-byte frame field, or a RangeError pointing to the header wire format. */
function frameId(schemaId: SchemaId): number {
  if (typeof schemaId === 'number') {
    if (Number.isInteger(schemaId) && schemaId >= 0 && schemaId <= MAX_FRAME_ID) return schemaId
  } else if (typeof schemaId === 'bigint') {
    if (schemaId >= 0n && schemaId <= BigInt(MAX_FRAME_ID)) return Number(schemaId)
  } else {
    throw invalidConfigError(`schemaId must be a number or bigint, got ${describeValue(schemaId)}`)
  }
  throw idOutOfRangeError(
    `Schema id ${truncate(String(schemaId))} does not fit the framed wire format, whose id is unsigned 32-bit ` +
      `(0..${MAX_FRAME_ID}); use WireFormat.MESSAGE_HEADERS, which carries 64-bit ids in a message header`,
  )
}

function headerInto(target: Uint8Array, offset: number, id: number): void {
  target[offset] = MAGIC_BYTE
  target[offset + 1] = id >>> 24
  target[offset + 2] = (id >>> 16) & 0xff
  target[offset + 3] = (id >>> 8) & 0xff
  target[offset + 4] = id & 0xff
}

/**
 * Frames a payload: `0x00`, the schema id as 4 bytes big-endian unsigned, then the payload bytes (copied).
 * The payload can be in any format (Avro, JSON, Protobuf): only the frame is written here.
 *
 * @param schemaId - The registry id the reader will look up (a `globalId` or `contentId`), 0..4294967295.
 * @param payload - The encoded value.
 * @returns A new array of `5 + payload.length` bytes; a `Buffer` whenever `globalThis.Buffer` exists.
 * @throws `RangeError` (code `ID_OUT_OF_RANGE`) for an id that is not an integer in 0..4294967295: its message
 *   says `32-bit` and points to `WireFormat.MESSAGE_HEADERS`, which carries 64-bit ids.
 * @throws `TypeError` (code `INVALID_CONFIG`) when the id is not a number or bigint, or the payload not a
 *   `Uint8Array`.
 * @example
 * ```ts
 * encodeFrame(1, new Uint8Array([0x02, 0x04]))   // <00 00 00 00 01 02 04>
 * ```
 */
export function encodeFrame(schemaId: SchemaId, payload: Uint8Array): Uint8Array {
  const id = frameId(schemaId)
  if (!(payload instanceof Uint8Array)) {
    throw invalidConfigError(`payload must be a Uint8Array, got ${describeValue(payload)}`)
  }
  const out = allocBytes(FRAME_HEADER_SIZE + payload.length)
  headerInto(out, 0, id)
  out.set(payload, FRAME_HEADER_SIZE)
  return out
}

/**
 * Writes the 5 header bytes of a frame (`0x00` + 4-byte big-endian id) into an existing array, for serializers
 * that encode the payload straight behind it (`avsc`'s `type.encode(value, buf, 5)`) instead of copying it.
 *
 * @param target - Where to write; needs at least `offset + 5` bytes.
 * @param schemaId - The registry id, 0..4294967295.
 * @param offset - Where the frame starts in `target`; 0 when left out.
 * @returns The position right after the header (`offset + 5`), where the payload goes.
 * @throws `RangeError` (code `ID_OUT_OF_RANGE`) as {@link encodeFrame}; `TypeError` (code `INVALID_CONFIG`) when
 *   `target` is not a `Uint8Array` or too short.
 * @example
 * ```ts
 * const buf = Buffer.allocUnsafe(1024)
 * const end = type.encode(value, buf, writeFrameHeader(buf, schemaId))
 * ```
 */
export function writeFrameHeader(target: Uint8Array, schemaId: SchemaId, offset = 0): number {
  const id = frameId(schemaId)
  if (!(target instanceof Uint8Array)) {
    throw invalidConfigError(`target must be a Uint8Array, got ${describeValue(target)}`)
  }
  if (!Number.isInteger(offset) || offset < 0 || offset + FRAME_HEADER_SIZE > target.length) {
    throw invalidConfigError(
      `target must have room for the ${FRAME_HEADER_SIZE}-byte frame header at offset ${String(offset)}, ` +
        `but it has ${target.length} bytes`,
    )
  }
  headerInto(target, offset, id)
  return offset + FRAME_HEADER_SIZE
}

/**
 * Splits a frame into its schema id and payload. Nothing is copied: `payload` is a `subarray` of `bytes` (a
 * `Buffer` when `bytes` is one), so it changes when `bytes` does.
 *
 * @param bytes - A whole framed message value.
 * @throws `DeserializationError` (code `DESERIALIZATION`) when `bytes` is not a `Uint8Array`, has fewer than 5
 *   bytes, or does not start with `0x00`; the message says what was expected and what came. Nothing else.
 * @example
 * ```ts
 * const { schemaId, payload } = decodeFrame(message.value)
 * ```
 */
export function decodeFrame(bytes: Uint8Array): DecodedFrame {
  if (!(bytes instanceof Uint8Array)) {
    throw new DeserializationError(
      `Cannot decode a frame: expected a Uint8Array, got ${describeValue(bytes)}`,
    )
  }
  const length = bytes.length
  if (length < FRAME_HEADER_SIZE) {
    throw new DeserializationError(
      `Cannot decode a frame: expected at least ${FRAME_HEADER_SIZE} bytes (magic byte 0x00 + 4-byte schema id), got ${length}`,
    )
  }
  const magic = bytes[0]!
  if (magic !== MAGIC_BYTE) {
    throw new DeserializationError(
      `Cannot decode a frame: expected magic byte 0x00, got 0x${magic.toString(16).padStart(2, '0')} ` +
        `(in ${length} bytes); the data is not in the framed wire format (written as JSON/text, or with ` +
        'WireFormat.MESSAGE_HEADERS?)',
    )
  }
  const schemaId = bytes[1]! * 0x1000000 + ((bytes[2]! << 16) | (bytes[3]! << 8) | bytes[4]!)
  return { schemaId, payload: bytes.subarray(FRAME_HEADER_SIZE) }
}
