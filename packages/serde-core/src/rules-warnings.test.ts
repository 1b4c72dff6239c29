import type { ContractRule } from '@x/registry-client'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { rulesetWarnings } from './rules-warnings.js'
import { SchemaSerializer } from './schema-serializer.js'
import { normalizeSerializerOptions } from './serializer-options.js'
import { ToyFormat } from './test-support/toy-format.js'

const rule = (name: string, extra: Partial<ContractRule> = {}): ContractRule => ({
  name,
  kind: 'CONDITION',
  type: 'CEL',
  mode: 'WRITE',
  expr: 'true',
  onFailure: 'ERROR',
  ...extra,
})
const empty = { domainRules: [], migrationRules: [] }

describe('rulesetWarnings', () => {
  it('says nothing of an artifact-level CEL or JSONata condition refusing with ERROR or DLQ: everybody runs it alike', () => {
    const artifact = { domainRules: [rule('a'), rule('b', { onFailure: 'DLQ' })], migrationRules: [] }
    expect(rulesetWarnings('x', { global: empty, artifact, version: empty }, artifact)).toEqual([])
  })

  it('names each rule nobody runs and each that Java 3.3 treats otherwise, with the reason', () => {
    const global = { domainRules: [rule('g')], migrationRules: [] }
    const field = rule('f', { type: 'CEL_FIELD' })
    const none = rule('n', { onFailure: 'NONE' })
    const change = rule('t', { kind: 'TRANSFORM', type: 'JSONATA', expr: '$' })
    const off = rule('off', { type: 'CEL_FIELD', disabled: true })
    const artifact = {
      domainRules: [field, none, change, off],
      migrationRules: [rule('m', { mode: 'UPGRADE' })],
    }
    const version = { domainRules: [rule('v')], migrationRules: [] }
    const merged = {
      domainRules: [global.domainRules[0]!, field, version.domainRules[0]!, none, change, off],
      migrationRules: [],
    }
    expect(rulesetWarnings('artifact a', { global, artifact, version }, merged)).toEqual([
      "rule 'g' of artifact a comes from the global ruleset: this library and the registry run it, Apicurio's Java serde 3.3 reads the artifact's ruleset only and skips it",
      "rule 'f' of artifact a is of type CEL_FIELD, which neither this library, the registry nor Java's serde runs",
      "rule 'v' of artifact a comes from the version ruleset: this library and the registry run it, Apicurio's Java serde 3.3 reads the artifact's ruleset only and skips it",
      "rule 'n' of artifact a fails with action NONE: this library and the registry let the record through, Apicurio's Java serde 3.3 refuses it",
      "rule 't' of artifact a is a TRANSFORM: this library writes or hands out the record it gives back, Apicurio's Java serde 3.3 runs it and discards that record",
      "migration rule 'm' of the artifact ruleset of artifact a is never run (migrations run the migration rules of the versions' rulesets), here, by the registry or by Java's serde",
    ])
  })
})

describe('a serializer with rules on', () => {
  let registry: InMemoryRegistry
  let client: RegistryClient

  beforeAll(async () => {
    registry = await InMemoryRegistry.start()
    client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
  })

  afterAll(async () => {
    await client.close()
    await registry.close()
  })

  it('warns once, through process warnings, of a rule Java 3.3 skips, and asks the registry what getMergedRuleset asks', async () => {
    await client.registerSchema('warned', { title: 'Toy', fields: ['a'] }, { artifactType: 'JSON' })
    await client.setVersionRuleset('warned', '1', { domainRules: [rule('only-here')], migrationRules: [] })
    const warnings: unknown[][] = []
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation((...args: unknown[]) => {
      warnings.push(args)
    })
    try {
      const { options } = normalizeSerializerOptions<unknown>(
        'Toy',
        'warned',
        { rules: { enabled: true } },
        [],
      )
      const ctx = new SerializationContext('toys')
      for (let round = 0; round < 2; round++) {
        const serializer = new SchemaSerializer({
          owner: 'Toy',
          client,
          format: new ToyFormat(),
          options,
          schemaToRegister: undefined,
        })
        await serializer.serialize({ a: 'x' }, ctx)
      }
    } finally {
      spy.mockRestore()
    }
    expect(warnings).toEqual([
      [
        "rule 'only-here' of artifact 'warned' (group 'default', version '1') comes from the version ruleset: this library and the registry run it, Apicurio's Java serde 3.3 reads the artifact's ruleset only and skips it",
        { type: 'DataContractWarning', code: 'X_SERDE_RULES_DIFFER' },
      ],
    ])
    const rulesetReads = registry.requests.filter((r) => r.path.endsWith('/ruleset') && r.method === 'GET')
    // two serializers, each reading the global, artifact and version levels once
    expect(rulesetReads.length).toBe(6)
  })
})
