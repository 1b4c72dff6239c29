import { describe, expect, it } from 'vitest'
import { isRuleDouble, plainRuleValue, RuleDouble, ruleDouble } from './rule-double.js'
import { ruleRecordOfJson } from './rule-json.js'
import { RulesEngine } from './rules-engine.js'
import type { Rule } from './types.js'

const engine = new RulesEngine()
const cel = (expr: string): Rule => ({ name: 'r', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr })
const transform = (type: 'CEL' | 'JSONATA', expr: string): Rule => ({
  name: 't',
  kind: 'TRANSFORM',
  type,
  mode: 'WRITE',
  expr,
})
const passes = (rule: Rule, record: Record<string, unknown>) =>
  engine.execute(engine.compile({ domainRules: [rule] }), { mode: 'WRITE', record }).passed
const transformed = (rule: Rule, record: Record<string, unknown>) =>
  engine.execute(engine.compile({ domainRules: [rule] }), { mode: 'WRITE', record }).transformedRecord

describe('RuleDouble', () => {
  it('binds an integral double as a CEL double, as the registry binds the JSON 5.0', () => {
    expect(passes(cel('type(total) == double'), { total: new RuleDouble(5) })).toBe(true)
    expect(passes(cel('total / 2.0 == 2.5'), { total: new RuleDouble(5) })).toBe(true)
    // a plain integral number is a JSON integer: an int, as the registry binds the JSON 5
    expect(passes(cel('type(total) == double'), { total: 5 })).toBe(false)
    expect(passes(cel('type(total) == int'), { total: 5 })).toBe(true)
  })

  it('binds doubles inside lists and maps as doubles', () => {
    expect(
      passes(cel('type(xs[0]) == double && type(m.a) == double'), {
        xs: [new RuleDouble(1)],
        m: { a: new RuleDouble(2) },
      }),
    ).toBe(true)
  })

  it('keeps an integral double a CEL transform computes a double', () => {
    expect(transformed(transform('CEL', '{"t": 2.0 * 3.0}'), {})).toEqual({ t: new RuleDouble(6) })
  })

  it('reads as its number in JSONata and comes back itself where a transform leaves it', () => {
    const out = transformed(transform('JSONATA', '$merge([$, {"t": total * 2, "u": total + 0.5}])'), {
      total: new RuleDouble(5),
    })
    // as the registry answers {"total":5.0,"t":10,"u":5.5}
    expect(out).toEqual({ total: new RuleDouble(5), t: 10, u: 5.5 })
    expect(isRuleDouble(out!.total)).toBe(true)
    expect(isRuleDouble(out!.t)).toBe(false)
  })

  it('is written as its number by JSON.stringify and compared as its number', () => {
    expect(JSON.stringify({ a: new RuleDouble(5) })).toBe('{"a":5}')
    expect(+new RuleDouble(5) + 1).toBe(6)
  })

  it('is made only for integral doubles', () => {
    expect(ruleDouble(5)).toEqual(new RuleDouble(5))
    expect(ruleDouble(5.5)).toBe(5.5)
  })

  it('plainRuleValue replaces each one by its number and leaves the rest, the same objects where nothing changed', () => {
    const untouched = { a: 1, b: [2, 'x'] }
    expect(plainRuleValue(untouched)).toBe(untouched)
    expect(plainRuleValue({ a: new RuleDouble(5), b: [new RuleDouble(1), 2], c: 'x' })).toEqual({
      a: 5,
      b: [1, 2],
      c: 'x',
    })
    const withProto = JSON.parse('{"__proto__": {"d": 1}}') as Record<string, unknown>
    Object.defineProperty(withProto, 'x', { value: new RuleDouble(2), enumerable: true })
    const plain = plainRuleValue(withProto) as Record<string, unknown>
    expect(Object.hasOwn(plain, '__proto__')).toBe(true)
    expect(plain.x).toBe(2)
  })
})

describe('ruleRecordOfJson', () => {
  const tree = (text: string) => {
    // the shape parseJsonTree of @x/registry-client/json makes
    const parse = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(parse)
      if (typeof value === 'object' && value !== null) {
        if ('$n' in value) return { text: (value as { $n: string }).$n }
        return new Map(Object.entries(value).map(([k, v]) => [k, parse(v)]))
      }
      return value
    }
    return parse(text) as Parameters<typeof ruleRecordOfJson>[0]
  }

  it('reads integer literals as ints (exact beyond 2^53) and literals with a fraction or exponent as doubles', () => {
    const record = ruleRecordOfJson(
      tree({
        i: { $n: '5' },
        d: { $n: '5.0' },
        e: { $n: '1e3' },
        f: { $n: '2.5' },
        big: { $n: '9007199254740993' },
        list: [{ $n: '-0.0' }, { $n: '7' }],
      } as never),
    )
    expect(record).toEqual({
      i: 5,
      d: new RuleDouble(5),
      e: new RuleDouble(1000),
      f: 2.5,
      big: 9007199254740993n,
      list: [new RuleDouble(-0), 7],
    })
  })
})
