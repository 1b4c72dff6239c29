import { SerializationError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AvroSerializer } from './avro-serializer.js'

// A schema nested far deeper than a stack holds is refused as an invalid schema, never with a RangeError.

const DEEP = 100_000
const records = (depth: number): string => {
  let schema = '"int"'
  for (let i = depth; i > 0; i--)
    schema = `{"type":"record","name":"R${i}","fields":[{"name":"f","type":${schema}}]}`
  return schema
}
const arrays = (depth: number) => `${'{"type":"array","items":'.repeat(depth)}"int"${'}'.repeat(depth)}`

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

describe('an Avro schema nested 100 000 levels deep', () => {
  it.each([
    ['records', records(DEEP)],
    ['arrays', arrays(DEEP)],
  ])('is refused as a schema to register (%s)', (_, schema) => {
    expect(() => new AvroSerializer(client, 'deep', { autoRegister: true, schema })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message:
          'AvroSerializer: the schema to register (autoRegister) is not a valid Avro schema: Invalid Avro schema: it nests types deeper than 128 levels',
      }),
    )
  })

  it.each([
    ['records', records(DEEP)],
    ['arrays', arrays(DEEP)],
  ])('is a registry schema the serializer refuses with a SerializationError (%s)', async (kind, schema) => {
    const registered = await client.registerSchema(`deep-${kind}`, schema)
    const error = await new AvroSerializer(client, `deep-${kind}`).serialize({}, ctx).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SerializationError)
    expect((error as SerializationError).message).toBe(
      `The registry schema of artifact 'deep-${kind}' (globalId ${registered.globalId}) is not a valid Avro schema: Invalid Avro schema: it nests types deeper than 128 levels`,
    )
  })

  it('is read when it nests 128 levels', async () => {
    const serializer = new AvroSerializer(client, 'deepest', { autoRegister: true, schema: records(128) })
    let value: unknown = 7
    for (let i = 0; i < 128; i++) value = { f: value }
    expect((await serializer.serialize(value, ctx)).length).toBeGreaterThan(0)
  })
})

describe('Avro references nested in one another', () => {
  /** Registers `c0` … `c{count-1}`, each record holding the one before it, each referencing it. */
  async function registerChain(prefix: string, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const fields = i === 0 ? [] : [{ name: 'f', type: `${prefix}${i - 1}` }]
      const references =
        i === 0
          ? []
          : [{ groupId: 'default', artifactId: `${prefix}${i - 1}`, version: '1', name: `${prefix}${i - 1}` }]
      await client.registerSchema(
        `${prefix}${i}`,
        { type: 'record', name: `${prefix}${i}`, fields },
        { references },
      )
    }
  }

  it('129 levels deep are refused with a SerializationError before the last level is fetched', async () => {
    await registerChain('Long', 130)
    // a client of its own, whose caches do not hold the versions just registered
    const fresh = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0 })
    const before = registry.requests.length
    const error = await new AvroSerializer(fresh, 'Long129').serialize({}, ctx).catch((e: unknown) => e)
    await fresh.close()
    expect(error).toBeInstanceOf(SerializationError)
    expect((error as Error).message).toMatch(
      /^The registry schema of artifact 'Long129' \(globalId \d+\) is not a valid Avro schema: its references nest deeper than 128 levels \(a reference of a reference of …\)$/,
    )
    const fetched = registry.requests
      .slice(before)
      .filter((r) => /\/artifacts\/Long\d+\/versions\/1$/.test(r.path))
      .map((r) => r.path.replace(/.*artifacts\/(Long\d+).*/, '$1'))
    expect(fetched).toHaveLength(128)
    expect(fetched).not.toContain('Long0')
  })

  it('128 levels deep are read', async () => {
    await registerChain('Short', 129)
    let value: unknown = {}
    for (let i = 0; i < 128; i++) value = { f: value }
    expect((await new AvroSerializer(client, 'Short128').serialize(value, ctx)).length).toBeGreaterThan(0)
  })
})
