import { readFileSync } from 'node:fs'
import { parseJsonTree } from '@x/registry-client/json'
import { ruleRecordOfJson } from '../rule-json.js'
import type { RulesEngine } from '../rules-engine.js'
import type { ExecuteMode, ExecuteResult, RuleSet } from '../types.js'

/** One recorded case of the differential corpus (see scripts/corpus.mjs). */
export interface CorpusCase {
  kind: 'execute' | 'migrate'
  format: 'avro' | 'json' | 'protobuf'
  id: string
  mode?: ExecuteMode
  ruleSet?: RuleSet
  artifactRuleSet?: RuleSet
  versions?: { version: string; ruleSet: RuleSet }[]
  fromVersion?: string
  toVersion?: string
  recordJson: string
  answerJson: string
}

/** The cases of corpus/cases.json. */
export function loadCorpus(): CorpusCase[] {
  return JSON.parse(readFileSync(new URL('../../corpus/cases.json', import.meta.url), 'utf8')) as CorpusCase[]
}

/**
 * Parses JSON text as the registry reads it: integers beyond 2^53 exact, and a literal with a fraction or an
 * exponent (`5.0`) a double, as it reads records and writes its answers.
 */
export function exactParse(text: string): unknown {
  return ruleRecordOfJson(parseJsonTree(text))
}

/** Runs a case through the engine as the registry would: merged levels for execute, version levels for migrate. */
export function runCase(
  engine: RulesEngine,
  testCase: CorpusCase,
  merge: (a?: RuleSet, v?: RuleSet) => RuleSet,
): ExecuteResult {
  const record = exactParse(testCase.recordJson) as Record<string, unknown>
  if (testCase.kind === 'migrate') {
    const chain = (testCase.versions ?? []).map(({ version, ruleSet }) => ({
      version,
      ruleSet: engine.compile(ruleSet),
    }))
    return engine.migrate(chain, {
      fromVersion: testCase.fromVersion!,
      toVersion: testCase.toVersion!,
      record,
    })
  }
  const compiled = engine.compile(merge(testCase.artifactRuleSet, testCase.ruleSet))
  return engine.execute(compiled, { mode: testCase.mode!, record })
}

/**
 * The part of a message both engines must agree on: all of `Condition failed: …` and of an undeclared-name check
 * error; for any other error, the stage that failed (`CEL evaluation error: CEL evaluation failed`, `… parse
 * failed`, `JSONata evaluation error: JSONata compilation failed`, …), the rest being each CEL engine's own words.
 */
export function messageClass(message: string): string {
  if (message.startsWith('Condition failed: ') || message.includes('undeclared reference to')) {
    if (!message.includes('CEL evaluation failed')) return message
  }
  const stage =
    /^(CEL|JSONata) evaluation error: ((CEL|JSONata) (compilation|evaluation) failed(: (parse|check) failed)?)?/.exec(
      message,
    )
  return stage?.[0] ?? message
}

/** The comparable part of an answer: everything but the error messages' engine-specific words. */
export function comparable(result: ExecuteResult): unknown {
  return {
    passed: result.passed,
    transformedRecord: result.transformedRecord,
    violations: result.violations.map(({ ruleName, action, message }) => ({
      ruleName,
      action,
      message: messageClass(message),
    })),
    executedRules: result.executedRules,
    failedRules: result.failedRules,
  }
}
