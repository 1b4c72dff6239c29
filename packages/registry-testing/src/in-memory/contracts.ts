import { mergeRuleSets, type RuleSet } from '@x/rules'
import type { JsonText } from './json-text.js'
import { RegistryProblem } from './problems.js'

/** One data-contract rule as stored: the fields Apicurio 3.3 keeps, in the order it writes them. */
export interface StoredContractRule {
  readonly name: string
  readonly kind: string
  readonly type: string
  readonly mode: string
  readonly expr?: string
  readonly params?: Readonly<Record<string, string>>
  readonly tags?: readonly string[]
  readonly onSuccess?: string
  readonly onFailure?: string
  readonly disabled?: boolean
}

/** A stored ruleset: domain rules and migration rules, in the order given. */
export interface StoredRuleSet {
  readonly domainRules: readonly StoredContractRule[]
  readonly migrationRules: readonly StoredContractRule[]
}

/** The ruleset Apicurio answers where none is set. */
export const EMPTY_RULESET: StoredRuleSet = Object.freeze({ domainRules: [], migrationRules: [] })

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}

/**
 * A rule of a `PUT …/contract/ruleset` body. Apicurio 3.3 stores rules in a table whose `kind`, `ruleType`, `mode`
 * and `ruleName` columns are `NOT NULL`: a rule without one is a 500 naming the column, as there.
 */
function readRule(value: unknown): StoredContractRule {
  const rule = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>
  for (const [field, column] of [
    ['name', 'RULENAME'],
    ['kind', 'KIND'],
    ['type', 'RULETYPE'],
    ['mode', 'MODE'],
  ] as const) {
    if (typeof rule[field] !== 'string') {
      throw new RegistryProblem(
        500,
        'RuntimeSqlException',
        `org.h2.jdbc.JdbcSQLIntegrityConstraintViolationException: NULL not allowed for column "${column}"`,
      )
    }
  }
  const stored: Record<string, unknown> = {
    name: rule.name,
    kind: rule.kind,
    type: rule.type,
    mode: rule.mode,
  }
  if (text(rule.expr) !== undefined) stored.expr = rule.expr
  if (typeof rule.params === 'object' && rule.params !== null) stored.params = { ...rule.params }
  stored.tags = Array.isArray(rule.tags) ? rule.tags.filter((tag) => typeof tag === 'string') : []
  if (text(rule.onSuccess) !== undefined) stored.onSuccess = rule.onSuccess
  if (text(rule.onFailure) !== undefined) stored.onFailure = rule.onFailure
  if (typeof rule.disabled === 'boolean') stored.disabled = rule.disabled
  return Object.freeze(stored) as unknown as StoredContractRule
}

/** The ruleset of a `PUT …/contract/ruleset` body; a missing list is empty, a missing body a 500 as in Apicurio. */
export function readRuleSet(body: unknown): StoredRuleSet {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new RegistryProblem(
      500,
      'NullPointerException',
      'Cannot invoke "io.apicurio.registry.rest.v3.beans.ContractRuleSet.getDomainRules()" because "bean" is null',
    )
  }
  const set = body as { domainRules?: unknown; migrationRules?: unknown }
  const list = (value: unknown) => (Array.isArray(value) ? value.map(readRule) : [])
  return Object.freeze({ domainRules: list(set.domainRules), migrationRules: list(set.migrationRules) })
}

/** The answer to a `PUT`: the rules as given, `tags` always present (Apicurio 3.3 echoes the body so). */
export function putAnswer(set: StoredRuleSet): JsonText {
  const rule = (r: StoredContractRule): JsonText => ({ ...r, tags: [...(r.tags ?? [])] }) as JsonText
  return { domainRules: set.domainRules.map(rule), migrationRules: set.migrationRules.map(rule) }
}

/** The answer to a `GET`: every rule with `params`, `tags` and `disabled` filled in, as Apicurio 3.3 reads them back. */
export function getAnswer(set: StoredRuleSet): JsonText {
  const rule = (r: StoredContractRule): JsonText => ({
    name: r.name,
    kind: r.kind,
    type: r.type,
    mode: r.mode,
    expr: r.expr,
    params: { ...(r.params ?? {}) },
    tags: [...(r.tags ?? [])],
    onSuccess: r.onSuccess,
    onFailure: r.onFailure,
    disabled: r.disabled ?? false,
  })
  return { domainRules: set.domainRules.map(rule), migrationRules: set.migrationRules.map(rule) }
}

/**
 * The rulesets of InMemoryRegistry: the global one, one per artifact (kept even for an artifact id that does not
 * exist, as Apicurio 3.3 keeps it) and one per version (by globalId).
 */
export class ContractStore {
  #global: StoredRuleSet = EMPTY_RULESET
  readonly #artifacts = new Map<string, StoredRuleSet>()
  readonly #versions = new Map<bigint, StoredRuleSet>()

  global(): StoredRuleSet {
    return this.#global
  }

  setGlobal(set: StoredRuleSet): void {
    this.#global = set
  }

  artifact(groupId: string | null, artifactId: string): StoredRuleSet {
    return this.#artifacts.get(JSON.stringify([groupId, artifactId])) ?? EMPTY_RULESET
  }

  setArtifact(groupId: string | null, artifactId: string, set: StoredRuleSet): void {
    this.#artifacts.set(JSON.stringify([groupId, artifactId]), set)
  }

  version(globalId: bigint): StoredRuleSet {
    return this.#versions.get(globalId) ?? EMPTY_RULESET
  }

  setVersion(globalId: bigint, set: StoredRuleSet): void {
    this.#versions.set(globalId, set)
  }

  /** The ruleset in force for a version, merged as Apicurio 3.3 merges the global, artifact and version levels. */
  merged(groupId: string | null, artifactId: string, globalId: bigint): StoredRuleSet {
    return mergeRuleSets(
      this.#global as RuleSet,
      this.artifact(groupId, artifactId) as RuleSet,
      this.version(globalId) as RuleSet,
    ) as StoredRuleSet
  }
}
