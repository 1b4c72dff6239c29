import {
  celCondition,
  domainRules,
  expectOrderRules,
  jsonataTransform,
  orderRules,
  useRulesRegistry,
} from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
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
const env = useRulesRegistry(async (client) => {
  await client.registerSchema('orders-value', schema, { artifactType: 'AVRO' })
  await client.setArtifactRuleset('orders-value', orderRules())
})

describe('Avro serdes with rules on', () => {
  it('refuse a value a WRITE condition fails, and write and read one that passes, transformed on read', async () => {
    await expectOrderRules(
      {
        serializer: new AvroSerializer(env.client, 'orders-value', { rules: { enabled: true } }),
        plain: new AvroDeserializer(env.client),
        checked: new AvroDeserializer(env.client, { rules: { enabled: true } }),
      },
      ctx,
    )
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
    await env.client.registerSchema('blobs-value', blobSchema, { artifactType: 'AVRO' })
    await env.client.setArtifactRuleset(
      'blobs-value',
      domainRules(
        jsonataTransform('mask', 'WRITE', '$merge([$, {"note": "***", "ledger": "9007199254740995"}])'),
      ),
    )
    const blobs = new SerializationContext('blobs')
    const serializer = new AvroSerializer(env.client, 'blobs-value', { rules: { enabled: true } })
    const plain = new AvroSerializer(env.client, 'blobs-value')
    const written = await serializer.serialize(blob, blobs)
    const expected = await plain.serialize({ ...blob, note: '***', ledger: 9_007_199_254_740_995n }, blobs)
    expect(Buffer.from(written).toString('hex')).toBe(Buffer.from(expected).toString('hex'))
    expect(Buffer.from(written).subarray(5, 15).toString('hex')).toBe('062a2a2a0600ff10dead')
    expect(await new AvroDeserializer(env.client).deserialize(written, blobs)).toEqual({
      ...blob,
      note: '***',
      ledger: 9_007_199_254_740_995n,
    })
    expect(serializer.serializeSync({ ...blob, maybe: null }, blobs)).toEqual(
      plain.serializeSync({ ...blob, maybe: null, note: '***', ledger: 9_007_199_254_740_995n }, blobs),
    )
  })
})

describe('Avro map keys named __proto__ and constructor, with rules on', () => {
  const labelsSchema = JSON.stringify({
    type: 'record',
    name: 'Labelled',
    fields: [{ name: 'labels', type: { type: 'map', values: 'string' } }],
  })
  const LABELS = '{"labels":{"__proto__":"x","constructor":"y","role":"z"}}'
  const labelled = new SerializationContext('labelled')

  async function register(artifactId: string, rule: Parameters<typeof domainRules>[0]): Promise<void> {
    await env.client.registerSchema(artifactId, labelsSchema, { artifactType: 'AVRO' })
    await env.client.setArtifactRuleset(artifactId, domainRules(rule))
  }

  it('stay own data keys of the record a READ or a WRITE transform gives back', async () => {
    await register('labels-read-value', jsonataTransform('keep', 'READ', '{"labels": labels}'))
    await register('labels-write-value', jsonataTransform('keep', 'WRITE', '{"labels": labels}'))
    const bytes = await new AvroSerializer(env.client, 'labels-read-value').serialize(
      JSON.parse(LABELS),
      labelled,
    )
    const read = (await new AvroDeserializer(env.client, { rules: { enabled: true } }).deserialize(
      bytes,
      labelled,
    )) as { labels: Record<string, string> }
    expect(JSON.stringify(read)).toBe(LABELS)
    expect(Object.getPrototypeOf(read.labels)).toBe(Object.prototype)
    expect(Object.keys(read.labels)).toEqual(['__proto__', 'constructor', 'role'])
    const written = await new AvroSerializer(env.client, 'labels-write-value', {
      rules: { enabled: true },
    }).serialize(JSON.parse(LABELS), labelled)
    expect(JSON.stringify(await new AvroDeserializer(env.client).deserialize(written, labelled))).toBe(LABELS)
  })

  it('are read by a CEL condition as the keys the map holds, and as absent when it does not hold them', async () => {
    await register('labels-cel-value', {
      name: 'held',
      kind: 'CONDITION',
      type: 'CEL',
      mode: 'READ',
      expr: 'has(labels.constructor) && labels.constructor == "y" && labels.__proto__ == "x"',
      onFailure: 'ERROR',
    })
    const serializer = new AvroSerializer(env.client, 'labels-cel-value')
    const deserializer = new AvroDeserializer(env.client, { rules: { enabled: true } })
    const held = await serializer.serialize(JSON.parse(LABELS), labelled)
    expect(JSON.stringify(await deserializer.deserialize(held, labelled))).toBe(LABELS)
    const empty = await serializer.serialize({ labels: {} }, labelled)
    await expect(deserializer.deserialize(empty, labelled)).rejects.toMatchObject({
      name: 'RuleViolationError',
      violations: [{ ruleName: 'held', message: 'Condition failed: held', action: 'ERROR' }],
    })
  })
})

describe("Avro serdes giving rules the record Java's serde 3.3 gives them", () => {
  const readings = JSON.stringify({
    type: 'record',
    name: 'Reading',
    fields: [
      { name: 'total', type: 'double' },
      { name: 'ts', type: { type: 'long', logicalType: 'timestamp-millis' } },
      { name: 'b', type: 'bytes' },
      { name: 'digest', type: { type: 'fixed', name: 'D', size: 2 } },
      { name: 'color', type: { type: 'enum', name: 'Color', symbols: ['RED', 'GREEN'] } },
      { name: 'maybe', type: ['null', 'double'] },
    ],
  })
  const reading = {
    total: 5,
    ts: new Date(1_700_000_000_123),
    b: Buffer.from([0x00, 0xff, 0x41]),
    digest: Buffer.from([0x01, 0xfe]),
    color: 'GREEN',
    maybe: 2,
  }

  it('a double 5.0 as a CEL double, a timestamp-millis as its epoch-millisecond long, bytes one character a byte', async () => {
    await env.client.registerSchema('readings-value', readings, { artifactType: 'AVRO' })
    const expr = [
      'type(total) == double && total / 2.0 == 2.5',
      'ts == 1700000000123',
      'size(b) == 3 && b.endsWith("A")',
      'digest == [1, -2]',
      'color == "GREEN"',
      'type(maybe) == double',
    ].join(' && ')
    await env.client.setArtifactRuleset(
      'readings-value',
      domainRules(celCondition('java-record', 'WRITEREAD', expr, 'ERROR')),
    )
    const bytes = await new AvroSerializer(env.client, 'readings-value', {
      rules: { enabled: true },
    }).serialize(reading, ctx)
    const read = await new AvroDeserializer(env.client, { rules: { enabled: true } }).deserialize(bytes, ctx)
    expect(read).toEqual(reading)
  })
})
