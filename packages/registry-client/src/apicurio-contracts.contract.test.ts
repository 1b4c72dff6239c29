import { RegistryConnectionError, SchemaNotFoundError } from '@x/errors'
import { describe, expect, it } from 'vitest'
import { RegistryClient } from './registry-client.js'
import { contractTarget, data, http } from './test-support/contract-target.js'

// Data-contract rulesets (Apicurio Registry 3.3) through the client and raw, as the real registry answers them: the
// same suite runs against InMemoryRegistry (unit stage) and the real registry (integration stage). The global
// ruleset applies to every artifact of a registry, so it is set only where the registry belongs to this run alone
// (InMemoryRegistry, or a real one named exclusive by X_SERDE_TEST_REGISTRY_EXCLUSIVE=1).

const target = contractTarget()
const exclusive = !target.real || process.env.X_SERDE_TEST_REGISTRY_EXCLUSIVE === '1'
const call = (method: string, path: string, body?: unknown) => http(target, method, path, body)
const client = () => new RegistryClient({ url: target.url, groupId: target.group, maxRetries: 0 })

const POSITIVE = {
  name: 'positive',
  kind: 'CONDITION',
  type: 'CEL',
  mode: 'WRITE',
  expr: 'total > 0.0',
  onFailure: 'ERROR',
} as const
const MASK = {
  name: 'mask',
  kind: 'TRANSFORM',
  type: 'JSONATA',
  mode: 'READ',
  expr: '$merge([$, {"card": "****"}])',
  onFailure: 'ERROR',
} as const

let serial = 0
/** A new JSON Schema artifact with `versions` versions. */
async function artifact(versions = 1): Promise<string> {
  serial += 1
  const id = `contract-rules-${serial}`
  const content = (n: number) => JSON.stringify({ type: 'object', title: `v${n}` })
  const created = await call('POST', `/groups/${target.group}/artifacts`, {
    artifactId: id,
    artifactType: 'JSON',
    firstVersion: { content: { content: content(1), contentType: 'application/json' } },
  })
  expect(created.status).toBe(200)
  for (let n = 2; n <= versions; n++) {
    const next = await call('POST', `/groups/${target.group}/artifacts/${id}/versions`, {
      content: { content: content(n), contentType: 'application/json' },
    })
    expect(next.status).toBe(200)
  }
  return id
}

describe('contract rulesets', () => {
  it('read back with params, tags and disabled filled in, while a PUT echoes the rules with tags only', async () => {
    const id = await artifact()
    const base = `/groups/${target.group}/artifacts/${id}/contract/ruleset`
    expect(data(await call('GET', base))).toEqual({ domainRules: [], migrationRules: [] })
    const put = await call('PUT', base, { domainRules: [POSITIVE] })
    expect([put.status, put.text]).toEqual([
      200,
      '{"domainRules":[{"name":"positive","kind":"CONDITION","type":"CEL","mode":"WRITE","expr":"total > 0.0","tags":[],"onFailure":"ERROR"}],"migrationRules":[]}',
    ])
    expect((await call('GET', base)).text).toBe(
      '{"domainRules":[{"name":"positive","kind":"CONDITION","type":"CEL","mode":"WRITE","expr":"total > 0.0","params":{},"tags":[],"onFailure":"ERROR","disabled":false}],"migrationRules":[]}',
    )
  })

  it('of an artifact id that does not exist are empty, and stored when set', async () => {
    const base = `/groups/${target.group}/artifacts/no-such-${target.run}/contract/ruleset`
    expect(data(await call('GET', base))).toEqual({ domainRules: [], migrationRules: [] })
    expect((await call('PUT', base, { domainRules: [POSITIVE] })).status).toBe(200)
    expect(data(await call('GET', base)).domainRules.map((r: { name: string }) => r.name)).toEqual([
      'positive',
    ])
    expect((await call('DELETE', base)).status).toBe(204)
  })

  it('of a version that does not exist are a 404 for GET, PUT and DELETE', async () => {
    const id = await artifact()
    const base = `/groups/${target.group}/artifacts/${id}/versions/7/contract/ruleset`
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const answer = await call(method, base, method === 'PUT' ? { domainRules: [] } : undefined)
      expect([method, answer.status, data(answer).name]).toEqual([method, 404, 'VersionNotFoundException'])
    }
  })

  it('are set, read and deleted by the client at the artifact and version levels', async () => {
    const id = await artifact()
    await using registry = client()
    expect(await registry.setArtifactRuleset(id, { domainRules: [POSITIVE], migrationRules: [] })).toEqual({
      domainRules: [{ ...POSITIVE, tags: [] }],
      migrationRules: [],
    })
    await registry.setVersionRuleset(id, '1', { domainRules: [MASK], migrationRules: [] })
    expect(await registry.getArtifactRuleset(id)).toEqual({
      domainRules: [{ ...POSITIVE, params: {}, tags: [], disabled: false }],
      migrationRules: [],
    })
    expect((await registry.getVersionRuleset(id, 'branch=latest')).domainRules.map((r) => r.name)).toEqual([
      'mask',
    ])
    await registry.deleteVersionRuleset(id, '1')
    await registry.deleteVersionRuleset(id, '1')
    expect(await registry.getVersionRuleset(id, '1')).toEqual({ domainRules: [], migrationRules: [] })
    await registry.deleteArtifactRuleset(id)
    expect(await registry.getArtifactRuleset(id)).toEqual({ domainRules: [], migrationRules: [] })
  })

  it('of a missing version reach the client as SchemaNotFoundError naming the version', async () => {
    const id = await artifact()
    await using registry = client()
    const failure = await registry.getVersionRuleset(id, '9').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(SchemaNotFoundError)
    expect(failure).toMatchObject({ groupId: target.group, artifactId: id, version: '9', status: 404 })
  })

  it('merge for a version: the artifact rules, then the version rules, a rule of the same name in its place', async () => {
    const id = await artifact()
    await using registry = client()
    const stricter = { ...POSITIVE, expr: 'total > 100.0' }
    await registry.setArtifactRuleset(id, { domainRules: [POSITIVE, MASK], migrationRules: [] })
    await registry.setVersionRuleset(id, '1', { domainRules: [stricter], migrationRules: [] })
    const merged = await registry.getMergedRuleset(id, '1')
    expect(merged.domainRules.map((r) => [r.name, r.expr])).toEqual([
      ['positive', 'total > 100.0'],
      ['mask', MASK.expr],
    ])
  })

  it.runIf(exclusive)('at the global level are set, read, merged first and deleted', async () => {
    const id = await artifact()
    await using registry = client()
    const global = { ...POSITIVE, name: 'global-check', mode: 'READ' as const }
    try {
      await registry.setGlobalRuleset({ domainRules: [global], migrationRules: [] })
      expect((await registry.getGlobalRuleset()).domainRules.map((r) => r.name)).toEqual(['global-check'])
      await registry.setArtifactRuleset(id, { domainRules: [POSITIVE], migrationRules: [] })
      const merged = await registry.getMergedRuleset(id, '1')
      expect(merged.domainRules.map((r) => r.name)).toEqual(['global-check', 'positive'])
    } finally {
      await registry.deleteGlobalRuleset()
    }
    expect(await registry.getGlobalRuleset()).toEqual({ domainRules: [], migrationRules: [] })
  })
})

describe('the execute and migrate endpoints', () => {
  it('refuse a record a WRITE condition fails, naming the rule and its action', async () => {
    const id = await artifact()
    await using registry = client()
    await registry.setArtifactRuleset(id, { domainRules: [POSITIVE, MASK], migrationRules: [] })
    expect(await registry.executeRules(id, '1', { mode: 'WRITE', record: { total: -5.5 } })).toEqual({
      passed: false,
      violations: [{ ruleName: 'positive', message: 'Condition failed: positive', action: 'ERROR' }],
      executedRules: 1,
      failedRules: 1,
    })
    expect(await registry.executeRules(id, '1', { mode: 'WRITE', record: { total: 5.5 } })).toEqual({
      passed: true,
      violations: [],
      executedRules: 1,
      failedRules: 0,
    })
  })

  it('run a READ transform and WRITEREAD conditions in both modes, a version rule in place of its namesake', async () => {
    const id = await artifact()
    await using registry = client()
    const both = {
      ...POSITIVE,
      name: 'big',
      mode: 'WRITEREAD' as const,
      expr: 'total > 10.0',
      onFailure: 'DLQ' as const,
    }
    await registry.setArtifactRuleset(id, { domainRules: [MASK, POSITIVE], migrationRules: [] })
    await registry.setVersionRuleset(id, '1', { domainRules: [both], migrationRules: [] })
    expect(
      await registry.executeRules(id, '1', { mode: 'READ', record: { total: 5.5, card: '1234' } }),
    ).toEqual({
      passed: false,
      transformedRecord: { total: 5.5, card: '****' },
      violations: [{ ruleName: 'big', message: 'Condition failed: big', action: 'DLQ' }],
      executedRules: 2,
      failedRules: 1,
    })
    const write = await registry.executeRules(id, '1', { mode: 'WRITE', record: { total: 50.5 } })
    expect([write.passed, write.executedRules]).toEqual([true, 2])
  })

  it('migrate a record up and down across several versions with the migration rules of each version', async () => {
    const id = await artifact(3)
    await using registry = client()
    const rule = (name: string, mode: 'UPGRADE' | 'DOWNGRADE', expr: string) =>
      ({ name, kind: 'TRANSFORM', type: 'JSONATA', mode, expr }) as const
    await registry.setVersionRuleset(id, '2', {
      domainRules: [],
      migrationRules: [
        rule('up2', 'UPGRADE', '$merge([$, {"v": 2}])'),
        rule('down2', 'DOWNGRADE', '$sift($, function($v, $k) {$k != "v"})'),
      ],
    })
    await registry.setVersionRuleset(id, '3', {
      domainRules: [],
      migrationRules: [rule('up3', 'UPGRADE', '$merge([$, {"w": 3}])')],
    })
    expect(
      await registry.migrateRecord(id, { fromVersion: '1', toVersion: '3', record: { total: 1 } }),
    ).toEqual({
      passed: true,
      transformedRecord: { total: 1, v: 2, w: 3 },
      violations: [],
      executedRules: 2,
      failedRules: 0,
    })
    const down = await registry.migrateRecord(id, {
      fromVersion: '3',
      toVersion: '1',
      record: { total: 1, v: 2, w: 3 },
    })
    expect([down.transformedRecord, down.executedRules]).toEqual([{ total: 1, w: 3 }, 1])
  })

  it('read integers beyond 2^53 exactly: a CEL condition compares them, a transform and a migration keep them', async () => {
    const id = await artifact(2)
    await using registry = client()
    const exact = { ...POSITIVE, name: 'exact', expr: 'big == 9007199254740993' }
    const note = { ...MASK, name: 'note', mode: 'WRITE' as const, expr: '$merge([$, {"note": "x"}])' }
    await registry.setArtifactRuleset(id, { domainRules: [exact, note], migrationRules: [] })
    const execute = `/groups/${target.group}/artifacts/${id}/versions/1/contract/execute`
    const passed = await call('POST', execute, '{"mode":"WRITE","record":{"big":9007199254740993,"n":1}}')
    expect([passed.status, passed.text]).toEqual([
      200,
      '{"passed":true,"transformedRecord":{"big":9007199254740993,"n":1,"note":"x"},"violations":[],"executedRules":2,"failedRules":0}',
    ])
    const refused = await call('POST', execute, '{"mode":"WRITE","record":{"big":9007199254740992}}')
    expect(data(refused)).toEqual({
      passed: false,
      violations: [{ ruleName: 'exact', message: 'Condition failed: exact', action: 'ERROR' }],
      executedRules: 1,
      failedRules: 1,
    })
    expect(
      await registry.executeRules(id, '1', { mode: 'WRITE', record: { big: 9_007_199_254_740_993n } }),
    ).toEqual({
      passed: true,
      transformedRecord: { big: 9_007_199_254_740_993n, note: 'x' },
      violations: [],
      executedRules: 2,
      failedRules: 0,
    })
    const migrated = await call(
      'POST',
      `/groups/${target.group}/artifacts/${id}/contract/migrate`,
      '{"fromVersion":"1","toVersion":"2","record":{"big":9007199254740993}}',
    )
    expect([migrated.status, migrated.text]).toEqual([
      200,
      '{"passed":true,"transformedRecord":{"big":9007199254740993},"violations":[],"executedRules":0,"failedRules":0}',
    ])
  })

  it('answer a missing version with SchemaNotFoundError (execute) or a 400 naming it (migrate)', async () => {
    const id = await artifact()
    await using registry = client()
    const execute = await registry
      .executeRules(id, '4', { mode: 'WRITE', record: {} })
      .catch((error: unknown) => error)
    expect(execute).toBeInstanceOf(SchemaNotFoundError)
    const migrate = await registry
      .migrateRecord(id, { fromVersion: '1', toVersion: '4', record: {} })
      .catch((error: unknown) => error)
    expect(migrate).toBeInstanceOf(RegistryConnectionError)
    expect(migrate).toMatchObject({ status: 400 })
    expect((migrate as Error).message).toContain('Version not found: 4')
  })
})
