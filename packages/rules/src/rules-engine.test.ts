import { describe, expect, it } from 'vitest'
import { RulesEngine } from './rules-engine.js'
import type { Rule } from './types.js'

const engine = new RulesEngine()
const up = (name: string, expr: string): Rule => ({
  name,
  kind: 'TRANSFORM',
  type: 'JSONATA',
  mode: 'UPGRADE',
  expr,
})
const down = (name: string, expr: string): Rule => ({
  name,
  kind: 'TRANSFORM',
  type: 'JSONATA',
  mode: 'DOWNGRADE',
  expr,
})

describe('RulesEngine#execute', () => {
  it('refuses a negative total with the rule named and stops at an ERROR failure', () => {
    const compiled = engine.compile({
      domainRules: [
        {
          name: 'positive',
          kind: 'CONDITION',
          type: 'CEL',
          mode: 'WRITE',
          expr: 'total > 0.0',
          onFailure: 'ERROR',
        },
        { name: 'after', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr: 'false', onFailure: 'NONE' },
      ],
    })
    expect(engine.execute(compiled, { mode: 'WRITE', record: { total: -5 } })).toEqual({
      passed: false,
      violations: [{ ruleName: 'positive', message: 'Condition failed: positive', action: 'ERROR' }],
      executedRules: 1,
      failedRules: 1,
    })
  })

  it('masks a field with a JSONata transform in READ mode and leaves WRITE rules out', () => {
    const compiled = engine.compile({
      domainRules: [
        {
          name: 'mask',
          kind: 'TRANSFORM',
          type: 'JSONATA',
          mode: 'READ',
          expr: '$merge([$, {"ssn": "***"}])',
        },
        { name: 'w', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr: 'false' },
      ],
    })
    expect(engine.execute(compiled, { mode: 'READ', record: { ssn: '123', id: 1 } })).toEqual({
      passed: true,
      transformedRecord: { ssn: '***', id: 1 },
      violations: [],
      executedRules: 1,
      failedRules: 0,
    })
  })

  it('keeps a long beyond 2^53 that a JSONata transform leaves in place exact, as the registry does', () => {
    const compiled = engine.compile({
      domainRules: [
        {
          name: 'mask',
          kind: 'TRANSFORM',
          type: 'JSONATA',
          mode: 'WRITE',
          expr: '$merge([$, {"note": "***", "copy": big, "items": [items[0], 5]}])',
        },
      ],
    })
    const result = engine.execute(compiled, {
      mode: 'WRITE',
      record: { big: 9_007_199_254_740_993n, note: 'n', items: [9_007_199_254_740_995n, 1], copy: 0 },
    })
    // `copy` was 0 in the record: the long JSONata copied there is the long itself, as the registry answers
    expect(result.transformedRecord).toEqual({
      big: 9_007_199_254_740_993n,
      note: '***',
      items: [9_007_199_254_740_995n, 5],
      copy: 9_007_199_254_740_993n,
    })
  })

  it('reports an undeclared name with the registry checker text, line and caret', () => {
    const compiled = engine.compile({
      domainRules: [{ name: 'r', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr: 'a > 0 && b > 0' }],
    })
    const result = engine.execute(compiled, { mode: 'WRITE', record: { a: 1 } })
    expect(result.violations).toEqual([
      {
        ruleName: 'r',
        message:
          "CEL evaluation error: CEL compilation failed: check failed: ERROR: <input>:1:10: undeclared reference to 'b' (in container '')\n | a > 0 && b > 0\n | .........^",
        action: null,
      },
    ])
  })
})

describe('RulesEngine#fieldsRead', () => {
  const cel = (name: string, expr: string, mode: Rule['mode'], disabled?: boolean): Rule => ({
    name,
    kind: 'CONDITION',
    type: 'CEL',
    mode,
    expr,
    ...(disabled === undefined ? {} : { disabled }),
  })

  it('names each top-level field the CEL rules of a mode and WRITEREAD read, once, and no bound variable', () => {
    const compiled = engine.compile({
      domainRules: [
        cel('a', 'total > 0.0 && items.all(i, i.qty > 0)', 'WRITE'),
        cel('b', 'has(customer.email) && total < 1000.0', 'WRITEREAD'),
        cel('c', 'status == "x"', 'READ'),
        cel('d', 'secret == ""', 'WRITE', true),
        { name: 'e', kind: 'CONDITION', type: 'OTHER', mode: 'WRITE', expr: 'anything' },
      ],
    })
    expect(engine.fieldsRead(compiled, 'WRITE')).toEqual(['total', 'items', 'customer'])
    expect(engine.fieldsRead(compiled, 'READ')).toEqual(['customer', 'total', 'status'])
  })

  it('answers undefined when a JSONata rule of the mode may read any field, and [] for a mode with no rule', () => {
    const compiled = engine.compile({
      domainRules: [cel('a', 'total > 0.0', 'WRITE'), up('mask', '$merge([$, {"note": "***"}])')],
    })
    expect(engine.fieldsRead(compiled, 'WRITE')).toEqual(['total'])
    expect(engine.fieldsRead(compiled, 'UPGRADE')).toBeUndefined()
    expect(engine.fieldsRead(compiled, 'READ')).toEqual([])
    const jsonataWrite = engine.compile({ domainRules: [{ ...up('t', '$'), mode: 'WRITEREAD' }] })
    expect(engine.fieldsRead(jsonataWrite, 'READ')).toBeUndefined()
  })
})

describe('RulesEngine#migrate', () => {
  const chain = [
    {
      version: '1',
      ruleSet: engine.compile({ migrationRules: [down('d1', '$sift($, function($v, $k) {$k != "v2"})')] }),
    },
    { version: '2', ruleSet: engine.compile({ migrationRules: [up('u2', '$merge([$, {"v2": 1}])')] }) },
    { version: '3', ruleSet: engine.compile({ migrationRules: [up('u3', '$merge([$, {"v3": v2 + 1}])')] }) },
  ]

  it('chains the target versions’ UPGRADE rules across two hops', () => {
    expect(engine.migrate(chain, { fromVersion: '1', toVersion: '3', record: { a: 1 } })).toEqual({
      passed: true,
      transformedRecord: { a: 1, v2: 1, v3: 2 },
      violations: [],
      executedRules: 2,
      failedRules: 0,
    })
  })

  it('runs the DOWNGRADE rules of each hop’s target version, as the registry does', () => {
    const result = engine.migrate(chain, { fromVersion: '3', toVersion: '1', record: { a: 1, v2: 1, v3: 2 } })
    expect(result.transformedRecord).toEqual({ a: 1, v3: 2 })
    expect(result.executedRules).toBe(1)
  })

  it('refuses a version that is not in the chain with a TypeError', () => {
    expect(() => engine.migrate(chain, { fromVersion: '1', toVersion: '9', record: {} })).toThrow(
      new TypeError('Version not found: 9'),
    )
  })
})
