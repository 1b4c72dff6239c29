import { describeValue, invalidConfigError } from '@x/errors'
import type { ContractRule, ContractRuleSet } from './contract-types.js'

const REQUIRED = ['name', 'kind', 'type', 'mode'] as const

function requireRules(list: unknown, field: string): ContractRule[] {
  if (list === undefined) return []
  if (!Array.isArray(list))
    throw invalidConfigError(`ruleset.${field} must be an array, got ${describeValue(list)}`)
  return list.map((rule: unknown, index) => {
    if (typeof rule !== 'object' || rule === null) {
      throw invalidConfigError(`ruleset.${field}[${index}] must be an object, got ${describeValue(rule)}`)
    }
    for (const key of REQUIRED) {
      const value = (rule as Record<string, unknown>)[key]
      if (typeof value !== 'string' || value === '') {
        throw invalidConfigError(
          `ruleset.${field}[${index}].${key} must be a non-empty string, got ${describeValue(value)}`,
        )
      }
    }
    return rule as ContractRule
  })
}

/**
 * Checks a ruleset before it is sent: Apicurio 3.3 answers a rule without `kind` with a 500 (a database constraint),
 * so the fields it requires are checked here. A missing list is sent as an empty one.
 *
 * @throws TypeError (code `INVALID_CONFIG`) naming the wrong field.
 */
export function requireRuleSet(value: unknown): ContractRuleSet {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidConfigError(`ruleset must be an object, got ${describeValue(value)}`)
  }
  const set = value as Partial<ContractRuleSet>
  return {
    domainRules: requireRules(set.domainRules, 'domainRules'),
    migrationRules: requireRules(set.migrationRules, 'migrationRules'),
  }
}
