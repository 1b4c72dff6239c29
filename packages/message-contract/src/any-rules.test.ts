import { failedMessageOf, RuleViolationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import {
  celCondition,
  conditionFailed,
  domainRules,
  expectRuleViolation,
  keyRules,
  ledgerMigrations,
  ledgerSchemas,
  useRulesRegistry,
} from '@x/test-support'
import { MessageField, SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
import { AnyDeserializer } from './any-deserializer.js'
import { AnySerializer } from './any-serializer.js'
import { readErrorKind } from './read-errors.js'

// The `rules` option through AnySerializer and AnyDeserializer: handed unchanged to each format's serde, so the
// registry's rulesets (executed by InMemoryRegistry's engine, the same as the local one) refuse or pass records.

const orders = new SerializationContext('orders')
const notes = new SerializationContext('notes')
const env = useRulesRegistry(async (client) => {
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
  await client.setArtifactRuleset(
    'orders-value',
    domainRules(
      celCondition('positive', 'WRITE', 'total > 0.0', 'ERROR'),
      celCondition('not-test', 'READ', 'id != "test"', 'DLQ'),
    ),
  )
  await client.registerSchema(
    'notes-value',
    { type: 'object', properties: { text: { type: 'string' } } },
    { artifactType: 'JSON' },
  )
  await client.setArtifactRuleset(
    'notes-value',
    domainRules(celCondition('short', 'READ', 'size(text) < 5', 'ERROR')),
  )
})

describe('AnySerializer with rules', () => {
  it('refuses a value a WRITE condition fails with RuleViolationError, writing nothing, and writes one that passes', async () => {
    const writer = new AnySerializer(env.client, { rules: { enabled: true } })
    await expectRuleViolation(writer.serialize({ id: 'o-1', total: -5 }, orders), {
      mode: 'WRITE',
      violations: [conditionFailed('positive', 'ERROR')],
    })
    const bytes = await writer.serialize({ id: 'o-2', total: 2.5 }, orders)
    expect(await new AnyDeserializer(env.client).deserialize(bytes, orders)).toEqual({
      id: 'o-2',
      total: 2.5,
    })
    // The prepared path runs the same rules.
    expect(() => writer.serializeSync({ id: 'o-3', total: 0 }, orders)).toThrow(RuleViolationError)
  })

  it('writes a refused value unchecked without the option, and refuses a rules option of the wrong shape at construction', async () => {
    const bytes = await new AnySerializer(env.client).serialize({ id: 'o-4', total: -1 }, orders)
    expect(bytes.length).toBeGreaterThan(5)
    expect(() => new AnySerializer(env.client, { rules: { enabled: true, ttl: 5 } as never })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }),
    )
    expect(() => new AnyDeserializer(env.client, { rules: { enabled: 'yes' } as never })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }),
    )
  })
})

describe('AnyDeserializer with rules', () => {
  it('refuses a record a READ rule fails, in each format, the error poison and carrying the consumed bytes', async () => {
    const plain = new AnySerializer(env.client)
    const reader = new AnyDeserializer(env.client, { rules: { enabled: true } })
    const test = await plain.serialize({ id: 'test', total: 1 }, orders)
    const refused = await expectRuleViolation(reader.deserialize(test, orders), {
      mode: 'READ',
      violations: [conditionFailed('not-test', 'DLQ')],
    })
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
        violations: [conditionFailed('short', 'ERROR')],
      }),
    )
    expect(await reader.deserialize(await plain.serialize({ text: 'ok' }, notes), notes)).toEqual({
      text: 'ok',
    })
    // Without the option the same bytes are read.
    expect(await new AnyDeserializer(env.client).deserialize(long, notes)).toEqual({ text: 'too long' })
  })
})

describe('AnyDeserializer with migration rules, and both with key rules', () => {
  const { v1: V1, v2: V2 } = ledgerSchemas('Entry')
  const ledger = new SerializationContext('ledger')

  /** Writes values with the artifact's latest version (a env.client of its own: nothing cached). */
  async function writeAll(values: object[]): Promise<Uint8Array[]> {
    await using own = new RegistryClient({ url: env.registry.url, groupId: 'default', maxRetries: 0 })
    const writer = new AnySerializer(own)
    const out: Uint8Array[] = []
    for (const value of values) out.push(await writer.serialize(value, ledger))
    return out
  }

  it('migrates a record to the target version, and refuses one an UPGRADE or DOWNGRADE rule fails as poison', async () => {
    await env.client.registerSchema('ledger-value', V1, { artifactType: 'AVRO' })
    const [small, large] = await writeAll([
      { id: 'l-1', amount: 10 },
      { id: 'l-2', amount: 5000 },
    ])
    await env.client.registerSchema('ledger-value', V2, { artifactType: 'AVRO' })
    const [euro, dollar] = await writeAll([
      { id: 'l-3', amount: 30, currency: 'EUR' },
      { id: 'l-4', amount: 40, currency: 'USD' },
    ])
    const migrations = ledgerMigrations()
    await env.client.setVersionRuleset('ledger-value', '2', migrations['2'])
    await env.client.setVersionRuleset('ledger-value', '1', migrations['1'])
    const reader = (targetVersion: string) =>
      new AnyDeserializer(env.client, {
        rules: { enabled: true, migration: { enabled: true, targetVersion } },
      })
    const refusal = async (read: Promise<unknown>, bytes: Uint8Array) => {
      const error = await expectRuleViolation(read)
      expect(readErrorKind(error)).toBe('poison')
      expect(failedMessageOf(error)?.payload).toEqual(bytes)
      return [error.mode, error.violations]
    }
    const up = reader('2')
    expect(await up.deserialize(small!, ledger)).toEqual({ id: 'l-1', amount: 10, currency: 'EUR' })
    expect(await refusal(up.deserialize(large!, ledger), large!)).toEqual([
      'UPGRADE',
      [conditionFailed('small', 'DLQ')],
    ])
    const down = reader('1')
    expect(await down.deserialize(euro!, ledger)).toEqual({ id: 'l-3', amount: 30 })
    expect(await refusal(down.deserialize(dollar!, ledger), dollar!)).toEqual([
      'DOWNGRADE',
      [conditionFailed('euro-only', 'DLQ')],
    ])
    // Warm, the prepared path refuses the same record.
    expect(() => down.deserializeSync(dollar!, ledger)).toThrow(RuleViolationError)
  })

  it('run the rules of a key: a WRITE rule refuses a key, a READ rule refuses reading one', async () => {
    const keys = new SerializationContext('accounts', MessageField.KEY)
    await env.client.registerSchema(
      'accounts-key',
      { type: 'record', name: 'AccountKey', fields: [{ name: 'id', type: 'string' }] },
      { artifactType: 'AVRO' },
    )
    await env.client.setArtifactRuleset('accounts-key', keyRules('a-'))
    const writer = new AnySerializer(env.client, { rules: { enabled: true } })
    await expectRuleViolation(writer.serialize({ id: 'x-1' }, keys), {
      mode: 'WRITE',
      violations: [conditionFailed('prefixed', 'ERROR')],
    })
    const reader = new AnyDeserializer(env.client, { rules: { enabled: true } })
    expect(await reader.deserialize(await writer.serialize({ id: 'a-1' }, keys), keys)).toEqual({ id: 'a-1' })
    const long = await writer.serialize({ id: 'a-long' }, keys)
    const unread = await expectRuleViolation(reader.deserialize(long, keys), { mode: 'READ' })
    expect(readErrorKind(unread)).toBe('poison')
    expect(failedMessageOf(unread)?.payload).toEqual(long)
  })
})
