import { DeserializationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProtobufDeserializer } from './protobuf-deserializer.js'
import { ProtobufSerializer } from './protobuf-serializer.js'

// A READ transform's record is handed out in the values the deserializer gives every other message: bytes as
// Buffers, 64-bit integers by `longs`, Timestamp and Duration as `{ seconds, nanos }`, not the rules' JSON text.

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
const ctx = new SerializationContext('blobs')
const blob = {
  note: 'secret',
  data: Buffer.from([0x00, 0xff, 0x10]),
  ledger: 9_007_199_254_740_993n,
  at: { seconds: 1_795_000_000, nanos: 500_000_000 },
  part: { raw: Buffer.from([0x07]) },
  size: 3,
}
let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
  await client.registerSchema('blobs-value', schema, { artifactType: 'PROTOBUF' })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

async function readWith(expr: string, options: Record<string, unknown> = {}) {
  await client.setArtifactRuleset('blobs-value', {
    domainRules: [{ name: 'mask', kind: 'TRANSFORM', type: 'JSONATA', mode: 'READ', expr }],
    migrationRules: [],
  })
  const bytes = await new ProtobufSerializer(client, 'blobs-value').serialize(blob, ctx)
  const plain = await new ProtobufDeserializer(client, options).deserialize(bytes, ctx)
  const deserializer = new ProtobufDeserializer(client, { ...options, rules: { enabled: true } })
  return {
    plain,
    ruled: await deserializer.deserialize(bytes, ctx),
    sync: () => deserializer.deserializeSync(bytes, ctx),
  }
}

describe('Protobuf deserializer with a READ transform', () => {
  it('hands out the transformed record in the decoded values of the schema, as without the rule', async () => {
    const { plain, ruled, sync } = await readWith('$merge([$, {"note": "***"}])')
    expect(ruled).toEqual({ ...(plain as object), note: '***' })
    expect(Buffer.isBuffer((ruled as typeof blob).data)).toBe(true)
    expect((ruled as typeof blob).ledger).toBe(9_007_199_254_740_993n)
    expect((ruled as typeof blob).at).toEqual({ seconds: 1_795_000_000, nanos: 500_000_000 })
    expect(sync()).toEqual(ruled)
  })

  it('reads the longs of the transformed record by the longs option', async () => {
    const { ruled } = await readWith('$merge([$, {"ledger": 5}])', { longs: 'bigint' })
    expect((ruled as Record<string, unknown>).ledger).toBe(5n)
    const { ruled: auto } = await readWith('$merge([$, {"ledger": 5}])')
    expect((auto as Record<string, unknown>).ledger).toBe(5)
  })

  it('refuses a transformed record that does not fit the schema with a DeserializationError', async () => {
    const bytes = await new ProtobufSerializer(client, 'blobs-value').serialize(blob, ctx)
    await client.setArtifactRuleset('blobs-value', {
      domainRules: [
        {
          name: 'bad',
          kind: 'TRANSFORM',
          type: 'JSONATA',
          mode: 'READ',
          expr: '$merge([$, {"size": "not a number"}])',
        },
      ],
      migrationRules: [],
    })
    const failure = await new ProtobufDeserializer(client, { rules: { enabled: true } })
      .deserialize(bytes, ctx)
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(DeserializationError)
    expect((failure as Error).message).toContain(
      'The record a READ transform gave back does not fit the Protobuf schema it was read with',
    )
  })
})
