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
      id: 9007199254740992n,
    })
    expect(run('$merge([$, {"id": id + 1}])', { id: 5 }).transformedRecord).toEqual({ id: 6 })
  })

  it('keeps the longs a transform copies while it computes others', () => {
    expect(
      run('{"id": id + 1, "other": other, "copy": other}', {
        id: 9007199254740993n,
        other: 9007199254740995n,
      }).transformedRecord,
    ).toEqual({ id: 9007199254740992n, other: 9007199254740995n, copy: 9007199254740995n })
  })

  it('gives a computed integral double beyond 2^53 as the long of its exact value, clamped at 2^63 as Java casts it', () => {
    const plus = '$merge([$, {"big": big + 1}])'
    expect(run(plus, { big: 1152921504606846977n }).transformedRecord).toEqual({ big: 1152921504606846976n })
    expect(run(plus, { big: -1152921504606846977n }).transformedRecord).toEqual({
      big: -1152921504606846976n,
    })
    expect(run(plus, { big: 9223372036854775807n }).transformedRecord).toEqual({ big: 9223372036854775807n })
    expect(run('{"low": big * 2}', { big: -4611686018427387904n }).transformedRecord).toEqual({
      low: -9223372036854775808n,
    })
    // beyond the range of a long, and fractional, a computed number stays a double
    expect(run('{"x": big * 1000, "y": big + 0.5}', { big: 1e21, small: 0 }).transformedRecord).toEqual({
      x: 1e24,
      y: 1e21,
    })
    expect(run('{"y": n + 0.5}', { n: 1 }).transformedRecord).toEqual({ y: 1.5 })
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
