import { SingleFlightCache } from '@x/registry-client/cache'

/** @internal One cached artifact: what was built from its latest version, and when to look for a newer one. */
export interface ArtifactSlot<E> {
  entry: E
  /** `Date.now()` from which a background refresh is due; `Infinity` without a TTL. */
  staleAt: number
  refreshing: boolean
}

/** @internal Loads what a serde needs for an artifact; `previous` is the cached entry on a refresh, to reuse it. */
export type ArtifactLoader<E> = (artifactId: string, previous: E | undefined) => Promise<E>

/**
 * @internal What a serde built from the latest version of each artifact it met, in an LRU bounded like the
 * client's caches, with one load in flight per artifact (concurrent first calls share it).
 *
 * With a TTL (the client's `cacheTtlMs`), an entry past it is still served, and one background load replaces it
 * when it succeeds; when it fails the entry stays and the next attempt waits another TTL. So a call never fails,
 * nor waits, because of a refresh.
 */
export class LatestArtifacts<E> {
  readonly #slots: SingleFlightCache<ArtifactSlot<E>>
  readonly #ttlMs: number | undefined
  readonly #load: ArtifactLoader<E>

  constructor(load: ArtifactLoader<E>, maxSize: number, ttlMs: number | undefined) {
    this.#load = load
    this.#slots = new SingleFlightCache({ max: maxSize })
    this.#ttlMs = ttlMs
  }

  /** The cached slot of an artifact, if any (marks it recently used). */
  slot(artifactId: string): ArtifactSlot<E> | undefined {
    return this.#slots.get(artifactId)
  }

  /** The cached entry, starting a background refresh when the slot is past its TTL. */
  cached(artifactId: string): E | undefined {
    const slot = this.#slots.get(artifactId)
    if (slot === undefined) return undefined
    if (this.#ttlMs !== undefined) this.refreshIfStale(artifactId, slot)
    return slot.entry
  }

  /** Starts one background refresh of a slot past its TTL; never throws, never waits. */
  refreshIfStale(artifactId: string, slot: ArtifactSlot<E>): void {
    if (slot.refreshing || Date.now() < slot.staleAt) return
    slot.refreshing = true
    this.#load(artifactId, slot.entry).then(
      (entry) => {
        slot.entry = entry
        slot.staleAt = this.#nextStale()
        slot.refreshing = false
      },
      () => {
        // Keep serving what we have; try again after another TTL.
        slot.staleAt = this.#nextStale()
        slot.refreshing = false
      },
    )
  }

  /** The slot of an artifact, loading it on a miss (one load per artifact at a time; failures are not cached). */
  load(artifactId: string): Promise<ArtifactSlot<E>> {
    return this.#slots.load(artifactId, async () => {
      const entry = await this.#load(artifactId, undefined)
      return { entry, staleAt: this.#nextStale(), refreshing: false }
    })
  }

  #nextStale(): number {
    return this.#ttlMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + this.#ttlMs
  }
}
