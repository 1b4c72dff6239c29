import { describeValue, invalidConfigError } from '@x/errors'
import { checkBoolean, checkKnownKeys, checkOptionsObject } from './option-checks.js'

/**
 * Data-contract rules (Apicurio Registry 3.3 rulesets) run on every message, with the settings and defaults of
 * Apicurio's Java serde (`apicurio.registry.serde.contract-rules.*`). A serializer runs the `WRITE` and `WRITEREAD`
 * rules before encoding; a deserializer runs the `READ` and `WRITEREAD` rules after decoding, and with `migration`
 * first migrates the record from the writer's version to `targetVersion`. The rules engine (`@x/rules`) is loaded
 * only when `enabled` is true.
 */
export interface RulesOptions {
  /**
   * Runs the rules of the version each message is written with (the global, artifact and version rulesets merged).
   * Needs the rules engine installed beside the serde (`npm install @x/rules`): without it the first call that
   * needs the rules fails with a `TypeError` (code `INVALID_CONFIG`) that names that install.
   * @default false
   */
  enabled?: boolean
  /**
   * A failed rule whose action is `ERROR` or `DLQ` throws `RuleViolationError`, and a ruleset that cannot be fetched
   * fails the call (once fetched, a ruleset stays in force while the registry is unreachable). `false`: failures
   * and a missing ruleset let the message through.
   * @default true
   */
  failOnError?: boolean
  /**
   * How long a fetched ruleset is used before it is fetched again (in the background: no call waits for it).
   * @default 60000
   */
  cacheTtlMs?: number
  /** Migrations between versions (deserializers only). */
  migration?: {
    /**
     * Migrates each record from the version it was written with to `targetVersion` (the `UPGRADE` or `DOWNGRADE`
     * migration rules of every version between), before the `READ` rules of `targetVersion` run.
     * @default false
     */
    enabled?: boolean
    /** The version the reader expects (required when `enabled`). */
    targetVersion?: string
  }
}

/** The rules settings of a serde with rules enabled, checked, with every default applied (`undefined` when off). */
export interface NormalizedRulesOptions {
  failOnError: boolean
  cacheTtlMs: number
  /** The version records are migrated to; `undefined` without migration. */
  targetVersion: string | undefined
}

/** @internal The option name every serializer and deserializer accepts. */
export const RULES_OPTION = 'rules'

/**
 * Checks the `rules` option; `undefined` when rules are off (nothing is loaded then). Every serializer and
 * deserializer of this family, and the readers and writers of any format built on them, check it this one way.
 * @throws TypeError (code `INVALID_CONFIG`) naming the wrong field.
 */
export function normalizeRulesOptions(value: unknown, owner: string): NormalizedRulesOptions | undefined {
  if (value === undefined) return undefined
  const raw = checkOptionsObject(value, `${owner}: rules`)
  checkKnownKeys(raw, ['enabled', 'failOnError', 'cacheTtlMs', 'migration'], `${owner}: rules`)
  const enabled = checkBoolean(raw.enabled, false, `${owner}: rules.enabled`)
  const failOnError = checkBoolean(raw.failOnError, true, `${owner}: rules.failOnError`)
  const ttl = raw.cacheTtlMs ?? 60_000
  if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
    throw invalidConfigError(
      `${owner}: rules.cacheTtlMs must be a positive number, got ${describeValue(ttl)}`,
    )
  }
  let targetVersion: string | undefined
  if (raw.migration !== undefined) {
    const migration = checkOptionsObject(raw.migration, `${owner}: rules.migration`)
    checkKnownKeys(migration, ['enabled', 'targetVersion'], `${owner}: rules.migration`)
    if (checkBoolean(migration.enabled, false, `${owner}: rules.migration.enabled`)) {
      const target = migration.targetVersion
      if (typeof target !== 'string' || target === '') {
        throw invalidConfigError(
          `${owner}: rules.migration.targetVersion must be a non-empty string when migration is enabled, got ${describeValue(target)}`,
        )
      }
      targetVersion = target
    }
  }
  if (!enabled) return undefined
  return { failOnError, cacheTtlMs: ttl, targetVersion }
}
