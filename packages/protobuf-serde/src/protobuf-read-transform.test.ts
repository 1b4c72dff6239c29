import { RuleViolationError } from '@x/errors'
import { readThroughTransform, type TransformSerdes, useRulesRegistry } from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
import { ProtobufDeserializer } from './protobuf-deserializer.js'
import { ProtobufSerializer } from './protobuf-serializer.js'

// A READ transform's record is handed out in the values the deserializer gives every other message: bytes as
// Buffers, 64-bit integers by `longs`, Timestamp as `{ seconds, nanos }`, not the rules' JSON text.

const schema = [
  'syntax = "proto3";',
  'import "google/protobuf/timestamp.proto";',
  'message Blob {',
  '  string note = 1;',
  '  bytes data = 2;',
  '  int64 ledger = 3;',
  '  google.protobuf.Timestamp at = 4;',
  '  message Part { bytes raw = 1; }',
  '  Part part = 5;',
  '  int32 size = 6;',
  '}',
  '',
].join('\n')
const at = { artifactId: 'blobs-value', ctx: new SerializationContext('blobs') }
const blob = {
  note: 'secret',
  data: Buffer.from([0x00, 0xff, 0x10]),
  ledger: 9_007_199_254_740_993n,
  at: { seconds: 1_795_000_000, nanos: 500_000_000 },
  part: { raw: Buffer.from([0x07]) },
  size: 3,
}
const protobuf: TransformSerdes = {
  serializer: (client, artifactId) => new ProtobufSerializer(client, artifactId),
  deserializer: (client, options) => new ProtobufDeserializer(client, options),
}
const rules = useRulesRegistry(async (client) => {
  await client.registerSchema(at.artifactId, schema, { artifactType: 'PROTOBUF' })
})
const readWith = (expr: string, options?: Record<string, unknown>) =>
  readThroughTransform(protobuf, rules.client, at, blob, expr, options)

describe('Protobuf deserializer with a READ transform', () => {
  it('hands out the transformed record in the decoded values of the schema, as without the rule', async () => {
    const { plain, ruled, sync } = await readWith('$merge([$, {"note": "***"}])')
    expect(ruled).toEqual({ ...plain, note: '***' })
    expect(Buffer.isBuffer(ruled.data)).toBe(true)
    expect(Buffer.isBuffer((ruled.part as { raw: unknown }).raw)).toBe(true)
    expect(ruled.ledger).toBe(9_007_199_254_740_993n)
    expect(ruled.at).toEqual({ seconds: 1_795_000_000, nanos: 500_000_000 })
    expect(sync()).toEqual(ruled)
  })

  it('reads the longs of the transformed record by the longs option', async () => {
    const { ruled } = await readWith('$merge([$, {"ledger": 5}])', { longs: 'bigint' })
    expect(ruled.ledger).toBe(5n)
  })

  it('refuses a transformed record whose declared field breaks its type with a RuleViolationError naming the field', async () => {
    const failure = await readWith('$merge([$, {"size": "not a number"}])').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(RuleViolationError)
    expect(failure).toMatchObject({ code: 'RULE_VIOLATION', mode: 'READ' })
    expect((failure as Error).message).toContain(
      'The record a READ transform gave back does not fit the Protobuf schema it was read with',
    )
    expect((failure as Error).message).toContain('size')
  })

  it("hands out the fields a READ transform added, as the registry's transformedRecord holds them", async () => {
    const { plain, ruled } = await readWith('$merge([$, {"added": [1, 2.5], "label": "x"}])')
    expect(ruled).toEqual({ ...plain, added: [1, 2.5], label: 'x' })
  })
})
