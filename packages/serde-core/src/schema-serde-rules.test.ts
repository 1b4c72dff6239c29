import { RegistryConnectionError, RuleViolationError, SerdeError } from '@x/errors'
import {
  type ContractRule,
  type ContractRuleAction,
  type ContractRuleMode,
  RegistryClient,
} from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { normalizeDeserializerOptions } from './deserializer-options.js'
import { SchemaDeserializer } from './schema-deserializer.js'
import { SchemaSerializer } from './schema-serializer.js'
import { normalizeSerializerOptions } from './serializer-options.js'
import { ToyFormat } from './test-support/toy-format.js'

// Data-contract rules in the core, proven with the toy format against InMemoryRegistry (whose rulesets answer as
// Apicurio 3.3.3's): which rules run when, what each call asks the registry, the sync paths, outages, migrations.

const ctx = new SerializationContext('toys')
const text = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('hex')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')

let registry: InMemoryRegistry
let admin: RegistryClient
const clients: RegistryClient[] = []
let serial = 0
let artifactId: string
let v1: { globalId: number }

function newClient(): RegistryClient {
  const client = new RegistryClient({
    url: registry.url,
    groupId: 'default',
    retryBackoffMs: 0,
    maxRetries: 0,
  })
  clients.push(client)
  return client
}

function serializer(options: Record<string, unknown>, client: unknown = newClient()) {
  const { options: shared } = normalizeSerializerOptions<unknown>('ToySerializer', artifactId, options, [])
  return new SchemaSerializer({
    owner: 'ToySerializer',
    client,
    format: new ToyFormat(),
    options: shared,
    schemaToRegister: undefined,
  })
}

function deserializer(options: Record<string, unknown>, client: unknown = newClient()) {
  const { options: shared } = normalizeDeserializerOptions<unknown>('ToyDeserializer', options, [])
  return new SchemaDeserializer({
    owner: 'ToyDeserializer',
    client,
    format: new ToyFormat(),
    options: shared,
  })
}

const paths = (): string[] =>
  registry.requests.map((r) => `${r.method} ${r.path.replace('/apis/registry/v3', '')}`)

const condition = (
  name: string,
  mode: ContractRuleMode,
  expr: string,
  onFailure: ContractRuleAction = 'ERROR',
): ContractRule => ({
  name,
  kind: 'CONDITION',
  type: 'CEL',
  mode,
  expr,
  onFailure,
})
const transform = (name: string, mode: ContractRuleMode, expr: string): ContractRule => ({
  name,
  kind: 'TRANSFORM',
  type: 'JSONATA',
  mode,
  expr,
  onFailure: 'ERROR',
})

const ON = { enabled: true }

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 40 })
  admin = new RegistryClient({ url: registry.url, groupId: 'default' })
})

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()))
  await admin.close()
  await registry.close()
})

beforeEach(async () => {
  serial += 1
  artifactId = `toys-rules-${serial}`
  const registered = await admin.registerSchema(
    artifactId,
    { title: 'Toy', fields: ['a', 'b'] },
    { artifactType: 'JSON' },
  )
  v1 = { globalId: Number(registered.globalId) }
  registry.clearRequests()
  registry.clearFaults()
})

describe('serializers with rules on', () => {
  it('refuse a value a WRITE condition fails with RuleViolationError naming the rule, the mode and its message', async () => {
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('short-a', 'WRITE', 'size(a) < 4'), condition('read-only', 'READ', 'false')],
      migrationRules: [],
    })
    const failure = await serializer({ rules: ON })
      .serialize({ a: 'toolong', b: 'x' }, ctx)
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RuleViolationError)
    expect(failure).toMatchObject({
      code: 'RULE_VIOLATION',
      mode: 'WRITE',
      violations: [{ ruleName: 'short-a', message: 'Condition failed: short-a', action: 'ERROR' }],
    })
    expect((failure as Error).message).toBe(
      'Data-contract rule short-a failed in WRITE mode (short-a: Condition failed: short-a)',
    )
  })

  it('fetch the merged ruleset once per version: a warm message makes no request', async () => {
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [transform('upper', 'WRITE', '$merge([$, {"a": $uppercase(a)}])')],
      migrationRules: [],
    })
    const toys = serializer({ rules: ON })
    registry.clearRequests()
    const first = await toys.serialize({ a: 'x', b: 'y' }, ctx)
    expect(hex(first)).toBe(`00${v1.globalId.toString(16).padStart(8, '0')}${text(['X', 'y'])}`)
    expect(paths()).toEqual([
      `GET /groups/default/artifacts/${artifactId}/versions/branch=latest`,
      `GET /ids/globalIds/${v1.globalId}`,
      'GET /admin/contracts/ruleset',
      `GET /groups/default/artifacts/${artifactId}/contract/ruleset`,
      `GET /groups/default/artifacts/${artifactId}/versions/1/contract/ruleset`,
    ])
    registry.clearRequests()
    for (let i = 0; i < 5; i++) await toys.serialize({ a: 'q', b: 'y' }, ctx)
    expect(hex(toys.serializeSync({ a: 'w', b: 'v' }, ctx)).endsWith(text(['W', 'v']))).toBe(true)
    expect(paths()).toEqual([])
  })

  it('run rules in serializeSync once prepare() fetched them, and name prepare() before', async () => {
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('has-b', 'WRITEREAD', "b != ''")],
      migrationRules: [],
    })
    const toys = serializer({ rules: ON })
    expect(() => toys.serializeSync({ a: 'x', b: '' }, ctx)).toThrow(SerdeError)
    await toys.prepare()
    registry.clearRequests()
    expect(() => toys.serializeSync({ a: 'x', b: '' }, ctx)).toThrow(RuleViolationError)
    expect(toys.serializeSync({ a: 'x', b: 'y' }, ctx).length).toBe(5 + text(['x', 'y']).length / 2)
    expect(paths()).toEqual([])
  })

  it('with failOnError false let a failing value through, and with a NONE action always', async () => {
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('never', 'WRITE', 'false')],
      migrationRules: [],
    })
    const lenient = serializer({ rules: { enabled: true, failOnError: false } })
    expect(hex(await lenient.serialize({ a: 'x', b: 'y' }, ctx)).endsWith(text(['x', 'y']))).toBe(true)
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('never', 'WRITE', 'false', 'NONE')],
      migrationRules: [],
    })
    const strict = serializer({ rules: ON })
    expect(hex(await strict.serialize({ a: 'x', b: 'y' }, ctx)).endsWith(text(['x', 'y']))).toBe(true)
  })

  it('keep the last ruleset in force while the registry is unreachable, past the TTL', async () => {
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('short-a', 'WRITE', 'size(a) < 4')],
      migrationRules: [],
    })
    const toys = serializer({ rules: { enabled: true, cacheTtlMs: 1 } })
    await toys.serialize({ a: 'x', b: 'y' }, ctx)
    registry.inject({ path: /contracts?\/ruleset$/, status: 503, times: Number.POSITIVE_INFINITY })
    await new Promise((resolve) => setTimeout(resolve, 5))
    for (let i = 0; i < 3; i++) {
      await expect(toys.serialize({ a: 'toolong', b: 'y' }, ctx)).rejects.toBeInstanceOf(RuleViolationError)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    expect(paths().some((path) => path.endsWith('/contract/ruleset'))).toBe(true)
  })

  it('read no clock on a warm message, and still take up a changed ruleset once its TTL has passed', async () => {
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('short-a', 'WRITE', 'size(a) < 4')],
      migrationRules: [],
    })
    const toys = serializer({ rules: { enabled: true, cacheTtlMs: 20 } })
    await toys.prepare(ctx)
    toys.serializeSync({ a: 'x', b: 'y' }, ctx)
    const clock = vi.spyOn(performance, 'now')
    try {
      for (let i = 0; i < 1000; i++) toys.serializeSync({ a: 'x', b: 'y' }, ctx)
      expect(clock).not.toHaveBeenCalled()
    } finally {
      clock.mockRestore()
    }
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('short-a', 'WRITE', 'size(a) < 2')],
      migrationRules: [],
    })
    await new Promise((resolve) => setTimeout(resolve, 40))
    // The first message after the TTL starts the background refresh and is checked by the ruleset in force.
    expect(() => toys.serializeSync({ a: 'xyz', b: 'y' }, ctx)).not.toThrow()
    await expect
      .poll(() => {
        try {
          toys.serializeSync({ a: 'xyz', b: 'y' }, ctx)
          return 'passed'
        } catch (error) {
          return (error as Error).name
        }
      })
      .toBe('RuleViolationError')
  })

  it('with failOnError fail every call while no ruleset could be fetched yet, and pass none unchecked', async () => {
    registry.inject({ path: /contracts?\/ruleset$/, status: 503, times: Number.POSITIVE_INFINITY })
    const toys = serializer({ rules: ON })
    for (let i = 0; i < 2; i++) {
      await expect(toys.serialize({ a: 'x', b: 'y' }, ctx)).rejects.toBeInstanceOf(RegistryConnectionError)
    }
    registry.clearFaults()
    expect(hex(await toys.serialize({ a: 'x', b: 'y' }, ctx)).endsWith(text(['x', 'y']))).toBe(true)
  })

  it('give CEL rules only the fields they name, and JSONata rules the whole record', async () => {
    let reads = 0
    const value = {
      a: 'x',
      get b() {
        reads++
        return 'y'
      },
    }
    await serializer({}).serialize(value, ctx)
    const byEncoder = reads
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('short-a', 'WRITE', 'size(a) < 4')],
      migrationRules: [],
    })
    reads = 0
    const celBytes = await serializer({ rules: ON }).serialize(value, ctx)
    expect(reads).toBe(byEncoder)
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('short-a', 'WRITE', 'size(a) < 4'), transform('same', 'WRITE', '$merge([$])')],
      migrationRules: [],
    })
    reads = 0
    expect(hex(await serializer({ rules: ON }).serialize(value, ctx))).toBe(hex(celBytes))
    // Read once, to convert the whole record; the encoder is then given the transform's copy.
    expect(reads).toBe(1)
    expect(byEncoder).toBeGreaterThan(1)
  })

  it('with rules off ask nothing about rulesets', async () => {
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('never', 'WRITE', 'false')],
      migrationRules: [],
    })
    registry.clearRequests()
    await serializer({}).serialize({ a: 'x', b: 'y' }, ctx)
    await serializer({ rules: { enabled: false } }).serialize({ a: 'x', b: 'y' }, ctx)
    expect(paths().filter((path) => path.includes('contract'))).toEqual([])
  })
})

describe('deserializers with rules on', () => {
  it('run READ transforms and conditions after decoding, looking the version up once', async () => {
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [
        transform('mask', 'READ', '$merge([$, {"b": "***"}])'),
        condition('never-written', 'WRITE', 'false'),
      ],
      migrationRules: [],
    })
    const bytes = await serializer({}).serialize({ a: 'x', b: 'secret' }, ctx)
    registry.clearRequests()
    const toys = deserializer({ rules: ON })
    expect(await toys.deserialize(bytes, ctx)).toEqual({ a: 'x', b: '***' })
    expect(paths()).toEqual([
      `GET /ids/globalIds/${v1.globalId}`,
      'GET /search/versions',
      'GET /admin/contracts/ruleset',
      `GET /groups/default/artifacts/${artifactId}/contract/ruleset`,
      `GET /groups/default/artifacts/${artifactId}/versions/1/contract/ruleset`,
    ])
    registry.clearRequests()
    expect(await toys.deserialize(bytes, ctx)).toEqual({ a: 'x', b: '***' })
    expect(toys.deserializeSync(bytes, ctx)).toEqual({ a: 'x', b: '***' })
    expect(paths()).toEqual([])
  })

  it('refuse a record a READ condition with a DLQ action fails, in deserializeSync too', async () => {
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('a-is-ok', 'READ', "a == 'ok'", 'DLQ')],
      migrationRules: [],
    })
    const bytes = await serializer({}).serialize({ a: 'bad', b: 'y' }, ctx)
    const toys = deserializer({ rules: ON })
    expect(toys.isPrepared(v1.globalId)).toBe(false)
    await toys.prepare(v1.globalId)
    expect(toys.isPrepared(v1.globalId)).toBe(true)
    const failure = (() => {
      try {
        return toys.deserializeSync(bytes, ctx)
      } catch (error) {
        return error
      }
    })()
    expect(failure).toBeInstanceOf(RuleViolationError)
    expect(failure).toMatchObject({ mode: 'READ', violations: [{ ruleName: 'a-is-ok', action: 'DLQ' }] })
  })

  it('check messages of two versions that alternate, each by its version’s rules, with one timer pending at a time', async () => {
    await admin.setArtifactRuleset(artifactId, {
      domainRules: [condition('a-is-x', 'READ', "a == 'x'")],
      migrationRules: [],
    })
    const first = await serializer({}).serialize({ a: 'x', b: 'y' }, ctx)
    await admin.registerSchema(
      artifactId,
      { title: 'Toy', fields: ['a', 'b', 'c'] },
      { artifactType: 'JSON', ifExists: 'CREATE_VERSION' },
    )
    await admin.setVersionRuleset(artifactId, '2', {
      domainRules: [condition('c-is-z', 'READ', "c == 'z'")],
      migrationRules: [],
    })
    const second = await serializer({}).serialize({ a: 'q', b: 'y', c: 'z' }, ctx)
    const toys = deserializer({ rules: { enabled: true, cacheTtlMs: 60_000 } })
    expect(await toys.deserialize(first, ctx)).toEqual({ a: 'x', b: 'y' })
    await expect(toys.deserialize(second, ctx)).rejects.toBeInstanceOf(RuleViolationError)
    const timers = vi.spyOn(globalThis, 'setTimeout')
    try {
      for (let i = 0; i < 500; i++) {
        expect(toys.deserializeSync(first, ctx)).toEqual({ a: 'x', b: 'y' })
        // Version 2's merged ruleset holds both conditions; its record passes c-is-z and fails a-is-x.
        expect(() => toys.deserializeSync(second, ctx)).toThrow(RuleViolationError)
      }
      expect(timers.mock.calls.length).toBeLessThanOrEqual(1)
    } finally {
      timers.mockRestore()
    }
  })

  it('migrate version-1 records to the target version across several versions, then run its READ rules', async () => {
    const bytes = await serializer({}).serialize({ a: 'x', b: 'y' }, ctx)
    await admin.registerSchema(
      artifactId,
      { title: 'Toy', fields: ['a', 'b', 'c'] },
      {
        artifactType: 'JSON',
        ifExists: 'CREATE_VERSION',
      },
    )
    await admin.registerSchema(
      artifactId,
      { title: 'Toy', fields: ['a', 'b', 'c', 'd'] },
      {
        artifactType: 'JSON',
        ifExists: 'CREATE_VERSION',
      },
    )
    await admin.setVersionRuleset(artifactId, '2', {
      domainRules: [],
      migrationRules: [transform('add-c', 'UPGRADE', '$merge([$, {"c": "from-2"}])')],
    })
    await admin.setVersionRuleset(artifactId, '3', {
      domainRules: [condition('c-set', 'READ', "c != ''")],
      migrationRules: [transform('add-d', 'UPGRADE', '$merge([$, {"d": a & b}])')],
    })
    registry.clearRequests()
    const toys = deserializer({ rules: { enabled: true, migration: { enabled: true, targetVersion: '3' } } })
    expect(await toys.deserialize(bytes, ctx)).toEqual({ a: 'x', b: 'y', c: 'from-2', d: 'xy' })
    expect(paths().filter((path) => path.endsWith(`${artifactId}/versions`))).toEqual([
      `GET /groups/default/artifacts/${artifactId}/versions`,
    ])
    registry.clearRequests()
    expect(toys.deserializeSync(bytes, ctx)).toEqual({ a: 'x', b: 'y', c: 'from-2', d: 'xy' })
    expect(paths()).toEqual([])
  })

  it('refuse a targetVersion without migration settings that make sense, at construction', () => {
    expect(() => deserializer({ rules: { enabled: true, migration: { enabled: true } } })).toThrow(
      'ToyDeserializer: rules.migration.targetVersion must be a non-empty string when migration is enabled, got undefined',
    )
    expect(() => deserializer({ rules: { enabled: true, cacheTtlMs: 0 } })).toThrow(TypeError)
    expect(() => deserializer({ rules: { enabled: true, typo: 1 } })).toThrow("unknown option 'typo'")
  })
})
