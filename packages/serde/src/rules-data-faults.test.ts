import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RegistryClient, RuleViolationError, SerializationContext } from './index.js'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from './json-schema.js'
import { readErrorKind } from './kafka.js'
import { InMemoryRegistry } from './testing.js'

// A message the data-contract rules cannot read is a data fault of that message: a consumer dead-letters it and
// moves on (poison), never retries it forever as if the registry were down (outage).

const ctx = new SerializationContext('deep')
let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
  await client.registerSchema('deep-value', JSON.stringify({ type: 'object' }), { artifactType: 'JSON' })
  await client.setArtifactRuleset('deep-value', {
    domainRules: [
      { name: 'n-is-1', kind: 'CONDITION', type: 'JSONATA', mode: 'READ', expr: 'n = 1', onFailure: 'ERROR' },
    ],
    migrationRules: [],
  })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

describe('a JSON Schema message nested too deep for the rules', () => {
  it.each([6_000, 20_000, 100_000])(
    'is poison to readErrorKind at depth %i, a RuleViolationError',
    async (depth) => {
      const frame = Buffer.from(await new JsonSchemaSerializer(client, 'deep-value').serialize({}, ctx))
      const text = `{"n":1,"a":${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}`
      const bytes = Buffer.concat([frame.subarray(0, frame.length - 2), Buffer.from(text)])
      const deserializer = new JsonSchemaDeserializer(client, { rules: { enabled: true } })
      const started = performance.now()
      const error = await deserializer.deserialize(bytes, ctx).catch((thrown: unknown) => thrown)
      expect(performance.now() - started).toBeLessThan(2_000)
      expect(error).toBeInstanceOf(RuleViolationError)
      expect(error).toMatchObject({
        code: 'RULE_VIOLATION',
        violations: [{ ruleName: 'n-is-1', action: 'ERROR' }],
      })
      expect(readErrorKind(error)).toBe('poison')
    },
  )
})
