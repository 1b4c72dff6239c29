import type { ArtifactCoordinates } from '@x/registry-client'
import type { MessageField } from '@x/wire-format'
import type { MessageSchema } from './any-deserializer.js'
import type { ArtifactLookup } from './artifact-lookup.js'

/** Which schema wrote a consumed field, with where its id lives: what a message's `metadata.schemas` holds. */
export interface ConsumedSchema extends MessageSchema {
  /**
   * Where the id lives (group, artifact, version), looked up once per id (`findVersionOfId`); absent when the
   * registry lists no version with it, or the client cannot tell.
   */
  readonly artifact?: ArtifactCoordinates
}

/** A frozen `schemas` object and what it was made of: the frozen one it extends (if any) and the field's schema. */
interface Made {
  base: Readonly<Record<string, ConsumedSchema>> | undefined
  schema: ConsumedSchema | undefined
  schemas: Readonly<Record<string, ConsumedSchema>> | undefined
}

/**
 * The `schemas` of consumed messages' metadata (`{ key?, value? }`, each a {@link ConsumedSchema}), made without an
 * allocation per message: the frozen entry of a schema the contract shares among the frames of one id is made once
 * its artifact is known, and the frozen `schemas` object of the same entries is shared by the messages read with them
 * (a new object per message, kept until a whole fetch is handed over, costs allocation and garbage collection).
 */
export class ConsumedSchemas {
  readonly #artifacts: ArtifactLookup
  /** For each field, the contract's shared schema read last, and the frozen entry made of it. */
  readonly #entries: Record<MessageField, { schema?: MessageSchema; consumed?: ConsumedSchema }> = {
    key: {},
    value: {},
  }
  /** The frozen `schemas` made last for each field, and what it was made of. */
  readonly #made: Record<MessageField, Made> = {
    key: { base: undefined, schema: undefined, schemas: undefined },
    value: { base: undefined, schema: undefined, schemas: undefined },
  }

  constructor(artifacts: ArtifactLookup) {
    this.#artifacts = artifacts
  }

  /** What a read's schema becomes in `schemas`: a frozen copy with its artifact added (when known). */
  entryOf(field: MessageField, schema: MessageSchema): ConsumedSchema {
    const last = this.#entries[field]
    if (schema === last.schema) return last.consumed!
    const artifact = this.#artifacts.peek(schema.idType, schema.id)
    const consumed: ConsumedSchema = Object.freeze(
      artifact !== undefined && artifact !== null ? { ...schema, artifact } : { ...schema },
    )
    // Not shared until its artifact is known (a read before the lookup ended).
    if (artifact === undefined && this.#artifacts.enabled) return consumed
    this.#entries[field] = { schema, consumed }
    return consumed
  }

  /**
   * Puts the schema of a read field on a message's `metadata.schemas`: a frozen object shared by the messages read
   * with the same schemas (a client that copies `metadata` into each message, not `schemas`, may share it). A
   * `schemas` object put there by someone else, not frozen, is added to as it is.
   */
  put(message: { metadata?: Record<string, unknown> }, field: MessageField, schema: MessageSchema): void {
    const entry = this.entryOf(field, schema)
    const metadata = message.metadata
    if (metadata === undefined) {
      message.metadata = { schemas: this.#with(undefined, field, entry) }
      return
    }
    const schemas = metadata.schemas as Record<string, ConsumedSchema> | null | undefined
    if (schemas === undefined || schemas === null) metadata.schemas = this.#with(undefined, field, entry)
    else if (Object.isFrozen(schemas)) metadata.schemas = this.#with(schemas, field, entry)
    else schemas[field] = entry
  }

  /**
   * The frozen `schemas` holding what `base` (frozen, or none) holds and `field`'s entry: made once for each pair
   * (the last one per field is kept), then shared. A key read with a schema makes `{ key }`, and its message's value
   * then `{ key, value }`.
   */
  #with(
    base: Readonly<Record<string, ConsumedSchema>> | undefined,
    field: MessageField,
    entry: ConsumedSchema,
  ): Readonly<Record<string, ConsumedSchema>> {
    const made = this.#made[field]
    if (made.schemas !== undefined && made.base === base && made.schema === entry) return made.schemas
    const schemas = Object.freeze(field === 'key' ? { ...base, key: entry } : { ...base, value: entry })
    this.#made[field] = { base, schema: entry, schemas }
    return schemas
  }
}
