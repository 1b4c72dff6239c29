import { invalidConfigError } from '@x/errors'
import type { MessageField, SchemaId, SerializationContext } from '@x/wire-format'
import { asError } from './as-error.js'
import { BoundedCallbacks } from './bounded-callbacks.js'
import { contextFor } from './contexts.js'
import { headerRecord } from './header-record.js'
import type { MessageContract, MessageSerializer } from './message-contract.js'

/**
 * A serializer of any format, with the prepared (synchronous) path a client with synchronous serializers uses (every
 * serializer of this family, `AnySerializer` included).
 */
export interface PreparedSerializer<V> extends MessageSerializer<V> {
  prepare(ctx?: SerializationContext): Promise<void>
  serializeSync(value: V, ctx: SerializationContext): Uint8Array
  serializeMessageSync(
    value: V,
    ctx: SerializationContext,
  ): { payload: Uint8Array; headers: Record<string, Uint8Array> }
  /**
   * Whether the `…Sync` methods can write for `ctx` now, with nothing to look up (every serializer of this family
   * says it); a serializer without it is prepared through `prepare` each time.
   */
  isPrepared?(ctx?: SerializationContext): boolean
  readonly wireFormat: string
}

/**
 * The contract's writing for a client that prepares each field of a message asynchronously and then writes it
 * synchronously (`@platformatic/kafka`): {@link prepare} looks the artifact up (or registers it) once per topic, and
 * in headers mode writes the payload there, since its id header must be added before the client writes the headers;
 * {@link writeNow} then gives the bytes. Keys follow the contract's one rule (`encodeKeyNow`).
 */
export class PreparedWrites<V> {
  readonly #contract: MessageContract<V, unknown>
  readonly #value: PreparedSerializer<V> | undefined
  readonly #key: PreparedSerializer<unknown> | undefined
  /** Payloads written in headers mode by `prepare`, taken by `writeNow` for the same message. */
  readonly #written = new WeakMap<object, Partial<Record<MessageField, Buffer>>>()
  /** Whether `prepare` has written any payload in headers mode (until then `writeNow` looks none up). */
  #wroteAny = false
  /** The callbacks of fields that need no lookup: at once, nested a bounded number of times. */
  readonly #warm = new BoundedCallbacks()

  /**
   * @throws TypeError (code `INVALID_CONFIG`) for a serializer without the prepared path (`prepare`), naming it
   *   (`serializer` for values, `keys.serializer`).
   */
  constructor(
    contract: MessageContract<V, unknown>,
    serializers: { value?: PreparedSerializer<V> | undefined; key?: PreparedSerializer<unknown> | undefined },
  ) {
    for (const [name, serializer] of [
      ['serializer', serializers.value],
      ['keys.serializer', serializers.key],
    ] as const) {
      if (
        serializer !== undefined &&
        typeof (serializer as Partial<PreparedSerializer<unknown>> | null)?.prepare !== 'function'
      )
        throw invalidConfigError(`${name} must be a serializer of this family`)
    }
    this.#contract = contract
    this.#value = serializers.value
    this.#key = serializers.key
  }

  /**
   * Prepares the serializer of a message's field for its topic. In headers mode the payload is written now, kept for
   * {@link writeNow} of the same message, and its id headers are returned for the caller to add to the message;
   * else `undefined`.
   *
   * @throws (rejects) the serializer's errors (a lookup or registration that failed, a value a rule refused).
   */
  prepare(
    topic: string,
    field: MessageField,
    data: unknown,
    message: object,
  ): Promise<Record<string, Buffer> | undefined> {
    try {
      const serializer = field === 'value' ? this.#value : this.#key
      if (serializer === undefined || data === undefined || data === null) return NOTHING
      this.#contract.stopPreloading()
      const ctx = contextFor(topic, field)
      // Framed: the serializer's own Promise, the only one made for the message's field.
      const prepared = Promise.resolve(serializer.prepare(ctx))
      if (serializer.wireFormat !== 'MESSAGE_HEADERS') return prepared.then(nothing)
      return prepared.then(() => this.#writeHeadersMode(serializer, ctx, field, data, message))
    } catch (error) {
      return Promise.reject(error)
    }
  }

  /**
   * {@link prepare} for a client that prepares each field of a message about to be produced and is called back
   * (`@platformatic/kafka`'s before-serialization hook, whose `field` may also name a header): `done` gets `null`
   * once the field is prepared and the id headers of headers mode are added to the message's `headers` (a `Map`, or a
   * record replaced by a copy with them), else the error. A field that needs no lookup (a header, a key of a key
   * type, no data, a serializer already prepared for the topic) is called back at once, as a client's own registry
   * does, unless many such callbacks already run inside one another (then in a microtask); an error always comes in
   * a microtask or later, never from inside this call.
   */
  prepareField(
    field: string,
    data: unknown,
    message: MessageToPrepare,
    done: (error: Error | null) => void,
  ): void {
    if ((field !== 'key' && field !== 'value') || (message != null && !this.needsPreparing(field, data))) {
      this.#warm.call(done)
      return
    }
    const serializer = (field === 'value' ? this.#value : this.#key) as PreparedSerializer<unknown>
    if (message != null && serializer.isPrepared !== undefined) {
      let warm = false
      try {
        const ctx = contextFor(message.topic, field)
        if (serializer.isPrepared(ctx)) {
          if (serializer.wireFormat === 'MESSAGE_HEADERS')
            addHeaders(message, this.#writeHeadersMode(serializer, ctx, field, data, message))
          warm = true
        }
      } catch (error) {
        queueMicrotask(() => done(asError(error)))
        return
      }
      if (warm) {
        this.#warm.call(done)
        return
      }
    }
    let work: Promise<Record<string, Buffer> | undefined>
    try {
      work = this.prepare(message.topic, field, data, message)
    } catch (error) {
      work = Promise.reject(error)
    }
    work.then(
      (added) => {
        if (added !== undefined) {
          try {
            addHeaders(message, added)
          } catch (error) {
            done(asError(error))
            return
          }
        }
        done(null)
      },
      (error: unknown) => done(asError(error)),
    )
  }

  /**
   * Whether {@link prepare} has anything to do for a field's data: `false` for a field without a serializer (a key of
   * a key type) or without data, which {@link prepare} resolves at once without a look-up.
   */
  needsPreparing(field: MessageField, data: unknown): boolean {
    return (field === 'value' ? this.#value : this.#key) !== undefined && data !== undefined && data !== null
  }

  #writeHeadersMode(
    serializer: PreparedSerializer<unknown>,
    ctx: SerializationContext,
    field: MessageField,
    data: unknown,
    message: object,
  ): Record<string, Buffer> {
    const written = serializer.serializeMessageSync(data, ctx)
    const slots = this.#written.get(message) ?? {}
    slots[field] = toBuffer(written.payload)
    this.#written.set(message, slots)
    this.#wroteAny = true
    const headers: Record<string, Buffer> = {}
    for (const name in written.headers) headers[name] = toBuffer(written.headers[name]!)
    return headers
  }

  /**
   * The bytes to send for a field: what {@link prepare} wrote for this message, else the serializer's prepared path;
   * a key by the contract's rule (its key type, or its serializer; none: `TypeError`, code `INVALID_CONFIG`).
   * `undefined` for a value without a serializer (the client decides what to send).
   */
  writeNow(
    topic: string,
    field: MessageField,
    data: unknown,
    message: object | undefined,
  ): Buffer | undefined {
    if (this.#wroteAny && message !== undefined) {
      const written = this.#written.get(message)?.[field]
      if (written !== undefined) return written
    }
    if (field === 'key') return this.#contract.encodeKeyNow(topic, data, {})
    if (this.#value === undefined) return undefined
    return toBuffer(this.#value.serializeSync(data as V, contextFor(topic, field)))
  }

  /** The payload {@link prepare} wrote in headers mode for a message's field, if it did. */
  writtenOf(message: object, field: MessageField): Buffer | undefined {
    return this.#written.get(message)?.[field]
  }

  /**
   * The schema id of a framed payload (read as the value deserializer reads ids), or of a message's field written in
   * headers mode by {@link prepare}; `undefined` when there is none.
   */
  schemaIdOf(payload: Buffer | MessageToPrepare, field: MessageField): SchemaId | undefined {
    if (Buffer.isBuffer(payload)) return this.#contract.idToPrepare('', 'value', payload, undefined)?.id
    const headers = headerRecord(payload.headers)
    const written = this.writtenOf(payload, field)
    if (written === undefined) return undefined
    return this.#contract.idToPrepare(payload.topic, field, written, headers)?.id
  }
}

/** A message about to be produced, as {@link PreparedWrites.prepareField} sees it: its topic and headers. */
export interface MessageToPrepare {
  /** The topic it is produced to, whose artifact the serializer prepares. */
  topic: string
  /** Its headers, to which the id headers of headers mode are added. */
  headers?: Map<unknown, unknown> | Record<string, unknown>
}

/** Adds the id headers of a field written in headers mode to the message about to be produced. */
function addHeaders(message: MessageToPrepare, added: Record<string, Buffer>): void {
  if (message.headers instanceof Map) {
    for (const [name, value] of Object.entries(added)) message.headers.set(name, value)
  } else message.headers = { ...(message.headers ?? {}), ...added }
}

/** An error to call back with: the thrown `Error` itself, anything else as the message of one. */

/** What `prepare` resolves to when no id header is to be added. */
const NOTHING: Promise<undefined> = Promise.resolve(undefined)
const nothing = (): undefined => undefined

function toBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}
