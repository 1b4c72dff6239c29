import type { Rule, RuleSet } from './types.js'

/**
 * Merges the global, artifact and version rulesets as Apicurio Registry 3.3 does (measured against it): a rule of a
 * later level replaces the same-named rule of an earlier level, and the surviving rules are ordered by their
 * position within their own level, earlier levels first among rules at the same position. `domainRules` and
 * `migrationRules` merge separately. Missing levels count as empty.
 */
export function mergeRuleSets(global?: RuleSet, artifact?: RuleSet, version?: RuleSet): RuleSet {
  const levels = [global, artifact, version]
  return {
    domainRules: mergeRules(levels.map((level) => level?.domainRules ?? [])),
    migrationRules: mergeRules(levels.map((level) => level?.migrationRules ?? [])),
  }
}

function mergeRules(levels: readonly (readonly Rule[])[]): Rule[] {
  const lastLevelOf = new Map<string, number>()
  levels.forEach((rules, level) => {
    for (const rule of rules) lastLevelOf.set(rule.name, level)
  })
  const longest = Math.max(0, ...levels.map((rules) => rules.length))
  const merged: Rule[] = []
  for (let position = 0; position < longest; position++) {
    levels.forEach((rules, level) => {
      const rule = rules[position]
      if (rule !== undefined && lastLevelOf.get(rule.name) === level) merged.push(rule)
    })
  }
  return merged
}
