import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, workFolder } from '../test-support/cli-harness.js'

// `x-serde rules get | set | test` end to end against InMemoryRegistry (in process), as a shell would run them.

let registry: InMemoryRegistry
let admin: RegistryClient
let env: Record<string, string>
const folder = workFolder()

const POSITIVE = {
  name: 'positive',
  kind: 'CONDITION',
  type: 'CEL',
  mode: 'WRITE',
  expr: 'total > 0.0',
  onFailure: 'ERROR',
}
const MASK = {
  name: 'mask',
  kind: 'TRANSFORM',
  type: 'JSONATA',
  mode: 'READ',
  expr: '$merge([$, {"card": "****"}])',
}

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  admin = new RegistryClient({ url: registry.url, groupId: 'default' })
  env = { REGISTRY_URL: registry.url }
  await admin.registerSchema('orders-value', { type: 'object' }, { artifactType: 'JSON' })
  writeFileSync(join(folder.path, 'artifact.json'), JSON.stringify({ domainRules: [POSITIVE] }))
  writeFileSync(join(folder.path, 'version.json'), JSON.stringify({ domainRules: [MASK] }))
})

afterAll(async () => {
  await admin.close()
  await registry.close()
  folder.done()
})

const run = (args: string[], stdin?: Buffer) =>
  cli(args, { cwd: folder.path, env, ...(stdin === undefined ? {} : { stdin }) })

describe('rules set and get', () => {
  it('store ruleset files at the artifact and version levels and read them back, merged too', async () => {
    expect(await run(['rules', 'set', 'artifact.json', '--artifact', 'orders-value'])).toEqual({
      code: 0,
      stdout: 'artifact.json → the ruleset of default/orders-value: 1 domain rule, 0 migration rules\n',
      stderr: '',
    })
    const version = await run([
      'rules',
      'set',
      'version.json',
      '--artifact',
      'orders-value',
      '--version',
      '1',
    ])
    expect(version.stdout).toBe(
      'version.json → the ruleset of default/orders-value version 1: 1 domain rule, 0 migration rules\n',
    )
    const artifact = await run(['rules', 'get', '--artifact', 'orders-value'])
    expect(JSON.parse(artifact.stdout)).toEqual({
      domainRules: [{ ...POSITIVE, params: {}, tags: [], disabled: false }],
      migrationRules: [],
    })
    const merged = await run([
      'rules',
      'get',
      '--artifact',
      'orders-value',
      '--version',
      '1',
      '--merged',
      '--out',
      'merged.json',
    ])
    expect(merged.stdout).toBe(
      'merged.json ← the ruleset of default/orders-value version 1 (merged): 2 domain rules, 0 migration rules\n',
    )
    const written = JSON.parse(readFileSync(join(folder.path, 'merged.json'), 'utf8'))
    expect(written.domainRules.map((rule: { name: string }) => rule.name)).toEqual(['positive', 'mask'])
  })

  it('set and read the global ruleset with --global', async () => {
    const set = await run(['rules', 'set', 'version.json', '--global'])
    expect(set.stdout).toBe('version.json → the global ruleset: 1 domain rule, 0 migration rules\n')
    expect(JSON.parse((await run(['rules', 'get', '--global'])).stdout).domainRules[0].name).toBe('mask')
    await admin.deleteGlobalRuleset()
  })

  it('refuse a command that names no ruleset, or a bad file, with a usage error (exit 2)', async () => {
    const none = await run(['rules', 'get'])
    expect([none.code, none.stderr]).toEqual([
      2,
      'x-serde: Name the ruleset: --global, --artifact ID, or --artifact ID --version V\n',
    ])
    writeFileSync(join(folder.path, 'list.json'), '[]')
    const bad = await run(['rules', 'set', 'list.json', '--artifact', 'orders-value'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('must hold a JSON object')
  })
})

describe('rules test', () => {
  it('prints the local verdict and the registry verdict, and exits 1 when they refuse the record', async () => {
    await admin.setArtifactRuleset('orders-value', { domainRules: [POSITIVE as never], migrationRules: [] })
    const refused = await run([
      'rules',
      'test',
      '{"total": -5.5}',
      '--artifact',
      'orders-value',
      '--against-registry',
    ])
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe(
      [
        'local    refused (WRITE: 1 rules run, 1 failed)',
        '         - positive [ERROR]: Condition failed: positive',
        'registry refused (WRITE: 1 rules run, 1 failed)',
        '         - positive [ERROR]: Condition failed: positive',
        '',
      ].join('\n'),
    )
    const passed = await run(
      ['rules', 'test', '-', '--artifact', 'orders-value'],
      Buffer.from('{"total": 2.5}'),
    )
    expect([passed.code, passed.stdout]).toEqual([0, 'local    passed (WRITE: 1 rules run, 0 failed)\n'])
  })

  it('reads 5.0 as a double and 5 as an int, as the registry and the serializers do', async () => {
    await admin.setArtifactRuleset('orders-value', {
      domainRules: [
        {
          name: 'double',
          kind: 'CONDITION',
          type: 'CEL',
          mode: 'WRITE',
          expr: 'type(total) == double',
          onFailure: 'ERROR',
        },
      ],
      migrationRules: [],
    })
    const double = await run([
      'rules',
      'test',
      '{"total": 5.0}',
      '--artifact',
      'orders-value',
      '--against-registry',
    ])
    expect([double.code, double.stdout]).toEqual([
      0,
      'local    passed (WRITE: 1 rules run, 0 failed)\nregistry passed (WRITE: 1 rules run, 0 failed)\n',
    ])
    const int = await run([
      'rules',
      'test',
      '{"total": 5}',
      '--artifact',
      'orders-value',
      '--against-registry',
    ])
    expect(int.code).toBe(1)
    expect(int.stdout).toContain('local    refused')
    expect(int.stdout).toContain('registry refused')
  })

  it('reads an integer in an Avro double field as a double, as the Avro serializer gives it to the rules', async () => {
    const avsc = {
      type: 'record',
      name: 'Reading',
      fields: [
        { name: 'total', type: 'double' },
        { name: 'maybe', type: ['null', 'double'] },
        { name: 'count', type: 'long' },
      ],
    }
    await admin.registerSchema('readings-value', JSON.stringify(avsc), { artifactType: 'AVRO' })
    await admin.setArtifactRuleset('readings-value', {
      domainRules: [
        {
          name: 'types',
          kind: 'CONDITION',
          type: 'CEL',
          mode: 'WRITE',
          expr: 'type(total) == double && type(maybe) == double && type(count) == int',
          onFailure: 'ERROR',
        },
      ],
      migrationRules: [],
    })
    const result = await run([
      'rules',
      'test',
      '{"total": 5, "maybe": 2, "count": 3}',
      '--artifact',
      'readings-value',
      '--against-registry',
    ])
    expect([result.code, result.stdout]).toEqual([
      0,
      'local    passed (WRITE: 1 rules run, 0 failed)\nregistry passed (WRITE: 1 rules run, 0 failed)\n',
    ])
  })

  it('tests a ruleset file before it is stored, with READ transforms shown', async () => {
    writeFileSync(join(folder.path, 'record.json'), '{"total": 1.5, "card": "4111"}')
    const run1 = await run([
      'rules',
      'test',
      '@record.json',
      '--artifact',
      'orders-value',
      '--mode',
      'READ',
      '--ruleset',
      'version.json',
    ])
    expect([run1.code, run1.stdout]).toEqual([
      0,
      'local    passed (READ: 1 rules run, 0 failed)\n         transformed: {"total":1.5,"card":"****"}\n',
    ])
  })

  it('refuses a record or a ruleset nested 100 000 deep with a one-line usage error (exit 2), before any rule reads it', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const record = await run(
      ['rules', 'test', '-', '--artifact', 'orders-value', '--mode', 'READ', '--ruleset', 'version.json'],
      Buffer.from(`{"a":${deep}}`),
    )
    expect(record).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'x-serde: The record is not JSON: JSON nested deeper than 1000 arrays and objects at position 1004\n',
    })
    writeFileSync(join(folder.path, 'deep.json'), `{"domainRules":${deep}}`)
    const ruleset = await run(['rules', 'set', 'deep.json', '--artifact', 'orders-value'])
    expect(ruleset).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'x-serde: Cannot read the ruleset file deep.json: JSON nested deeper than 1000 arrays and objects at position 1014\n',
    })
  })
})
