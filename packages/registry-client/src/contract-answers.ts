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
        action: String(violation.action ?? ''),
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
 * The ruleset in force for a version: the global rules, then the artifact's, then the version's. A rule replaces an
 * earlier rule of the same name in the same list, in that rule's place (the registry's execute endpoint runs one
 * rule per name: a version's `positive` runs instead of the artifact's `positive`).
 */
export function mergeRuleSets(...levels: readonly ContractRuleSet[]): ContractRuleSet {
  const merge = (pick: (set: ContractRuleSet) => readonly ContractRule[]): ContractRule[] => {
    const byName = new Map<string, ContractRule>()
    for (const level of levels) for (const rule of pick(level)) byName.set(rule.name, rule)
    return [...byName.values()]
  }
  return { domainRules: merge((set) => set.domainRules), migrationRules: merge((set) => set.migrationRules) }
}

/**
 * JSON text of a record for the registry: `JSON.stringify`'s text, except that a `bigint` is written as its exact
 * integer literal (the registry reads longs beyond 2^53 exactly).
 */
export function recordJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
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
