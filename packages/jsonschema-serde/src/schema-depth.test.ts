import { SerializationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JsonSchemaSerializer } from './json-schema-serializer.js'

// A schema nested far deeper than a stack holds is refused as an invalid schema, never with a RangeError.

const DEEP = 100_000
const properties = (depth: number) =>
  `${'{"type":"object","properties":{"a":'.repeat(depth)}{}${'}}'.repeat(depth)}`
const items = (depth: number) => `${'{"type":"array","items":'.repeat(depth)}{}${'}'.repeat(depth)}`

let registry: InMemoryRegistry
let client: RegistryClient
const ctx = new SerializationContext('t')

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0 })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

async function serializeWith(artifactId: string, schema: string, value: unknown): Promise<unknown> {
  const registered = await client.registerSchema(artifactId, schema, { artifactType: 'JSON' })
  const outcome = await new JsonSchemaSerializer(client, artifactId)
    .serialize(value, ctx)
    .catch((e: unknown) => e)
  return [registered.globalId, outcome]
}

describe('a JSON Schema nested 100 000 levels deep', () => {
  it.each([
    ['properties', properties(DEEP)],
    ['items', items(DEEP)],
  ])('is refused as a schema to register (%s)', (_, schema) => {
    expect(() => new JsonSchemaSerializer(client, 'deep', { autoRegister: true, schema })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message:
          'JsonSchemaSerializer: the schema to register (autoRegister) is not a valid JSON Schema: The schema nests subschemas deeper than 128 levels',
      }),
    )
  })

  it.each([
    ['properties', properties(DEEP)],
    ['items', items(DEEP)],
  ])('is a registry schema the serializer refuses with a SerializationError (%s)', async (kind, schema) => {
    const [globalId, error] = (await serializeWith(`deep-${kind}`, schema, {})) as [number, Error]
    expect(error).toBeInstanceOf(SerializationError)
    expect(error.message).toBe(
      `The registry schema of artifact 'deep-${kind}' (globalId ${globalId}) is not a valid JSON Schema schema: The schema nests subschemas deeper than 128 levels`,
    )
  })

  it('is read when it nests 128 levels', async () => {
    const [, bytes] = (await serializeWith('deepest', properties(127), { a: { a: {} } })) as [
      number,
      Uint8Array,
    ]
    expect(Buffer.from(bytes).subarray(-14).toString()).toBe('{"a":{"a":{}}}')
  })

  it('is a chain of 10 000 $refs the serializer refuses with a SerializationError', async () => {
    const length = 10_000
    const definitions = Object.fromEntries(
      Array.from({ length }, (_, i) => [
        `d${i}`,
        i + 1 < length ? { type: 'object', properties: { next: { $ref: `#/definitions/d${i + 1}` } } } : {},
      ]),
    )
    const schema = JSON.stringify({ definitions, $ref: '#/definitions/d0' })
    const [globalId, error] = (await serializeWith('chain', schema, {})) as [number, Error]
    expect(error).toBeInstanceOf(SerializationError)
    expect(error.message).toBe(
      `The registry schema of artifact 'chain' (globalId ${globalId}) is not a valid JSON Schema schema: The schema nests subschemas, through its $refs, too deeply to be compiled`,
    )
  })
})
