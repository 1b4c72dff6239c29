import { failedMessageOf } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { thrown } from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AvroDeserializer } from './avro-deserializer.js'
import { AvroSerializer } from './avro-serializer.js'

// `framedDecoderOf`: the decoder of one prepared writer schema id that the adapters' warm path holds, against the
// deserializer's own `deserializeMessageSync` on the same frames.

const USER = {
  type: 'record',
  name: 'User',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'age', type: 'int' },
  ],
}
const ctx = new SerializationContext('users')

let registry: InMemoryRegistry
let client: RegistryClient
let frame: Buffer
let id: number

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
  const serializer = new AvroSerializer(client, 'users-framed', { autoRegister: true, schema: USER })
  frame = Buffer.from(await serializer.serialize({ id: 'u1', age: 42 }, ctx))
  id = frame.readUInt32BE(1)
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

describe('SchemaDeserializer#framedDecoderOf', () => {
  it('is undefined until the id is prepared, then decodes its frames as deserializeMessageSync does', async () => {
    const deserializer = new AvroDeserializer(client)
    expect(deserializer.framedDecoderOf(id, ctx)).toBeUndefined()
    await deserializer.prepare(id)
    const decode = deserializer.framedDecoderOf(id, ctx)!
    expect(decode(frame, undefined)).toEqual({ id: 'u1', age: 42 })
    expect(decode(frame, { trace: 'x' })).toEqual(
      deserializer.deserializeMessageSync({ payload: frame }, ctx),
    )
  })

  it('fails on a broken payload with the error deserializeMessageSync gives, the failed message recorded', async () => {
    const deserializer = new AvroDeserializer(client)
    await deserializer.prepare(id)
    const broken = frame.subarray(0, 7)
    const headers = { trace: 'x' }
    const mine = thrown(() => deserializer.framedDecoderOf(id, ctx)!(broken, headers))
    const theirs = thrown(() => deserializer.deserializeMessageSync({ payload: broken, headers }, ctx))
    expect(mine.name).toBe('DeserializationError')
    expect(mine.message).toBe(theirs.message)
    expect(failedMessageOf(mine)).toEqual(failedMessageOf(theirs))
    expect(failedMessageOf(mine)).toMatchObject({
      payload: broken,
      schemaId: id,
      idType: 'globalId',
      headers,
    })
  })

  it("reads a frame in Avro's JSON encoding when the message's encoding header says JSON, as deserializeMessageSync does", async () => {
    const json = new AvroSerializer(client, 'users-framed', { avro: { encoding: 'json' } })
    const jsonFrame = Buffer.from(await json.serialize({ id: 'u2', age: 7 }, ctx))
    expect(jsonFrame.readUInt32BE(1)).toBe(id)
    const headers = { 'apicurio.value.encoding': Buffer.from('JSON') }
    const deserializer = new AvroDeserializer(client)
    await deserializer.prepare(id)
    const decode = deserializer.framedDecoderOf(id, ctx)!
    expect(decode(jsonFrame, headers)).toEqual({ id: 'u2', age: 7 })
    expect(deserializer.deserializeMessageSync({ payload: jsonFrame, headers }, ctx)).toEqual({
      id: 'u2',
      age: 7,
    })
    const binary = thrown(() => decode(jsonFrame, undefined))
    expect(binary.name).toBe('DeserializationError')
    expect(binary.message).toBe(
      thrown(() => deserializer.deserializeMessageSync({ payload: jsonFrame }, ctx)).message,
    )
  })

  it('hands each decoded value to fromDict, with the context, as deserializeMessageSync does', async () => {
    const seen: unknown[] = []
    const deserializer = new AvroDeserializer(client, {
      fromDict: (value, context) => {
        seen.push(context)
        return { user: value }
      },
    })
    await deserializer.prepare(id)
    expect(deserializer.framedDecoderOf(id, ctx)!(frame, undefined)).toEqual({ user: { id: 'u1', age: 42 } })
    expect(deserializer.deserializeMessageSync({ payload: frame }, ctx)).toEqual({
      user: { id: 'u1', age: 42 },
    })
    expect(seen).toEqual([ctx, ctx])
  })

  it('is undefined when something is looked up per message: the latest version as reader, or data-contract rules', async () => {
    const latest = new AvroDeserializer(client, { useLatestVersion: true, artifactId: 'users-framed' })
    await latest.prepare(id, ctx)
    expect(latest.isPrepared(id, ctx)).toBe(true)
    expect(latest.framedDecoderOf(id, ctx)).toBeUndefined()
    const ruled = new AvroDeserializer(client, { rules: { enabled: true } })
    await ruled.prepare(id)
    expect(ruled.framedDecoderOf(id, ctx)).toBeUndefined()
  })
})
