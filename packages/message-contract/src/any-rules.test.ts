import { failedMessageOf, RuleViolationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { MessageField, SerializationContext } from '@x/wire-format'
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

describe('AnyDeserializer with migration rules, and both with key rules', () => {
  const V1 = {
    type: 'record',
    name: 'Entry',
    fields: [
      { name: 'id', type: 'string' },
      { name: 'amount', type: 'double' },
    ],
  }
  const V2 = { ...V1, fields: [...V1.fields, { name: 'currency', type: 'string', default: 'EUR' }] }
  const ledger = new SerializationContext('ledger')

  /** Writes values with the artifact's latest version (a client of its own: nothing cached). */
  async function writeAll(values: object[]): Promise<Uint8Array[]> {
    await using own = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
    const writer = new AnySerializer(own)
    const out: Uint8Array[] = []
    for (const value of values) out.push(await writer.serialize(value, ledger))
    return out
  }

  it('migrates a record to the target version, and refuses one an UPGRADE or DOWNGRADE rule fails as poison', async () => {
    await client.registerSchema('ledger-value', V1, { artifactType: 'AVRO' })
    const [small, large] = await writeAll([
      { id: 'l-1', amount: 10 },
      { id: 'l-2', amount: 5000 },
    ])
    await client.registerSchema('ledger-value', V2, { artifactType: 'AVRO' })
    const [euro, dollar] = await writeAll([
      { id: 'l-3', amount: 30, currency: 'EUR' },
      { id: 'l-4', amount: 40, currency: 'USD' },
    ])
    await client.setVersionRuleset('ledger-value', '2', {
      domainRules: [],
      migrationRules: [
        {
          name: 'add-currency',
          kind: 'TRANSFORM',
          type: 'JSONATA',
          mode: 'UPGRADE',
          expr: '$merge([$, {"currency": "EUR"}])',
        },
        {
          name: 'small',
          kind: 'CONDITION',
          type: 'CEL',
          mode: 'UPGRADE',
          expr: 'amount < 1000.0',
          onFailure: 'DLQ',
        },
      ],
    })
    await client.setVersionRuleset('ledger-value', '1', {
      domainRules: [],
      migrationRules: [
        {
          name: 'euro-only',
          kind: 'CONDITION',
          type: 'CEL',
          mode: 'DOWNGRADE',
          expr: 'currency == "EUR"',
          onFailure: 'DLQ',
        },
        {
          name: 'drop-currency',
          kind: 'TRANSFORM',
          type: 'JSONATA',
          mode: 'DOWNGRADE',
          expr: '$sift($, function($v, $k) {$k != "currency"})',
        },
      ],
    })
    const reader = (targetVersion: string) =>
      new AnyDeserializer(client, { rules: { enabled: true, migration: { enabled: true, targetVersion } } })
    const refusal = async (read: Promise<unknown>, bytes: Uint8Array) => {
      const error = await read.then(
        () => undefined,
        (thrown: unknown) => thrown,
      )
      expect(error).toBeInstanceOf(RuleViolationError)
      expect(readErrorKind(error)).toBe('poison')
      expect(failedMessageOf(error)?.payload).toEqual(bytes)
      return [(error as RuleViolationError).mode, (error as RuleViolationError).violations]
    }
    const up = reader('2')
    expect(await up.deserialize(small!, ledger)).toEqual({ id: 'l-1', amount: 10, currency: 'EUR' })
    expect(await refusal(up.deserialize(large!, ledger), large!)).toEqual([
      'UPGRADE',
      [{ ruleName: 'small', message: 'Condition failed: small', action: 'DLQ' }],
    ])
    const down = reader('1')
    expect(await down.deserialize(euro!, ledger)).toEqual({ id: 'l-3', amount: 30 })
    expect(await refusal(down.deserialize(dollar!, ledger), dollar!)).toEqual([
      'DOWNGRADE',
      [{ ruleName: 'euro-only', message: 'Condition failed: euro-only', action: 'DLQ' }],
    ])
    // Warm, the prepared path refuses the same record.
    expect(() => down.deserializeSync(dollar!, ledger)).toThrow(RuleViolationError)
  })

  it('run the rules of a key: a WRITE rule refuses a key, a READ rule refuses reading one', async () => {
    const keys = new SerializationContext('accounts', MessageField.KEY)
    await client.registerSchema(
      'accounts-key',
      { type: 'record', name: 'AccountKey', fields: [{ name: 'id', type: 'string' }] },
      { artifactType: 'AVRO' },
    )
    await client.setArtifactRuleset('accounts-key', {
      domainRules: [
        {
          name: 'prefixed',
          kind: 'CONDITION',
          type: 'CEL',
          mode: 'WRITE',
          expr: 'id.startsWith("a-")',
          onFailure: 'ERROR',
        },
        {
          name: 'short',
          kind: 'CONDITION',
          type: 'CEL',
          mode: 'READ',
          expr: 'size(id) < 6',
          onFailure: 'DLQ',
        },
      ],
      migrationRules: [],
    })
    const writer = new AnySerializer(client, { rules: { enabled: true } })
    const refused = await writer.serialize({ id: 'x-1' }, keys).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(RuleViolationError)
    expect([(refused as RuleViolationError).mode, (refused as RuleViolationError).violations]).toEqual([
      'WRITE',
      [{ ruleName: 'prefixed', message: 'Condition failed: prefixed', action: 'ERROR' }],
    ])
    const reader = new AnyDeserializer(client, { rules: { enabled: true } })
    expect(await reader.deserialize(await writer.serialize({ id: 'a-1' }, keys), keys)).toEqual({ id: 'a-1' })
    const long = await writer.serialize({ id: 'a-long' }, keys)
    const unread = await reader.deserialize(long, keys).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(unread).toBeInstanceOf(RuleViolationError)
    expect([(unread as RuleViolationError).mode, readErrorKind(unread)]).toEqual(['READ', 'poison'])
    expect(failedMessageOf(unread)?.payload).toEqual(long)
  })
})
