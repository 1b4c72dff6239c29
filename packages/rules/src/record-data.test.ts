import { describe, expect, it } from 'vitest'
import type { CompiledRuleSet } from './compiled-rule.js'
import { MAX_RECORD_DEPTH, RecordTooDeepError } from './record-data.js'
import { toRuleRecord } from './rule-record.js'
import { RulesEngine } from './rules-engine.js'
import type { Rule } from './types.js'

// Records come from messages: their field names are data (`__proto__`, `constructor` and `toString` included) and
// their nesting is whatever a producer wrote. Neither may change a verdict or escape `execute` as an exception.

const engine = new RulesEngine()
const PROTO_ROLE = '{"customer":{"__proto__":{"role":"admin"}}}'

function rule(type: 'CEL' | 'JSONATA', kind: Rule['kind'], expr: string): Rule {
  return { name: 'r', kind, type, mode: 'READ', expr, onFailure: 'ERROR' }
}

function verdict(type: 'CEL' | 'JSONATA', expr: string, record: Record<string, unknown>) {
  return engine.execute(engine.compile({ domainRules: [rule(type, 'CONDITION', expr)] }), {
    mode: 'READ',
    record,
  })
}

function transformed(type: 'CEL' | 'JSONATA', expr: string, record: Record<string, unknown>) {
  const result = engine.execute(engine.compile({ domainRules: [rule(type, 'TRANSFORM', expr)] }), {
    mode: 'READ',
    record,
  })
  expect(result.violations).toEqual([])
  return result.transformedRecord as Record<string, unknown>
}

/** `{"n":1,"a":[[…[1]…]]}` as JSON text, nested `depth` levels, its top-level object included. */
function nestedText(depth: number): string {
  return `{"n":1,"a":${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`
}

/** The record of {@link nestedText}, as `JSON.parse` reads it. */
function nested(depth: number): Record<string, unknown> {
  return JSON.parse(nestedText(depth)) as Record<string, unknown>
}

describe('field names that Object.prototype also has', () => {
  it('stay own data fields of the record toRuleRecord makes, as JSON.parse made them', () => {
    const record = toRuleRecord(JSON.parse(PROTO_ROLE))
    const customer = record.customer as Record<string, unknown>
    expect(Object.keys(customer)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(customer)).toBe(Object.prototype)
    expect(customer.role).toBeUndefined()
    expect(JSON.stringify(record)).toBe(PROTO_ROLE)
    const picked = toRuleRecord(JSON.parse('{"__proto__":{"role":"admin"},"x":1}'), ['__proto__'])
    expect(Object.getPrototypeOf(picked)).toBe(Object.prototype)
    expect(JSON.stringify(picked)).toBe('{"__proto__":{"role":"admin"}}')
    const fromMap = toRuleRecord({ labels: new Map([['__proto__', { role: 'admin' }]]) })
    expect(JSON.stringify(fromMap)).toBe('{"labels":{"__proto__":{"role":"admin"}}}')
    expect((fromMap.labels as Record<string, unknown>).role).toBeUndefined()
  })

  it('do not make a JSONata or CEL condition on customer.role hold', () => {
    const polluted = toRuleRecord(JSON.parse(PROTO_ROLE))
    expect(verdict('JSONATA', 'customer.role = "admin"', polluted).passed).toBe(false)
    expect(verdict('JSONATA', 'customer.role = "admin"', { customer: {} }).passed).toBe(false)
    expect(verdict('JSONATA', 'customer.role = "admin"', { customer: { role: 'admin' } }).passed).toBe(true)
    expect(verdict('CEL', 'has(customer.role)', polluted).passed).toBe(false)
    expect(verdict('CEL', 'customer.role == "admin"', polluted).passed).toBe(false)
    expect(verdict('CEL', 'customer.role == "admin"', { customer: { role: 'admin' } }).passed).toBe(true)
  })

  it('are absent from a JSONata or CEL record that does not hold them, and read when it does', () => {
    const empty = { customer: {} }
    const held = { customer: { constructor: 'x', toString: 'y', __proto__: 'z' } }
    Object.defineProperty(held.customer, '__proto__', { value: 'z', enumerable: true })
    expect(verdict('JSONATA', '$exists(customer.constructor)', empty).passed).toBe(false)
    expect(verdict('JSONATA', '$exists(customer.toString)', empty).passed).toBe(false)
    expect(verdict('JSONATA', '$exists(customer.__proto__)', empty).passed).toBe(false)
    expect(
      verdict(
        'JSONATA',
        'customer.constructor = "x" and customer.toString = "y" and customer.__proto__ = "z"',
        held,
      ).passed,
    ).toBe(true)
    expect(verdict('CEL', 'has(customer.constructor)', empty).passed).toBe(false)
    expect(verdict('CEL', 'customer.constructor == "x" && customer.toString == "y"', held)).toMatchObject({
      passed: true,
      violations: [],
    })
    expect(verdict('CEL', 'has(customer.constructor) && size(customer) == 3', held).passed).toBe(true)
  })

  it('stay own data fields of what a JSONata or CEL transform gives back, in ordinary objects', () => {
    for (const [type, expr] of [
      ['JSONATA', '$merge([$])'],
      ['JSONATA', '{"customer": customer}'],
      ['CEL', '{"customer": customer}'],
    ] as const) {
      const result = transformed(type, expr, toRuleRecord(JSON.parse(PROTO_ROLE)))
      const customer = result.customer as Record<string, unknown>
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype)
      expect(Object.getPrototypeOf(customer)).toBe(Object.prototype)
      expect(Object.keys(customer)).toEqual(['__proto__'])
      expect(customer.role).toBeUndefined()
      expect(JSON.stringify(result)).toBe(PROTO_ROLE)
    }
    const merged = transformed(
      'JSONATA',
      '$merge([$, {"seen": true}])',
      JSON.parse('{"__proto__":{"a":1},"b":2}'),
    )
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype)
    expect(JSON.stringify(merged)).toBe('{"__proto__":{"a":1},"b":2,"seen":true}')
    const held = transformed('CEL', '{"customer": customer}', { customer: { constructor: 'x', n: 1 } })
    expect(Object.getPrototypeOf(held.customer)).toBe(Object.prototype)
    expect(JSON.stringify(held)).toBe('{"customer":{"constructor":"x","n":1}}')
  })
})

describe('records nested deeper than MAX_RECORD_DEPTH', () => {
  it('are read to exactly MAX_RECORD_DEPTH levels and refused one level deeper with RecordTooDeepError', () => {
    expect(MAX_RECORD_DEPTH).toBe(1000)
    expect(JSON.stringify(toRuleRecord(nested(MAX_RECORD_DEPTH)))).toBe(nestedText(MAX_RECORD_DEPTH))
    const error = (() => {
      try {
        toRuleRecord(nested(MAX_RECORD_DEPTH + 1))
      } catch (thrown) {
        return thrown
      }
    })()
    expect(error).toBeInstanceOf(RecordTooDeepError)
    expect(error).toBeInstanceOf(RangeError)
    expect(error).toMatchObject({
      name: 'RecordTooDeepError',
      code: 'INVALID_DATA',
      maxDepth: 1000,
      message:
        'The record nests objects and lists deeper than 1000 levels, more than data-contract rules read',
    })
  })

  it.each([6_000, 20_000, 100_000])(
    'are refused by toRuleRecord at depth %i without a RangeError',
    (depth) => {
      expect(() => toRuleRecord(nested(depth))).toThrow(RecordTooDeepError)
    },
  )

  it.each([6_000, 20_000, 100_000])(
    'fail each CEL and JSONata rule at depth %i; execute does not throw',
    (depth) => {
      const record = nested(depth)
      const compiled = engine.compile({
        domainRules: [
          { name: 'cel-reads-a', kind: 'CONDITION', type: 'CEL', mode: 'READ', expr: 'size(a) > 0' },
          { name: 'cel-copies-a', kind: 'TRANSFORM', type: 'CEL', mode: 'READ', expr: '{"a": a}' },
          {
            name: 'jsonata',
            kind: 'CONDITION',
            type: 'JSONATA',
            mode: 'READ',
            expr: 'n = 1',
            onFailure: 'DLQ',
          },
        ],
      })
      const result = engine.execute(compiled, { mode: 'READ', record })
      const tooDeep =
        'The record nests objects and lists deeper than 1000 levels, more than data-contract rules read'
      expect(result).toEqual({
        passed: false,
        violations: [
          {
            ruleName: 'cel-reads-a',
            message: `CEL evaluation error: CEL evaluation failed: ${tooDeep}`,
            action: null,
          },
          {
            ruleName: 'cel-copies-a',
            message: `CEL evaluation error: CEL evaluation failed: ${tooDeep}`,
            action: null,
          },
          {
            ruleName: 'jsonata',
            message: `JSONata evaluation error: JSONata evaluation failed: ${tooDeep}`,
            action: 'DLQ',
          },
        ],
        executedRules: 3,
        failedRules: 3,
      })
    },
  )

  it('fail a CEL or JSONata transform whose result nests too deep, and a migration rule on a deep record', () => {
    const deepResult = engine.execute(
      engine.compile({ domainRules: [rule('JSONATA', 'TRANSFORM', '{"a": a, "b": {"c": a}}')] }),
      { mode: 'READ', record: nested(MAX_RECORD_DEPTH) },
    )
    expect(deepResult.violations).toEqual([
      {
        ruleName: 'r',
        message:
          'JSONata evaluation error: JSONata evaluation failed: The record nests objects and lists deeper than 1000 levels, more than data-contract rules read',
        action: 'ERROR',
      },
    ])
    const v2 = engine.compile({
      migrationRules: [{ name: 'up', kind: 'TRANSFORM', type: 'JSONATA', mode: 'UPGRADE', expr: '$' }],
    })
    const migrated = engine.migrate(
      [
        { version: '1', ruleSet: engine.compile({}) },
        { version: '2', ruleSet: v2 },
      ],
      { fromVersion: '1', toVersion: '2', record: nested(20_000) },
    )
    expect(migrated).toMatchObject({ passed: false, executedRules: 1, failedRules: 1 })
    expect(migrated.violations[0]?.message).toContain('deeper than 1000 levels')
  })
})

describe('RulesEngine#execute', () => {
  it('fails a rule whose evaluation throws, whatever it throws, and goes on to the next rule', () => {
    const throwing = (name: string, thrown: unknown) => ({
      rule: { name, kind: 'CONDITION', type: 'CEL', mode: 'READ', onFailure: 'NONE' } as Rule,
      run(): never {
        throw thrown
      },
    })
    const compiled: CompiledRuleSet = {
      domainRules: [
        throwing('overflow', new RangeError('Maximum call stack size exceeded')),
        throwing('odd', Object.create(null)),
        throwing('text', 'no'),
      ],
      migrationRules: [],
    }
    expect(engine.execute(compiled, { mode: 'READ', record: {} })).toEqual({
      passed: false,
      violations: [
        { ruleName: 'overflow', message: 'Maximum call stack size exceeded', action: 'NONE' },
        { ruleName: 'odd', message: 'The rule threw a value of type object', action: 'NONE' },
        { ruleName: 'text', message: 'The rule threw no', action: 'NONE' },
      ],
      executedRules: 3,
      failedRules: 3,
    })
  })

  it('fails a JSONata rule whose own evaluation overflows the stack, with its message', () => {
    const result = verdict(
      'JSONATA',
      '($f := function($n) { $n = 0 ? 0 : 1 + $f($n - 1) }; $f(1000000) > 0)',
      {},
    )
    expect(result.passed).toBe(false)
    expect(result.violations[0]?.message).toMatch(/^JSONata evaluation error: JSONata evaluation failed: /)
  })
})
