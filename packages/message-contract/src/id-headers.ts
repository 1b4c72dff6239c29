import { DeserializationError } from '@x/errors'
import type { IncomingMessage, MessageHeaders } from '@x/serde-core'
import type { IdType, MessageField } from '@x/wire-format'

/** The id header names of each field, made once (a name concatenated per message costs a hash per lookup). */
const NAMES = {
  key: {
    globalId: 'apicurio.key.globalId',
    contentId: 'apicurio.key.contentId',
    confluent: '__key_schema_id',
  },
  value: {
    globalId: 'apicurio.value.globalId',
    contentId: 'apicurio.value.contentId',
    confluent: '__value_schema_id',
  },
} as const

/** Bytes of a header value (a string as its latin1 bytes, as the id headers are read). */
function bytesOf(value: Uint8Array | string): Buffer {
  return typeof value === 'string'
    ? Buffer.from(value, 'latin1')
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength)
}

/**
 * A header repeated with different values names two schemas: which one wrote the message cannot be told, so it is
 * a `DeserializationError` rather than a guess. The same value repeated is read as one (a producer that adds its
 * header twice still names one schema).
 */
function refuseConflict(
  name: string,
  value: MessageHeaders[string] | undefined,
  field: MessageField,
  topic: string | undefined,
): void {
  if (!Array.isArray(value) || value.length < 2) return
  const distinct = new Set(value.map((one) => bytesOf(one).toString('hex')))
  if (distinct.size < 2) return
  throw new DeserializationError(
    `A message${topic === undefined ? '' : ` of topic '${topic}'`} carries the header ${name} ${value.length} times with different ids (${[...distinct].map((hex) => `0x${hex}`).join(', ')}): which schema wrote its ${field} cannot be told`,
  )
}

/** The last value of a header that may be repeated (once `refuseConflict` passed, every value is the same). */
function single(value: MessageHeaders[string]): Uint8Array | string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value
}

/**
 * The message as the format deserializers read it, after the header rules every reader here shares:
 *
 * - an Apicurio id header (`apicurio.<field>.globalId` / `.contentId`) repeated with different ids is a
 *   `DeserializationError`; repeated with the same id it is read as one;
 * - without an Apicurio id header, Confluent 8's `__<field>_schema_id` header holding `0x00` + a 4-byte id names
 *   the schema of a payload that has no frame: the message comes back with that id as the Apicurio header of
 *   `useId` (the id a Confluent frame carries, read the same way); `0x01` + a 16-byte GUID is a
 *   `DeserializationError` (Apicurio Registry assigns no GUIDs), as is any other form.
 *
 * Returns `message` itself when no rule changes it (the common case, with no allocation).
 */
export function applyIdHeaderRules(
  message: IncomingMessage,
  field: MessageField,
  useId: IdType,
  topic?: string,
): IncomingMessage {
  const headers = (message as IncomingMessage | null)?.headers
  if (headers === undefined || headers === null) return message
  const names = NAMES[field]
  const globalId = headers[names.globalId]
  const contentId = headers[names.contentId]
  if (given(globalId) || given(contentId)) {
    refuseConflict(names.globalId, globalId, field, topic)
    refuseConflict(names.contentId, contentId, field, topic)
    return message
  }
  const confluent = headers[names.confluent]
  if (!given(confluent)) return message
  refuseConflict(names.confluent, confluent, field, topic)
  const id = confluentHeaderId(names.confluent, single(confluent)!)
  const header = Buffer.alloc(8)
  header.writeUInt32BE(id, 4)
  return { payload: message.payload, headers: { ...headers, [names[useId]]: header } }
}

/** The 4-byte id of a Confluent 8 schema id header, or a `DeserializationError` saying what it holds instead. */
function confluentHeaderId(name: string, value: Uint8Array | string): number {
  const bytes = bytesOf(value)
  if (bytes.length === 5 && bytes[0] === 0x00) {
    const id = bytes.readUInt32BE(1)
    if (id !== 0) return id
  }
  if (bytes.length === 17 && bytes[0] === 0x01) {
    const hex = bytes.subarray(1).toString('hex')
    const guid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
    throw new DeserializationError(
      `Cannot read header '${name}': it holds the schema GUID ${guid} (0x01 + 16 bytes, Confluent's GUID form); Apicurio Registry assigns no GUIDs, so no schema here can be found by it`,
    )
  }
  throw new DeserializationError(
    `Cannot read header '${name}': expected 0x00 and a 4-byte schema id (5 bytes), got ${bytes.length} bytes (${bytes.subarray(0, 17).toString('hex')})`,
  )
}

/** Whether a message's headers name a schema for `field` (an Apicurio id header, or Confluent 8's id header). */
export function hasIdHeader(headers: MessageHeaders | null | undefined, field: MessageField): boolean {
  if (headers === undefined || headers === null) return false
  const names = NAMES[field]
  return given(headers[names.globalId]) || given(headers[names.contentId]) || given(headers[names.confluent])
}

/** Whether a header is there: a header given as an empty list of values is absent, as the deserializers read it. */
function given(value: MessageHeaders[string] | undefined): boolean {
  return value !== undefined && !(Array.isArray(value) && value.length === 0)
}
