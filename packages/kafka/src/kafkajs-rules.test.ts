import type { RuleViolationError } from '@x/errors'
import { AnyDeserializer, AnySerializer } from '@x/message-contract'
import {
  celCondition,
  conditionFailed,
  domainRules,
  expectRuleViolation,
  keyRules,
  useRulesRegistry,
} from '@x/test-support'
import { describe, expect, it } from 'vitest'
import { type ConsumedKafkaMessage, type EachBatchPayload, KafkaJsSerde } from './index.js'
import { recorder } from './test-support/recorder.js'

// Data-contract rules through KafkaJsSerde: a record a READ rule refuses is poison, dead-lettered with the rules
// named while the handler goes on with the next message; a value a WRITE rule refuses is never encoded.

interface Payment {
  id: string
  amount: number
  currency: string
}

const PAYMENT = {
  type: 'record',
  name: 'Payment',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'double' },
    { name: 'currency', type: 'string' },
  ],
}
const PAYMENT_KEY = { type: 'record', name: 'PaymentKey', fields: [{ name: 'id', type: 'string' }] }
const env = useRulesRegistry(async (client) => {
  await client.registerSchema('payments-value', PAYMENT, { artifactType: 'AVRO' })
  await client.setArtifactRuleset(
    'payments-value',
    domainRules(
      celCondition('positive', 'WRITE', 'amount > 0.0', 'ERROR'),
      celCondition('limit', 'READ', 'amount < 1000.0', 'DLQ'),
      celCondition('euro', 'READ', 'currency == "EUR"', 'ERROR'),
    ),
  )
  await client.registerSchema('payments-key', PAYMENT_KEY, { artifactType: 'AVRO' })
  await client.setArtifactRuleset('payments-key', keyRules('p-'))
})

/** A message as a consumer hands it over, written without rules (as a producer elsewhere may have). */
async function written(value: Payment, offset: string): Promise<ConsumedKafkaMessage> {
  const plain = new KafkaJsSerde<Payment>(env.client, { serializer: new AnySerializer(env.client) })
  const sent = await plain.encodeMessage('payments', {
    key: value.id,
    value,
    headers: { trace: `t-${offset}` },
  })
  return {
    key: sent.key as Buffer,
    value: sent.value as Buffer,
    headers: sent.headers ?? {},
    offset,
    timestamp: '0',
  }
}

describe('KafkaJsSerde with rules', () => {
  it('dead-letters a record a READ rule refuses with the rules named, and hands the next good message on', async () => {
    const messages = [
      await written({ id: 'p-1', amount: 10, currency: 'EUR' }, '0'),
      await written({ id: 'p-2', amount: 5000, currency: 'EUR' }, '1'),
      await written({ id: 'p-3', amount: 20, currency: 'EUR' }, '2'),
      await written({ id: 'p-4', amount: 9000, currency: 'USD' }, '3'),
      await written({ id: 'p-5', amount: 30, currency: 'USD' }, '4'),
      await written({ id: 'p-6', amount: 40, currency: 'EUR' }, '5'),
    ]
    const { sent, producer } = recorder()
    const handled: unknown[] = []
    const serde = new KafkaJsSerde<Payment>(env.client, { rules: { enabled: true } })
    const each = serde.eachMessage(async ({ decoded }) => void handled.push(decoded.value), {
      deadLetter: { producer, topic: 'payments.DLQ' },
    })
    for (const message of messages) await each({ topic: 'payments', partition: 1, message })
    expect(handled).toEqual([
      { id: 'p-1', amount: 10, currency: 'EUR' },
      { id: 'p-3', amount: 20, currency: 'EUR' },
      { id: 'p-6', amount: 40, currency: 'EUR' },
    ])
    expect(sent.map((record) => record.topic)).toEqual(['payments.DLQ', 'payments.DLQ', 'payments.DLQ'])
    const letters = sent.map((record) => record.messages[0])
    expect(letters.map((letter) => [letter?.key, letter?.value])).toEqual(
      [1, 3, 4].map((at) => [messages[at]?.key, messages[at]?.value]),
    )
    expect(letters.map((letter) => letter?.headers)).toEqual([
      {
        trace: 't-1',
        'x-serde-error-code': 'RULE_VIOLATION',
        'x-serde-error-message':
          'Data-contract rule limit failed in READ mode (limit: Condition failed: limit)',
        'x-serde-source': 'payments/1/1',
        'x-serde-rule': 'limit',
        'x-serde-rule-mode': 'READ',
      },
      {
        trace: 't-3',
        'x-serde-error-code': 'RULE_VIOLATION',
        'x-serde-error-message':
          'Data-contract rules limit, euro failed in READ mode (limit: Condition failed: limit; euro: Condition failed: euro)',
        'x-serde-source': 'payments/1/3',
        'x-serde-rule': 'limit,euro',
        'x-serde-rule-mode': 'READ',
      },
      {
        trace: 't-4',
        'x-serde-error-code': 'RULE_VIOLATION',
        'x-serde-error-message': 'Data-contract rule euro failed in READ mode (euro: Condition failed: euro)',
        'x-serde-source': 'payments/1/4',
        'x-serde-rule': 'euro',
        'x-serde-rule-mode': 'READ',
      },
    ])
  })

  it('dead-letters refused records of a batch on the warm path and hands the handler the others in order', async () => {
    const messages = [
      await written({ id: 'b-1', amount: 1, currency: 'EUR' }, '10'),
      await written({ id: 'b-2', amount: 2000, currency: 'EUR' }, '11'),
      await written({ id: 'b-3', amount: 3, currency: 'EUR' }, '12'),
    ]
    const serde = new KafkaJsSerde<Payment>(env.client, { rules: { enabled: true } })
    // The first message caches the id and the ruleset: the batch then decodes without a request.
    await serde.decodeMessage('payments', 0, messages[0] as ConsumedKafkaMessage)
    const dead: { offset: string; rules: string[] }[] = []
    const seen: unknown[] = []
    const each = serde.eachBatch(async ({ decoded }) => void seen.push(...decoded.map((d) => d.offset)), {
      deadLetter: ({ message, error }) =>
        void dead.push({
          offset: message.offset,
          rules: (error as RuleViolationError).violations.map((violation) => violation.ruleName),
        }),
    })
    const before = env.registry.requests.length
    await each({ batch: { topic: 'payments', partition: 0, messages } } as unknown as EachBatchPayload)
    expect(env.registry.requests.length).toBe(before)
    expect(seen).toEqual(['10', '12'])
    expect(dead).toEqual([{ offset: '11', rules: ['limit'] }])
  })

  it('refuses a value a WRITE rule fails before anything is sent, and takes rules in one place only', async () => {
    const { sent, producer } = recorder()
    const serde = new KafkaJsSerde<Payment>(env.client, {
      serializer: new AnySerializer(env.client, { rules: { enabled: true } }),
    })
    const send = async (value: Payment) =>
      producer.send({
        topic: 'payments',
        messages: [await serde.encodeMessage('payments', { key: value.id, value })],
      })
    const refused = await expectRuleViolation(send({ id: 'w-1', amount: -3, currency: 'EUR' }), {
      violations: [conditionFailed('positive', 'ERROR')],
    })
    expect((refused as { context?: unknown }).context).toEqual({ topic: 'payments', field: 'value' })
    expect(sent).toEqual([])
    await send({ id: 'w-2', amount: 3, currency: 'EUR' })
    expect(sent).toHaveLength(1)
    expect(
      () =>
        new KafkaJsSerde(env.client, {
          rules: { enabled: true },
          anyDeserializer: { rules: { enabled: true } },
        }),
    ).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message: 'KafkaJsSerde: give rules or anyDeserializer.rules, not both',
      }),
    )
  })

  it('run the rules of a key with a schema: a WRITE rule refuses a key before anything is sent, a READ rule dead-letters its message', async () => {
    const { sent, producer } = recorder()
    const writer = new KafkaJsSerde<Payment, { id: string }>(env.client, {
      serializer: new AnySerializer(env.client),
      keys: { serializer: new AnySerializer(env.client, { rules: { enabled: true } }) },
    })
    const value = { id: 'k', amount: 1, currency: 'EUR' }
    const refused = await expectRuleViolation(
      writer.encodeMessage('payments', { key: { id: 'x-1' }, value }),
      {
        mode: 'WRITE',
        violations: [conditionFailed('prefixed', 'ERROR')],
      },
    )
    expect((refused as { context?: unknown }).context).toEqual({ topic: 'payments', field: 'key' })
    const consumed = async (key: string, offset: string): Promise<ConsumedKafkaMessage> => {
      const out = await writer.encodeMessage('payments', { key: { id: key }, value })
      return { key: out.key as Buffer, value: out.value as Buffer, headers: {}, offset, timestamp: '0' }
    }
    const messages = [
      await consumed('p-1', '20'),
      await consumed('p-long', '21'),
      await consumed('p-3', '22'),
    ]
    const reader = new KafkaJsSerde<Payment, { id: string }>(env.client, {
      keys: { deserializer: new AnyDeserializer(env.client, { rules: { enabled: true } }) },
    })
    const keys: unknown[] = []
    const each = reader.eachMessage(async ({ decoded }) => void keys.push({ ...(decoded.key as object) }), {
      deadLetter: { producer, topic: 'payments.DLQ' },
    })
    for (const message of messages) await each({ topic: 'payments', partition: 2, message })
    expect(keys).toEqual([{ id: 'p-1' }, { id: 'p-3' }])
    expect(sent.map((record) => [record.topic, record.messages])).toEqual([
      [
        'payments.DLQ',
        [
          {
            key: messages[1]!.key,
            value: messages[1]!.value,
            headers: {
              'x-serde-error-code': 'RULE_VIOLATION',
              'x-serde-error-message':
                'Data-contract rule short failed in READ mode (short: Condition failed: short)',
              'x-serde-source': 'payments/2/21',
              'x-serde-rule': 'short',
              'x-serde-rule-mode': 'READ',
            },
          },
        ],
      ],
    ])
  })
})
