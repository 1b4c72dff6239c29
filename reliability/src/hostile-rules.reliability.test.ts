import { readFileSync } from 'node:fs'
import { type Rule, RulesEngine, toRuleRecord } from '@x/rules'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { propertyTests } from './support/entry-tests.js'
import {
  chain,
  DEPTHS,
  deepArray,
  deepObject,
  difference,
  hostileKey,
  hostileRecord,
  hostileValue,
  KIB64,
  measuredOnce,
  ownObject,
  PROTOTYPE_NAMES,
  sameValue,
  samples,
  sizeOf,
} from './support/hostile.js'
import { jsonValue } from './support/hostile-schemas.js'
import { EntryPoint } from './support/probe.js'
import { count, recordFigures } from './support/scale.js'

// Hostile input at the rules engine: rulesets of random, mutated, deep and huge CEL and JSONata expressions (the
// user's own expressions, as a registry's ruleset holds them) run on records with prototype-named keys, nesting far
// beyond the stack, huge strings and arrays. Compiling and executing must end in a verdict or one of the library's
// errors, fast, and leave Object.prototype alone; an identity transform must give the record back exactly.

const SEED = Number(process.env.RELIABILITY_SEED ?? 20_261_207)
const N = count('hostileRules')
const figures: Record<string, string | number> = {}

afterAll(() => recordFigures('hostile-rules', figures))

interface CorpusCase {
  ruleSet?: { domainRules?: Rule[]; migrationRules?: Rule[] }
  recordJson?: string
}
const corpus = JSON.parse(
  readFileSync(new URL('../../packages/rules/corpus/cases.json', import.meta.url), 'utf8'),
) as CorpusCase[]
const corpusRules = corpus.flatMap((testCase) => [
  ...(testCase.ruleSet?.domainRules ?? []),
  ...(testCase.ruleSet?.migrationRules ?? []),
])
const expressions = {
  CEL: [...new Set(corpusRules.filter((rule) => rule.type === 'CEL').map((rule) => rule.expr ?? ''))],
  JSONATA: [...new Set(corpusRules.filter((rule) => rule.type === 'JSONATA').map((rule) => rule.expr ?? ''))],
}
const records = corpus.flatMap((testCase) => {
  try {
    return testCase.recordJson === undefined
      ? []
      : [JSON.parse(testCase.recordJson) as Record<string, unknown>]
  } catch {
    return []
  }
})

/** Expressions no corpus holds: nesting far beyond any parser's stack, huge texts, and prototype games. */
const CRAFTED = {
  CEL: [
    ...DEPTHS.flatMap((depth) => [
      `${'('.repeat(depth)}1${')'.repeat(depth)}`,
      `${'!'.repeat(depth)}true`,
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
    ]),
    `a${'.a'.repeat(20_000)}`,
    Array.from({ length: 5_000 }, (_, i) => `x${i}`).join(' + '),
    `"${'x'.repeat(KIB64 - 8)}".size() > 0`,
    '__proto__.polluted == 1',
    'constructor.prototype == 1',
    'has(__proto__.x)',
    'toString == 1',
    '{"__proto__": 1}.size() == 1',
    'x.matches("(a+)+$")',
    '[1,2,3].map(x, [1,2,3].map(y, [1,2,3].map(z, x*y*z))).size() > 0',
    '"\\ud800" == "\\udfff"',
  ],
  JSONATA: [
    ...DEPTHS.flatMap((depth) => [
      `${'('.repeat(depth)}1${')'.repeat(depth)}`,
      `${'['.repeat(depth)}${']'.repeat(depth)}`,
      `${'$not('.repeat(depth)}true${')'.repeat(depth)}`,
    ]),
    '$merge([$, {"__proto__": {"polluted": 1}}])',
    '$merge([$, {"constructor": {"prototype": {"polluted": 1}}}])',
    '$ ~> |$|{"__proto__": {"polluted": 1}}|',
    '__proto__',
    '$.constructor',
    '$lookup($, "__proto__")',
    '$spread($)',
    '$sift($, function($v, $k) { $k = "__proto__" })',
    '(function($f) { $f($f) })(function($f) { $f($f) })',
    '[1..10000000]',
    '$string($)',
    '$eval("1 + 1")',
    '$match(x, /(a+)+$/)',
  ],
}

/** Crafted expressions that hold the event loop for long on their own (each is run once, not sampled). */
const SLOW = new Set([
  '[1..10000000]',
  '(function($f) { $f($f) })(function($f) { $f($f) })',
  'x.matches("(a+)+$")',
  '$match(x, /(a+)+$/)',
])

/** An expression: from the corpus, a mutation of one (characters dropped, doubled, replaced), random, or crafted. */
function expression(type: 'CEL' | 'JSONATA'): fc.Arbitrary<string> {
  const known = fc.constantFrom(...expressions[type])
  return fc.oneof(
    { weight: 3, arbitrary: known },
    {
      weight: 3,
      arbitrary: fc
        .tuple(known, fc.nat(), fc.nat(), fc.string({ unit: 'binary', maxLength: 4 }), fc.nat({ max: 3 }))
        .map(([text, at, span, insert, how]) => {
          const start = at % (text.length + 1)
          const end = Math.min(text.length, start + (span % 6))
          if (how === 0) return text.slice(0, start) + text.slice(end)
          if (how === 1) return text.slice(0, end) + text.slice(start)
          return text.slice(0, start) + insert + text.slice(end)
        }),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    // the crafted expressions that take long run once each, first; the others may come up at random too
    {
      weight: 1,
      arbitrary: fc.constantFrom(...CRAFTED[type].filter((text) => text.length < 4_000 && !SLOW.has(text))),
    },
  )
}

const EXPRESSIONS = { CEL: expression('CEL'), JSONATA: expression('JSONATA') }

const rule: fc.Arbitrary<Rule> = fc
  .record({
    name: fc.oneof(fc.constantFrom('r', ...PROTOTYPE_NAMES), fc.string({ maxLength: 6 })),
    kind: fc.constantFrom('CONDITION', 'TRANSFORM') as fc.Arbitrary<Rule['kind']>,
    type: fc.constantFrom('CEL', 'JSONATA', 'CEL', 'JSONATA', 'OTHER', '__proto__'),
    mode: fc.constantFrom('WRITE', 'READ', 'WRITEREAD') as fc.Arbitrary<Rule['mode']>,
    onFailure: fc.constantFrom('ERROR', 'NONE', 'DLQ') as fc.Arbitrary<Rule['onFailure']>,
    disabled: fc.boolean().map((b) => (b ? undefined : false)),
  })
  .chain((base) =>
    EXPRESSIONS[base.type === 'JSONATA' ? 'JSONATA' : 'CEL'].map((expr) => {
      const out: Rule = { name: base.name, kind: base.kind, type: base.type, mode: base.mode, expr }
      if (base.onFailure !== undefined) out.onFailure = base.onFailure
      return out
    }),
  )

/** Records nested far beyond the stack, three of each depth (built once, not for every input drawn). */
const DEEP_RECORDS = DEPTHS.flatMap((depth) => [
  ownObject([['a', deepObject(depth)]]),
  ownObject([['__proto__', deepObject(depth, '__proto__')]]),
  ownObject([['items', deepArray(depth)]]),
]).map((deep) => measuredOnce(deep))

/** A record: from the corpus, one with hostile fields added, a hostile record, or nesting beyond the stack. */
const record: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...records) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...records), fc.array(fc.tuple(hostileKey, hostileValue), { maxLength: 3 }))
      .map(([base, extra]) => ownObject([...Object.entries(base), ...extra])),
  },
  { weight: 2, arbitrary: hostileRecord },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...DEPTHS).chain((depth) => {
      const at = 3 * DEPTHS.indexOf(depth)
      return fc.constantFrom(...DEEP_RECORDS.slice(at, at + 3))
    }),
  },
)

const engine = new RulesEngine()
const entries = new Map<string, EntryPoint>()
const get = (name: string) => () => entries.get(name) as EntryPoint

describe('RulesEngine#compile and #execute', () => {
  it(`runs ${N} hostile rulesets on hostile records`, async () => {
    const entry = new EntryPoint('RulesEngine compile + execute', { read: false })
    entries.set(entry.name, entry)
    const crafted = [
      ...CRAFTED.CEL.map((expr) => ({ type: 'CEL', expr })),
      ...CRAFTED.JSONATA.map((expr) => ({ type: 'JSONATA', expr })),
    ].map(({ type, expr }) => ({
      rules: [
        {
          name: 'crafted',
          kind: type === 'JSONATA' ? 'TRANSFORM' : 'CONDITION',
          type,
          mode: 'WRITE',
          expr,
          onFailure: 'ERROR',
        } as Rule,
      ],
      // a field a backtracking regular expression takes exponential time on (twice as long per added "a")
      record: { ...(records[0] as Record<string, unknown>), x: `${'a'.repeat(21)}!` },
      mode: 'WRITE' as const,
    }))
    const deep = DEEP_RECORDS.flatMap((deepRecord) =>
      ['a != null', 'has(a.a)', 'size(items) > 0'].map((expr) => ({
        rules: [
          { name: 'deep', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr } as Rule,
          { name: 'copy', kind: 'TRANSFORM', type: 'JSONATA', mode: 'WRITE', expr: '$' } as Rule,
        ],
        record: deepRecord,
        mode: 'WRITE' as const,
      })),
    )
    const inputs = fc.record({
      rules: fc.array(rule, { minLength: 1, maxLength: 3 }),
      record,
      mode: fc.constantFrom('WRITE', 'READ') as fc.Arbitrary<'WRITE' | 'READ'>,
    })
    for (const input of chain([...crafted, ...deep], samples(inputs, N, SEED + 100))) {
      const size = input.rules.reduce((sum, r) => sum + (r.expr?.length ?? 0) * 2, 0) + sizeOf(input.record)
      const outcome = await entry.probe(input, size, () =>
        engine.execute(engine.compile({ domainRules: input.rules }), {
          mode: input.mode,
          record: input.record,
        }),
      )
      if (outcome.ok) {
        const verdict = outcome.value
        if (typeof verdict.passed !== 'boolean' || !Array.isArray(verdict.violations)) {
          entry.find('error', input, `not a verdict: ${JSON.stringify(verdict).slice(0, 120)}`)
        }
      }
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('RulesEngine compile + execute'), ['error', 'time', 'prototype'])
})

describe('an identity JSONata transform', () => {
  it(`gives back ${N} hostile JSON records exactly`, async () => {
    const entry = new EntryPoint('RulesEngine identity transform', { read: false })
    entries.set(entry.name, entry)
    const compiled = engine.compile({
      domainRules: [{ name: 'same', kind: 'TRANSFORM', type: 'JSONATA', mode: 'READ', expr: '$' }],
    })
    const inputs = fc
      .array(fc.tuple(hostileKey, jsonValue), { maxLength: 5 })
      .map((entries) => ownObject(entries))
    for (const input of samples(inputs, N, SEED + 110)) {
      const outcome = await entry.probe(input, sizeOf(input), () =>
        engine.execute(compiled, { mode: 'READ', record: input }),
      )
      if (!outcome.ok) continue
      const back = outcome.value.transformedRecord ?? input
      if (!outcome.value.passed)
        entry.find('roundTrip', input, `refused: ${outcome.value.violations[0]?.message ?? ''}`)
      else if (!sameValue(back, input))
        entry.find('roundTrip', input, `transformed: ${difference(back, input)}`)
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('RulesEngine identity transform'), ['error', 'time', 'roundTrip', 'prototype'])
})

describe('toRuleRecord', () => {
  it(`turns ${N} hostile values into records or refuses them`, async () => {
    const entry = new EntryPoint('toRuleRecord', { read: false })
    entries.set(entry.name, entry)
    for (const input of chain(DEEP_RECORDS, samples(hostileValue, N, SEED + 120))) {
      await entry.probe(input, sizeOf(input), () => toRuleRecord(input))
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('toRuleRecord'), ['error', 'time', 'prototype'])
})

describe('after every input', () => {
  it('ran every entry point', () => {
    expect(entries.size).toBe(3)
  })
})
