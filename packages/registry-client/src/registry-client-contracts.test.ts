import { RegistryConnectionError } from '@x/errors'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { RegistryClient } from './index.js'
import { HttpFixture, problem, reply } from './test-support/http-fixture.js'

let fixture: HttpFixture
let client: RegistryClient | undefined

beforeEach(async () => {
  fixture = await HttpFixture.start()
})

afterEach(async () => {
  await client?.close()
  client = undefined
  await fixture.close()
})

function newClient(maxRetries = 0): RegistryClient {
  client = new RegistryClient({ url: fixture.url, groupId: 'orders', maxRetries, retryBackoffMs: 1 })
  return client
}

const EMPTY = '{"domainRules":[],"migrationRules":[]}'

describe('data-contract calls of the client', () => {
  it('address the three levels with the paths, methods and bodies of the v3 API', async () => {
    fixture.handle((request, res) => (request.method === 'DELETE' ? reply(res, 204) : reply(res, 200, EMPTY)))
    const registry = newClient()
    const ruleset = {
      domainRules: [{ name: 'n', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr: 'a > 1' }] as const,
      migrationRules: [],
    }
    const copy = { domainRules: [...ruleset.domainRules], migrationRules: [] }
    await registry.getGlobalRuleset()
    await registry.setGlobalRuleset(copy)
    await registry.deleteGlobalRuleset()
    await registry.getArtifactRuleset('a/b')
    await registry.setArtifactRuleset('a', copy, { groupId: 'other' })
    await registry.deleteArtifactRuleset('a')
    await registry.getVersionRuleset('a', 'branch=latest')
    await registry.setVersionRuleset('a', '2', copy)
    await registry.deleteVersionRuleset('a', '2')
    expect(fixture.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /admin/contracts/ruleset',
      'PUT /admin/contracts/ruleset',
      'DELETE /admin/contracts/ruleset',
      'GET /groups/orders/artifacts/a%2Fb/contract/ruleset',
      'PUT /groups/other/artifacts/a/contract/ruleset',
      'DELETE /groups/orders/artifacts/a/contract/ruleset',
      'GET /groups/orders/artifacts/a/versions/branch=latest/contract/ruleset',
      'PUT /groups/orders/artifacts/a/versions/2/contract/ruleset',
      'DELETE /groups/orders/artifacts/a/versions/2/contract/ruleset',
    ])
    expect(fixture.requests[1]?.body).toBe(
      '{"domainRules":[{"name":"n","kind":"CONDITION","type":"CEL","mode":"WRITE","expr":"a > 1"}],"migrationRules":[]}',
    )
    expect(fixture.requests[1]?.headers['content-type']).toBe('application/json')
  })

  it('send integers beyond 2^53 exactly and read them back as bigint', async () => {
    fixture.handle((_, res) =>
      reply(
        res,
        200,
        '{"passed":true,"transformedRecord":{"id":9007199254740993,"n":1.5},"violations":[],"executedRules":1,"failedRules":0}',
      ),
    )
    const verdict = await newClient().executeRules('a', '1', {
      mode: 'READ',
      record: { id: 9007199254740993n, n: 1.5, gone: undefined, list: [1n, null] },
    })
    expect(fixture.requests[0]?.path).toBe('/groups/orders/artifacts/a/versions/1/contract/execute')
    expect(fixture.requests[0]?.body).toBe(
      '{"mode":"READ","record":{"id":9007199254740993,"n":1.5,"list":[1,null]}}',
    )
    expect(verdict.transformedRecord).toEqual({ id: 9007199254740993n, n: 1.5 })
  })

  it('send an integral double of a rule record (RuleDouble of @x/rules) as 5.0, so the registry reads a double', async () => {
    fixture.handle((_request, res) =>
      reply(res, 200, '{"passed":true,"violations":[],"executedRules":0,"failedRules":0}'),
    )
    // what RuleDouble of @x/rules carries: its value and its registered brand
    const double = (value: number) => ({
      value,
      [Symbol.for('@x/rules.RuleDouble')]: true,
      toJSON: () => value,
    })
    await newClient().executeRules('a', '1', {
      mode: 'WRITE',
      record: { total: double(5), neg: double(-0), big: double(1e21), list: [double(2), 2] },
    })
    expect(fixture.requests[0]?.body).toBe(
      '{"mode":"WRITE","record":{"total":5.0,"neg":-0.0,"big":1e+21,"list":[2.0,2]}}',
    )
  })

  it('read a violation without an action as null, and a missing list of rules as empty', async () => {
    fixture.handle((request, res) =>
      request.path.endsWith('/migrate')
        ? reply(
            res,
            200,
            '{"passed":false,"violations":[{"ruleName":"r","message":"m","action":null}],"executedRules":1,"failedRules":1}',
          )
        : reply(res, 200, '{"domainRules":[{"name":"x","kind":"CONDITION","type":"CEL","mode":"READ"}]}'),
    )
    const registry = newClient()
    const verdict = await registry.migrateRecord('a', { fromVersion: '1', toVersion: '2', record: { x: 1 } })
    expect(fixture.requests[0]?.body).toBe('{"fromVersion":"1","toVersion":"2","record":{"x":1}}')
    expect(verdict.violations).toEqual([{ ruleName: 'r', message: 'm', action: null }])
    expect((await registry.getArtifactRuleset('a')).migrationRules).toEqual([])
  })

  it('retry a PUT after a 503, as it sets the same ruleset again', async () => {
    let calls = 0
    fixture.handle((_, res) => {
      calls += 1
      if (calls === 1) problem(res, 503, 'busy')
      else reply(res, 200, EMPTY)
    })
    await newClient(2).setArtifactRuleset('a', { domainRules: [], migrationRules: [] })
    expect(fixture.requests.map((r) => r.method)).toEqual(['PUT', 'PUT'])
  })

  it('refuse a rule without kind before sending it (Apicurio answers it with a 500)', async () => {
    const registry = newClient()
    const bad = { domainRules: [{ name: 'n', type: 'CEL', mode: 'WRITE' }], migrationRules: [] }
    await expect(registry.setArtifactRuleset('a', bad as never)).rejects.toThrow(
      'ruleset.domainRules[0].kind must be a non-empty string, got undefined',
    )
    expect(fixture.requests).toEqual([])
  })

  it('report an error status other than 404 as RegistryConnectionError with the status', async () => {
    fixture.handle((_, res) => problem(res, 500, 'NULL not allowed'))
    const failure = await newClient()
      .getGlobalRuleset()
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RegistryConnectionError)
    expect(failure).toMatchObject({ status: 500 })
  })
})
