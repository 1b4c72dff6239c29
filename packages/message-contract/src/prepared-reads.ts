import { SerdeError } from '@x/errors'
import type { MessageHeaders } from '@x/serde-core'
import type { IdType, MessageField, SchemaId } from '@x/wire-format'
import { ArtifactLookup } from './artifact-lookup.js'
import { asError } from './as-error.js'
import { BoundedCallbacks } from './bounded-callbacks.js'
import { recordConsumedFailure } from './consumed-failure.js'
import { ConsumedSchemas } from './consumed-schemas.js'
import { headerRecord } from './header-record.js'
import type { MessageContract } from './message-contract.js'
import { PoisonRecords } from './poison-records.js'
import { readErrorKind } from './read-errors.js'

/**
 * The contract's reading for a client that looks up what each field of a fetch needs first (asynchronously, once per
 * id) and then reads every field synchronously (`@platformatic/kafka`): {@link needs} and {@link prepare} before,
 * {@link read} after. A field that can never be read (an unknown id, a bad frame) is not an error of the preparation:
 * its read throws, as that message's own error, and {@link refusedOf} finds it for the client's handler of refused
 * records. An outage fails the preparation. Each read puts which schema wrote the field (and where its id lives) on
 * the message's `metadata.schemas` ({@link ConsumedSchemas}).
 */
export class PreparedReads<V, K> {
  readonly #contract: MessageContract<V, K>
  readonly #artifacts: ArtifactLookup
  readonly #schemas: ConsumedSchemas
  /** Why a payload could not be prepared (an unknown id…): its read throws it. */
  readonly #unreadable = new PoisonRecords()
  /** The error each refused payload was refused with. */
  readonly #refused = new WeakMap<object, unknown>()
  /** The callbacks of fields that need nothing fetched: at once, nested a bounded number of times. */
  readonly #warm = new BoundedCallbacks()

  /** @param client - The registry client, whose `findVersionOfId` tells where each id lives. */
  constructor(contract: MessageContract<V, K>, client: unknown) {
    this.#contract = contract
    this.#artifacts = new ArtifactLookup(client)
    this.#schemas = new ConsumedSchemas(this.#artifacts)
  }

  /**
   * The schema id a field's read needs from the registry first, or `undefined` when it needs nothing (its schema,
   * and where its id lives, cached; or a field the read refuses anyway). Makes no request.
   */
  needs(
    topic: string,
    field: MessageField,
    payload: Uint8Array,
    headers: MessageHeaders,
  ): { idType: IdType; id: SchemaId } | undefined {
    const artifacts = this.#artifacts
    // A frame of the id the last read of this field prepared, on the same topic: ready, unless its coordinates are
    // still to be looked up.
    const frame = this.#contract.preparedFrameOf(topic, field, payload, headers)
    if (frame !== undefined && (!artifacts.enabled || artifacts.peek(frame.idType, frame.id) !== undefined))
      return undefined
    const found = this.#contract.idToPrepare(topic, field, payload, headers)
    if (
      found === undefined ||
      (this.#contract.isPrepared(topic, field, found.idType, found.id) &&
        (!artifacts.enabled || artifacts.has(found.idType, found.id)))
    )
      return undefined
    return found
  }

  /**
   * Fetches what a field's read needs (the id {@link needs} gave): its schema, once per id, and then where its id
   * lives (after the schema's request, over the connection it opened). The schema's failure is the one that counts:
   * a poison id is kept for the read of `payload` to throw, whatever the search gave.
   *
   * @throws (rejects) an outage (`RegistryConnectionError`, `AuthenticationError`), for the client to retry.
   */
  async prepare(
    topic: string,
    field: MessageField,
    found: { idType: IdType; id: SchemaId },
    payload: Uint8Array,
  ): Promise<void> {
    const prepared = this.#contract.prepare(topic, field, found.idType, found.id)
    const artifact = this.#artifacts.find(found.idType, found.id).then(
      () => undefined,
      (error: unknown) => ({ error }),
    )
    try {
      await prepared
      const failed = await artifact
      if (failed !== undefined) throw failed.error
    } catch (error) {
      if (readErrorKind(error) !== 'poison') throw error
      this.#unreadable.add(payload, error)
    }
  }

  /**
   * {@link needs}, then {@link prepare}, for a client that prepares each field of a consumed record and is called back
   * (`@platformatic/kafka`'s before-deserialization hook, whose `field` may also name a header): `done` gets `null`
   * once the field is ready, else the outage. One that needs nothing fetched (a header, no payload, its schema cached,
   * or a field its read refuses anyway) is called back at once, as a client's own registry does, unless many such
   * callbacks already run inside one another (then in a microtask).
   */
  prepareField(
    topic: string,
    field: string,
    payload: Uint8Array | null | undefined,
    headers: unknown,
    done: (error: Error | null) => void,
  ): void {
    if ((field !== 'key' && field !== 'value') || payload === null || payload === undefined) {
      this.#warm.call(done)
      return
    }
    const found = this.needs(topic, field, payload, headerRecord(headers))
    if (found === undefined) this.#warm.call(done)
    else
      this.prepare(topic, field, found, payload).then(
        () => done(null),
        (error: unknown) => done(asError(error)),
      )
  }

  /**
   * A prepared field read at once, its schema put on `message.metadata.schemas`.
   *
   * @throws what the contract's read throws, recording the failed field (bytes, headers, topic, field, partition);
   *   `SerdeError` (code `NOT_PREPARED`) for a field whose schema was not prepared.
   */
  read(
    topic: string,
    field: MessageField,
    payload: Uint8Array,
    headers: MessageHeaders,
    message: { partition?: number | undefined; metadata?: Record<string, unknown> } | undefined,
  ): unknown {
    let read: ReturnType<MessageContract<V, K>['readNow']>
    try {
      const unreadable = this.#unreadable.errorOf(payload)
      if (unreadable !== undefined) throw unreadable
      read = this.#contract.readNow(topic, field, payload, headers)
    } catch (error) {
      const failed = recordConsumedFailure(error, {
        topic,
        field,
        key: field === 'key' ? payload : null,
        value: field === 'value' ? payload : null,
        headers,
        partition: message?.partition,
      })
      this.#refused.set(payload, failed)
      throw failed
    }
    if (read === undefined) {
      throw new SerdeError(
        'NOT_PREPARED',
        `The schema of this ${field} of topic '${topic}' is not cached: prepare it first (a Platformatic consumer does, with the registry set on it)`,
      )
    }
    if (read.schema !== null && message !== undefined) this.#schemas.put(message, field, read.schema)
    return read.value
  }

  /**
   * The error a record's key or value was refused with by {@link read}, with where the record was consumed recorded
   * on it (a copy when it names another message); `undefined` when neither was refused.
   */
  refusedOf(
    topic: string,
    partition: number,
    offset: string,
    key: Uint8Array | null,
    value: Uint8Array | null,
    headers: MessageHeaders,
  ): unknown {
    const refused =
      (key === null ? undefined : this.#refused.get(key)) ??
      (value === null ? undefined : this.#refused.get(value))
    if (refused === undefined) return undefined
    return recordConsumedFailure(refused, { topic, key, value, headers, partition, offset })
  }
}
