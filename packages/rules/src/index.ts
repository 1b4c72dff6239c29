export type { CelEvaluator, CelIssue, CelProgram, CelReference } from './cel-evaluator.js'
export { CelJsEvaluator } from './cel-js-evaluator.js'
export type { CompiledRule, CompiledRuleSet, RuleOutcome } from './compiled-rule.js'
export type { JsonataEvaluator, JsonataProgram } from './jsonata-evaluator.js'
export { SyncJsonataEvaluator } from './jsonata-evaluator.js'
export { mergeRuleSets } from './merge-rule-sets.js'
export { MAX_RECORD_DEPTH, RecordTooDeepError } from './record-data.js'
export { isRuleDouble, plainRuleValue, RULE_DOUBLE, RuleDouble, ruleDouble } from './rule-double.js'
export type { JsonTextTree } from './rule-json.js'
export { ruleRecordOfJson } from './rule-json.js'
export { toRuleRecord } from './rule-record.js'
export type { ExecuteInput, MigrateInput, RulesEngineOptions, VersionRuleSet } from './rules-engine.js'
export { RulesEngine } from './rules-engine.js'
export type {
  ExecuteMode,
  ExecuteResult,
  MigrateResult,
  Rule,
  RuleAction,
  RuleKind,
  RuleMode,
  RuleSet,
  RuleViolation,
} from './types.js'
