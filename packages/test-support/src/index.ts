export { expectOrderRules, type OrderSerdes, orderRules } from './order-rules.js'
export { readThroughTransform, type TransformSerdes } from './read-transform.js'
export { conditionFailed, expectRuleViolation } from './rule-violation.js'
export { type RulesRegistry, useRulesRegistry } from './rules-registry.js'
export {
  celCondition,
  domainRules,
  jsonataTransform,
  keyRules,
  ledgerMigrations,
  ledgerSchemas,
  migrationRules,
} from './rulesets.js'
export * from './serde-differential/index.js'
export { thrown } from './thrown.js'
