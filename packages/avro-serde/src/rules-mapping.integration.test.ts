/// <reference path="../../../scripts/integration/context.d.ts" />
import { randomBytes } from 'node:crypto'
import { RuleViolationError } from '@x/errors'
import { type ContractRule, RegistryClient } from '@x/registry-client'
import { parseExactJson } from '@x/registry-client/json'
import { SerializationContext } from '@x/wire-format'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { AvroDeserializer } from './avro-deserializer.js'
import { AvroSerializer } from './avro-serializer.js'

// The same data-contract rule through the Avro serializer and deserializer (rules on) and through a real Apicurio
// Registry 3.3's execute endpoint, sent the record Apicurio's Java serde 3.3 sends for the same value (the JSON of
// its GenericRecord: `5.0` for a double, the epoch-millisecond long for a timestamp-millis, one ISO-8859-1
// character a byte): the verdicts and transformed records agree. Integration stage: `inject('registryUrl')`, or
// X_SERDE_TEST_REGISTRY_URL.

const url = (inject('registryUrl') ?? process.env.X_SERDE_TEST_REGISTRY_URL ?? '').replace(/\/+$/, '')
const group = `rules-map-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
const ctx = new SerializationContext('orders')
const client = new RegistryClient({ url: url || 'http://127.0.0.1:1', groupId: group, maxRetries: 1 })

const schema = JSON.stringify({
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'total', type: 'double' },
    { name: 'ts', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'b', type: 'bytes' },
    { name: 'a', type: 'long' },
    { name: 'id', type: 'long' },
  ],
})
const order = {
  total: 5,
  ts: new Date(1_700_000_000_123),
  b: Buffer.from([0x00, 0xff, 0x41]),
  a: 9_007_199_254_740_993n,
  id: 9_007_199_254_740_992n,
}
/** The JSON Apicurio's Java serde 3.3 sends its rules for `order` (GenericData#toString of the same record). */
const javaRecord =
  '{"total": 5.0, "ts": 1700000000123, "b": "\\u0000\\u00ffA", "a": 9007199254740993, "id": 9007199254740992}'

let artifact = 0

/** A new artifact of the schema with one rule at the artifact level, as Java's serde reads it. */
async function withRule(rule: ContractRule): Promise<string> {
  const artifactId = `orders-${++artifact}`
  await client.registerSchema(artifactId, schema, { artifactType: 'AVRO' })
  await client.setArtifactRuleset(artifactId, { domainRules: [rule], migrationRules: [] })
  return artifactId
}

/** The registry's own verdict on the Java serde's record. */
async function registryVerdict(artifactId: string, mode: string): Promise<Record<string, unknown>> {
  const answer = await fetch(
    `${url}/groups/${group}/artifacts/${artifactId}/versions/branch=latest/contract/execute`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: `{"mode":"${mode}","record":${javaRecord}}`,
    },
  )
  expect(answer.status).toBe(200)
  return parseExactJson(await answer.text()).value as Record<string, unknown>
}

/** Whether the serializer (rules on) writes `order`, and the record read back from its bytes without rules. */
async function serialize(
  artifactId: string,
): Promise<{ passed: boolean; written?: Record<string, unknown> }> {
  const serializer = new AvroSerializer(client, artifactId, { rules: { enabled: true } })
  try {
    const bytes = await serializer.serialize(order, ctx)
    const written = (await new AvroDeserializer(client).deserialize(bytes, ctx)) as Record<string, unknown>
    return { passed: true, written }
  } catch (error) {
    if (error instanceof RuleViolationError) return { passed: false }
    throw error
  }
}

const condition = (expr: string): ContractRule => ({
  name: 'c',
  kind: 'CONDITION',
  type: 'CEL',
  mode: 'WRITE',
  expr,
  onFailure: 'ERROR',
})

describe.skipIf(url === '')('one rule, one verdict: the Avro serdes and the registry', () => {
  afterAll(async () => {
    await fetch(`${url}/groups/${group}`, { method: 'DELETE' })
  })

  it.each([
    ['an integral double is a CEL double', 'type(total) == double && total / 2.0 == 2.5', true],
    ['an integral double is not an int', 'type(total) == int', false],
    ['a timestamp-millis is its epoch-millisecond long', 'ts > 1600000000000 && type(ts) == int', true],
    ['bytes are one ISO-8859-1 character a byte', 'size(b) == 3 && b.endsWith("A")', true],
    ['a long beyond 2^53 is exact', 'a == 9007199254740993', true],
  ])('%s: %s', async (_what, expr, expected) => {
    const artifactId = await withRule(condition(expr))
    expect((await registryVerdict(artifactId, 'WRITE')).passed).toBe(expected)
    expect((await serialize(artifactId)).passed).toBe(expected)
  })

  it('a WRITE transform swapping two longs beyond 2^53 writes them exactly swapped, as the registry swaps them', async () => {
    const artifactId = await withRule({
      name: 'swap',
      kind: 'TRANSFORM',
      type: 'JSONATA',
      mode: 'WRITE',
      expr: '$merge([$, {"a": id, "id": a}])',
    })
    const registry = await registryVerdict(artifactId, 'WRITE')
    const transformed = registry.transformedRecord as Record<string, unknown>
    expect([transformed.a, transformed.id]).toEqual([9_007_199_254_740_992n, 9_007_199_254_740_993n])
    const { written } = await serialize(artifactId)
    expect([written!.a, written!.id]).toEqual([9_007_199_254_740_992n, 9_007_199_254_740_993n])
  })

  it('a WRITE transform computing a long writes what the registry computes, not the input', async () => {
    const artifactId = await withRule({
      name: 'next',
      kind: 'TRANSFORM',
      type: 'JSONATA',
      mode: 'WRITE',
      expr: '$merge([$, {"a": a + 1}])',
    })
    const registry = await registryVerdict(artifactId, 'WRITE')
    const computed = (registry.transformedRecord as Record<string, unknown>).a
    const { written } = await serialize(artifactId)
    expect(BigInt(written!.a as bigint)).toBe(BigInt(computed as number | bigint))
    expect(written!.a).not.toBe(order.a)
  })

  it('a READ transform hands out the field it added, as the registry transformedRecord holds it', async () => {
    const artifactId = await withRule({
      name: 'enrich',
      kind: 'TRANSFORM',
      type: 'JSONATA',
      mode: 'READ',
      expr: '$merge([$, {"doubled": total * 2, "size": $length(b)}])',
    })
    const registry = (await registryVerdict(artifactId, 'READ')).transformedRecord as Record<string, unknown>
    const bytes = await new AvroSerializer(client, artifactId).serialize(order, ctx)
    const read = (await new AvroDeserializer(client, { rules: { enabled: true } }).deserialize(
      bytes,
      ctx,
    )) as Record<string, unknown>
    expect(registry.doubled).toBe(10)
    expect(registry.size).toBe(3)
    expect(read).toEqual({ ...order, doubled: 10, size: 3 })
  })
})
