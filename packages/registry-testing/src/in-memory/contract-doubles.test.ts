import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { InMemoryRegistry } from '../in-memory-registry.js'
import { call, record, register } from './test-support/http.js'

// The execute endpoint reads a record as Apicurio Registry 3.3.3's Jackson reads it: `5.0` is a double and `5` an
// int (each expected answer below is the live registry's for the same request).

let registry: InMemoryRegistry
let url: string

beforeEach(async () => {
  registry = await InMemoryRegistry.start()
  url = registry.url
  await register(url, 'g', 'a', record('A'))
})

afterEach(async () => {
  await registry.close()
})

async function execute(rule: Record<string, unknown>, recordText: string): Promise<string> {
  await call(url, 'PUT', '/groups/g/artifacts/a/contract/ruleset', {
    domainRules: [{ name: 'r', mode: 'WRITE', onFailure: 'ERROR', ...rule }],
    migrationRules: [],
  })
  const answer = await call(
    url,
    'POST',
    '/groups/g/artifacts/a/versions/1/contract/execute',
    `{"mode":"WRITE","record":${recordText}}`,
  )
  return answer.text
}

describe('the contract execute endpoint of InMemoryRegistry', () => {
  it('binds 5.0 as a CEL double and 5 as an int, as the registry does', async () => {
    const rule = { kind: 'CONDITION', type: 'CEL', expr: 'type(total) == double' }
    expect(await execute(rule, '{"total":5.0}')).toBe(
      '{"passed":true,"violations":[],"executedRules":1,"failedRules":0}',
    )
    expect(await execute(rule, '{"total":5}')).toBe(
      '{"passed":false,"violations":[{"ruleName":"r","message":"Condition failed: r","action":"ERROR"}],"executedRules":1,"failedRules":1}',
    )
  })

  it('writes a double a JSONata transform passes on as 5.0 and what it computes as JSONata computes it', async () => {
    const rule = {
      kind: 'TRANSFORM',
      type: 'JSONATA',
      expr: '$merge([$, {"t": total * 2, "u": total + 0.5}])',
    }
    expect(await execute(rule, '{"total":5.0}')).toBe(
      '{"passed":true,"transformedRecord":{"total":5.0,"t":10,"u":5.5},"violations":[],"executedRules":1,"failedRules":0}',
    )
  })

  it('swaps two longs beyond 2^53 exactly and computes on one in doubles, as the registry does', async () => {
    const swap = { kind: 'TRANSFORM', type: 'JSONATA', expr: '{"a": b, "b": a}' }
    expect(await execute(swap, '{"a":9007199254740993,"b":9007199254740992}')).toBe(
      '{"passed":true,"transformedRecord":{"a":9007199254740992,"b":9007199254740993},"violations":[],"executedRules":1,"failedRules":0}',
    )
    const add = { kind: 'TRANSFORM', type: 'JSONATA', expr: '$merge([$, {"id": id + 1}])' }
    expect(await execute(add, '{"id":9007199254740993}')).toBe(
      '{"passed":true,"transformedRecord":{"id":9007199254740992},"violations":[],"executedRules":1,"failedRules":0}',
    )
  })

  it('reports no transformed record for a JSONata transform that gives back its input', async () => {
    const rule = { kind: 'TRANSFORM', type: 'JSONATA', expr: '$' }
    expect(await execute(rule, '{"total":5.0,"x":1.5,"n":5}')).toBe(
      '{"passed":true,"violations":[],"executedRules":1,"failedRules":0}',
    )
  })
})
