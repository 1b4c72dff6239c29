import protobuf from 'protobufjs'
import { describe, expect, it } from 'vitest'
import { fromRuleMessage, markRuleDoubles } from './rule-values.js'
import { planOf } from './values.js'

// The record a transform gave back is data: its own fields are read, a name it does not hold is absent whatever
// it is, and a key named __proto__ stays a key.

const root = protobuf.parse(
  'syntax = "proto3";\nmessage Odd {\n  string constructor = 1;\n  map<string, bytes> blobs = 2;\n}\n',
).root
const plan = planOf(root.lookupType('Odd'))

describe('fromRuleMessage', () => {
  it('reads only the fields the record holds: a field named constructor it lacks stays absent', () => {
    const out = fromRuleMessage(plan, { blobs: {} }) as Record<string, unknown>
    expect(Object.keys(out)).toEqual(['blobs'])
    expect(Object.hasOwn(out, 'constructor')).toBe(false)
    expect(fromRuleMessage(plan, { constructor: 'x' })).toEqual({ constructor: 'x' })
  })

  it('keeps a map key named __proto__ as an own key, its value converted like any other', () => {
    const out = fromRuleMessage(plan, { blobs: JSON.parse('{"__proto__":"AQI=","b":"Aw=="}') }) as {
      blobs: Record<string, Buffer>
    }
    expect(Object.getPrototypeOf(out.blobs)).toBe(Object.prototype)
    expect(Object.keys(out.blobs)).toEqual(['__proto__', 'b'])
    expect(Object.getOwnPropertyDescriptor(out.blobs, '__proto__')?.value).toEqual(Buffer.from([1, 2]))
  })
})

describe('markRuleDoubles', () => {
  const types = protobuf.parse(
    [
      'syntax = "proto3";',
      'message M {',
      '  double d = 1;',
      '  float f = 2;',
      '  repeated double list = 3;',
      '  map<string, double> byName = 4;',
      '  N inner = 5;',
      '  int64 count = 6;',
      '  string s = 7;',
      '}',
      'message N { double v = 1; }',
    ].join('\n'),
    { keepCase: true },
  ).root
  const mPlan = planOf(types.lookupType('M'))
  const double = (value: number) => ({ double: value })

  it('marks each integral double of the message, its lists, maps and own messages, and writes NaN and infinities as text', () => {
    const value = {
      d: 5,
      f: 1.5,
      list: [1, Number.NaN],
      byName: { a: 2, b: -Infinity },
      inner: { v: 3 },
      count: 7,
      s: 'x',
    }
    expect(markRuleDoubles(mPlan, value, double)).toEqual({
      d: { double: 5 },
      f: 1.5,
      list: [{ double: 1 }, 'NaN'],
      byName: { a: { double: 2 }, b: '-Infinity' },
      inner: { v: { double: 3 } },
      count: 7,
      s: 'x',
    })
  })

  it('gives back the value itself when it holds no integral double', () => {
    const value = { d: 2.5, s: 'x' }
    expect(markRuleDoubles(mPlan, value, double)).toBe(value)
  })

  it('is inverted by fromRuleMessage for the doubles', () => {
    const brand = { value: 4, [Symbol.for('@x/rules.RuleDouble')]: true }
    expect(fromRuleMessage(mPlan, { d: brand, list: ['Infinity', 2.5] })).toEqual({
      d: 4,
      list: [Infinity, 2.5],
    })
  })
})
