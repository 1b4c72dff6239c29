import { AvroSerializer } from '@x/avro-serde'
import { DeserializationError, failedMessageOf } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { thrown } from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { AnyDeserializer, MessageContract } from './index.js'

// The warm path of `readNow`: once a framed read of a field succeeded, the next frames of that id on that topic are
// decoded with what that read prepared. Each case compares it with the full path of a contract that never warmed up.

const ORDER = {
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'sku', type: 'string' },
  ],
}
const ORDER_V2 = { ...ORDER, fields: [...ORDER.fields, { name: 'qty', type: 'int', default: 1 }] }

let registry: InMemoryRegistry
let writer: RegistryClient
let v1: AvroSerializer<{ id: number; sku: string }>
let v2: AvroSerializer<{ id: number; sku: string; qty: number }>

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  writer = new RegistryClient({ url: registry.url, groupId: 'default' })
  v1 = new AvroSerializer(writer, 'orders-prepared', { autoRegister: true, schema: ORDER })
  v2 = new AvroSerializer(writer, 'orders-prepared-v2', { autoRegister: true, schema: ORDER_V2 })
})

afterAll(async () => {
  await writer.close()
  await registry.close()
})

afterEach(() => {
  vi.restoreAllMocks()
})

const ctx = new SerializationContext('orders', 'value')

async function frame(id: number): Promise<Buffer> {
  return Buffer.from(await v1.serialize({ id, sku: `sku-${id}` }, ctx))
}

/** A contract on a client of its own, warmed up by one message of `first` (its async read, then one `readNow`). */
async function warmed(first: Buffer, options: ConstructorParameters<typeof MessageContract>[1] = {}) {
  const client = new RegistryClient({ url: registry.url, groupId: 'default' })
  const contract = new MessageContract(client, { preload: false, ...options })
  await contract.read('orders', 'value', first, {})
  expect(contract.readNow('orders', 'value', first, {})).toBeDefined()
  return { client, contract }
}

describe('MessageContract, frames of a prepared id', () => {
  it('decodes the next frames of the id with no call into the deserializer or the registry, each value and schema exact', async () => {
    const { client, contract } = await warmed(await frame(1))
    const id = (await frame(1)).readUInt32BE(1)
    const now = vi.spyOn(AnyDeserializer.prototype, 'deserializeMessageNow')
    const prepared = vi.spyOn(AnyDeserializer.prototype, 'isPrepared')
    const requests = registry.requests.length
    for (let n = 2; n < 50; n++) {
      const bytes = await frame(n)
      expect(contract.preparedFrameOf('orders', 'value', bytes, {})).toMatchObject({
        topic: 'orders',
        idType: 'globalId',
        id,
      })
      expect(contract.readNow('orders', 'value', bytes, {})).toEqual({
        value: { id: n, sku: `sku-${n}` },
        schema: { idType: 'globalId', id, framed: true, format: 'AVRO' },
      })
    }
    expect(now).not.toHaveBeenCalled()
    expect(prepared).not.toHaveBeenCalled()
    expect(registry.requests.length).toBe(requests)
    await client.close()
  })

  it('gives the reads of a prepared frame one frozen schema object, the read that prepared it included', async () => {
    const client = new RegistryClient({ url: registry.url, groupId: 'default' })
    const contract = new MessageContract(client, { preload: false })
    await contract.read('orders', 'value', await frame(1), {})
    const first = contract.readNow('orders', 'value', await frame(1), {})!
    const a = contract.readNow('orders', 'value', await frame(2), {})!
    const b = contract.readNow('orders', 'value', await frame(3), {})!
    expect(a.schema).toBe(first.schema)
    expect(b.schema).toBe(first.schema)
    expect(Object.isFrozen(a.schema)).toBe(true)
    expect(a.value).not.toBe(b.value)
    await client.close()
  })

  it('gives a frozen schema object on every other path too: the first read of an id, a header id, a decode', async () => {
    const client = new RegistryClient({ url: registry.url, groupId: 'default' })
    const contract = new MessageContract(client, { preload: false })
    const first = await contract.read('orders', 'value', await frame(1), {})
    const decoded = await contract.decode('orders', null, await frame(2), {})
    const header = Buffer.alloc(8)
    const bare = await frame(3)
    header.writeBigInt64BE(BigInt(bare.readUInt32BE(1)))
    const headers = { 'apicurio.value.globalId': header }
    const byHeader = contract.readNow('orders', 'value', bare.subarray(5), headers)!
    const byHeaderLater = await contract.read('orders', 'value', bare.subarray(5), headers)
    expect(byHeader.schema).toEqual({
      idType: 'globalId',
      id: bare.readUInt32BE(1),
      framed: false,
      format: 'AVRO',
    })
    for (const schema of [first.schema, decoded.schema, byHeader.schema, byHeaderLater.schema]) {
      expect(Object.isFrozen(schema)).toBe(true)
      expect(() => {
        ;(schema as { id: number }).id = 0
      }).toThrow(TypeError)
    }
    await client.close()
  })

  it('reads a frame of another id, another topic or one with an id header by the full path, as a cold contract does', async () => {
    const { client, contract } = await warmed(await frame(1))
    const cold = await warmed(await frame(1))
    const other = Buffer.from(await v2.serialize({ id: 5, sku: 'b', qty: 3 }, ctx))
    await cold.contract.read('orders', 'value', other, {})
    await cold.contract.read('returns', 'value', await frame(6), {})
    expect(contract.preparedFrameOf('orders', 'value', other, {})).toBeUndefined()
    expect(contract.preparedFrameOf('returns', 'value', await frame(6), {})).toBeUndefined()
    const now = vi.spyOn(AnyDeserializer.prototype, 'deserializeMessageNow')
    // Not prepared yet on this contract: the full path says so (undefined), then reads it once prepared.
    expect(contract.readNow('orders', 'value', other, {})).toBeUndefined()
    await contract.read('orders', 'value', other, {})
    expect(contract.readNow('orders', 'value', other, {})).toEqual(
      cold.contract.readNow('orders', 'value', other, {}),
    )
    expect(contract.readNow('orders', 'value', other, {})).toEqual({
      value: { id: 5, sku: 'b', qty: 3 },
      schema: { idType: 'globalId', id: other.readUInt32BE(1), framed: true, format: 'AVRO' },
    })
    expect(now).toHaveBeenCalled()
    // The first id again (the field's last framed read is now the other id's), and another topic.
    expect(contract.readNow('orders', 'value', await frame(7), {})?.value).toEqual({ id: 7, sku: 'sku-7' })
    expect(contract.readNow('returns', 'value', await frame(8), {})?.value).toEqual({ id: 8, sku: 'sku-8' })
    // An id header of the value names another schema than the frame's bytes: the header wins, as on the full path.
    const header = Buffer.alloc(8)
    header.writeBigInt64BE(BigInt(other.readUInt32BE(1)))
    const bare = Buffer.from(await v2.serialize({ id: 9, sku: 'h', qty: 2 }, ctx)).subarray(5)
    const headers = { 'apicurio.value.globalId': header }
    expect(contract.preparedFrameOf('orders', 'value', bare, headers)).toBeUndefined()
    expect(contract.readNow('orders', 'value', bare, headers)?.value).toEqual({ id: 9, sku: 'h', qty: 2 })
    await client.close()
    await cold.client.close()
  })

  it('makes an id prepared by prepare, or found prepared by isPrepared on another topic, that of the warm frames', async () => {
    const client = new RegistryClient({ url: registry.url, groupId: 'default' })
    const contract = new MessageContract(client, { preload: false })
    const bytes = await frame(2)
    const id = bytes.readUInt32BE(1)
    expect(contract.isPrepared('orders', 'value', 'globalId', id)).toBe(false)
    expect(contract.preparedFrameOf('orders', 'value', bytes, {})).toBeUndefined()
    await contract.prepare('orders', 'value', 'globalId', id)
    expect(contract.preparedFrameOf('orders', 'value', bytes, {})).toMatchObject({
      topic: 'orders',
      idType: 'globalId',
      id,
    })
    const now = vi.spyOn(AnyDeserializer.prototype, 'deserializeMessageNow')
    const first = contract.readNow('orders', 'value', bytes, {})
    expect(first).toEqual({
      value: { id: 2, sku: 'sku-2' },
      schema: { idType: 'globalId', id, framed: true, format: 'AVRO' },
    })
    expect(contract.readNow('orders', 'value', await frame(3), {})?.schema).toBe(first?.schema)
    expect(now).not.toHaveBeenCalled()
    // Another topic: nothing warm there until a read, or an isPrepared that finds the id cached.
    expect(contract.preparedFrameOf('returns', 'value', bytes, {})).toBeUndefined()
    expect(contract.isPrepared('returns', 'value', 'globalId', id)).toBe(true)
    expect(contract.preparedFrameOf('returns', 'value', bytes, {})).toMatchObject({ topic: 'returns', id })
    expect(contract.readNow('returns', 'value', await frame(4), {})?.value).toEqual({ id: 4, sku: 'sku-4' })
    expect(now).not.toHaveBeenCalled()
    await client.close()
  })

  it('refuses a broken payload of the prepared id with the error the full path gives, the failed message recorded', async () => {
    const { client, contract } = await warmed(await frame(1))
    const fresh = new RegistryClient({ url: registry.url, groupId: 'default' })
    const full = new MessageContract(fresh, { preload: false })
    const good = await frame(2)
    const broken = good.subarray(0, 8)
    await full.read('orders', 'value', good, {})
    expect(contract.preparedFrameOf('orders', 'value', broken, {})).toBeDefined()
    const warm = thrown(() => contract.readNow('orders', 'value', broken, { trace: 'x' }))
    // `full` prepared the id through `read` only, so its readNow takes the full path.
    expect(full.preparedFrameOf('orders', 'value', broken, {})).toBeUndefined()
    const cold = thrown(() => full.readNow('orders', 'value', broken, { trace: 'x' }))
    expect(warm).toBeInstanceOf(DeserializationError)
    expect(cold).toBeInstanceOf(DeserializationError)
    expect(warm.message).toBe(cold.message)
    expect(failedMessageOf(warm)).toEqual(failedMessageOf(cold))
    expect(failedMessageOf(warm)).toMatchObject({
      payload: broken,
      schemaId: good.readUInt32BE(1),
      idType: 'globalId',
      headers: { trace: 'x' },
      context: { topic: 'orders', field: 'value' },
    })
    await client.close()
    await fresh.close()
  })

  it('keeps no prepared frame when data-contract rules run on each record, nor for 8-byte ids', async () => {
    const { client, contract } = await warmed(await frame(1), { rules: { enabled: true } })
    expect(contract.preparedFrameOf('orders', 'value', await frame(2), {})).toBeUndefined()
    expect(contract.readNow('orders', 'value', await frame(2), {})?.value).toEqual({ id: 2, sku: 'sku-2' })
    const wide = await warmed(await frame(1), { anyDeserializer: { idSize: 'auto' } })
    expect(wide.contract.preparedFrameOf('orders', 'value', await frame(2), {})).toBeUndefined()
    expect(wide.contract.readNow('orders', 'value', await frame(2), {})?.value).toEqual({
      id: 2,
      sku: 'sku-2',
    })
    await client.close()
    await wide.client.close()
  })
})
