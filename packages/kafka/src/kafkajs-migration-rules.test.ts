import { AnySerializer } from '@x/message-contract'
import { RegistryClient } from '@x/registry-client'
import { ledgerMigrations, ledgerSchemas, useRulesRegistry } from '@x/test-support'
import { describe, expect, it } from 'vitest'
import { type ConsumedKafkaMessage, KafkaJsSerde } from './index.js'
import { recorder } from './test-support/recorder.js'

// Migration rules through KafkaJsSerde: a consumer whose target version differs from the writer's migrates each
// record; a record a migration refuses (a condition with DLQ, or a transform that fails) is dead-lettered with the
// rule and the mode (UPGRADE or DOWNGRADE) named, while the handler goes on with the next message.

interface Order {
  id: string
  amount: number
  currency?: string
}

const { v1: V1, v2: V2 } = ledgerSchemas('Order')

const byVersion: Record<'1' | '2', ConsumedKafkaMessage[]> = { '1': [], '2': [] }

/** The messages `values` make, written with the artifact's latest version (a client of its own: none cached). */
async function write(values: Order[], firstOffset: number): Promise<ConsumedKafkaMessage[]> {
  await using own = new RegistryClient({ url: env.registry.url, groupId: 'default', maxRetries: 0 })
  const writer = new KafkaJsSerde<Order>(own, { serializer: new AnySerializer(own) })
  const out: ConsumedKafkaMessage[] = []
  for (const [index, value] of values.entries()) {
    const sent = await writer.encodeMessage('orders', { key: value.id, value })
    out.push({
      key: sent.key as Buffer,
      value: sent.value as Buffer,
      headers: sent.headers ?? {},
      offset: String(firstOffset + index),
      timestamp: '0',
    })
  }
  return out
}

const env = useRulesRegistry(async (client) => {
  await client.registerSchema('orders-value', V1, { artifactType: 'AVRO' })
  byVersion['1'] = await write(
    [
      { id: 'o-1', amount: 10 },
      { id: 'o-2', amount: 5000 },
      { id: 'bad', amount: 20 },
      { id: 'o-4', amount: 30 },
    ],
    0,
  )
  await client.registerSchema('orders-value', V2, { artifactType: 'AVRO' })
  byVersion['2'] = await write(
    [
      { id: 'o-5', amount: 40, currency: 'EUR' },
      { id: 'o-6', amount: 50, currency: 'USD' },
      { id: 'o-7', amount: 60, currency: 'EUR' },
    ],
    10,
  )
  // The registry runs the migration rules of each hop's target version: version 2's going up, version 1's down.
  const migrations = ledgerMigrations({
    addCurrency: 'id = "bad" ? $number(id) : "EUR"',
    addCurrencyOnFailure: 'DLQ',
  })
  await client.setVersionRuleset('orders-value', '2', migrations['2'])
  await client.setVersionRuleset('orders-value', '1', migrations['1'])
})

async function consume(targetVersion: '1' | '2', messages: ConsumedKafkaMessage[]) {
  const { sent, producer } = recorder()
  const handled: unknown[] = []
  const serde = new KafkaJsSerde<Order>(env.client, {
    rules: { enabled: true, migration: { enabled: true, targetVersion } },
  })
  const each = serde.eachMessage(async ({ decoded }) => void handled.push({ ...decoded.value }), {
    deadLetter: { producer, topic: 'orders.DLQ' },
  })
  for (const message of messages) await each({ topic: 'orders', partition: 0, message })
  return { handled, letters: sent.map((record) => record.messages[0]!) }
}

describe('KafkaJsSerde with migration rules', () => {
  it('are read from messages written with version 1, then version 2 (their frames say so)', () => {
    expect([...byVersion['1'], ...byVersion['2']].map((message) => message.value!.readUInt32BE(1))).toEqual([
      1, 1, 1, 1, 2, 2, 2,
    ])
  })

  it('upgrades version-1 records and dead-letters those an UPGRADE rule refuses, the rule and mode named', async () => {
    const { handled, letters } = await consume('2', byVersion['1'])
    expect(handled).toEqual([
      { id: 'o-1', amount: 10, currency: 'EUR' },
      { id: 'o-4', amount: 30, currency: 'EUR' },
    ])
    expect(letters.map((letter) => [letter.key, letter.value])).toEqual(
      [1, 2].map((at) => [byVersion['1'][at]!.key, byVersion['1'][at]!.value]),
    )
    expect(letters[0]!.headers).toEqual({
      'x-serde-error-code': 'RULE_VIOLATION',
      'x-serde-error-message':
        'Data-contract rule small failed in UPGRADE mode (small: Condition failed: small)',
      'x-serde-source': 'orders/0/1',
      'x-serde-rule': 'small',
      'x-serde-rule-mode': 'UPGRADE',
    })
    expect(letters[1]!.headers).toMatchObject({
      'x-serde-error-code': 'RULE_VIOLATION',
      'x-serde-source': 'orders/0/2',
      'x-serde-rule': 'add-currency',
      'x-serde-rule-mode': 'UPGRADE',
    })
    expect(String(letters[1]!.headers!['x-serde-error-message'])).toContain(
      'add-currency: JSONata evaluation error: JSONata evaluation failed',
    )
  })

  it('downgrades version-2 records and dead-letters one a DOWNGRADE condition refuses, the rule and mode named', async () => {
    const { handled, letters } = await consume('1', byVersion['2'])
    expect(handled).toEqual([
      { id: 'o-5', amount: 40 },
      { id: 'o-7', amount: 60 },
    ])
    expect(letters.map((letter) => [letter.key, letter.value, letter.headers])).toEqual([
      [
        byVersion['2'][1]!.key,
        byVersion['2'][1]!.value,
        {
          'x-serde-error-code': 'RULE_VIOLATION',
          'x-serde-error-message':
            'Data-contract rule euro-only failed in DOWNGRADE mode (euro-only: Condition failed: euro-only)',
          'x-serde-source': 'orders/0/11',
          'x-serde-rule': 'euro-only',
          'x-serde-rule-mode': 'DOWNGRADE',
        },
      ],
    ])
  })
})
