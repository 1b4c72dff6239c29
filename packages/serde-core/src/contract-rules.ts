import { DeserializationError, invalidConfigError, RuleViolationError, SerdeError } from '@x/errors'
import type { ContractRuleSet } from '@x/registry-client'
import { SingleFlightCache } from '@x/registry-client/cache'
import type {
  CompiledRule,
  CompiledRuleSet,
  ExecuteResult,
  RuleSet,
  RulesEngine,
  RuleViolation,
  VersionRuleSet,
} from '@x/rules'
import type { RegistryPort } from './registry-port.js'
import type { NormalizedRulesOptions } from './rules-options.js'
import { rulesetWarnings, warnOnce } from './rules-warnings.js'
import type { RuleValueKit, SchemaCodec } from './schema-format.js'

/** @internal Where a version lives: the ruleset in force for it is looked up by these. */
export interface VersionCoordinates {
  readonly groupId: string
  readonly artifactId: string
  readonly version: string
}

/** What the rules need of the client, besides what every serde needs (`RegistryClient` has all of it). */
interface RulesPort {
  getMergedRuleset(
    artifactId: string,
    version: string,
    options?: { groupId?: string },
  ): Promise<ContractRuleSet>
  getVersionRuleset(
    artifactId: string,
    version: string,
    options?: { groupId?: string },
  ): Promise<ContractRuleSet>
  listVersions(artifactId: string, options?: { groupId?: string }): Promise<string[]>
}

const NEEDED = ['getMergedRuleset', 'getVersionRuleset', 'listVersions'] as const

/** The level reads `RegistryClient` has beside those: with them the ruleset's levels are told apart, for warnings. */
interface LevelsPort {
  getGlobalRuleset(): Promise<ContractRuleSet>
  getArtifactRuleset(artifactId: string, options?: { groupId?: string }): Promise<ContractRuleSet>
}

/** The engine module, imported once per process and only when some serde enables rules. */
let engineModule: Promise<typeof import('@x/rules')> | undefined
/** Its `toRuleRecord`: a value as JSON, for a codec without a mapping of its own (JSON Schema). */
let toRuleRecord: ((value: unknown, fields?: readonly string[]) => Record<string, unknown>) | undefined
/** Its `plainRuleValue`: a record from the rules with each integral double a plain number, for users. */
let plainRuleValue: ((value: unknown) => unknown) | undefined
/** The helpers a codec's `toRuleRecord` builds records with, made once the engine is loaded. */
let kit: RuleValueKit | undefined
/** Its `mergeRuleSets`: the levels of a ruleset merged as the registry merges them. */
let mergeRuleSets: ((...levels: ContractRuleSet[]) => RuleSet) | undefined

/**
 * Imports the rules engine. `@x/rules` is an optional peer of this package, installed by those who turn rules on:
 * where it is missing, the call fails with a `TypeError` (code `INVALID_CONFIG`) that names the install, and a later
 * call tries the import again.
 */
async function loadEngine(owner: string): Promise<typeof import('@x/rules')> {
  engineModule ??= import('@x/rules')
  try {
    return await engineModule
  } catch (error) {
    engineModule = undefined
    if (!isMissingEngine(error)) throw error
    throw invalidConfigError(
      `${owner}: rules.enabled needs the rules engine @x/rules, which is not installed ` +
        '(it is an optional peer dependency): npm install @x/rules',
      error,
    )
  }
}

/** Whether an import failed because the package `@x/rules` itself cannot be found (Node's and bundlers' codes). */
function isMissingEngine(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes("'@x/rules'")
  )
}

/** A ruleset as fetched: compiled once, or `null` when it could not be fetched and failures let messages through. */
type Loaded<T> = { readonly value: T | null }

/**
 * A version's compiled ruleset and the top-level fields its `WRITE` and its `READ` rules read (`undefined`: the
 * whole record), so that only those fields of a record are converted for the rules.
 */
interface RulesetEntry {
  readonly compiled: CompiledRuleSet
  readonly writeFields: readonly string[] | undefined
  readonly readFields: readonly string[] | undefined
}

/** How long the ruleset read last is served without asking the cache (and so the clock) again. */
const HOT_MS = 1000

const EMPTY: RuleSet = { domainRules: [], migrationRules: [] }

/** Cache keys by coordinates object: a serde passes the same object for every message of a version. */
const KEYS = new WeakMap<VersionCoordinates, string>()

function keyOf(coordinates: VersionCoordinates): string {
  let key = KEYS.get(coordinates)
  if (key === undefined) {
    key = JSON.stringify([coordinates.groupId, coordinates.artifactId, coordinates.version])
    KEYS.set(coordinates, key)
  }
  return key
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
  )
}

/**
 * `value` as the rules see it: the codec's mapping (`SchemaCodec#toRuleRecord`, the record Apicurio's Java serde
 * hands its rules), else its JSON (`toRuleRecord` of `@x/rules`); or, when it cannot be given to them (nested
 * deeper than `MAX_RECORD_DEPTH` of `@x/rules`), the reason, for every rule that would run to fail with.
 */
function ruleRecord(
  value: Record<string, unknown>,
  fields: readonly string[] | undefined,
  codec: SchemaCodec | undefined,
): Record<string, unknown> | string {
  try {
    if (codec?.toRuleRecord !== undefined) return codec.toRuleRecord(value, fields, kit!)
    return toRuleRecord!(value, fields)
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/**
 * The verdict on a record the rules could not be given: each rule that would have run (of `mode`, and with
 * `writeRead` of `WRITEREAD`, not disabled, of a type the engine runs) fails with `reason`, as a rule whose
 * evaluation fails does, the first whose action is `ERROR` last, as `RulesEngine#execute` stops there.
 */
function refusedByAll(
  rules: readonly (CompiledRule | null)[],
  mode: string,
  writeRead: boolean,
  reason: string,
): ExecuteResult {
  const violations: RuleViolation[] = []
  for (const compiled of rules) {
    if (compiled === null || compiled.rule.disabled === true) continue
    if (compiled.rule.mode !== mode && !(writeRead && compiled.rule.mode === 'WRITEREAD')) continue
    const action = compiled.rule.onFailure ?? null
    violations.push({ ruleName: compiled.rule.name, message: reason, action })
    if (action === 'ERROR') break
  }
  return {
    passed: violations.length === 0,
    violations,
    executedRules: violations.length,
    failedRules: violations.length,
  }
}

/** The name of the last `READ` (or `WRITEREAD`) transform of a ruleset: the one whose record is handed out. */
function lastReadTransform(rules: readonly (CompiledRule | null)[]): string {
  let name = 'READ transform'
  for (const compiled of rules) {
    const rule = compiled?.rule
    if (rule === undefined || rule.disabled === true || rule.kind !== 'TRANSFORM') continue
    if (rule.mode === 'READ' || rule.mode === 'WRITEREAD') name = rule.name
  }
  return name
}

/**
 * @internal The data-contract rules of one serializer or deserializer: the ruleset in force for each version it
 * meets (fetched once, compiled once, kept `cacheTtlMs` and then refreshed in the background, the last one kept
 * while the registry is unreachable), the migration chains towards `targetVersion`, and the synchronous run of both
 * on a record. Nothing here is loaded unless the serde's `rules.enabled` is true. The rules see each value as
 * `toRuleRecord` of `@x/rules` makes it (the JSON the registry would be sent for it; only the fields the rules read
 * when none of them is a JSONata rule); a `WRITE` transform's result is
 * turned back into the codec's values (its `fromRuleRecord`) and encoded, a `READ` transform's result is decoded
 * again (see `read`); without a transform the value itself goes on. A record that cannot be given to the rules
 * (nested deeper than `MAX_RECORD_DEPTH` of `@x/rules`) fails each rule that would run, with the reason, as a rule
 * whose evaluation fails does: a `RuleViolationError` when one of them refuses it, never a stack overflow.
 */
export class ContractRules {
  readonly #client: RulesPort
  readonly #options: NormalizedRulesOptions
  /** The serde's name, for errors. */
  readonly #owner: string
  /** Compiled rulesets by version; with a TTL an expired one is still served while one background load replaces it. */
  readonly #rulesets: SingleFlightCache<Loaded<RulesetEntry>>
  /** Migration chains by (writer version, target version), cached like the rulesets. */
  readonly #chains: SingleFlightCache<Loaded<VersionRuleSet[]>>
  readonly #ttlMs: number | undefined
  /** The coordinates of `targetVersion` beside each writer version's, made once (their cache key is kept by object). */
  readonly #targets = new WeakMap<VersionCoordinates, VersionCoordinates>()
  /** The coordinates object the ruleset read last was read for, and that ruleset (see `#ruleset`). */
  #hotCoordinates: VersionCoordinates | undefined
  #hotEntry: RulesetEntry | null = null
  /** Whether the timer that forgets the ruleset read last is pending: one at a time, whatever is read. */
  #hotTimer = false
  #engine: RulesEngine | undefined

  constructor(client: RegistryPort, options: NormalizedRulesOptions, owner: string, bound: number) {
    for (const method of NEEDED) {
      if (typeof (client as unknown as Record<string, unknown>)[method] !== 'function') {
        throw invalidConfigError(
          `${owner}: rules need a client with ${method}() (RegistryClient of @x/registry-client has it)`,
        )
      }
    }
    this.#client = client as unknown as RulesPort
    this.#options = options
    this.#owner = owner
    this.#rulesets = new SingleFlightCache({ max: bound, refresh: (key) => this.#loadRuleset(key) })
    this.#chains = new SingleFlightCache({ max: bound, refresh: (key) => this.#loadChain(key) })
    this.#ttlMs = options.cacheTtlMs
  }

  /** The version records are migrated to, with migration on. */
  get targetVersion(): string | undefined {
    return this.#options.targetVersion
  }

  /** Whether the ruleset (and, reading with migration, the chain) of a version is cached: no request is needed. */
  isReady(coordinates: VersionCoordinates, reading: boolean): boolean {
    if (
      this.#engine === undefined ||
      this.#rulesets.get(keyOf(this.#readRulesOf(coordinates, reading))) === undefined
    ) {
      return false
    }
    return (
      !this.#migrates(coordinates, reading) || this.#chains.get(this.#chainKey(coordinates)) !== undefined
    )
  }

  /**
   * Loads the engine and fetches what a record of this version needs.
   * @throws TypeError (code `INVALID_CONFIG`) naming the install when `@x/rules` is not installed.
   */
  async prepare(coordinates: VersionCoordinates, reading: boolean): Promise<void> {
    if (this.#engine === undefined) {
      const engine = await loadEngine(this.#owner)
      toRuleRecord ??= engine.toRuleRecord
      plainRuleValue ??= engine.plainRuleValue
      mergeRuleSets ??= engine.mergeRuleSets as (...levels: ContractRuleSet[]) => RuleSet
      kit ??= { double: engine.ruleDouble, json: engine.toRuleRecord }
      this.#engine ??= new engine.RulesEngine()
    }
    const rulesKey = keyOf(this.#readRulesOf(coordinates, reading))
    const loads: Promise<unknown>[] = [
      this.#rulesets.load(rulesKey, () => this.#loadRuleset(rulesKey), undefined, this.#ttlMs),
    ]
    if (this.#migrates(coordinates, reading)) {
      const chainKey = this.#chainKey(coordinates)
      loads.push(this.#chains.load(chainKey, () => this.#loadChain(chainKey), undefined, this.#ttlMs))
    }
    await Promise.all(loads)
  }

  /**
   * Runs the `WRITE` rules on a record before it is encoded; answers the record to encode: `record` itself, or what
   * the transforms made of it, turned back into the codec's values by its `fromRuleRecord`.
   * @throws RuleViolationError for a failed rule whose action is `ERROR` or `DLQ` (with `failOnError`).
   */
  write(coordinates: VersionCoordinates, record: unknown, codec?: SchemaCodec): unknown {
    if (!isRecord(record)) return record
    const entry = this.#ruleset(coordinates)
    if (entry === null || entry.compiled.domainRules.length === 0) return record
    const seen = ruleRecord(record, entry.writeFields, codec)
    const result =
      typeof seen === 'string'
        ? refusedByAll(entry.compiled.domainRules, 'WRITE', true, seen)
        : this.#engine!.execute(entry.compiled, { mode: 'WRITE', record: seen })
    const written = this.#verdict('WRITE', result, record)
    if (written === record) return written
    if (codec?.fromRuleRecord === undefined) return plainRuleValue!(written)
    return codec.fromRuleRecord(written as Record<string, unknown>)
  }

  /**
   * Migrates a decoded record to `targetVersion` (with migration on) and runs the `READ` rules of the version it
   * is read as; answers the record to hand out. A record a `READ` transform gave back is handed out as the
   * registry's `transformedRecord`: its declared fields decoded again with `codec` (the one `record` was decoded
   * with) unless it was migrated, so they hold the values any other message of the schema holds, and the fields
   * the transform added as it gave them; a migrated record is in the target version's shape and is handed out
   * JSON-shaped (integral doubles as plain numbers).
   * @throws RuleViolationError for a failed rule whose action is `ERROR` or `DLQ` (with `failOnError`), and
   *   when a field a `READ` transform gave back does not fit its declared type (naming the field).
   */
  read(coordinates: VersionCoordinates, record: unknown, codec?: SchemaCodec, formatName = ''): unknown {
    if (!isRecord(record)) return record
    let current = record
    let seen: Record<string, unknown> | undefined
    if (this.#migrates(coordinates, true)) {
      const chain = this.#cached(this.#chains, this.#chainKey(coordinates), 'migration chain')
      if (chain !== null) {
        const target = this.#options.targetVersion!
        const from = chain.findIndex((s) => s.version === coordinates.version)
        const to = chain.findIndex((s) => s.version === target)
        const mode = to >= from ? 'UPGRADE' : 'DOWNGRADE'
        const whole = ruleRecord(current, undefined, codec)
        if (typeof whole === 'string') {
          // The first hop with a rule to run stops the chain, as a hop whose rules fail does.
          let refused: ExecuteResult | undefined
          for (let index = from; index !== to && refused?.passed !== false; ) {
            index += to >= from ? 1 : -1
            refused = refusedByAll(chain[index]!.ruleSet.migrationRules, mode, false, whole)
          }
          if (refused !== undefined)
            current = this.#verdict(mode, refused, current) as Record<string, unknown>
        } else {
          seen = whole
          const result = this.#engine!.migrate(chain, {
            fromVersion: coordinates.version,
            toVersion: target,
            record: seen,
          })
          current = this.#verdict(mode, result, current) as Record<string, unknown>
          if (result.transformedRecord !== undefined) seen = result.transformedRecord
        }
      }
    }
    const migrated = current !== record
    const entry = this.#ruleset(this.#readRulesOf(coordinates, true))
    if (entry === null || entry.compiled.domainRules.length === 0)
      return migrated ? plainRuleValue!(current) : current
    const readable = seen ?? ruleRecord(current, entry.readFields, codec)
    const result =
      typeof readable === 'string'
        ? refusedByAll(entry.compiled.domainRules, 'READ', true, readable)
        : this.#engine!.execute(entry.compiled, { mode: 'READ', record: readable })
    const read = this.#verdict('READ', result, current) as Record<string, unknown>
    if (read === current) return migrated ? plainRuleValue!(current) : current
    if (seen !== undefined || codec?.decodedRuleRecord === undefined) return plainRuleValue!(read)
    return this.#decodedTransform(read, codec, formatName, result, entry.compiled.domainRules)
  }

  /**
   * The record a `READ` transform gave back, handed out as the registry's `transformedRecord`: its declared fields
   * as `decode` gives them (`SchemaCodec#decodedRuleRecord`), then the fields it added, as the transform gave them.
   * @throws RuleViolationError naming the field when a declared field no longer fits the schema (with the
   *   transform's verdict: it is the rules that broke the record, not the message).
   */
  #decodedTransform(
    read: Record<string, unknown>,
    codec: SchemaCodec,
    formatName: string,
    result: ExecuteResult,
    rules: readonly (CompiledRule | null)[],
  ): unknown {
    let decoded: unknown
    try {
      decoded = codec.decodedRuleRecord!(read)
    } catch (cause) {
      const reason = cause instanceof Error ? cause.message : String(cause)
      throw new RuleViolationError(
        `The record a READ transform gave back does not fit the ${formatName} schema it was read with: ${reason}`,
        {
          mode: 'READ',
          violations: [
            ...result.violations,
            { ruleName: lastReadTransform(rules), message: reason, action: 'ERROR' },
          ],
          cause,
        },
      )
    }
    if (!isRecord(decoded)) return decoded
    for (const key of Object.keys(read)) {
      if (!Object.hasOwn(decoded, key) && codec.declaresRuleField?.(key) !== true) {
        Object.defineProperty(decoded, key, {
          value: plainRuleValue!(read[key]),
          writable: true,
          enumerable: true,
          configurable: true,
        })
      }
    }
    return decoded
  }

  #migrates(coordinates: VersionCoordinates, reading: boolean): boolean {
    const target = this.#options.targetVersion
    return reading && target !== undefined && target !== coordinates.version
  }

  /** The version whose rules a record is checked by: the target version when it is migrated there. */
  #readRulesOf(coordinates: VersionCoordinates, reading: boolean): VersionCoordinates {
    if (!this.#migrates(coordinates, reading)) return coordinates
    let target = this.#targets.get(coordinates)
    if (target === undefined) {
      target = { ...coordinates, version: this.#options.targetVersion! }
      this.#targets.set(coordinates, target)
    }
    return target
  }

  #chainKey(coordinates: VersionCoordinates): string {
    return JSON.stringify([
      coordinates.groupId,
      coordinates.artifactId,
      coordinates.version,
      this.#options.targetVersion,
    ])
  }

  /**
   * The ruleset of a version, for a message: the one read last is served from `#hotEntry` (one compare, no cache
   * lookup and no clock read, which costs as much as a one-clause rule) until the pending timer forgets it, at most
   * {@link HOT_MS} (and never more than `cacheTtlMs`) after it was read; then the cache is asked again, which
   * notices an expired ruleset and refreshes it. One timer is pending at a time, so messages of versions that
   * alternate schedule no timer each.
   */
  #ruleset(coordinates: VersionCoordinates): RulesetEntry | null {
    if (this.#hotCoordinates === coordinates) return this.#hotEntry
    const entry = this.#cached(this.#rulesets, keyOf(coordinates), 'ruleset')
    this.#hotCoordinates = coordinates
    this.#hotEntry = entry
    if (this.#ttlMs !== undefined && !this.#hotTimer) {
      this.#hotTimer = true
      const timer = setTimeout(
        () => {
          this.#hotTimer = false
          this.#hotCoordinates = undefined
          this.#hotEntry = null
        },
        Math.min(this.#ttlMs, HOT_MS),
      )
      ;(timer as { unref?: () => void }).unref?.()
    }
    return entry
  }

  #cached<T extends {}>(cache: SingleFlightCache<Loaded<T>>, key: string, what: string): T | null {
    const loaded = this.#engine === undefined ? undefined : cache.get(key)
    if (loaded === undefined) {
      throw new SerdeError(
        'NOT_PREPARED',
        `The data-contract ${what} of ${key} is not cached yet: call prepare() first (or one asynchronous call) before the …Sync methods`,
      )
    }
    return loaded.value
  }

  /** The record to go on with, or the error of a failed rule whose action is `ERROR` or `DLQ`. */
  #verdict(mode: string, result: ExecuteResult, record: Record<string, unknown>): unknown {
    if (!result.passed && this.#options.failOnError) {
      const refusing = result.violations.filter((v) => v.action === 'ERROR' || v.action === 'DLQ')
      if (refusing.length > 0)
        throw new RuleViolationError(undefined, { mode, violations: result.violations })
    }
    return result.transformedRecord ?? record
  }

  async #loadRuleset(key: string): Promise<Loaded<RulesetEntry>> {
    const [groupId, artifactId, version] = JSON.parse(key) as [string, string, string]
    let ruleset: RuleSet
    try {
      ruleset = await this.#fetchRuleset(groupId, artifactId, version)
    } catch (error) {
      if (this.#options.failOnError) throw error
      return { value: null }
    }
    const engine = this.#engine!
    const compiled = engine.compile(ruleset ?? EMPTY)
    return {
      value: {
        compiled,
        writeFields: engine.fieldsRead(compiled, 'WRITE'),
        readFields: engine.fieldsRead(compiled, 'READ'),
      },
    }
  }

  /**
   * The ruleset in force for a version. With a client that reads each level (`RegistryClient`), the three levels
   * (the same three requests `getMergedRuleset` makes), merged here, and a warning, once per process, for each rule
   * nobody runs or that Apicurio's Java serde 3.3 treats otherwise (see `rulesetWarnings`).
   */
  async #fetchRuleset(groupId: string, artifactId: string, version: string): Promise<RuleSet> {
    const client = this.#client as RulesPort & Partial<LevelsPort>
    if (typeof client.getGlobalRuleset !== 'function' || typeof client.getArtifactRuleset !== 'function') {
      return (await client.getMergedRuleset(artifactId, version, { groupId })) as RuleSet
    }
    const [global, artifact, versionLevel] = await Promise.all([
      client.getGlobalRuleset(),
      client.getArtifactRuleset(artifactId, { groupId }),
      client.getVersionRuleset(artifactId, version, { groupId }),
    ])
    const merged = mergeRuleSets!(global, artifact, versionLevel)
    const where = `artifact '${artifactId}' (group '${groupId}', version '${version}')`
    warnOnce(rulesetWarnings(where, { global, artifact, version: versionLevel }, merged as ContractRuleSet))
    return merged
  }

  async #loadChain(key: string): Promise<Loaded<VersionRuleSet[]>> {
    const [groupId, artifactId, from, to] = JSON.parse(key) as [string, string, string, string]
    try {
      const versions = await this.#client.listVersions(artifactId, { groupId })
      const start = versions.indexOf(from)
      const end = versions.indexOf(to)
      if (end < 0) {
        throw invalidConfigError(
          `rules.migration.targetVersion: artifact '${artifactId}' in group '${groupId}' has no version '${to}'`,
        )
      }
      if (start < 0) {
        throw new DeserializationError(
          `Cannot migrate a record of artifact '${artifactId}' from version '${from}': the registry lists no such version`,
        )
      }
      const steps = versions.slice(Math.min(start, end), Math.max(start, end) + 1)
      const rulesets = await Promise.all(
        steps.map((version) => this.#client.getVersionRuleset(artifactId, version, { groupId })),
      )
      return {
        value: steps.map((version, index) => ({
          version,
          ruleSet: this.#engine!.compile(rulesets[index] as RuleSet),
        })),
      }
    } catch (error) {
      if (this.#options.failOnError) throw error
      return { value: null }
    }
  }
}
