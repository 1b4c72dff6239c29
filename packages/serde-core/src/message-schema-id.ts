import { DeserializationError } from '@x/errors'
import { decodeFrame, FRAME_HEADER_SIZE, type IdType, type ReadIdSize, type SchemaId } from '@x/wire-format'
import { type IncomingMessage, idHeaderNamesFor, readIdHeader } from './message-headers.js'

/** The schema id a message carries, and where it was read. */
export interface MessageSchemaId {
  idType: IdType
  id: SchemaId
  /** `true` when the id came from the payload's frame, `false` when from an Apicurio id header. */
  framed: boolean
}

/**
 * The schema id of a consumed message, read as every deserializer reads it: from the Apicurio id header of `field`
 * (`apicurio.<field>.globalId` or `.contentId`; with both, the one matching `useId`; the header's name gives the id
 * type) when the headers carry one, else from the payload's frame (`0x00` + an id of `idSize` bytes read as `useId`).
 * What a reader of any format needs before it knows the format, and what a dead-letter router can name.
 *
 * @param idSize - How the frame's id is read: 4 (default), 8 or `'auto'` (see `DeserializerOptions.idSize`).
 * @throws DeserializationError for a message that is not `{ payload: Uint8Array, headers? }`, an id header of other
 *   than 8 bytes, or (without one) a payload shorter than its frame header, not starting with `0x00`, or whose id
 *   reads as 0 (no registry assigns it: the message names the likely width instead).
 */
export function messageSchemaId(
  message: IncomingMessage,
  field: 'key' | 'value',
  useId: IdType,
  idSize: ReadIdSize = 4,
): MessageSchemaId {
  const { payload, headers } = checkMessage(message)
  const found = readIdHeader(headers, idHeaderNamesFor(useId)[field])
  if (found !== undefined) return { idType: found.idType, id: found.id, framed: false }
  return { idType: useId, id: frameIdOf(payload, idSize), framed: true }
}

/** 2^21: an 8-byte id whose upper 4 bytes reach it is beyond Number.MAX_SAFE_INTEGER (or negative). */
const TWO_POW_21 = 0x200000

/**
 * @internal The id of a frame read with `idSize`, after the checks of `decodeFrame` (which throws its own errors on
 * a bad frame). An id of 0 is a DeserializationError: no registry assigns it, and it is what a frame of the other
 * width reads as.
 */
export function frameIdOf(bytes: Uint8Array, idSize: ReadIdSize = 4): number {
  if (!(bytes instanceof Uint8Array) || bytes.length < FRAME_HEADER_SIZE || bytes[0] !== 0) {
    return decodeFrame(bytes, { idSize }).schemaId
  }
  const first = bytes[1]! * 0x1000000 + ((bytes[2]! << 16) | (bytes[3]! << 8) | bytes[4]!)
  let id = first
  if (idSize === 8 || (idSize === 'auto' && first === 0 && bytes.length >= 9)) {
    // A frame too short for 8 bytes, or a negative id or one beyond 2^53 - 1: decodeFrame throws what it is.
    if (bytes.length < 9 || first >= TWO_POW_21) return decodeFrame(bytes, { idSize: 8 }).schemaId
    id = first * 0x100000000 + (bytes[5]! * 0x1000000 + ((bytes[6]! << 16) | (bytes[7]! << 8) | bytes[8]!))
  }
  if (id === 0) throw zeroIdError(bytes, idSize)
  return id
}

/** @internal Where the payload of a frame starts (5 or 9), once `frameIdOf` has read it with `idSize`. */
export function payloadOffsetOf(bytes: Uint8Array, idSize: ReadIdSize): number {
  if (idSize === 4) return FRAME_HEADER_SIZE
  if (idSize === 8) return 9
  return bytes.length >= 9 && bytes[1] === 0 && bytes[2] === 0 && bytes[3] === 0 && bytes[4] === 0
    ? 9
    : FRAME_HEADER_SIZE
}

const hexOf = (bytes: Uint8Array, from: number, to: number): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset + from, Math.max(0, Math.min(to, bytes.length) - from)).toString(
    'hex',
  )

/** Id 0, explained: which width the bytes more likely have, and the setting that reads them. */
function zeroIdError(bytes: Uint8Array, idSize: ReadIdSize): DeserializationError {
  if (idSize === 4) {
    const likely =
      bytes.length >= 9
        ? `The bytes look like a frame with an 8-byte id (Apicurio 2.x's default, 3.x's Legacy8ByteIdHandler): ` +
          `00 ${hexOf(bytes, 1, 9)}, id ${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32BE(5)} as 8 bytes; ` +
          "read this topic with idSize: 8, or idSize: 'auto' when it holds both widths"
        : `The ${bytes.length} bytes are too short for an 8-byte id too`
    return new DeserializationError(
      `Cannot read the frame: its 4-byte schema id is 0, which no registry assigns. ${likely}`,
      { schemaId: 0 },
    )
  }
  return new DeserializationError(
    `Cannot read the frame: its schema id is 0 (id bytes ${hexOf(bytes, 1, idSize === 8 || bytes.length >= 9 ? 9 : 5)}, idSize ${String(idSize)}), which no registry assigns`,
    { schemaId: 0 },
  )
}

/** @internal The message, checked to be `{ payload: Uint8Array, headers? }`. */
export function checkMessage(message: IncomingMessage): IncomingMessage {
  if (typeof message !== 'object' || message === null || !(message.payload instanceof Uint8Array)) {
    throw new DeserializationError(
      'deserializeMessage expects { payload: Uint8Array, headers? }, as a consumed Kafka message carries them',
    )
  }
  return message
}
