/**
 * Which part of a Kafka record a value belongs to: its key or its value. Used to pick the artifact (`orders-key`
 * / `orders-value` with `TopicIdStrategy`) and the id header name (`apicurio.key.globalId`).
 *
 * String constants, not a TypeScript `enum`: `MessageField.KEY === 'key'`, so plain strings work as well.
 */
export const MessageField = Object.freeze({
  /** The record key. */
  KEY: 'key',
  /** The record value (the default everywhere). */
  VALUE: 'value',
} as const)

/** `'key'` or `'value'`: the values of {@link MessageField}. */
export type MessageField = (typeof MessageField)[keyof typeof MessageField]

/**
 * Where the schema id travels.
 *
 * - `FRAMED_PAYLOAD`: in front of the payload, as magic byte `0x00` + 4-byte big-endian id (ids up to 4294967295).
 * - `MESSAGE_HEADERS`: in a Kafka header named like `apicurio.value.globalId`, as 8 bytes big-endian signed
 *   (any signed 64-bit id); the payload is then the bare encoded value.
 */
export const WireFormat = Object.freeze({
  /** Magic byte `0x00` + 4-byte big-endian schema id + payload. */
  FRAMED_PAYLOAD: 'FRAMED_PAYLOAD',
  /** Schema id in an Apicurio id header (8 bytes), payload without a frame. */
  MESSAGE_HEADERS: 'MESSAGE_HEADERS',
} as const)

/** `'FRAMED_PAYLOAD'` or `'MESSAGE_HEADERS'`: the values of {@link WireFormat}. */
export type WireFormat = (typeof WireFormat)[keyof typeof WireFormat]

/** @internal True for `'key'` and `'value'` only. */
export function isMessageField(value: unknown): value is MessageField {
  return value === MessageField.VALUE || value === MessageField.KEY
}
