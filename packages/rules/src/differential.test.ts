import { describe, expect, it } from 'vitest'
import { mergeRuleSets } from './merge-rule-sets.js'
import { toRuleRecord } from './rule-record.js'
import { RulesEngine } from './rules-engine.js'
import { comparable, exactParse, loadCorpus, runCase } from './test-support/differential.js'
import type { ExecuteResult } from './types.js'

const corpus = loadCorpus()

/**
 * Cases where this engine's answer differs from the registry's, with the reason (listed in the README). A field
 * named `optional` is `@marcbachmann/cel-js`'s namespace of optional values, not the record's field.
 */
const DIFFERENCES: Record<string, string> = {
  'json-cel-26-0': 'a field named optional',
  'json-cel-26-1': 'a field named optional',
  'json-cel-27-0': 'a field named optional',
  'json-cel-27-1': 'a field named optional',
}
const engine = new RulesEngine()

describe('the engine against the answers recorded from Apicurio Registry 3.3.3', () => {
  it('holds more than 300 cases across the three formats, execute and migrate', () => {
    expect(corpus.length).toBeGreaterThan(300)
    expect(new Set(corpus.map((testCase) => testCase.format))).toEqual(new Set(['avro', 'json', 'protobuf']))
    expect(corpus.filter((testCase) => testCase.kind === 'migrate').length).toBeGreaterThan(30)
  })

  it('holds longs beyond 2^53 in its records as exact JSON integers, none replaced by a marker string', () => {
    const longs = (value: unknown): bigint[] =>
      typeof value === 'bigint'
        ? [value]
        : typeof value === 'object' && value !== null
          ? Object.values(value).flatMap(longs)
          : []
    const strings = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : typeof value === 'object' && value !== null
          ? Object.values(value).flatMap(strings)
          : []
    const records = corpus.map((testCase) => exactParse(testCase.recordJson))
    const beyond = records.filter((record) =>
      longs(record).some((long) => long > 2n ** 53n || long < -(2n ** 53n)),
    )
    expect(beyond.length).toBeGreaterThan(300)
    expect(records.flatMap(strings).filter((text) => text.includes('\u0000'))).toEqual([])
    expect(new Set(records.flatMap(longs))).toEqual(
      new Set([9007199254740993n, -9007199254740993n, 9223372036854775807n]),
    )
  })

  it.each(
    corpus
      .filter((testCase) => !(testCase.id in DIFFERENCES))
      .map((testCase) => [testCase.id, testCase] as const),
  )('gives the registry answer for %s', (_id, testCase) => {
    const ours = runCase(engine, testCase, (artifact, version) => mergeRuleSets(undefined, artifact, version))
    const registry = exactParse(testCase.answerJson) as ExecuteResult
    expect(comparable(ours)).toEqual(comparable(registry))
  })
})

describe('a record holding only the fields the rules read', () => {
  const executeCases = corpus.filter((testCase) => testCase.kind === 'execute')
  const narrowed = executeCases.filter((testCase) => {
    const compiled = engine.compile(mergeRuleSets(undefined, testCase.artifactRuleSet, testCase.ruleSet))
    return engine.fieldsRead(compiled, testCase.mode!) !== undefined
  })

  it('covers the CEL cases of the corpus, most of them with fields left out', () => {
    expect(narrowed.length).toBeGreaterThan(150)
    const leftOut = narrowed.filter((testCase) => {
      const compiled = engine.compile(mergeRuleSets(undefined, testCase.artifactRuleSet, testCase.ruleSet))
      const record = exactParse(testCase.recordJson) as Record<string, unknown>
      const picked = toRuleRecord(record, engine.fieldsRead(compiled, testCase.mode!))
      return Object.keys(picked).length < Object.keys(record).length
    })
    expect(leftOut.length).toBeGreaterThan(narrowed.length / 2)
  })

  it.each(narrowed.map((testCase) => [testCase.id, testCase] as const))(
    'gives the same answer, messages included, as the whole record for %s',
    (_id, testCase) => {
      const compiled = engine.compile(mergeRuleSets(undefined, testCase.artifactRuleSet, testCase.ruleSet))
      const record = exactParse(testCase.recordJson) as Record<string, unknown>
      const fields = engine.fieldsRead(compiled, testCase.mode!)
      const whole = engine.execute(compiled, { mode: testCase.mode!, record: toRuleRecord(record) })
      const picked = toRuleRecord(record, fields)
      expect(engine.execute(compiled, { mode: testCase.mode!, record: picked })).toEqual(whole)
    },
  )
})
