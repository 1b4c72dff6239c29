import { DeserializationError } from '@x/errors'
import { decodeIdHeader, type IdType, idHeaderName, type MessageField, type SchemaId } from '@x/wire-format'

/**
 * One header value as Kafka clients hand them over (kafkajs `IHeaders`): bytes, a string, or several values when
 * the header was repeated (the last one wins).
 */
export type MessageHeaderValue = Uint8Array | string | (Uint8Array | string)[] | undefined

/** The headers of a consumed record, in the kafkajs shape. */
export type MessageHeaders = Record<string, MessageHeaderValue>

/** A message as `serializeMessage` returns it: the payload and the headers to send with it. */
export interface SerializedMessage {
  /**
   * The bytes to send as the record's value (or key): a frame in `FRAMED_PAYLOAD` mode, the bare Avro encoding in
   * `MESSAGE_HEADERS` mode. A `Buffer` whenever `globalThis.Buffer` exists.
   */
  payload: Uint8Array
  /**
   * One Apicurio id header (`apicurio.value.globalId` …, 8 bytes big-endian) in `MESSAGE_HEADERS` mode, with the
   * headers the format adds (Avro's `apicurio.value.encoding` = `JSON` with the JSON encoding); no header (`{}`) in
   * `FRAMED_PAYLOAD` mode. Values are `Buffer`s whenever `globalThis.Buffer` exists.
   */
  headers: Record<string, Uint8Array>
}

/** A consumed message for `deserializeMessage`: the record's value (or key) and its headers. */
export interface IncomingMessage {
  payload: Uint8Array
  headers?: MessageHeaders | null | undefined
}

/** @internal The id a message's header carries, with the id type taken from the header's name. */
export interface HeaderId {
  idType: IdType
  id: SchemaId
  headerName: string
}

/** @internal The two header names a deserializer looks at for one field, the one matching `useId` first. */
export interface IdHeaderNames {
  preferred: string
  preferredType: IdType
  other: string
  otherType: IdType
}

function namesOf(useId: IdType): Readonly<Record<MessageField, IdHeaderNames>> {
  const otherType: IdType = useId === 'globalId' ? 'contentId' : 'globalId'
  const names = (field: MessageField): IdHeaderNames =>
    Object.freeze({
      preferred: idHeaderName(field, useId),
      preferredType: useId,
      other: idHeaderName(field, otherType),
      otherType,
    })
  return Object.freeze({ key: names('key'), value: names('value') })
}

/**
 * The header names per `useId`, made once per process: header lookups then use the same (internalized) strings on
 * every message instead of a freshly concatenated name, which costs a hash of the name on each lookup.
 */
const NAMES: Readonly<Record<IdType, Readonly<Record<MessageField, IdHeaderNames>>>> = Object.freeze({
  globalId: namesOf('globalId'),
  contentId: namesOf('contentId'),
})

/** @internal Both header names of both fields for a deserializer's `useId` (the same objects on every call). */
export function idHeaderNamesFor(useId: IdType): Readonly<Record<MessageField, IdHeaderNames>> {
  return NAMES[useId] ?? namesOf(useId)
}

function lastValue(value: MessageHeaderValue): Uint8Array | string | undefined {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value[value.length - 1]
  return value
}

function headerBytes(value: Uint8Array | string, name: string): Uint8Array {
  if (value instanceof Uint8Array) return value
  if (typeof value === 'string') return Buffer.from(value, 'latin1')
  throw new DeserializationError(
    `Cannot read header '${name}': expected bytes or a string, got ${value === null ? 'null' : typeof value}`,
  )
}

/**
 * @internal The schema id carried by the Apicurio id headers of `field` (`apicurio.<field>.globalId` /
 * `.contentId`), or `undefined` when neither is present. With both, the one matching `useId` wins. A string value
 * is read as its latin1 bytes. A value of other than 8 bytes is a `DeserializationError`.
 */
export function readIdHeader(
  headers: MessageHeaders | null | undefined,
  names: IdHeaderNames,
): HeaderId | undefined {
  if (headers === undefined || headers === null) return undefined
  let headerName = names.preferred
  let idType = names.preferredType
  let value = lastValue(headers[headerName])
  if (value === undefined) {
    headerName = names.other
    idType = names.otherType
    value = lastValue(headers[headerName])
    if (value === undefined) return undefined
  }
  const bytes = headerBytes(value, headerName)
  try {
    return { idType, id: decodeIdHeader(bytes), headerName }
  } catch (cause) {
    throw new DeserializationError(
      `Cannot read header '${headerName}': ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    )
  }
}
