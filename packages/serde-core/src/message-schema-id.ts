import { DeserializationError } from '@x/errors'
import { decodeFrame, FRAME_HEADER_SIZE, type IdType, type SchemaId } from '@x/wire-format'
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
 * type) when the headers carry one, else from the payload's frame (`0x00` + a 4-byte id read as `useId`). What a
 * reader of any format needs before it knows the format, and what a dead-letter router can name.
 *
 * @throws DeserializationError for a message that is not `{ payload: Uint8Array, headers? }`, an id header of other
 *   than 8 bytes, or (without one) a payload under 5 bytes or not starting with `0x00`.
 */
export function messageSchemaId(
  message: IncomingMessage,
  field: 'key' | 'value',
  useId: IdType,
): MessageSchemaId {
  const { payload, headers } = checkMessage(message)
  const found = readIdHeader(headers, idHeaderNamesFor(useId)[field])
  if (found !== undefined) return { idType: found.idType, id: found.id, framed: false }
  return { idType: useId, id: frameIdOf(payload), framed: true }
}

/** @internal The 4-byte id of a frame, after the checks of `decodeFrame` (which throws its own errors on a bad frame). */
export function frameIdOf(bytes: Uint8Array): number {
  if (!(bytes instanceof Uint8Array) || bytes.length < FRAME_HEADER_SIZE || bytes[0] !== 0) {
    return decodeFrame(bytes).schemaId
  }
  return bytes[1]! * 0x1000000 + ((bytes[2]! << 16) | (bytes[3]! << 8) | bytes[4]!)
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
