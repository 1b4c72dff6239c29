import { RuleViolationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JsonSchemaDeserializer } from './json-schema-deserializer.js'
import { JsonSchemaSerializer } from './json-schema-serializer.js'

// Data-contract rules through the JSON Schema classes: the option reaches the core, a WRITE condition refuses a
// value before it is encoded, a READ transform rewrites a decoded record, as the registry's rules read the record.

const ctx = new SerializationContext('orders')
const schema = JSON.stringify({
  type: 'object',
  properties: { id: { type: 'string' }, total: { type: 'number' } },
  required: ['id', 'total'],
})
let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
  await client.registerSchema('orders-value', schema, { artifactType: 'JSON' })
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

describe('JSON Schema serdes with rules on', () => {
  it('refuse a value a WRITE condition fails, and write and read one that passes, transformed on read', async () => {
    const serializer = new JsonSchemaSerializer(client, 'orders-value', { rules: { enabled: true } })
    await expect(serializer.serialize({ id: 'o-1', total: -5.5 }, ctx)).rejects.toBeInstanceOf(
      RuleViolationError,
    )
    const bytes = await serializer.serialize({ id: 'o-2', total: 12.5 }, ctx)
    const plain = new JsonSchemaDeserializer(client)
    expect({ ...((await plain.deserialize(bytes, ctx)) as object) }).toEqual({ id: 'o-2', total: 12.5 })
    const deserializer = new JsonSchemaDeserializer(client, { rules: { enabled: true } })
    expect(await deserializer.deserialize(bytes, ctx)).toEqual({ id: 'seen-o-2', total: 12.5 })
    expect(deserializer.deserializeSync(bytes, ctx)).toEqual({ id: 'seen-o-2', total: 12.5 })
  })
})

describe('JSON Schema serializer with a WRITE transform', () => {
  it('writes the transformed record as its JSON text, nested values and a long within 2^53 as they were', async () => {
    const blobSchema = JSON.stringify({
      type: 'object',
      properties: {
        note: { type: 'string' },
        data: { type: 'string', contentEncoding: 'base64' },
        ledger: { type: 'integer' },
        at: { type: 'string', format: 'date-time' },
        parts: { type: 'object', additionalProperties: { type: 'string' } },
      },
      required: ['note', 'data', 'ledger', 'at'],
    })
    await client.registerSchema('blobs-value', blobSchema, { artifactType: 'JSON' })
    await client.setArtifactRuleset('blobs-value', {
      domainRules: [
        {
          name: 'mask',
          kind: 'TRANSFORM',
          type: 'JSONATA',
          mode: 'WRITE',
          expr: '$merge([$, {"note": "***"}])',
        },
      ],
      migrationRules: [],
    })
    const blobs = new SerializationContext('blobs')
    const serializer = new JsonSchemaSerializer(client, 'blobs-value', { rules: { enabled: true } })
    const written = await serializer.serialize(
      {
        note: 'secret',
        data: 'AP8Q',
        ledger: 9_007_199_254_740_991,
        at: '2026-11-27T10:20:30.456Z',
        parts: { a: 'AgM=' },
      },
      blobs,
    )
    expect(Buffer.from(written).subarray(5).toString('utf8')).toBe(
      '{"note":"***","data":"AP8Q","ledger":9007199254740991,"at":"2026-11-27T10:20:30.456Z","parts":{"a":"AgM="}}',
    )
  })
})
