import type { ContractRule, ContractRuleSet, ContractVerdict, ContractViolation } from './contract-types.js'
import { type ExactJson, isJsonObject, parseExactJson } from './exact-json.js'
import { UnusableAnswer } from './registry-answers.js'

function parse(text: string, what: string): ExactJson {
  try {
    return parseExactJson(text).value
  } catch (error) {
    throw new UnusableAnswer(`${what} is not JSON (${(error as Error).message})`)
  }
}

function rules(value: ExactJson | undefined, what: string): ContractRule[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) throw new UnusableAnswer(`${what} is not an array`)
  return value.map((rule, index) => {
    if (!isJsonObject(rule) || typeof rule.name !== 'string') {
      throw new UnusableAnswer(`Rule ${index} of ${what} lacks a string name`)
    }
    return rule as unknown as ContractRule
  })
}

/** Reads a `ContractRuleSet`; a missing list is an empty one. */
export function parseRuleSet(text: string): ContractRuleSet {
  const body = parse(text, 'The ruleset answer')
  if (!isJsonObject(body)) throw new UnusableAnswer('The ruleset answer is not a JSON object')
  return {
    domainRules: rules(body.domainRules, 'domainRules'),
    migrationRules: rules(body.migrationRules, 'migrationRules'),
  }
}

/** Reads the answer of the execute and migrate endpoints; integers beyond 2^53 in the record stay exact (`bigint`). */
export function parseVerdict(text: string): ContractVerdict {
  const body = parse(text, 'The rule execution answer')
  if (!isJsonObject(body) || typeof body.passed !== 'boolean') {
    throw new UnusableAnswer('The rule execution answer lacks a boolean passed')
  }
  const violations: ContractViolation[] = (Array.isArray(body.violations) ? body.violations : []).map(
    (item) => {
      const violation = isJsonObject(item) ? item : {}
      return {
        ruleName: String(violation.ruleName ?? ''),
        message: String(violation.message ?? ''),
        action: typeof violation.action === 'string' ? violation.action : null,
      }
    },
  )
  const verdict: ContractVerdict = {
    passed: body.passed,
    violations,
    executedRules: Number(body.executedRules ?? 0),
    failedRules: Number(body.failedRules ?? 0),
  }
  if (isJsonObject(body.transformedRecord)) verdict.transformedRecord = body.transformedRecord
  return verdict
}

/**
 * The ruleset in force for a version, from the global, artifact and version rulesets, as Apicurio Registry 3.3
 * merges them: a rule of a later level replaces the same-named rule of an earlier level, and the surviving rules are
 * ordered by their position within their own level, earlier levels first among rules at the same position.
 * `domainRules` and `migrationRules` merge separately.
 */
export function mergeRuleSets(...levels: readonly ContractRuleSet[]): ContractRuleSet {
  const merge = (lists: readonly (readonly ContractRule[])[]): ContractRule[] => {
    const lastLevelOf = new Map<string, number>()
    lists.forEach((rules, level) => {
      for (const rule of rules) lastLevelOf.set(rule.name, level)
    })
    const longest = Math.max(0, ...lists.map((rules) => rules.length))
    const merged: ContractRule[] = []
    for (let position = 0; position < longest; position++) {
      lists.forEach((rules, level) => {
        const rule = rules[position]
        if (rule !== undefined && lastLevelOf.get(rule.name) === level) merged.push(rule)
      })
    }
    return merged
  }
  return {
    domainRules: merge(levels.map((set) => set.domainRules)),
    migrationRules: merge(levels.map((set) => set.migrationRules)),
  }
}

/** The brand of `RuleDouble` of `@x/rules` (an integral double of a rule record), a registered symbol. */
const RULE_DOUBLE = Symbol.for('@x/rules.RuleDouble')

/**
 * JSON text of a record for the registry: `JSON.stringify`'s text, except that a `bigint` is written as its exact
 * integer literal (the registry reads longs beyond 2^53 exactly) and a `RuleDouble` of `@x/rules` (an integral
 * double) with a fraction, `5.0`, so that the registry reads a double as Apicurio's Java serde sends it.
 */
export function recordJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if ((value as { [RULE_DOUBLE]?: unknown })[RULE_DOUBLE] === true)
    return doubleText((value as { value: number }).value)
  const withJson = value as { toJSON?: () => unknown }
  if (typeof withJson.toJSON === 'function') return recordJson(withJson.toJSON())
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined || typeof item === 'function' ? 'null' : recordJson(item))).join(',')}]`
  }
  const members: string[] = []
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue
    members.push(`${JSON.stringify(key)}:${recordJson(item)}`)
  }
  return `{${members.join(',')}}`
}

/** A double's JSON text with a fraction or an exponent (`5.0`, `-0.0`, `1e+21`), so that it is read as a double. */
function doubleText(value: number): string {
  if (!Number.isFinite(value)) return 'null'
  if (Object.is(value, -0)) return '-0.0'
  const text = String(value)
  return /[.e]/.test(text) ? text : `${text}.0`
}

/** Reads one page of `VersionSearchResults`: the total `count` and the version names of the page. */
export function parseVersionPage(text: string): { count: number; versions: string[] } {
  const body = parse(text, 'The version list')
  if (!isJsonObject(body) || !Array.isArray(body.versions) || typeof body.count !== 'number') {
    throw new UnusableAnswer('The version list lacks a numeric count or a versions array')
  }
  const versions = body.versions.map((item, index) => {
    if (!isJsonObject(item) || typeof item.version !== 'string') {
      throw new UnusableAnswer(`Version ${index} of the version list lacks a string version`)
    }
    return item.version
  })
  return { count: body.count, versions }
}
