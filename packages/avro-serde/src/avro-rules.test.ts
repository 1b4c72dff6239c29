import { RuleViolationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AvroDeserializer } from './avro-deserializer.js'
import { AvroSerializer } from './avro-serializer.js'

// Data-contract rules through the Avro classes: the option reaches the core, a WRITE condition refuses a
// value before it is encoded, a READ transform rewrites a decoded record, as the registry's rules read the record.

const ctx = new SerializationContext('orders')
const schema = JSON.stringify({
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'total', type: 'double' },
  ],
})
let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
  await client.registerSchema('orders-value', schema, { artifactType: 'AVRO' })
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
        name: 'tag',
        kind: 'TRANSFORM',
        type: 'JSONATA',
        mode: 'READ',
        expr: '$merge([$, {"id": "seen-" & id}])',
      },
    ],
    migrationRules: [],
  })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

describe('Avro serdes with rules on', () => {
  it('refuse a value a WRITE condition fails, and write and read one that passes, transformed on read', async () => {
    const serializer = new AvroSerializer(client, 'orders-value', { rules: { enabled: true } })
    await expect(serializer.serialize({ id: 'o-1', total: -5.5 }, ctx)).rejects.toBeInstanceOf(
      RuleViolationError,
    )
    const bytes = await serializer.serialize({ id: 'o-2', total: 12.5 }, ctx)
    const plain = new AvroDeserializer(client)
    expect({ ...((await plain.deserialize(bytes, ctx)) as object) }).toEqual({ id: 'o-2', total: 12.5 })
    const deserializer = new AvroDeserializer(client, { rules: { enabled: true } })
    expect(await deserializer.deserialize(bytes, ctx)).toEqual({ id: 'seen-o-2', total: 12.5 })
    expect(deserializer.deserializeSync(bytes, ctx)).toEqual({ id: 'seen-o-2', total: 12.5 })
  })
})

describe('Avro serializer with a WRITE transform', () => {
  const blobSchema = JSON.stringify({
    type: 'record',
    name: 'Blob',
    fields: [
      { name: 'note', type: 'string' },
      { name: 'data', type: 'bytes' },
      { name: 'digest', type: { type: 'fixed', name: 'Digest', size: 4 } },
      { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
      { name: 'day', type: { type: 'int', logicalType: 'date' } },
      { name: 'micros', type: { type: 'long', logicalType: 'timestamp-micros' } },
      { name: 'ledger', type: 'long' },
      { name: 'maybe', type: ['null', 'bytes'], default: null },
      { name: 'parts', type: { type: 'map', values: 'bytes' } },
      { name: 'chunks', type: { type: 'array', items: 'bytes' } },
    ],
  })
  const blob = {
    note: 'secret',
    data: Buffer.from([0x00, 0xff, 0x10]),
    digest: Buffer.from([0xde, 0xad, 0xbe, 0xef]),
    at: new Date('2026-11-27T10:20:30.456Z'),
    day: new Date('2026-11-27T00:00:00.000Z'),
    micros: 1_795_000_000_123_456n,
    ledger: 9_007_199_254_740_993n,
    maybe: Buffer.from([0x01]),
    parts: { a: Buffer.from([0x02, 0x03]) },
    chunks: [Buffer.from([0x04]), Buffer.alloc(0)],
  }

  it('writes the bytes, fixed, timestamps, dates and exact longs of the transformed record, as without the rule', async () => {
    await client.registerSchema('blobs-value', blobSchema, { artifactType: 'AVRO' })
    await client.setArtifactRuleset('blobs-value', {
      domainRules: [
        {
          name: 'mask',
          kind: 'TRANSFORM',
          type: 'JSONATA',
          mode: 'WRITE',
          expr: '$merge([$, {"note": "***", "ledger": "9007199254740995"}])',
        },
      ],
      migrationRules: [],
    })
    const blobs = new SerializationContext('blobs')
    const serializer = new AvroSerializer(client, 'blobs-value', { rules: { enabled: true } })
    const plain = new AvroSerializer(client, 'blobs-value')
    const written = await serializer.serialize(blob, blobs)
    const expected = await plain.serialize({ ...blob, note: '***', ledger: 9_007_199_254_740_995n }, blobs)
    expect(Buffer.from(written).toString('hex')).toBe(Buffer.from(expected).toString('hex'))
    expect(Buffer.from(written).subarray(5, 15).toString('hex')).toBe('062a2a2a0600ff10dead')
    expect(await new AvroDeserializer(client).deserialize(written, blobs)).toEqual({
      ...blob,
      note: '***',
      ledger: 9_007_199_254_740_995n,
    })
    expect(serializer.serializeSync({ ...blob, maybe: null }, blobs)).toEqual(
      plain.serializeSync({ ...blob, maybe: null, note: '***', ledger: 9_007_199_254_740_995n }, blobs),
    )
  })
})
