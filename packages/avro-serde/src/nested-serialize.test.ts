import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AvroSerializer } from './avro-serializer.js'

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const ctx = new SerializationContext('users')

let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 1, firstContentId: 1 })
  client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0 })
  await client.registerSchema('UserEvent', {
    type: 'record',
    name: 'UserEvent',
    fields: [
      { name: 'id', type: 'string' },
      { name: 'age', type: 'int' },
    ],
  })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

describe.each(['binary', 'json'] as const)(
  'an AvroSerializer (%s encoding) called from a getter of the value it writes',
  (encoding) => {
    it('returns the inner message and the outer one each intact', async () => {
      const serializer = new AvroSerializer(client, 'UserEvent', { avro: { encoding } })
      const alone = new AvroSerializer(client, 'UserEvent', { avro: { encoding } })
      await Promise.all([serializer.prepare(ctx), alone.prepare(ctx)])
      // Every read of the field serializes again: the strict check reads it, then the encoder while writing.
      const inner: Uint8Array[] = []
      const outer = serializer.serializeSync(
        {
          id: 'outer',
          get age(): number {
            inner.push(serializer.serializeSync({ id: 'inner-id', age: 7 }, ctx))
            return 42
          },
        },
        ctx,
      )
      expect(inner.length).toBe(1)
      const expected = hex(alone.serializeSync({ id: 'inner-id', age: 7 }, ctx))
      expect(inner.map(hex)).toEqual(inner.map(() => expected))
      expect(hex(outer)).toBe(hex(alone.serializeSync({ id: 'outer', age: 42 }, ctx)))
    })
  },
)
