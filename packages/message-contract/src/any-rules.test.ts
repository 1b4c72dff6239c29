import { failedMessageOf, RuleViolationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AnyDeserializer } from './any-deserializer.js'
import { AnySerializer } from './any-serializer.js'
import { readErrorKind } from './read-errors.js'

// The `rules` option through AnySerializer and AnyDeserializer: handed unchanged to each format's serde, so the
// registry's rulesets (executed by InMemoryRegistry's engine, the same as the local one) refuse or pass records.

const orders = new SerializationContext('orders')
const notes = new SerializationContext('notes')
let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
  await client.registerSchema(
    'orders-value',
    {
      type: 'record',
      name: 'Order',
      fields: [
        { name: 'id', type: 'string' },
        { name: 'total', type: 'double' },
      ],
    },
    { artifactType: 'AVRO' },
  )
  await client.setArtifactRuleset('orders-value', {
    domainRules: [
      {
        name: 'positive',
        kind: 'CONDITION',
        type: 'CEL',
        mode: 'WRITE',
        expr: 'total > 0.0',
        onFailure: 'ERROR',
      },
      {
        name: 'not-test',
        kind: 'CONDITION',
        type: 'CEL',
        mode: 'READ',
        expr: 'id != "test"',
        onFailure: 'DLQ',
      },
    ],
    migrationRules: [],
  })
  await client.registerSchema(
    'notes-value',
    { type: 'object', properties: { text: { type: 'string' } } },
    { artifactType: 'JSON' },
  )
  await client.setArtifactRuleset('notes-value', {
    domainRules: [
      {
        name: 'short',
        kind: 'CONDITION',
        type: 'CEL',
        mode: 'READ',
        expr: 'size(text) < 5',
        onFailure: 'ERROR',
      },
    ],
    migrationRules: [],
  })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

describe('AnySerializer with rules', () => {
  it('refuses a value a WRITE condition fails with RuleViolationError, writing nothing, and writes one that passes', async () => {
    const writer = new AnySerializer(client, { rules: { enabled: true } })
    const refused = await writer.serialize({ id: 'o-1', total: -5 }, orders).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(RuleViolationError)
    expect((refused as RuleViolationError).mode).toBe('WRITE')
    expect((refused as RuleViolationError).violations).toEqual([
      { ruleName: 'positive', message: 'Condition failed: positive', action: 'ERROR' },
    ])
    const bytes = await writer.serialize({ id: 'o-2', total: 2.5 }, orders)
    expect(await new AnyDeserializer(client).deserialize(bytes, orders)).toEqual({ id: 'o-2', total: 2.5 })
    // The prepared path runs the same rules.
    expect(() => writer.serializeSync({ id: 'o-3', total: 0 }, orders)).toThrow(RuleViolationError)
  })

  it('writes a refused value unchecked without the option, and refuses a rules option of the wrong shape at construction', async () => {
    const bytes = await new AnySerializer(client).serialize({ id: 'o-4', total: -1 }, orders)
    expect(bytes.length).toBeGreaterThan(5)
    expect(() => new AnySerializer(client, { rules: { enabled: true, ttl: 5 } as never })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }),
    )
    expect(() => new AnyDeserializer(client, { rules: { enabled: 'yes' } as never })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }),
    )
  })
})

describe('AnyDeserializer with rules', () => {
  it('refuses a record a READ rule fails, in each format, the error poison and carrying the consumed bytes', async () => {
    const plain = new AnySerializer(client)
    const reader = new AnyDeserializer(client, { rules: { enabled: true } })
    const test = await plain.serialize({ id: 'test', total: 1 }, orders)
    const refused = await reader.deserialize(test, orders).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(RuleViolationError)
    expect((refused as RuleViolationError).mode).toBe('READ')
    expect((refused as RuleViolationError).violations).toEqual([
      { ruleName: 'not-test', message: 'Condition failed: not-test', action: 'DLQ' },
    ])
    expect(readErrorKind(refused)).toBe('poison')
    expect(failedMessageOf(refused)?.payload).toEqual(test)
    expect(reader.deserializeSync(await plain.serialize({ id: 'o-5', total: 1 }, orders), orders)).toEqual({
      id: 'o-5',
      total: 1,
    })
    expect(() => reader.deserializeSync(test, orders)).toThrow(RuleViolationError)

    const long = await plain.serialize({ text: 'too long' }, notes)
    await expect(reader.deserialize(long, notes)).rejects.toThrow(
      new RuleViolationError(undefined, {
        mode: 'READ',
        violations: [{ ruleName: 'short', message: 'Condition failed: short', action: 'ERROR' }],
      }),
    )
    expect(await reader.deserialize(await plain.serialize({ text: 'ok' }, notes), notes)).toEqual({
      text: 'ok',
    })
    // Without the option the same bytes are read.
    expect(await new AnyDeserializer(client).deserialize(long, notes)).toEqual({ text: 'too long' })
  })
})
