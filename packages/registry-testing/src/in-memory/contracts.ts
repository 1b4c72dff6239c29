import { mergeRuleSets, type RuleSet } from '@x/rules'
import type { JsonText } from './json-text.js'
import { missingParameter } from './problems.js'

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
 * A rule of a `PUT …/contract/ruleset` body. `name`, `kind`, `type` and `mode` are required (`ContractRule` in the
 * registry's OpenAPI document): a rule without one, or a rule that is not an object, is a 400
 * `MissingRequiredParameterException` naming the field (`body.domainRules[0].name`), never a 500.
 */
function readRule(value: unknown, path: string): StoredContractRule {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw missingParameter(path)
  const rule = value as Record<string, unknown>
  for (const field of ['name', 'kind', 'type', 'mode'] as const) {
    if (typeof rule[field] !== 'string') throw missingParameter(`${path}.${field}`)
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

/**
 * The ruleset of a `PUT …/contract/ruleset` body, already read as a JSON object (see `parseBody`); a missing list is
 * empty.
 */
export function readRuleSet(body: Readonly<Record<string, unknown>>): StoredRuleSet {
  const list = (value: unknown, path: string) =>
    Array.isArray(value) ? value.map((rule, i) => readRule(rule, `${path}[${i}]`)) : []
  return Object.freeze({
    domainRules: list(body.domainRules, 'body.domainRules'),
    migrationRules: list(body.migrationRules, 'body.migrationRules'),
  })
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
