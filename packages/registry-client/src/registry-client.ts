import { setMaxListeners } from 'node:events'
import {
  ClientClosedError,
  describeValue,
  invalidConfigError,
  RegistryConnectionError,
  type SchemaNotFoundErrorOptions,
} from '@x/errors'
import { type IdType, isIdType, type SchemaId, toSchemaId } from '@x/wire-format'
import {
  contentTypeFor,
  optionalFlag,
  requireArtifactType,
  requireIfExists,
  requireReferences,
  requireText,
  schemaText,
} from './call-arguments.js'
import { mergeRuleSets, parseRuleSet, parseVerdict, parseVersionPage } from './contract-answers.js'
import { requireRuleSet } from './contract-arguments.js'
import {
  deleteRulesetRequest,
  executeRequest,
  getRulesetRequest,
  migrateRequest,
  type RulesetScope,
  setRulesetRequest,
  versionPageRequest,
} from './contract-requests.js'
import type { ContractCallOptions, ContractRuleSet, ContractVerdict } from './contract-types.js'
import { linkSignals } from './linked-signal.js'
import {
  idFromHeaders,
  parseArtifactPage,
  parseFirstVersion,
  parseReferences,
  parseRegistrationAnswer,
  parseVersionMetadata,
  UnusableAnswer,
  type VersionFacts,
} from './registry-answers.js'
import {
  type RegistryClientOptions,
  type ResolvedOptions,
  resolveOptions,
} from './registry-client-options.js'
import {
  isRegistryUnreachable,
  lookupFailure,
  type RegistryPlace,
  registrationRefused,
  registrationUnusable,
  unusableLookup,
} from './registry-failures.js'
import { type RegistryAnswer, RegistryHttp, type RegistryRequest } from './registry-http.js'
import {
  artifactPageRequest,
  contentRequest,
  LATEST,
  referencesRequest,
  registrationRequest,
  versionMetadataRequest,
  versionOfIdRequest,
} from './registry-requests.js'
import { checkSnapshot } from './schema-snapshot.js'
import { SingleFlightCache } from './single-flight-cache.js'
import { SnapshotIndex } from './snapshot-index.js'
import type {
  ArtifactCoordinates,
  ArtifactReference,
  CallOptions,
  IfExists,
  RegisteredSchema,
  RegisterSchemaOptions,
  RegistryOperation,
  SchemaVersionOptions,
} from './types.js'

/**
 * What the contentId cache holds of a version: its text and references, as a lookup by contentId would answer (no
 * coordinates and no artifact type: one content may be shared by versions of several artifacts).
 */
function contentIdCopy(schema: RegisteredSchema, contentId: SchemaId): RegisteredSchema {
  return { schema: schema.schema, contentId, references: [...schema.references] }
}

function freezeSchema(schema: RegisteredSchema): RegisteredSchema {
  Object.freeze(schema.references)
  return Object.freeze(schema)
}

/**
 * A client of Apicurio Registry 3 (the v3 REST API): looks schemas up by artifact, version, `globalId` or
 * `contentId`, registers schemas, and lists artifacts.
 *
 * - **Caching.** Schemas by identifier (and by literal version) are cached for the life of the client: their content
 *   is immutable. Latest-version entries (`getSchema`) live `cacheTtlMs` (default: forever). Each cache is a true LRU
 *   of `cacheMaxSize` entries. Concurrent misses of one key share one request (single flight); different keys never
 *   wait for each other. Failures are not cached.
 * - **Stale-on-error.** When an expired latest-version entry cannot be refreshed because the registry is unreachable
 *   (transport failure, timeout, 429/5xx after the retries), `getSchema` answers the stale entry instead of failing,
 *   then at once to every later call (no waiting), while a refresh is tried in the background at most every
 *   `min(cacheTtlMs, 5 s)` until the registry answers again. A 404 (the artifact is gone) or a refused credential
 *   still reaches the caller. Ids never expire.
 * - **Retries.** Transport failures and HTTP 429/502/503/504 are retried: `1 + maxRetries` attempts, full-jitter
 *   exponential backoff `random(0, min(retryBackoffMs × 2^k, retryMaxBackoffMs))`, a `Retry-After` honoured up to
 *   `retryMaxBackoffMs`, `timeoutMs` per attempt. A registration is repeated only where a repeat cannot create a
 *   second version.
 * - **Worst case** of one request: `(1 + maxRetries) × timeoutMs + Σ_{k<maxRetries} min(max(retryBackoffMs × 2^k,
 *   Retry-After), retryMaxBackoffMs)`, doubled at most once by the repeat after a 401/403 when `auth` is set (plus
 *   the time to get tokens). With the defaults: 4 × 10 s + 1 s + 2 s + 4 s = 47 s (100 s if every answer carries a
 *   long `Retry-After`). `getSchema` on a cold cache makes two requests in a row (metadata, then content).
 * - **Cancelling.** Every call takes an `AbortSignal`; it rejects at once with the signal's reason, also while
 *   waiting between attempts.
 */
export class RegistryClient {
  readonly #options: ResolvedOptions
  readonly #http: RegistryHttp
  readonly #place: RegistryPlace
  readonly #closing = new AbortController()
  readonly #byGlobalId: SingleFlightCache<RegisteredSchema>
  readonly #byContentId: SingleFlightCache<RegisteredSchema>
  readonly #byVersion: SingleFlightCache<RegisteredSchema>
  readonly #referencesByGlobalId: SingleFlightCache<readonly ArtifactReference[]>
  readonly #referencesByContentId: SingleFlightCache<readonly ArtifactReference[]>
  /** Where each id lives (`null`: the search found no version), by `globalId:…` / `contentId:…`. */
  readonly #versionOfId: SingleFlightCache<{ readonly found: ArtifactCoordinates | null }>
  /** The usage-telemetry headers of id lookups by operation, when `clientId` is set. */
  readonly #usageHeaders: UsageHeaders | undefined
  /** The schemas of the `snapshot` option, answered with no request. */
  readonly #snapshot: SnapshotIndex | undefined
  /** The `offline` option: no request at all. */
  readonly #offline: boolean

  /**
   * @throws TypeError (code `INVALID_CONFIG`) for a missing or invalid option: `url` (an absolute http(s) URL
   *   without query or fragment), `groupId` (non-empty), `maxRetries` (integer ≥ 0), `retryBackoffMs` and
   *   `retryMaxBackoffMs` (≥ 0), `timeoutMs` (> 0), `cacheMaxSize` (integer ≥ 1), `cacheTtlMs` (> 0 when given),
   *   `snapshot` (a snapshot this library reads: `snapshotVersion` 1, every field of every version), `offline` (a
   *   boolean).
   */
  constructor(options: RegistryClientOptions) {
    this.#options = resolveOptions(options)
    if (options.offline !== undefined && typeof options.offline !== 'boolean') {
      throw invalidConfigError(`offline must be true or false, got ${describeValue(options.offline)}`)
    }
    this.#offline = options.offline === true
    this.#snapshot =
      options.snapshot === undefined
        ? undefined
        : new SnapshotIndex(checkSnapshot(options.snapshot, 'the snapshot option'), versionKey)
    // Every call in flight listens for the client's close: any number of concurrent calls is normal use, not a leak.
    setMaxListeners(0, this.#closing.signal)
    this.#http = new RegistryHttp(this.#options)
    this.#place = {
      url: this.#options.displayUrl,
      looksLikeV3Root: /\/apis\/registry\/v3$/.test(this.#options.baseUrl),
    }
    const telemetry = this.#options.telemetry
    const cacheOptions = (name: string) => ({
      max: this.#options.cacheMaxSize,
      now: this.#options.now,
      onLookup: telemetry === undefined ? undefined : (hit: boolean) => telemetry.cache(name, hit),
    })
    this.#byGlobalId = new SingleFlightCache(cacheOptions('globalId'))
    this.#byContentId = new SingleFlightCache(cacheOptions('contentId'))
    // Stale-on-error: an expired latest version is served while the registry is unreachable (see the class doc).
    this.#byVersion = new SingleFlightCache({
      ...cacheOptions('version'),
      serveStaleOn: isRegistryUnreachable,
    })
    this.#referencesByGlobalId = new SingleFlightCache(cacheOptions('references'))
    this.#referencesByContentId = new SingleFlightCache(cacheOptions('references'))
    this.#versionOfId = new SingleFlightCache(cacheOptions('versionOfId'))
    this.#usageHeaders = usageHeaders(this.#options.clientId)
  }

  /** The registry base URL, without credentials. */
  get url(): string {
    return this.#options.displayUrl
  }

  /** The group of every artifact lookup and registration. */
  get groupId(): string {
    return this.#options.groupId
  }

  /** Lifetime of latest-version entries in milliseconds; `undefined` when they never expire. */
  get cacheTtlMs(): number | undefined {
    return this.#options.cacheTtlMs
  }

  /** Entries each of the client's caches holds at most (`cacheMaxSize`); serdes bound their own caches by it too. */
  get cacheMaxSize(): number {
    return this.#options.cacheMaxSize
  }

  /** True once `close()` was called. */
  get closed(): boolean {
    return this.#closing.signal.aborted
  }

  /**
   * The latest version of an artifact in the client's group: `GET /groups/{g}/artifacts/{a}/versions/branch=latest`
   * (metadata with the ids), then the content by its `globalId` (no request when that id is cached). Cached for
   * `cacheTtlMs`.
   *
   * @throws SchemaNotFoundError (`groupId`, `artifactId`) when the registry answers 404.
   * @throws RegistryConnectionError for transport failures, retries used up, another error status, or an unusable
   *   200 answer (`status` 200).
   */
  async getSchema(artifactId: string, options: CallOptions = {}): Promise<RegisteredSchema> {
    this.#assertOpen()
    requireText('artifactId', artifactId)
    return this.#loadVersion(this.#options.groupId, artifactId, LATEST, options.signal, operationOf(options))
  }

  /**
   * A version of an artifact in any group: a literal version (`"3"`) or a version expression (`"branch=latest"`),
   * metadata first, then the content by its `globalId`. For resolving references, which may name other groups.
   * Literal versions are cached like identifiers; `branch=…` expressions for `cacheTtlMs`.
   *
   * @throws SchemaNotFoundError (`groupId`, `artifactId`, `version`) when the registry answers 404.
   * @throws RegistryConnectionError as `getSchema`.
   */
  async getSchemaVersion(
    artifactId: string,
    version: string,
    options: SchemaVersionOptions = {},
  ): Promise<RegisteredSchema> {
    this.#assertOpen()
    requireText('artifactId', artifactId)
    requireText('version', version)
    const groupId =
      options.groupId === undefined ? this.#options.groupId : requireText('groupId', options.groupId)
    return this.#loadVersion(groupId, artifactId, version, options.signal, operationOf(options))
  }

  /**
   * The schema with this `globalId`: `GET /ids/globalIds/{id}`, once per id for the life of the client.
   *
   * @throws TypeError / RangeError when `id` is not an integer within signed 64-bit.
   * @throws SchemaNotFoundError (`idType`, `idValue`) when the registry answers 404.
   * @throws RegistryConnectionError as `getSchema`.
   */
  async getSchemaByGlobalId(id: SchemaId, options: CallOptions = {}): Promise<RegisteredSchema> {
    this.#assertOpen()
    return this.#loadById('globalId', toSchemaId(id, 'globalId'), options.signal, operationOf(options))
  }

  /**
   * The schema with this `contentId`: `GET /ids/contentIds/{id}`, once per id for the life of the client.
   *
   * @throws as `getSchemaByGlobalId`.
   */
  async getSchemaByContentId(id: SchemaId, options: CallOptions = {}): Promise<RegisteredSchema> {
    this.#assertOpen()
    return this.#loadById('contentId', toSchemaId(id, 'contentId'), options.signal, operationOf(options))
  }

  /**
   * The references of the schema with this `globalId`: `GET /ids/globalIds/{id}/references`, once per id.
   *
   * @throws as `getSchemaByGlobalId`.
   */
  async getReferencesByGlobalId(
    id: SchemaId,
    options: CallOptions = {},
  ): Promise<readonly ArtifactReference[]> {
    this.#assertOpen()
    return this.#loadReferences('globalId', toSchemaId(id, 'globalId'), options.signal)
  }

  /**
   * The references of the schema with this `contentId`: `GET /ids/contentIds/{id}/references`, once per id.
   *
   * @throws as `getSchemaByGlobalId`.
   */
  async getReferencesByContentId(
    id: SchemaId,
    options: CallOptions = {},
  ): Promise<readonly ArtifactReference[]> {
    this.#assertOpen()
    return this.#loadReferences('contentId', toSchemaId(id, 'contentId'), options.signal)
  }

  /**
   * Where a schema id lives: the group, artifact and version of a version that has it
   * (`GET /search/versions?globalId=…&limit=1`, or `contentId=…`), once per id for the life of the client. The id
   * lookups (`getSchemaByGlobalId`) do not tell it on Apicurio 3. A contentId may be shared by versions of several
   * artifacts: the first the registry lists is given.
   *
   * @returns `undefined` when the registry lists no version with this id.
   * @throws TypeError / RangeError for an invalid `idType` or `id`.
   * @throws RegistryConnectionError as `getSchema`.
   */
  async findVersionOfId(
    id: SchemaId,
    idType: IdType = 'globalId',
    options: CallOptions = {},
  ): Promise<ArtifactCoordinates | undefined> {
    this.#assertOpen()
    if (!isIdType(idType)) {
      throw invalidConfigError(`idType must be 'globalId' or 'contentId', got ${describeValue(idType)}`)
    }
    const checked = toSchemaId(id, idType)
    const entry = await this.#versionOfId.load(
      `${idType}:${idKey(checked)}`,
      (flight) =>
        this.#withFlightSignal(flight, async (signal) => {
          const answer = await this.#send(versionOfIdRequest(idType, checked), signal)
          if (!isSuccess(answer)) {
            throw lookupFailure(
              this.#place,
              answer,
              { idType, idValue: checked },
              `the version of ${idType} ${idKey(checked)}`,
            )
          }
          return { found: this.#usable(() => parseFirstVersion(answer.text)) ?? null }
        }),
      options.signal,
    )
    return entry.found ?? undefined
  }

  /**
   * The cached schema of an identifier, without any request: for synchronous code paths. A hit counts as a use
   * (LRU). `undefined` when not cached.
   *
   * @throws ClientClosedError after `close()`; TypeError / RangeError for an invalid `id`.
   */
  peekSchemaById(idType: IdType, id: SchemaId): RegisteredSchema | undefined {
    this.#assertOpen()
    if (!isIdType(idType)) {
      throw invalidConfigError(`idType must be 'globalId' or 'contentId', got ${describeValue(idType)}`)
    }
    const checked = toSchemaId(id, idType)
    const snapshot = this.#snapshot?.byId(idType, checked)
    if (snapshot !== undefined) return snapshot
    return (idType === 'globalId' ? this.#byGlobalId : this.#byContentId).get(idKey(checked))
  }

  /**
   * The cached latest version of an artifact of the client's group, without any request; `undefined` when not
   * cached or expired.
   *
   * @throws ClientClosedError after `close()`.
   */
  peekSchema(artifactId: string): RegisteredSchema | undefined {
    this.#assertOpen()
    requireText('artifactId', artifactId)
    const key = versionKey(this.#options.groupId, artifactId, LATEST)
    return this.#snapshot?.byVersion(key) ?? this.#byVersion.get(key)
  }

  /**
   * The artifact ids of the client's group, every page (`GET /groups/{g}/artifacts?offset=…&limit=…`). Not cached.
   *
   * @throws SchemaNotFoundError (`groupId`) when the registry answers 404.
   * @throws RegistryConnectionError as `getSchema`.
   */
  async listArtifacts(options: CallOptions = {}): Promise<string[]> {
    this.#assertOpen()
    return this.#withCallSignal(options.signal, async (signal) => {
      const ids: string[] = []
      // Each page starts after the artifacts already received; an empty page ends the loop even if count said more.
      for (;;) {
        const answer = await this.#send(artifactPageRequest(this.#options.groupId, ids.length), signal)
        if (!isSuccess(answer)) {
          throw lookupFailure(this.#place, answer, { groupId: this.#options.groupId }, 'the artifact list')
        }
        const page = this.#usable(() => parseArtifactPage(answer.text))
        ids.push(...page.artifactIds)
        if (page.artifactIds.length === 0 || ids.length >= page.count) return ids
      }
    })
  }

  /**
   * Registers a schema under `artifactId` in the client's group: `POST /groups/{g}/artifacts?ifExists=…` with the v3
   * `CreateArtifact` body. An object schema is sent as compact `JSON.stringify`, a string verbatim. The answer's
   * `version.globalId` / `version.contentId` (or the `globalId` / `contentId` response headers when the body lacks
   * them) identify the version. Unless `canonical` is set, the schema is cached by both ids (the text sent is the
   * text the registry stores), and as the artifact's latest version when `ifExists` is `FAIL` or `CREATE_VERSION`
   * (the registry has just created that version; `FIND_OR_CREATE_VERSION` may answer with an older version).
   *
   * Retries: a request that never reached the registry (connection refused, DNS) is repeated for every `ifExists`;
   * an ambiguous failure (timeout, reset, 429/502/503/504) only with `FIND_OR_CREATE_VERSION`.
   *
   * @throws TypeError (code `INVALID_CONFIG`) for an invalid argument.
   * @throws SchemaRegistrationError (`artifactId`, `status`) when the registry refuses (e.g. 409 with `FAIL`, a rule
   *   violation 400/409/422) or answers without the ids.
   * @throws RegistryConnectionError for transport failures and retries used up.
   */
  async registerSchema(
    artifactId: string,
    schema: string | object,
    options: RegisterSchemaOptions = {},
  ): Promise<RegisteredSchema> {
    this.#assertOpen()
    const groupId = this.#options.groupId
    const artifactType = requireArtifactType(options.artifactType)
    const registration = {
      groupId,
      artifactId: requireText('artifactId', artifactId),
      ifExists: requireIfExists(options.ifExists ?? 'FIND_OR_CREATE_VERSION'),
      canonical: optionalFlag('canonical', options.canonical),
      references: requireReferences(options.references),
      content: schemaText(schema),
      artifactType,
      contentType: contentTypeFor(artifactType, options.contentType),
    }
    const answer = await this.#withCallSignal(options.signal, (signal) =>
      this.#send(registrationRequest(registration), signal),
    )
    if (!isSuccess(answer)) throw registrationRefused(this.#place, answer, groupId, artifactId)
    let facts: VersionFacts
    try {
      facts = parseRegistrationAnswer(answer.text, answer.headers)
    } catch (error) {
      if (!(error instanceof UnusableAnswer)) throw error
      throw registrationUnusable(this.#place, answer, groupId, artifactId, error.message)
    }
    facts.artifactType ??= artifactType
    const registered = this.#registered(
      registration.content,
      facts,
      groupId,
      artifactId,
      registration.references,
    )
    if (!registration.canonical)
      this.#rememberRegistration(registered, facts, groupId, artifactId, registration.ifExists)
    return registered
  }

  /**
   * The versions of an artifact, oldest first (`GET /groups/{g}/artifacts/{a}/versions?orderby=globalId`, every
   * page): the order the registry's migrate endpoint chains migrations in. Not cached.
   *
   * @throws SchemaNotFoundError (`groupId`, `artifactId`) when the artifact does not exist.
   * @throws RegistryConnectionError as `getSchema`.
   */
  async listVersions(artifactId: string, options: ContractCallOptions = {}): Promise<string[]> {
    const scope = this.#artifactScope(artifactId, options)
    return this.#withCallSignal(options.signal, async (signal) => {
      const versions: string[] = []
      for (;;) {
        const answer = await this.#send(
          versionPageRequest(scope.groupId, artifactId, versions.length),
          signal,
        )
        if (!isSuccess(answer)) {
          throw lookupFailure(
            this.#place,
            answer,
            { groupId: scope.groupId, artifactId },
            `the versions of artifact '${artifactId}'`,
          )
        }
        const page = this.#usable(() => parseVersionPage(answer.text))
        versions.push(...page.versions)
        if (page.versions.length === 0 || versions.length >= page.count) return versions
      }
    })
  }

  /**
   * The global data-contract ruleset: `GET /admin/contracts/ruleset`. Not cached. Both lists are empty when none is
   * set (the registry answers so).
   *
   * @throws RegistryConnectionError as `getSchema`.
   */
  async getGlobalRuleset(options: CallOptions = {}): Promise<ContractRuleSet> {
    return this.#readRuleset({ kind: 'global' }, options.signal)
  }

  /**
   * Sets the global data-contract ruleset (`PUT /admin/contracts/ruleset`), every message of every artifact is
   * checked by it; answers the ruleset stored.
   *
   * @throws TypeError (code `INVALID_CONFIG`) for a ruleset without lists of rules, or a rule without a string
   *   `name`, `kind`, `type` and `mode`.
   * @throws RegistryConnectionError for an error status, transport failures and retries used up.
   */
  async setGlobalRuleset(ruleset: ContractRuleSet, options: CallOptions = {}): Promise<ContractRuleSet> {
    return this.#writeRuleset({ kind: 'global' }, requireRuleSet(ruleset), options.signal)
  }

  /**
   * Deletes the global data-contract ruleset (`DELETE /admin/contracts/ruleset`); deleting none is no error.
   *
   * @throws RegistryConnectionError as `setGlobalRuleset`.
   */
  async deleteGlobalRuleset(options: CallOptions = {}): Promise<void> {
    await this.#deleteRuleset({ kind: 'global' }, options.signal)
  }

  /**
   * The data-contract ruleset of an artifact: `GET /groups/{g}/artifacts/{a}/contract/ruleset`. Not cached. Both
   * lists are empty when none is set, also for an artifact that does not exist (Apicurio 3.3 answers so).
   *
   * @throws RegistryConnectionError as `getSchema`.
   */
  async getArtifactRuleset(artifactId: string, options: ContractCallOptions = {}): Promise<ContractRuleSet> {
    return this.#readRuleset(this.#artifactScope(artifactId, options), options.signal)
  }

  /**
   * Sets the data-contract ruleset of an artifact (`PUT …/contract/ruleset`); answers the ruleset stored.
   *
   * @throws as `setGlobalRuleset`.
   */
  async setArtifactRuleset(
    artifactId: string,
    ruleset: ContractRuleSet,
    options: ContractCallOptions = {},
  ): Promise<ContractRuleSet> {
    const scope = this.#artifactScope(artifactId, options)
    return this.#writeRuleset(scope, requireRuleSet(ruleset), options.signal)
  }

  /**
   * Deletes the data-contract ruleset of an artifact (`DELETE …/contract/ruleset`); deleting none is no error.
   *
   * @throws RegistryConnectionError as `setGlobalRuleset`.
   */
  async deleteArtifactRuleset(artifactId: string, options: ContractCallOptions = {}): Promise<void> {
    await this.#deleteRuleset(this.#artifactScope(artifactId, options), options.signal)
  }

  /**
   * The data-contract ruleset of one version (a literal version or `branch=latest`):
   * `GET /groups/{g}/artifacts/{a}/versions/{v}/contract/ruleset`. Not cached. Both lists are empty when none is set.
   *
   * @throws SchemaNotFoundError (`groupId`, `artifactId`, `version`) when the version does not exist.
   * @throws RegistryConnectionError as `getSchema`.
   */
  async getVersionRuleset(
    artifactId: string,
    version: string,
    options: ContractCallOptions = {},
  ): Promise<ContractRuleSet> {
    return this.#readRuleset(this.#versionScope(artifactId, version, options), options.signal)
  }

  /**
   * Sets the data-contract ruleset of one version; answers the ruleset stored.
   *
   * @throws SchemaNotFoundError when the version does not exist.
   * @throws as `setGlobalRuleset`.
   */
  async setVersionRuleset(
    artifactId: string,
    version: string,
    ruleset: ContractRuleSet,
    options: ContractCallOptions = {},
  ): Promise<ContractRuleSet> {
    const scope = this.#versionScope(artifactId, version, options)
    return this.#writeRuleset(scope, requireRuleSet(ruleset), options.signal)
  }

  /**
   * Deletes the data-contract ruleset of one version; deleting none is no error.
   *
   * @throws SchemaNotFoundError when the version does not exist.
   * @throws RegistryConnectionError as `setGlobalRuleset`.
   */
  async deleteVersionRuleset(
    artifactId: string,
    version: string,
    options: ContractCallOptions = {},
  ): Promise<void> {
    await this.#deleteRuleset(this.#versionScope(artifactId, version, options), options.signal)
  }

  /**
   * The ruleset in force for a version: the global ruleset, then the artifact's, then the version's (three `GET`s
   * at once; the v3 API has no endpoint for the merged ruleset), merged as the registry merges them: a rule of a later
   * level replaces the same-named rule of an earlier one, and the rules are ordered by their position within their
   * own level, earlier levels first at the same position. Not cached.
   *
   * @throws as `getVersionRuleset`.
   */
  async getMergedRuleset(
    artifactId: string,
    version: string,
    options: ContractCallOptions = {},
  ): Promise<ContractRuleSet> {
    const versionScope = this.#versionScope(artifactId, version, options)
    const levels = await Promise.all([
      this.#readRuleset({ kind: 'global' }, options.signal),
      this.#readRuleset(this.#artifactScope(artifactId, options), options.signal),
      this.#readRuleset(versionScope, options.signal),
    ])
    return mergeRuleSets(...levels)
  }

  /**
   * The registry's own verdict on a record: `POST /groups/{g}/artifacts/{a}/versions/{v}/contract/execute` with
   * `{ mode, record }` runs the version's merged domain rules of that mode. A `bigint` in the record is sent as an
   * exact integer, and integers beyond 2^53 in `transformedRecord` come back as `bigint`. Changes nothing in the
   * registry, so it is retried like a lookup.
   *
   * @throws SchemaNotFoundError when the version does not exist.
   * @throws RegistryConnectionError as `getSchema`.
   */
  async executeRules(
    artifactId: string,
    version: string,
    request: { mode: string; record: unknown },
    options: ContractCallOptions = {},
  ): Promise<ContractVerdict> {
    const scope = this.#versionScope(artifactId, version, options)
    requireText('mode', request.mode)
    const sent = executeRequest(scope.groupId, scope.artifactId, scope.version, request.mode, request.record)
    return this.#contractCall(
      sent,
      scope,
      `the rules of version '${version}' of artifact '${artifactId}'`,
      options.signal,
      parseVerdict,
    )
  }

  /**
   * The registry's own migration of a record: `POST /groups/{g}/artifacts/{a}/contract/migrate` with
   * `{ fromVersion, toVersion, record }` runs the UPGRADE (or DOWNGRADE) migration rules of every version between.
   * A version that does not exist is a 400 from Apicurio 3.3 (a `RegistryConnectionError` with status 400 naming it).
   *
   * @throws SchemaNotFoundError when the artifact does not exist.
   * @throws RegistryConnectionError as `getSchema`.
   */
  async migrateRecord(
    artifactId: string,
    request: { fromVersion: string; toVersion: string; record: unknown },
    options: ContractCallOptions = {},
  ): Promise<ContractVerdict> {
    const scope = this.#artifactScope(artifactId, options)
    requireText('fromVersion', request.fromVersion)
    requireText('toVersion', request.toVersion)
    const sent = migrateRequest(
      scope.groupId,
      scope.artifactId,
      request.fromVersion,
      request.toVersion,
      request.record,
    )
    return this.#contractCall(
      sent,
      scope,
      `a migration of artifact '${artifactId}'`,
      options.signal,
      parseVerdict,
    )
  }

  /**
   * Closes the client: every later call rejects with `ClientClosedError`, requests under way are aborted (their
   * callers get `ClientClosedError` too), the caches are dropped. Calling it again does nothing.
   */
  async close(): Promise<void> {
    if (this.closed) return
    this.#closing.abort(new ClientClosedError('The registry client is closed'))
    for (const cache of this.#caches()) cache.clear()
    this.#options.tlsAgent?.destroy()
  }

  /** `await using client = new RegistryClient(…)` closes it at the end of the block. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close()
  }

  /** What `JSON.stringify(client)` shows: no credentials, no headers. */
  toJSON(): { url: string; groupId: string; closed: boolean } {
    return { url: this.url, groupId: this.groupId, closed: this.closed }
  }

  /** What `util.inspect(client)` (and `console.log`) shows: no credentials, no headers. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `RegistryClient { url: '${this.url}', groupId: '${this.groupId}', closed: ${this.closed} }`
  }

  #caches(): { clear(): void }[] {
    return [
      this.#byGlobalId,
      this.#byContentId,
      this.#byVersion,
      this.#referencesByGlobalId,
      this.#referencesByContentId,
    ]
  }

  #artifactScope(
    artifactId: string,
    options: ContractCallOptions,
  ): { kind: 'artifact'; groupId: string; artifactId: string } {
    this.#assertOpen()
    requireText('artifactId', artifactId)
    const groupId =
      options.groupId === undefined ? this.#options.groupId : requireText('groupId', options.groupId)
    return { kind: 'artifact', groupId, artifactId }
  }

  #versionScope(
    artifactId: string,
    version: string,
    options: ContractCallOptions,
  ): { kind: 'version'; groupId: string; artifactId: string; version: string } {
    const { groupId } = this.#artifactScope(artifactId, options)
    requireText('version', version)
    return { kind: 'version', groupId, artifactId, version }
  }

  #readRuleset(scope: RulesetScope, signal: AbortSignal | undefined): Promise<ContractRuleSet> {
    this.#assertOpen()
    return this.#contractCall(getRulesetRequest(scope), scope, describeScope(scope), signal, parseRuleSet)
  }

  #writeRuleset(
    scope: RulesetScope,
    ruleset: ContractRuleSet,
    signal: AbortSignal | undefined,
  ): Promise<ContractRuleSet> {
    this.#assertOpen()
    return this.#contractCall(
      setRulesetRequest(scope, ruleset),
      scope,
      describeScope(scope),
      signal,
      parseRuleSet,
    )
  }

  async #deleteRuleset(scope: RulesetScope, signal: AbortSignal | undefined): Promise<void> {
    this.#assertOpen()
    await this.#contractCall(
      deleteRulesetRequest(scope),
      scope,
      describeScope(scope),
      signal,
      () => undefined,
    )
  }

  async #contractCall<T>(
    request: RegistryRequest,
    scope: RulesetScope,
    what: string,
    signal: AbortSignal | undefined,
    parse: (text: string) => T,
  ): Promise<T> {
    const answer = await this.#withCallSignal(signal, (linked) => this.#send(request, linked))
    if (!isSuccess(answer)) {
      const notFound: SchemaNotFoundErrorOptions =
        scope.kind === 'global' ? {} : { groupId: scope.groupId, artifactId: scope.artifactId }
      if (scope.kind === 'version') notFound.version = scope.version
      throw lookupFailure(this.#place, answer, notFound, what)
    }
    return this.#usable(() => parse(answer.text))
  }

  #assertOpen(): void {
    if (this.closed) throw new ClientClosedError('The registry client is closed')
  }

  /**
   * Runs `work` with the signal of one call: the caller's (if any) and the client's close, linked for the time of
   * the call only (see linked-signal.ts: nothing stays on the long-lived close signal afterwards).
   */
  async #withCallSignal<T>(
    signal: AbortSignal | undefined,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    if (signal === undefined) return work(this.#closing.signal)
    signal.throwIfAborted()
    return this.#linked(signal, work)
  }

  /** Runs a shared (single-flight) load with a signal aborted when every caller gave up or the client closes. */
  #withFlightSignal<T>(flight: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return this.#linked(flight, work)
  }

  async #linked<T>(signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const link = linkSignals(signal, this.#closing.signal)
    try {
      return await work(link.signal)
    } catch (error) {
      this.#options.telemetry?.failed(error)
      throw error
    } finally {
      link.release()
    }
  }

  /**
   * Sends a request, unless the client is `offline`: then nothing is sent and the call fails with a
   * `RegistryConnectionError` naming what its snapshot lacks.
   */
  #send(request: RegistryRequest, signal: AbortSignal): Promise<RegistryAnswer> {
    if (this.#offline) {
      const held = this.#snapshot === undefined ? 'it has no snapshot' : 'its snapshot does not hold it'
      return Promise.reject(
        new RegistryConnectionError(
          `The registry client is offline (offline: true) and makes no request: ${request.method} ${request.path} was needed, and ${held} (add it to the snapshot: x-serde pull --snapshot)`,
          { url: this.#place.url },
        ),
      )
    }
    return this.#http.send(request, signal)
  }

  #usable<T>(parse: () => T): T {
    try {
      return parse()
    } catch (error) {
      if (!(error instanceof UnusableAnswer)) throw error
      throw unusableLookup(this.#place, error.message)
    }
  }

  async #loadById(
    idType: IdType,
    id: SchemaId,
    signal: AbortSignal | undefined,
    operation: RegistryOperation | undefined,
  ): Promise<RegisteredSchema> {
    const snapshot = this.#snapshot?.byId(idType, id)
    if (snapshot !== undefined) return snapshot
    const cache = idType === 'globalId' ? this.#byGlobalId : this.#byContentId
    return cache.load(
      idKey(id),
      (flight) => this.#withFlightSignal(flight, (linked) => this.#fetchById(idType, id, linked, operation)),
      signal,
    )
  }

  async #fetchById(
    idType: IdType,
    id: SchemaId,
    signal: AbortSignal,
    operation: RegistryOperation | undefined,
  ): Promise<RegisteredSchema> {
    const headers = this.#usageHeaders?.[operation ?? 'NONE']
    const answer = await this.#send(contentRequest(idType, id, headers), signal)
    if (!isSuccess(answer))
      throw lookupFailure(this.#place, answer, { idType, idValue: id }, `${idType} ${idKey(id)}`)
    if (answer.text.trim() === '')
      throw unusableLookup(this.#place, `the content of ${idType} ${idKey(id)} is empty`)
    // The content answer carries no references: the array is empty (the references lookups tell them).
    const schema: RegisteredSchema = { schema: answer.text, [idType]: id, references: [] }
    const artifactType = answer.headers.get('x-registry-artifacttype')
    if (artifactType !== null && artifactType !== '') schema.artifactType = artifactType
    // Ids and coordinates in response headers, where a registry sends them (e.g. for deprecated versions).
    const otherType: IdType = idType === 'globalId' ? 'contentId' : 'globalId'
    const other = idFromHeaders(answer.headers, otherType)
    if (other !== undefined) schema[otherType] = other
    if (idType === 'globalId') {
      const groupId = answer.headers.get('x-registry-groupid')
      const artifactId = answer.headers.get('x-registry-artifactid')
      const version = answer.headers.get('x-registry-version')
      if (groupId !== null) schema.groupId = groupId
      if (artifactId !== null) schema.artifactId = artifactId
      if (version !== null) schema.version = version
    }
    return freezeSchema(schema)
  }

  async #loadReferences(
    idType: IdType,
    id: SchemaId,
    signal: AbortSignal | undefined,
  ): Promise<readonly ArtifactReference[]> {
    const snapshot = this.#snapshot?.referencesOf(idType, id)
    if (snapshot !== undefined) return snapshot
    const cache = idType === 'globalId' ? this.#referencesByGlobalId : this.#referencesByContentId
    return cache.load(
      idKey(id),
      async (flight) => {
        const answer = await this.#withFlightSignal(flight, (linked) =>
          this.#send(referencesRequest(idType, id), linked),
        )
        if (!isSuccess(answer)) {
          throw lookupFailure(
            this.#place,
            answer,
            { idType, idValue: id },
            `the references of ${idType} ${idKey(id)}`,
          )
        }
        return Object.freeze(this.#usable(() => parseReferences(answer.text)))
      },
      signal,
    )
  }

  async #loadVersion(
    groupId: string,
    artifactId: string,
    version: string,
    signal: AbortSignal | undefined,
    operation: RegistryOperation | undefined,
  ): Promise<RegisteredSchema> {
    const key = versionKey(groupId, artifactId, version)
    const snapshot = this.#snapshot?.byVersion(key)
    if (snapshot !== undefined) return snapshot
    const ttl = version.startsWith('branch=') ? this.#options.cacheTtlMs : undefined
    return this.#byVersion.load(
      key,
      (flight) =>
        this.#withFlightSignal(flight, (linked) =>
          this.#fetchVersion(groupId, artifactId, version, linked, operation),
        ),
      signal,
      ttl,
    )
  }

  async #fetchVersion(
    groupId: string,
    artifactId: string,
    version: string,
    signal: AbortSignal,
    operation: RegistryOperation | undefined,
  ): Promise<RegisteredSchema> {
    const answer = await this.#send(versionMetadataRequest(groupId, artifactId, version), signal)
    if (!isSuccess(answer)) {
      const notFound: SchemaNotFoundErrorOptions = { groupId, artifactId }
      if (version !== LATEST) notFound.version = version
      throw lookupFailure(this.#place, answer, notFound, `version '${version}' of artifact '${artifactId}'`)
    }
    const facts = this.#usable(() => parseVersionMetadata(answer.text))
    const byGlobalId = await this.#loadById('globalId', facts.globalId, signal, operation)
    const schema = this.#registered(byGlobalId.schema, facts, groupId, artifactId, byGlobalId.references)
    this.#byGlobalId.set(idKey(facts.globalId), schema)
    if (this.#byContentId.get(idKey(facts.contentId)) === undefined) {
      this.#byContentId.set(idKey(facts.contentId), freezeSchema(contentIdCopy(schema, facts.contentId)))
    }
    return schema
  }

  #registered(
    text: string,
    facts: VersionFacts,
    groupId: string,
    artifactId: string,
    references: readonly ArtifactReference[] | undefined,
  ): RegisteredSchema {
    const schema: RegisteredSchema = {
      schema: text,
      globalId: facts.globalId,
      contentId: facts.contentId,
      // The registry leaves `groupId` out for its default group: the group asked for is the one.
      groupId: facts.groupId ?? groupId,
      artifactId: facts.artifactId ?? artifactId,
      references: references === undefined ? [] : [...references],
    }
    if (facts.version !== undefined) schema.version = facts.version
    if (facts.artifactType !== undefined) schema.artifactType = facts.artifactType
    return freezeSchema(schema)
  }

  #rememberRegistration(
    registered: RegisteredSchema,
    facts: VersionFacts,
    groupId: string,
    artifactId: string,
    ifExists: IfExists,
  ): void {
    const references = registered.references
    this.#byGlobalId.set(idKey(facts.globalId), registered)
    this.#byContentId.set(idKey(facts.contentId), freezeSchema(contentIdCopy(registered, facts.contentId)))
    this.#referencesByGlobalId.set(idKey(facts.globalId), Object.freeze([...references]))
    this.#referencesByContentId.set(idKey(facts.contentId), Object.freeze([...references]))
    if (facts.version !== undefined)
      this.#byVersion.set(versionKey(groupId, artifactId, facts.version), registered)
    if (ifExists !== 'FIND_OR_CREATE_VERSION') {
      this.#byVersion.set(versionKey(groupId, artifactId, LATEST), registered, this.#options.cacheTtlMs)
    }
  }
}

/**
 * `AsyncRegistryClient` is `RegistryClient` (every method returns a Promise), under the name the Python client's
 * asynchronous class has, for code ported from it.
 */
export { RegistryClient as AsyncRegistryClient }

/** The `operation` of call options, checked (a misspelt one would silently send no header). */
function operationOf(options: CallOptions): RegistryOperation | undefined {
  const operation = options.operation
  if (operation === undefined || operation === 'SERIALIZE' || operation === 'DESERIALIZE') return operation
  throw invalidConfigError(`operation must be 'SERIALIZE' or 'DESERIALIZE', got ${describeValue(operation)}`)
}

/** The headers of an id lookup, by what it is for (`NONE`: no operation told). */
type UsageHeaders = Readonly<Record<RegistryOperation | 'NONE', Readonly<Record<string, string>>>>

/** Made once per client: an id lookup only picks one. Apicurio's Java client sends the same names and values. */
function usageHeaders(clientId: string | undefined): UsageHeaders | undefined {
  if (clientId === undefined) return undefined
  const operation = (value: RegistryOperation) =>
    Object.freeze({ 'X-Registry-Client-Id': clientId, 'X-Registry-Operation': value })
  return Object.freeze({
    NONE: Object.freeze({ 'X-Registry-Client-Id': clientId }),
    SERIALIZE: operation('SERIALIZE'),
    DESERIALIZE: operation('DESERIALIZE'),
  })
}

/** A cache key for an identifier: the same for `5` and `5n`. */
function idKey(id: SchemaId): string {
  return String(id)
}

function versionKey(groupId: string, artifactId: string, version: string): string {
  return JSON.stringify([groupId, artifactId, version])
}

function isSuccess(answer: RegistryAnswer): boolean {
  return answer.status >= 200 && answer.status < 300
}

function describeScope(scope: RulesetScope): string {
  if (scope.kind === 'global') return 'the global ruleset'
  if (scope.kind === 'artifact') return `the ruleset of artifact '${scope.artifactId}'`
  return `the ruleset of version '${scope.version}' of artifact '${scope.artifactId}'`
}
