import { failedMessageOf } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { thrown } from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { JsonSchemaDeserializer } from './json-schema-deserializer.js'
import { JsonSchemaSerializer } from './json-schema-serializer.js'

// `framedDecoderOf` of JSON Schema (what the Kafka adapters' warm path holds) against the deserializer's own
// `deserializeMessageSync` on the same frames: values, integers beyond 2^53, and each kind of failure.

const ctx = new SerializationContext('orders')
const schema = {
  title: 'Order',
  type: 'object',
  properties: { id: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
  required: ['id', 'qty'],
}
let registry: InMemoryRegistry
let client: RegistryClient
let id: number

const framed = (text: string): Buffer => {
  const frame = Buffer.alloc(5)
  frame.writeUInt32BE(id, 1)
  return Buffer.concat([frame, Buffer.from(text, 'utf8')])
}

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
  const serializer = new JsonSchemaSerializer(client, 'orders-value', { autoRegister: true, schema })
  id = Buffer.from(await serializer.serialize({ id: 'o1', qty: 1 }, ctx)).readUInt32BE(1)
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

describe('JsonSchemaDeserializer#framedDecoderOf', () => {
  it('decodes a frame, and an integer beyond 2^53 exactly, as deserializeMessageSync does', async () => {
    const deserializer = new JsonSchemaDeserializer(client, { validate: true })
    await deserializer.prepare(id)
    const decode = deserializer.framedDecoderOf(id, ctx)!
    const plain = framed('{"id":"o1","qty":3}')
    expect(decode(plain, undefined)).toEqual({ id: 'o1', qty: 3 })
    const big = framed('{"id":"o2","qty":9007199254740993}')
    expect(decode(big, undefined)).toEqual({ id: 'o2', qty: 9007199254740993n })
    expect(deserializer.deserializeMessageSync({ payload: big }, ctx)).toEqual({
      id: 'o2',
      qty: 9007199254740993n,
    })
  })

  it.each([
    ['a value the schema refuses', '{"id":"o1","qty":0}', 'qty: expected to be >= 1, got number 0 (minimum)'],
    ['text that is not JSON', '{"id":"o1",', 'Cannot decode the JSON Schema payload'],
    ['an integer beyond 2^53 the schema refuses', '{"id":1,"qty":9007199254740993}', 'id: expected string'],
  ])(
    'fails on %s with the error deserializeMessageSync gives, the failed message recorded',
    async (_, text, says) => {
      const deserializer = new JsonSchemaDeserializer(client, { validate: true })
      await deserializer.prepare(id)
      const payload = framed(text)
      const headers = { trace: 'x' }
      const mine = thrown(() => deserializer.framedDecoderOf(id, ctx)!(payload, headers))
      const theirs = thrown(() => deserializer.deserializeMessageSync({ payload, headers }, ctx))
      expect(mine.name).toBe('DeserializationError')
      expect(mine.message).toContain(says)
      expect(mine.constructor).toBe(theirs.constructor)
      expect(mine.message).toBe(theirs.message)
      expect((mine.cause as Error).constructor).toBe((theirs.cause as Error).constructor)
      expect((mine.cause as { code?: string }).code).toBe((theirs.cause as { code?: string }).code)
      expect(failedMessageOf(mine)).toEqual(failedMessageOf(theirs))
      expect(failedMessageOf(mine)).toMatchObject({ payload, schemaId: id, idType: 'globalId', headers })
    },
  )
})
