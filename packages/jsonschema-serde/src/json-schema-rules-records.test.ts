import { isSerdeError, RuleViolationError } from '@x/errors'
import type { ContractRule, ContractRuleSet } from '@x/registry-client'
import {
  celCondition,
  domainRules,
  jsonataTransform,
  migrationRules,
  useRulesRegistry,
} from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
import { JsonSchemaDeserializer } from './json-schema-deserializer.js'
import { JsonSchemaSerializer } from './json-schema-serializer.js'

// Messages are data from outside: a field named __proto__ or constructor, or a record nested thousands of levels
// deep, must get the verdict any other record gets, a RuleViolationError (poison to a consumer) at worst, through
// the serdes users call.

const SCHEMA = JSON.stringify({ type: 'object' })
const PROTO_ROLE = '{"customer":{"__proto__":{"role":"admin"}}}'
const TOO_DEEP =
  'The record nests objects and lists deeper than 1000 levels, more than data-contract rules read'
const ctx = (topic: string) => new SerializationContext(topic)

const jsonataCondition = (
  name: string,
  expr: string,
  onFailure: ContractRule['onFailure'],
): ContractRule => ({
  name,
  kind: 'CONDITION',
  type: 'JSONATA',
  mode: 'READ',
  expr,
  ...(onFailure === undefined ? {} : { onFailure }),
})

const TOPICS: Record<string, ContractRuleSet> = {
  'jsonata-role': domainRules(jsonataCondition('admin', 'customer.role = "admin"', 'ERROR')),
  'cel-role': domainRules(
    celCondition('admin', 'READ', 'has(customer.role) && customer.role == "admin"', 'ERROR'),
  ),
  'cel-has-role': domainRules(celCondition('has-role', 'READ', 'has(customer.role)', 'ERROR')),
  'cel-constructor': domainRules(celCondition('ctor', 'READ', 'customer.constructor == "x"', 'ERROR')),
  'jsonata-constructor': domainRules(
    jsonataCondition('no-ctor', '$not($exists(customer.constructor))', 'ERROR'),
  ),
  'read-transform': domainRules(jsonataTransform('mark', 'READ', '$merge([$, {"seen": true}])', 'ERROR')),
  'cel-transform': domainRules({
    name: 'copy',
    kind: 'TRANSFORM',
    type: 'CEL',
    mode: 'READ',
    expr: '{"customer": customer, "seen": true}',
    onFailure: 'ERROR',
  }),
  'write-role': domainRules(celCondition('admin', 'WRITE', 'customer.role == "admin"', 'ERROR')),
  'write-transform': domainRules(jsonataTransform('mark', 'WRITE', '$merge([$, {"seen": true}])', 'ERROR')),
  'deep-jsonata': domainRules(jsonataCondition('n-is-1', 'n = 1', 'ERROR')),
  'deep-cel': domainRules(
    celCondition('a-listed', 'READ', 'size(a) > 0', 'DLQ'),
    celCondition('n', 'READ', 'n == 1'),
  ),
  'deep-cel-n': domainRules(celCondition('n', 'READ', 'n == 1', 'ERROR')),
  'deep-none': domainRules(jsonataCondition('n-is-1', 'n = 1', 'NONE')),
  'deep-write': domainRules(jsonataTransform('mark', 'WRITE', '$merge([$, {"seen": true}])', 'ERROR')),
}

const env = useRulesRegistry(async (client) => {
  for (const [topic, ruleset] of Object.entries(TOPICS)) {
    await client.registerSchema(`${topic}-value`, SCHEMA, { artifactType: 'JSON' })
    await client.setArtifactRuleset(`${topic}-value`, ruleset)
  }
  await client.registerSchema('migrated-value', SCHEMA, { artifactType: 'JSON' })
})

/** A message of `topic` holding `text` as its JSON: the frame a plain serializer writes, with `text` as payload. */
async function message(topic: string, text: string): Promise<Buffer> {
  const frame = Buffer.from(
    await new JsonSchemaSerializer(env.client, `${topic}-value`).serialize({}, ctx(topic)),
  )
  return Buffer.concat([frame.subarray(0, frame.length - 2), Buffer.from(text)])
}

async function read(topic: string, text: string, rules: object = { enabled: true }): Promise<unknown> {
  const deserializer = new JsonSchemaDeserializer(env.client, { rules })
  return deserializer.deserialize(await message(topic, text), ctx(topic))
}

async function refusal(topic: string, text: string): Promise<RuleViolationError> {
  const error = await read(topic, text).catch((thrown: unknown) => thrown)
  expect(error).toBeInstanceOf(RuleViolationError)
  return error as RuleViolationError
}

/** `{"n":1,"a":[[…[1]…]]}`, nested `depth` levels, its top-level object included. */
const nested = (depth: number): string => `{"n":1,"a":${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`

describe('a field named __proto__ or constructor, read with rules on', () => {
  it('does not make a JSONata or CEL condition on customer.role hold', async () => {
    for (const topic of ['jsonata-role', 'cel-role']) {
      expect(await refusal(topic, PROTO_ROLE)).toMatchObject({
        code: 'RULE_VIOLATION',
        mode: 'READ',
        violations: [{ ruleName: 'admin', message: 'Condition failed: admin', action: 'ERROR' }],
      })
      await refusal(topic, '{"customer":{}}')
      expect(await read(topic, '{"customer":{"role":"admin"}}')).toEqual({ customer: { role: 'admin' } })
    }
    expect((await refusal('cel-has-role', PROTO_ROLE)).violations).toEqual([
      { ruleName: 'has-role', message: 'Condition failed: has-role', action: 'ERROR' },
    ])
  })

  it('is read as a field when the record holds it and as absent when it does not', async () => {
    expect(await read('cel-constructor', '{"customer":{"constructor":"x"}}')).toEqual({
      customer: { constructor: 'x' },
    })
    await refusal('cel-constructor', '{"customer":{}}')
    expect(await read('jsonata-constructor', '{"customer":{}}')).toEqual({ customer: {} })
    await refusal('jsonata-constructor', '{"customer":{"constructor":"x"}}')
  })

  it('stays an own data field of the record a READ transform gives back, whose objects are ordinary', async () => {
    for (const topic of ['read-transform', 'cel-transform']) {
      const record = (await read(topic, PROTO_ROLE)) as Record<string, Record<string, unknown>>
      expect(JSON.stringify(record)).toBe('{"customer":{"__proto__":{"role":"admin"}},"seen":true}')
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype)
      expect(Object.getPrototypeOf(record.customer)).toBe(Object.prototype)
      expect(Object.keys(record.customer!)).toEqual(['__proto__'])
      expect(record.customer!.role).toBeUndefined()
      expect(({} as Record<string, unknown>).role).toBeUndefined()
    }
  })

  it('is refused by a WRITE condition and written as it came by a WRITE transform', async () => {
    const refusing = new JsonSchemaSerializer(env.client, 'write-role-value', { rules: { enabled: true } })
    const error = await refusing.serialize(JSON.parse(PROTO_ROLE), ctx('write-role')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RuleViolationError)
    expect(error).toMatchObject({ mode: 'WRITE', violations: [{ ruleName: 'admin', action: 'ERROR' }] })
    const marking = new JsonSchemaSerializer(env.client, 'write-transform-value', {
      rules: { enabled: true },
    })
    const written = await marking.serialize(JSON.parse(PROTO_ROLE), ctx('write-transform'))
    expect(Buffer.from(written).subarray(-55).toString()).toBe(
      '{"customer":{"__proto__":{"role":"admin"}},"seen":true}',
    )
  })
})

describe('a record nested too deep for the rules', () => {
  it.each([6_000, 20_000, 100_000])(
    'at depth %i fails the JSONata rule with RuleViolationError, a poison message, promptly',
    async (depth) => {
      const started = performance.now()
      const error = await refusal('deep-jsonata', nested(depth))
      expect(performance.now() - started).toBeLessThan(2_000)
      expect(isSerdeError(error, 'RULE_VIOLATION')).toBe(true)
      expect(error).toMatchObject({
        name: 'RuleViolationError',
        code: 'RULE_VIOLATION',
        mode: 'READ',
        violations: [{ ruleName: 'n-is-1', message: TOO_DEEP, action: 'ERROR' }],
      })
      expect(error.message).toBe(`Data-contract rule n-is-1 failed in READ mode (n-is-1: ${TOO_DEEP})`)
    },
  )

  it('fails every CEL rule when a field they read nests too deep, and none when no rule reads it', async () => {
    const error = await refusal('deep-cel', nested(20_000))
    expect(error.violations).toEqual([
      { ruleName: 'a-listed', message: TOO_DEEP, action: 'DLQ' },
      { ruleName: 'n', message: TOO_DEEP, action: null },
    ])
    const record = (await read('deep-cel-n', nested(20_000))) as { n: number }
    expect(record.n).toBe(1)
  })

  it('goes on unchanged when the failed rule’s action is NONE, as any failed rule of that action', async () => {
    const record = (await read('deep-none', nested(20_000))) as { n: number; a: unknown[] }
    expect(record.n).toBe(1)
    expect(Array.isArray(record.a)).toBe(true)
  })

  it('fails the migration rule of a record read as a later version with RuleViolationError', async () => {
    const written = await message('migrated', nested(20_000))
    const small = await message('migrated', '{"n":1}')
    await env.client.registerSchema('migrated-value', JSON.stringify({ type: 'object', title: 'v2' }), {
      artifactType: 'JSON',
      ifExists: 'CREATE_VERSION',
    })
    await env.client.setVersionRuleset(
      'migrated-value',
      '2',
      migrationRules(jsonataTransform('up', 'UPGRADE', '$merge([$, {"v": 2}])', 'ERROR')),
    )
    const deserializer = new JsonSchemaDeserializer(env.client, {
      rules: { enabled: true, migration: { enabled: true, targetVersion: '2' } },
    })
    const error = await deserializer.deserialize(written, ctx('migrated')).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(RuleViolationError)
    expect(error).toMatchObject({
      mode: 'UPGRADE',
      violations: [{ ruleName: 'up', message: TOO_DEEP, action: 'ERROR' }],
    })
    expect(await deserializer.deserialize(small, ctx('migrated'))).toEqual({ n: 1, v: 2 })
  })

  it('is refused by a WRITE rule with RuleViolationError before it is encoded', async () => {
    const serializer = new JsonSchemaSerializer(env.client, 'deep-write-value', { rules: { enabled: true } })
    const error = await serializer
      .serialize(JSON.parse(nested(20_000)), ctx('deep-write'))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RuleViolationError)
    expect(error).toMatchObject({
      mode: 'WRITE',
      violations: [{ ruleName: 'mark', message: TOO_DEEP, action: 'ERROR' }],
    })
  })
})
