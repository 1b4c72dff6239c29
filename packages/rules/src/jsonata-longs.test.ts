import { describe, expect, it } from 'vitest'
import { RuleDouble } from './rule-double.js'
import { RulesEngine } from './rules-engine.js'

const engine = new RulesEngine()
const run = (expr: string, record: Record<string, unknown>) =>
  engine.execute(
    engine.compile({ domainRules: [{ name: 't', kind: 'TRANSFORM', type: 'JSONATA', mode: 'WRITE', expr }] }),
    { mode: 'WRITE', record },
  )

// Each expected answer is the one Apicurio Registry 3.3.3's execute endpoint gives for the same record.
describe('JSONata transforms on longs beyond 2^53', () => {
  it('swaps two longs exactly', () => {
    expect(run('{"a": b, "b": a}', { a: 9007199254740993n, b: 9007199254740992n }).transformedRecord).toEqual(
      {
        a: 9007199254740992n,
        b: 9007199254740993n,
      },
    )
  })

  it('gives a computed long as JSONata computes it in doubles, never the input restored', () => {
    expect(run('$merge([$, {"id": id + 1}])', { id: 9007199254740993n }).transformedRecord).toEqual({
      id: 9007199254740992,
    })
    expect(run('$merge([$, {"id": id + 1}])', { id: 5 }).transformedRecord).toEqual({ id: 6 })
  })

  it('keeps the longs a transform copies while it computes others', () => {
    expect(
      run('{"id": id + 1, "other": other, "copy": other}', {
        id: 9007199254740993n,
        other: 9007199254740995n,
      }).transformedRecord,
    ).toEqual({ id: 9007199254740992, other: 9007199254740995n, copy: 9007199254740995n })
  })

  it('keeps longs and doubles inside lists and nested objects where they are moved', () => {
    expect(
      run('{"xs": [n.b, n.a], "d": n.d}', { n: { a: 9007199254740993n, b: 2, d: new RuleDouble(3) } })
        .transformedRecord,
    ).toEqual({ xs: [2, 9007199254740993n], d: new RuleDouble(3) })
  })

  it('reports no transformed record for an expression that gives back its input', () => {
    const result = run('$', { a: 9007199254740993n })
    expect(result.passed).toBe(true)
    expect(result.transformedRecord).toBeUndefined()
  })
})
