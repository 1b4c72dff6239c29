import { RuleViolationError } from '@x/errors'
import { readThroughTransform, type TransformSerdes, useRulesRegistry } from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
import { AvroDeserializer } from './avro-deserializer.js'
import { AvroSerializer } from './avro-serializer.js'

// A READ transform's record is handed out in the values the deserializer gives every other message: bytes as
// Buffers, timestamps as Dates, longs by `longs`, not the rules' JSON text (base64, RFC 3339).

const schema = JSON.stringify({
  type: 'record',
  name: 'Blob',
  fields: [
    { name: 'note', type: 'string' },
    { name: 'data', type: 'bytes' },
    { name: 'ledger', type: 'long' },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'maybe', type: ['null', 'bytes'], default: null },
  ],
})
const at = { artifactId: 'blobs-value', ctx: new SerializationContext('blobs') }
const blob = {
  note: 'secret',
  data: Buffer.from([0x00, 0xff, 0x10]),
  ledger: 9_007_199_254_740_993n,
  at: new Date(Date.UTC(2026, 10, 28, 1, 2, 3, 4)),
  maybe: Buffer.from([0x09]),
}
const avro: TransformSerdes = {
  serializer: (client, artifactId) => new AvroSerializer(client, artifactId),
  deserializer: (client, options) => new AvroDeserializer(client, options),
}
const rules = useRulesRegistry(async (client) => {
  await client.registerSchema(at.artifactId, schema, { artifactType: 'AVRO' })
})
const readWith = (expr: string, options?: Record<string, unknown>) =>
  readThroughTransform(avro, rules.client, at, blob, expr, options)

describe('Avro deserializer with a READ transform', () => {
  it('hands out the transformed record in the decoded values of the schema, as without the rule', async () => {
    const { plain, ruled, sync } = await readWith('$merge([$, {"note": "***"}])')
    expect(ruled).toEqual({ ...plain, note: '***' })
    expect(ruled.at).toBeInstanceOf(Date)
    expect(Buffer.isBuffer(ruled.data)).toBe(true)
    expect(Buffer.isBuffer(ruled.maybe)).toBe(true)
    expect(ruled.ledger).toBe(9_007_199_254_740_993n)
    expect(sync()).toEqual(ruled)
  })

  it('reads the longs of the transformed record by the longs option', async () => {
    const { ruled } = await readWith('$merge([$, {"ledger": 5}])', { avro: { longs: 'bigint' } })
    expect(ruled.ledger).toBe(5n)
  })

  it('refuses a transformed record whose declared field breaks its type with a RuleViolationError naming the field', async () => {
    const failure = await readWith('$merge([$, {"ledger": "not a number"}])').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RuleViolationError)
    expect(failure).toMatchObject({ code: 'RULE_VIOLATION', mode: 'READ' })
    expect((failure as Error).message).toContain(
      'The record a READ transform gave back does not fit the Avro schema it was read with',
    )
    expect((failure as Error).message).toContain('ledger')
    expect((failure as RuleViolationError).violations.at(-1)).toMatchObject({
      ruleName: 'mask',
      action: 'ERROR',
    })
  })

  it("hands out the fields a READ transform added, as the registry's transformedRecord holds them", async () => {
    const { plain, ruled } = await readWith('$merge([$, {"added": {"n": 1.5, "s": "x"}, "flag": true}])')
    expect(ruled).toEqual({ ...plain, added: { n: 1.5, s: 'x' }, flag: true })
  })
})
