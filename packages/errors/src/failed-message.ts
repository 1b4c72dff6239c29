import type { IdType } from './errors.js'
import { isSerdeError } from './serde-error.js'

/**
 * What a dead-letter handler needs from a message that could not be deserialized. Every `DeserializationError`,
 * and every registry error raised while deserializing, carries these fields, non-enumerable (so a logged error stays
 * small and shows no message content): `error.payload`, `error.schemaId`, `error.idType`, `error.headers`,
 * `error.context`, and, when a Kafka adapter of `@x/kafka` read the message, `error.partition` and `error.offset`. Read
 * them together with {@link failedMessageOf}.
 */
export interface FailedMessage {
  /** The bytes given to the deserializer (the Kafka message's value or key), as they came. */
  readonly payload: Uint8Array
  /** The schema identifier the frame or id header held, when one could be read. */
  readonly schemaId?: number | bigint | undefined
  /** How `schemaId` was read (`useId`, or the id header's name), when it could be read. */
  readonly idType?: IdType | undefined
  /** The message headers given to `deserializeMessage` (not set for `deserialize`). */
  readonly headers?: Readonly<Record<string, unknown>> | undefined
  /** The `SerializationContext` of the call: topic and field. */
  readonly context?: FailedMessageContext | undefined
  /** The Kafka partition the message was consumed from, when a Kafka adapter (`@x/kafka`) read it. */
  readonly partition?: number | undefined
  /** The message's Kafka offset (a decimal string, as the clients give it), when a Kafka adapter read it. */
  readonly offset?: string | undefined
}

/** The part of a `SerializationContext` a failed message records (structurally the same type). */
export interface FailedMessageContext {
  readonly topic: string
  readonly field: 'key' | 'value'
}

const FIELDS = ['payload', 'schemaId', 'idType', 'headers', 'context', 'partition', 'offset'] as const

/**
 * For serde implementations (the format packages call it through `@x/serde-core`). Records the failed message on a
 * library error (non-enumerable own properties; a field already present keeps its value) and returns the error.
 * Errors of other kinds (a `TypeError` for misuse) are returned untouched: misuse is a bug to fix, not a message to
 * dead-letter.
 *
 * An error belongs to one message. One that already names another message (other payload bytes, another topic or
 * field, partition or offset: the rejection of a lookup shared by several messages) is not changed: the message is
 * recorded on a copy of it, of the same class, with the same `code`, `message`, `cause`, `stack` and other fields,
 * and the copy is returned. Always throw what this returns.
 */
export function recordFailedMessage<E>(error: E, message: FailedMessage): E {
  if (!isSerdeError(error)) return error
  const owned = namesOther(error, message) ? copyOf(error) : error
  for (const key of FIELDS) {
    const value = message[key]
    if (value === undefined || Object.hasOwn(owned, key)) continue
    Object.defineProperty(owned, key, { value, enumerable: false, configurable: true, writable: false })
  }
  return owned
}

/** Whether an error already records a message other than `message` (compared by what tells two messages apart). */
function namesOther(error: object, message: FailedMessage): boolean {
  const found = error as Partial<Record<(typeof FIELDS)[number], unknown>>
  if (found.payload !== undefined && message.payload !== undefined && found.payload !== message.payload)
    return true
  if (
    found.partition !== undefined &&
    message.partition !== undefined &&
    found.partition !== message.partition
  )
    return true
  if (found.offset !== undefined && message.offset !== undefined && found.offset !== message.offset)
    return true
  const had = found.context as FailedMessageContext | undefined
  const given = message.context
  return had !== undefined && given !== undefined && (had.topic !== given.topic || had.field !== given.field)
}

/** A copy of an error without the failed message it records: same prototype, every other own property. */
function copyOf<E extends object>(error: E): E {
  const properties = Object.getOwnPropertyDescriptors(error) as Record<PropertyKey, PropertyDescriptor>
  // The stack as text: some engines keep it behind an accessor bound to the original object.
  if ('stack' in properties) {
    properties.stack = { value: (error as { stack?: unknown }).stack, writable: true, configurable: true }
  }
  for (const key of FIELDS) {
    // A field the error had of its own before any message was recorded (a not-found error's idType) is kept.
    if (key !== 'idType' && key !== 'schemaId') delete properties[key]
  }
  return Object.create(Object.getPrototypeOf(error), properties) as E
}

/**
 * The failed message an error carries (see {@link FailedMessage}), or `undefined` when the error was not raised
 * while deserializing a message.
 *
 * @example
 * ```ts
 * try {
 *   value = await deserializer.deserialize(message.value, ctx)
 * } catch (error) {
 *   const failed = failedMessageOf(error)
 *   if (failed === undefined) throw error
 *   await producer.send({ topic: `${ctx.topic}.dlq`, messages: [{ value: Buffer.from(failed.payload) }] })
 * }
 * ```
 */
export function failedMessageOf(error: unknown): FailedMessage | undefined {
  if (!isSerdeError(error)) return undefined
  const payload = (error as { payload?: unknown }).payload
  if (!(payload instanceof Uint8Array)) return undefined
  const found = error as unknown as FailedMessage
  return {
    payload,
    schemaId: found.schemaId,
    idType: found.idType,
    headers: found.headers,
    context: found.context,
    partition: found.partition,
    offset: found.offset,
  }
}
