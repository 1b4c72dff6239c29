import type { ArtifactCoordinates, RegisteredSchema } from '@x/registry-client'
import type { IdType, SchemaId } from '@x/wire-format'
import { LRUCache } from 'lru-cache'
import { schemaById } from './schema-by-id.js'

/** The client calls an artifact lookup makes: the id's schema first, then the search of its version. */
export interface ArtifactLookupClient {
  getSchemaByGlobalId(id: SchemaId): Promise<RegisteredSchema>
  getSchemaByContentId(id: SchemaId): Promise<RegisteredSchema>
  findVersionOfId?(id: SchemaId, idType: IdType): Promise<ArtifactCoordinates | undefined>
}

/** Options of {@link ArtifactLookup}. */
export interface ArtifactLookupOptions {
  /** How many ids' coordinates are kept per id type, the least recently used going first. @default 1000 */
  max?: number
}

/**
 * Where a consumed schema id lives (group, artifact, version), looked up once per id with the client's
 * `findVersionOfId` and kept in a bounded cache, for every adapter and the CLI. `null` says the registry lists no
 * version with the id. A client without `findVersionOfId` tells nothing: {@link enabled} is false.
 */
export class ArtifactLookup {
  readonly #client: ArtifactLookupClient
  readonly #known: Record<IdType, LRUCache<SchemaId, ArtifactCoordinates | 'none'>>
  /** The id read last, and what it named: most topics carry one id at a time. */
  #lastIdType: IdType | undefined
  #lastId: SchemaId | undefined
  #last: ArtifactCoordinates | null | undefined

  constructor(client: unknown, options: ArtifactLookupOptions = {}) {
    const max = options.max ?? 1000
    this.#client = client as ArtifactLookupClient
    this.#known = { globalId: new LRUCache({ max }), contentId: new LRUCache({ max }) }
  }

  /** Whether the client can tell where an id lives (it has `findVersionOfId`). */
  get enabled(): boolean {
    return typeof this.#client.findVersionOfId === 'function'
  }

  /** Where an id lives as far as is known now: its coordinates, `null` for nowhere, `undefined` not looked up yet. */
  peek(idType: IdType, id: SchemaId): ArtifactCoordinates | null | undefined {
    if (id === this.#lastId && idType === this.#lastIdType) return this.#last
    const found = this.#known[idType].get(id)
    if (found === undefined) return undefined
    this.#lastIdType = idType
    this.#lastId = id
    this.#last = found === 'none' ? null : found
    return this.#last
  }

  /** Whether an id was looked up (makes no request). */
  has(idType: IdType, id: SchemaId): boolean {
    return this.#known[idType].has(id)
  }

  /**
   * Looks up where an id lives, once per id while it is cached: once its schema has been fetched (the client's
   * cached, single-flight request), so that the search goes over the connection that request opened. An id whose
   * schema cannot be fetched is not searched: this rejects with the fetch's error. `undefined` when the client
   * cannot tell.
   */
  async find(idType: IdType, id: SchemaId): Promise<ArtifactCoordinates | null | undefined> {
    const find = this.#client.findVersionOfId
    if (find === undefined) return undefined
    if (!this.has(idType, id)) {
      await schemaById(this.#client, idType, id)
      if (!this.has(idType, id))
        this.#known[idType].set(id, (await find.call(this.#client, id, idType)) ?? 'none')
    }
    return this.peek(idType, id)
  }
}
