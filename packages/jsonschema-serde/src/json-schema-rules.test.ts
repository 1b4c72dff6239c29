import {
  domainRules,
  expectOrderRules,
  jsonataTransform,
  orderRules,
  useRulesRegistry,
} from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
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
const env = useRulesRegistry(async (client) => {
  await client.registerSchema('orders-value', schema, { artifactType: 'JSON' })
  await client.setArtifactRuleset('orders-value', orderRules())
})

describe('JSON Schema serdes with rules on', () => {
  it('refuse a value a WRITE condition fails, and write and read one that passes, transformed on read', async () => {
    await expectOrderRules(
      {
        serializer: new JsonSchemaSerializer(env.client, 'orders-value', { rules: { enabled: true } }),
        plain: new JsonSchemaDeserializer(env.client),
        checked: new JsonSchemaDeserializer(env.client, { rules: { enabled: true } }),
      },
      ctx,
    )
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
    await env.client.registerSchema('blobs-value', blobSchema, { artifactType: 'JSON' })
    await env.client.setArtifactRuleset(
      'blobs-value',
      domainRules(jsonataTransform('mask', 'WRITE', '$merge([$, {"note": "***"}])')),
    )
    const blobs = new SerializationContext('blobs')
    const serializer = new JsonSchemaSerializer(env.client, 'blobs-value', { rules: { enabled: true } })
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

describe('JSON Schema serdes with a JSONata transform computing a long beyond 2^53', () => {
  it('write and read the exact integer of the double it computed, 2^63 clamped to 2^63 - 1, as the registry gives them', async () => {
    const bigSchema = JSON.stringify({ type: 'object', properties: { big: { type: 'integer' } } })
    await env.client.registerSchema('bigs-value', bigSchema, { artifactType: 'JSON' })
    await env.client.setArtifactRuleset(
      'bigs-value',
      domainRules(jsonataTransform('plus', 'WRITE', '$merge([$, {"big": big + 1}])')),
    )
    const bigs = new SerializationContext('bigs')
    const serializer = new JsonSchemaSerializer(env.client, 'bigs-value', { rules: { enabled: true } })
    const written = await serializer.serialize({ big: 1_152_921_504_606_846_977n }, bigs)
    expect(Buffer.from(written).subarray(5).toString('utf8')).toBe('{"big":1152921504606846976}')
    expect(await new JsonSchemaDeserializer(env.client).deserialize(written, bigs)).toEqual({
      big: 1_152_921_504_606_846_976n,
    })
    const top = await serializer.serialize({ big: 9_223_372_036_854_775_807n }, bigs)
    expect(Buffer.from(top).subarray(5).toString('utf8')).toBe('{"big":9223372036854775807}')
  })
})
