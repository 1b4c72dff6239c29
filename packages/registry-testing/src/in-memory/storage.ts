import { canonicalHash, contentHash, type StoredReference } from './content.js'
import { ContractStore } from './contracts.js'
import { IdSequence } from './ids.js'
import { RuleStore } from './rules.js'

/** A content row: identical text with identical references is one row, with one contentId. */
export interface StoredContent {
  readonly contentId: bigint
  readonly text: string
  readonly contentType: string
  readonly hash: string
  readonly canonicalHash: string
  readonly references: readonly StoredReference[]
}

/** Free-form metadata of an artifact or a version. */
export interface EditableMetaData {
  readonly name?: string | undefined
  readonly description?: string | undefined
  readonly labels?: Readonly<Record<string, string>> | undefined
}

/** Apicurio's `VersionState`. A `DISABLED` version is out of `branch=latest` and its content cannot be read. */
export type VersionState = 'ENABLED' | 'DISABLED' | 'DEPRECATED' | 'DRAFT'

export interface StoredVersion extends EditableMetaData {
  state: VersionState
  readonly globalId: bigint
  /** `null` is the default group, as Apicurio stores it. */
  readonly groupId: string | null
  readonly artifactId: string
  readonly version: string
  readonly contentId: bigint
  readonly artifactType: string
  readonly createdOn: string
}

export interface StoredArtifact extends EditableMetaData {
  readonly groupId: string | null
  readonly artifactId: string
  readonly artifactType: string
  readonly createdOn: string
  /** Versions in the order they were created; the last one is the tip of the `latest` branch. */
  readonly versions: StoredVersion[]
  /** How many versions were ever created; an unnamed version is called `String(versionOrder + 1)`. */
  versionOrder: number
}

export interface StoredGroup {
  readonly groupId: string
  readonly createdOn: string
}

/** Apicurio's timestamp format, `yyyy-MM-dd'T'HH:mm:ss'Z'` in UTC. */
export function formatDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`
}

/**
 * InMemoryRegistry's data: groups, artifacts, versions and content rows, with the two id sequences. It knows
 * nothing of HTTP; the handlers decide what a request does with it.
 */
export class RegistryStorage {
  readonly globalIds: IdSequence
  readonly contentIds: IdSequence
  /** Global, group and artifact rules. */
  readonly rules = new RuleStore()
  /** Data-contract rulesets (global, artifact, version). */
  readonly contracts = new ContractStore()
  readonly #contents = new Map<bigint, StoredContent>()
  readonly #contentsByHash = new Map<string, StoredContent>()
  readonly #groups = new Map<string, StoredGroup>()
  readonly #artifacts = new Map<string, StoredArtifact>()
  readonly #versions = new Map<bigint, StoredVersion>()

  constructor(firstGlobalId: bigint, firstContentId: bigint) {
    this.globalIds = new IdSequence('globalId', firstGlobalId)
    this.contentIds = new IdSequence('contentId', firstContentId)
  }

  /** The current time in Apicurio's format. */
  now(): string {
    return formatDate(new Date())
  }

  /**
   * Stores content unless identical content (same text, same references) is stored already, and returns its row.
   * Like Apicurio on its SQL storage, it draws a contentId every time, used or not.
   */
  ensureContent(
    text: string,
    contentType: string,
    references: readonly StoredReference[],
    artifactType: string,
  ): StoredContent {
    const drawn = this.contentIds.draw()
    const hash = contentHash(text, references)
    const known = this.#contentsByHash.get(hash)
    if (known !== undefined) return known
    const row: StoredContent = {
      contentId: drawn,
      text,
      contentType,
      hash,
      canonicalHash: canonicalHash(artifactType, text, references, this.resolveReferences(references)),
      references,
    }
    this.#contents.set(drawn, row)
    this.#contentsByHash.set(hash, row)
    return row
  }

  contentById(contentId: bigint): StoredContent | undefined {
    return this.#contents.get(contentId)
  }

  contentByHash(hash: string): StoredContent | undefined {
    return this.#contentsByHash.get(hash)
  }

  /** The content of the referenced versions and of theirs, dependencies first; missing ones are left out. */
  resolveReferences(references: readonly StoredReference[], seen = new Set<StoredContent>()): string[] {
    const texts: string[] = []
    for (const reference of references) {
      const version = this.artifact(reference.groupId, reference.artifactId)?.versions.find(
        (v) => v.version === reference.version,
      )
      const content = version === undefined ? undefined : this.#contents.get(version.contentId)
      if (content === undefined || seen.has(content)) continue
      seen.add(content)
      texts.push(...this.resolveReferences(content.references, seen), content.text)
    }
    return texts
  }

  /**
   * The content of the referenced versions and of theirs, by reference name, dependencies first (Apicurio's
   * resolved references: a name met twice keeps its first content; missing ones are left out).
   */
  resolveReferencesByName(
    references: readonly StoredReference[],
    // without a prototype: a reference named `constructor` or `__proto__` is a name like any other
    into: Record<string, string> = Object.create(null),
    seen = new Set<StoredContent>(),
  ): Record<string, string> {
    for (const reference of references) {
      const version = this.artifact(reference.groupId, reference.artifactId)?.versions.find(
        (v) => v.version === reference.version,
      )
      const content = version === undefined ? undefined : this.#contents.get(version.contentId)
      if (content === undefined || seen.has(content)) continue
      seen.add(content)
      this.resolveReferencesByName(content.references, into, seen)
      if (!Object.hasOwn(into, reference.name)) into[reference.name] = content.text
    }
    return into
  }

  /** The content of each directly referenced version, by reference name (missing ones are left out). */
  referencedByName(references: readonly StoredReference[]): Map<string, string> {
    const texts = new Map<string, string>()
    for (const reference of references) {
      const version = this.artifact(reference.groupId, reference.artifactId)?.versions.find(
        (v) => v.version === reference.version,
      )
      const content = version === undefined ? undefined : this.#contents.get(version.contentId)
      if (content !== undefined && !texts.has(reference.name)) texts.set(reference.name, content.text)
    }
    return texts
  }

  /** Creates the group unless it exists (Apicurio creates groups on first use; `default` is no group row). */
  ensureGroup(groupId: string | null): void {
    if (groupId === null || this.#groups.has(groupId)) return
    this.#groups.set(groupId, { groupId, createdOn: this.now() })
  }

  group(groupId: string): StoredGroup | undefined {
    return this.#groups.get(groupId)
  }

  artifact(groupId: string | null, artifactId: string): StoredArtifact | undefined {
    return this.#artifacts.get(artifactKey(groupId, artifactId))
  }

  /** Every artifact of a group, in creation order. */
  artifactsOf(groupId: string | null): StoredArtifact[] {
    return [...this.#artifacts.values()].filter((artifact) => artifact.groupId === groupId)
  }

  addArtifact(artifact: StoredArtifact): void {
    this.#artifacts.set(artifactKey(artifact.groupId, artifact.artifactId), artifact)
    for (const version of artifact.versions) this.#versions.set(version.globalId, version)
  }

  addVersion(artifact: StoredArtifact, version: StoredVersion): void {
    artifact.versions.push(version)
    this.#versions.set(version.globalId, version)
  }

  /**
   * The versions of every artifact that match, in globalId order. Only the matches are sorted, so a search that
   * names one artifact costs one pass over the versions however many artifacts the registry holds.
   */
  findVersions(matches: (version: StoredVersion) => boolean): StoredVersion[] {
    const found: StoredVersion[] = []
    for (const version of this.#versions.values()) if (matches(version)) found.push(version)
    return found.sort((a, b) => (a.globalId < b.globalId ? -1 : 1))
  }

  versionByGlobalId(globalId: bigint): StoredVersion | undefined {
    return this.#versions.get(globalId)
  }

  /** The references, from any stored version, that point at the given version. */
  inboundReferences(groupId: string | null, artifactId: string, version: string): StoredReference[] {
    const inbound: StoredReference[] = []
    for (const referrer of this.#versions.values()) {
      const references = this.#contents.get(referrer.contentId)?.references ?? []
      for (const r of references) {
        if (r.groupId === groupId && r.artifactId === artifactId && r.version === version) {
          inbound.push({
            groupId: referrer.groupId,
            artifactId: referrer.artifactId,
            version: referrer.version,
            name: r.name,
          })
        }
      }
    }
    const key = (r: StoredReference) => `${r.groupId ?? ''}\u0000${r.artifactId}\u0000${r.version}`
    return inbound.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
  }

  deleteVersion(artifact: StoredArtifact, version: StoredVersion): void {
    artifact.versions.splice(artifact.versions.indexOf(version), 1)
    this.#versions.delete(version.globalId)
  }

  deleteArtifact(artifact: StoredArtifact): void {
    for (const version of artifact.versions) this.#versions.delete(version.globalId)
    this.#artifacts.delete(artifactKey(artifact.groupId, artifact.artifactId))
    this.rules.deleteAll({ kind: 'artifact', groupId: artifact.groupId, artifactId: artifact.artifactId })
  }

  deleteGroup(groupId: string): void {
    for (const artifact of this.artifactsOf(groupId)) this.deleteArtifact(artifact)
    this.#groups.delete(groupId)
    this.rules.deleteAll({ kind: 'group', groupId })
  }
}

function artifactKey(groupId: string | null, artifactId: string): string {
  return JSON.stringify([groupId, artifactId])
}
