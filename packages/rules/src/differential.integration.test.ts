/// <reference path="../../../scripts/integration/context.d.ts" />
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, inject, it } from 'vitest'
import { askRegistry } from '../scripts/corpus.mjs'
import { mergeRuleSets } from './merge-rule-sets.js'
import { RulesEngine } from './rules-engine.js'
import { comparable, exactParse, loadCorpus, runCase } from './test-support/differential.js'
import type { ExecuteResult } from './types.js'

// Every case of the corpus asked again of a real Apicurio Registry 3.3 (integration stage: `inject('registryUrl')`,
// or X_SERDE_TEST_REGISTRY_URL), each in a new artifact of a group of its own, and compared with this engine.
const url = (inject('registryUrl') ?? process.env.X_SERDE_TEST_REGISTRY_URL ?? '').replace(/\/+$/, '')
const group = `rules-engine-live-${Date.now()}`
const engine = new RulesEngine()
const corpus = loadCorpus()
/** The cases whose difference is listed in the README (a field named `optional`). */
const DIFFERENCES = new Set(['json-cel-26-0', 'json-cel-26-1', 'json-cel-27-0', 'json-cel-27-1'])

describe.skipIf(url === '')('the engine against the live registry', () => {
  it('agrees with every case of the corpus but the listed ones, and the registry still answers as recorded', async () => {
    const disagreements: string[] = []
    const changed: string[] = []
    let next = 0
    async function worker(): Promise<void> {
      while (next < corpus.length) {
        const testCase = corpus[next++]!
        const answer = exactParse(await askRegistry(url, group, testCase)) as ExecuteResult
        const ours = runCase(engine, testCase, (artifact, version) =>
          mergeRuleSets(undefined, artifact, version),
        )
        if (!DIFFERENCES.has(testCase.id) && !isDeepStrictEqual(comparable(ours), comparable(answer))) {
          disagreements.push(testCase.id)
        }
        const recorded = exactParse(testCase.answerJson) as ExecuteResult
        if (!isDeepStrictEqual(comparable(recorded), comparable(answer))) changed.push(testCase.id)
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()])
    expect(disagreements).toEqual([])
    expect(changed).toEqual([])
  }, 600_000)
})
