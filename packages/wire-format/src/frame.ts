import { DeserializationError, describeValue, idOutOfRangeError, invalidConfigError } from '@x/errors'
import { allocBytes } from './bytes.js'
import { truncate } from './describe.js'
import { checkIdSize, type IdSize, type ReadIdSize } from './id-size.js'
import type { SchemaId } from './schema-id.js'

/** The first byte of a framed payload (Confluent / Apicurio "magic byte"). */
export const MAGIC_BYTE = 0

/**
 * Bytes in front of the payload of a frame with a 4-byte id (the default): the magic byte and the 4-byte big-endian
 * schema id. With `idSize: 8` the header is 9 bytes (`1 + idSize`).
 */
export const FRAME_HEADER_SIZE = 5

const MAX_FRAME_ID = 0xffffffff
/** 2^21: an 8-byte id whose upper 4 bytes reach it is beyond Number.MAX_SAFE_INTEGER (or negative). */
const TWO_POW_21 = 0x200000
const TWO_POW_32 = 0x100000000

/** Options of {@link encodeFrame} and {@link writeFrameHeader}. */
export interface FrameOptions {
  /**
   * How many bytes the id takes: `4` (Apicurio 3's and Confluent's default) or `8` (Apicurio 2.x's default, 3.x's
   * `Legacy8ByteIdHandler`: the id as a big-endian long).
   * @default 4
   */
  idSize?: IdSize
}

/** Options of {@link decodeFrame}. */
export interface DecodeFrameOptions {
  /**
   * How the id is read: `4`, `8`, or `'auto'` as Apicurio's Java `OptimisticFallbackIdHandler` reads (the first 4
   * id bytes, unless they are all zero and at least 4 more bytes follow, then 8; it assumes ids in 1 … 2^31 − 1).
   * @default 4
   */
  idSize?: ReadIdSize
}

/** What {@link decodeFrame} found in a frame. */
export interface DecodedFrame {
  /**
   * The schema id: bytes 1–4 big-endian unsigned (0..4294967295) with a 4-byte id, bytes 1–8 big-endian with an
   * 8-byte id (0..9007199254740991: a larger or negative 8-byte id is refused, never rounded).
   */
  schemaId: number
  /** The bytes after the header: a view of the input (it shares its memory), not a copy. */
  payload: Uint8Array
  /** How many bytes the id took: the `idSize` asked for, or what `'auto'` found. */
  idSize: IdSize
}

function optionsObject(options: unknown, what: string): { idSize?: unknown } {
  if (options === undefined) return {}
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw invalidConfigError(
      `${what} options must be an object such as { idSize: 8 }, got ${describeValue(options)}`,
    )
  }
  return options as { idSize?: unknown }
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

/** A schema id as the 8-byte frame field (0..Number.MAX_SAFE_INTEGER), or a RangeError saying why not. */
function longFrameId(schemaId: SchemaId): number {
  if (typeof schemaId === 'number') {
    if (Number.isSafeInteger(schemaId) && schemaId >= 0) return schemaId
    if (Number.isInteger(schemaId) && schemaId > 0) {
      throw idOutOfRangeError(
        `Schema id ${String(schemaId)} is not a safe integer, so it may have been rounded already; an 8-byte frame ` +
          `takes ids 0..${Number.MAX_SAFE_INTEGER}`,
      )
    }
  } else if (typeof schemaId === 'bigint') {
    if (schemaId >= 0n && schemaId <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(schemaId)
  } else {
    throw invalidConfigError(`schemaId must be a number or bigint, got ${describeValue(schemaId)}`)
  }
  throw idOutOfRangeError(
    `Schema id ${truncate(String(schemaId))} does not fit an 8-byte frame as this library writes and reads it ` +
      `(0..${Number.MAX_SAFE_INTEGER}, so that a reader never rounds it); use WireFormat.MESSAGE_HEADERS, whose ` +
      'id header carries any signed 64-bit id',
  )
}

/** Writes `0x00` + the id as 4 (`idSize` 4) or 8 bytes big-endian at `offset`. */
function headerInto(target: Uint8Array, offset: number, id: number, idSize: IdSize): void {
  target[offset] = MAGIC_BYTE
  let at = offset + 1
  if (idSize === 8) {
    const hi = Math.floor(id / TWO_POW_32)
    target[at] = hi >>> 24
    target[at + 1] = (hi >>> 16) & 0xff
    target[at + 2] = (hi >>> 8) & 0xff
    target[at + 3] = hi & 0xff
    at += 4
    id -= hi * TWO_POW_32
  }
  target[at] = id >>> 24
  target[at + 1] = (id >>> 16) & 0xff
  target[at + 2] = (id >>> 8) & 0xff
  target[at + 3] = id & 0xff
}

/**
 * Frames a payload: `0x00`, the schema id as 4 (or, with `idSize: 8`, 8) bytes big-endian, then the payload bytes
 * (copied). The payload can be in any format (Avro, JSON, Protobuf): only the frame is written here.
 *
 * @param schemaId - The registry id the reader will look up (a `globalId` or `contentId`): 0..4294967295 with a
 *   4-byte id, 0..9007199254740991 with an 8-byte id.
 * @param payload - The encoded value.
 * @param options - `idSize`: 4 (default) or 8.
 * @returns A new array of `1 + idSize + payload.length` bytes; a `Buffer` whenever `globalThis.Buffer` exists.
 * @throws `RangeError` (code `ID_OUT_OF_RANGE`) for an id the frame does not hold: with 4 bytes its message says
 *   `32-bit` and points to `WireFormat.MESSAGE_HEADERS`, which carries 64-bit ids; with 8 bytes a negative id, or
 *   one beyond `Number.MAX_SAFE_INTEGER` (a `number` that large may have been rounded already).
 * @throws `TypeError` (code `INVALID_CONFIG`) when the id is not a number or bigint, the payload not a
 *   `Uint8Array`, or `idSize` not 4 or 8.
 * @example
 * ```ts
 * encodeFrame(1, new Uint8Array([0x02, 0x04]))                  // <00 00 00 00 01 02 04>
 * encodeFrame(1, new Uint8Array([0x02, 0x04]), { idSize: 8 })   // <00 00 00 00 00 00 00 00 01 02 04>
 * ```
 */
export function encodeFrame(schemaId: SchemaId, payload: Uint8Array, options?: FrameOptions): Uint8Array {
  const idSize = checkIdSize(optionsObject(options, 'encodeFrame').idSize, false, 'encodeFrame: idSize')
  const id = idSize === 4 ? frameId(schemaId) : longFrameId(schemaId)
  if (!(payload instanceof Uint8Array)) {
    throw invalidConfigError(`payload must be a Uint8Array, got ${describeValue(payload)}`)
  }
  const out = allocBytes(1 + idSize + payload.length)
  headerInto(out, 0, id, idSize)
  out.set(payload, 1 + idSize)
  return out
}

/**
 * Writes the header of a frame (`0x00` + the id as 4, or with `idSize: 8` 8, bytes big-endian) into an existing
 * array, for serializers that encode the payload straight behind it (`avsc`'s `type.encode(value, buf, 5)`) instead
 * of copying it.
 *
 * @param target - Where to write; needs at least `offset + 1 + idSize` bytes.
 * @param schemaId - The registry id, as {@link encodeFrame} takes it.
 * @param offset - Where the frame starts in `target`; 0 when left out.
 * @param options - `idSize`: 4 (default) or 8.
 * @returns The position right after the header (`offset + 5`, or `offset + 9` with 8 bytes), where the payload goes.
 * @throws `RangeError` (code `ID_OUT_OF_RANGE`) as {@link encodeFrame}; `TypeError` (code `INVALID_CONFIG`) when
 *   `target` is not a `Uint8Array` or too short, or `idSize` not 4 or 8.
 * @example
 * ```ts
 * const buf = Buffer.allocUnsafe(1024)
 * const end = type.encode(value, buf, writeFrameHeader(buf, schemaId))
 * ```
 */
export function writeFrameHeader(
  target: Uint8Array,
  schemaId: SchemaId,
  offset = 0,
  options?: FrameOptions,
): number {
  const idSize = checkIdSize(
    optionsObject(options, 'writeFrameHeader').idSize,
    false,
    'writeFrameHeader: idSize',
  )
  const id = idSize === 4 ? frameId(schemaId) : longFrameId(schemaId)
  if (!(target instanceof Uint8Array)) {
    throw invalidConfigError(`target must be a Uint8Array, got ${describeValue(target)}`)
  }
  const size = 1 + idSize
  if (!Number.isInteger(offset) || offset < 0 || offset + size > target.length) {
    throw invalidConfigError(
      `target must have room for the ${size}-byte frame header at offset ${String(offset)}, ` +
        `but it has ${target.length} bytes`,
    )
  }
  headerInto(target, offset, id, idSize)
  return offset + size
}

/**
 * Splits a frame into its schema id and payload. Nothing is copied: `payload` is a `subarray` of `bytes` (a
 * `Buffer` when `bytes` is one), so it changes when `bytes` does.
 *
 * The bytes do not say how wide the id is: the reader must be told (`idSize`), or assume what `'auto'` assumes. A
 * 4-byte read of an 8-byte frame sees the id 0 (when the id is below 2^32), which no registry assigns; an 8-byte
 * read of a 4-byte frame takes the first 4 payload bytes into the id. See the package README.
 *
 * @param bytes - A whole framed message value.
 * @param options - `idSize`: 4 (default), 8, or `'auto'` (Java's `OptimisticFallbackIdHandler`).
 * @throws `DeserializationError` (code `DESERIALIZATION`) when `bytes` is not a `Uint8Array`, is shorter than the
 *   header (5 bytes, 9 with an 8-byte id), does not start with `0x00`, or (8-byte id) holds a negative id or one
 *   beyond `Number.MAX_SAFE_INTEGER`; the message says what was expected and what came. `TypeError` (code
 *   `INVALID_CONFIG`) for an `idSize` other than 4, 8 or `'auto'`.
 * @example
 * ```ts
 * const { schemaId, payload } = decodeFrame(message.value)
 * const legacy = decodeFrame(message.value, { idSize: 8 })
 * ```
 */
export function decodeFrame(bytes: Uint8Array, options?: DecodeFrameOptions): DecodedFrame {
  const asked = checkIdSize(optionsObject(options, 'decodeFrame').idSize, true, 'decodeFrame: idSize')
  if (!(bytes instanceof Uint8Array)) {
    throw new DeserializationError(
      `Cannot decode a frame: expected a Uint8Array, got ${describeValue(bytes)}`,
    )
  }
  const length = bytes.length
  const minimum = asked === 8 ? 9 : FRAME_HEADER_SIZE
  if (length < minimum) {
    throw new DeserializationError(
      `Cannot decode a frame: expected at least ${minimum} bytes (magic byte 0x00 + ${minimum - 1}-byte schema id), got ${length}`,
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
  const first = bytes[1]! * 0x1000000 + ((bytes[2]! << 16) | (bytes[3]! << 8) | bytes[4]!)
  const idSize: IdSize = asked === 'auto' ? (first === 0 && length >= 9 ? 8 : 4) : asked
  if (idSize === 4) return { schemaId: first, payload: bytes.subarray(FRAME_HEADER_SIZE), idSize }
  return { schemaId: longIdAt(bytes, 1), payload: bytes.subarray(9), idSize }
}

/**
 * @internal The 8-byte big-endian id at `at` as a number, or a DeserializationError for a negative id or one beyond
 * Number.MAX_SAFE_INTEGER (never a rounded value).
 */
export function longIdAt(bytes: Uint8Array, at: number): number {
  const hi = bytes[at]! * 0x1000000 + ((bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!)
  const lo = bytes[at + 4]! * 0x1000000 + ((bytes[at + 5]! << 16) | (bytes[at + 6]! << 8) | bytes[at + 7]!)
  if (hi < TWO_POW_21) return hi * TWO_POW_32 + lo
  const exact = BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo))
  throw new DeserializationError(
    exact < 0n
      ? `Cannot decode a frame: its 8-byte schema id is negative (${exact}), and no registry assigns a negative id`
      : `Cannot decode a frame: its 8-byte schema id ${exact} is beyond ${Number.MAX_SAFE_INTEGER} (2^53 − 1), which ` +
          'this library reads without rounding; an 8-byte read of a frame whose id takes 4 bytes gives such ids ' +
          '(idSize 4?)',
  )
}
