import { failedMessageOf, SchemaNotFoundError } from '@x/errors'
import { AnyDeserializer } from '@x/message-contract'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApicurioSchemaRegistry, type ConsumedKafkaMessage, type DeadLetter, KafkaJsSerde } from './index.js'

// Messages that fail for the same reason at the same time (one lookup of an unknown id, shared by both) each get an
// error of their own, naming that message: a dead-letter handler must never be handed another message's bytes.

let registry: InMemoryRegistry

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
})

afterAll(async () => {
  await registry.close()
})

/** A frame of the unknown globalId 999999 (0x000f423f) with a payload byte of its own. */
const unknownFrame = (last: number) => Buffer.from([0, 0, 0x0f, 0x42, 0x3f, last])

const consumedAt = (value: Buffer, offset: string): ConsumedKafkaMessage => ({
  key: Buffer.from(`k-${offset}`),
  value,
  headers: { trace: Buffer.from(offset) },
  offset,
  timestamp: '0',
})

async function withClient<T>(run: (client: RegistryClient) => Promise<T>): Promise<T> {
  const client = new RegistryClient({ url: registry.url, groupId: 'default' })
  try {
    return await run(client)
  } finally {
    await client.close()
  }
}

describe('an error belongs to one message', () => {
  it('KafkaJsSerde#decodeMessage: two frames of one unknown id read at once reject with two errors, each naming its own message', async () => {
    await withClient(async (client) => {
      const serde = new KafkaJsSerde(client, { preload: false })
      const first = consumedAt(unknownFrame(1), '100')
      const second = consumedAt(unknownFrame(2), '200')
      const [a, b] = await Promise.allSettled([
        serde.decodeMessage('orders', 0, first),
        serde.decodeMessage('orders', 1, second),
      ])
      const errorA = (a as PromiseRejectedResult).reason
      const errorB = (b as PromiseRejectedResult).reason
      expect(errorA).toBeInstanceOf(SchemaNotFoundError)
      expect(errorB).toBeInstanceOf(SchemaNotFoundError)
      expect(errorB).not.toBe(errorA)
      expect([errorA.code, errorB.code]).toEqual(['SCHEMA_NOT_FOUND', 'SCHEMA_NOT_FOUND'])
      expect(errorB.message).toBe(errorA.message)
      expect(errorB.cause).toBe(errorA.cause)
      expect(failedMessageOf(errorA)).toMatchObject({
        payload: first.value,
        headers: first.headers,
        context: { topic: 'orders', field: 'value' },
        partition: 0,
        offset: '100',
      })
      expect(failedMessageOf(errorB)).toMatchObject({
        payload: second.value,
        headers: second.headers,
        context: { topic: 'orders', field: 'value' },
        partition: 1,
        offset: '200',
      })
    })
  })

  it('KafkaJsSerde#decodeMessage: the same frame consumed twice at two offsets gets two errors', async () => {
    await withClient(async (client) => {
      const serde = new KafkaJsSerde(client, { preload: false })
      const frame = unknownFrame(3)
      const [a, b] = await Promise.allSettled([
        serde.decodeMessage('orders', 0, consumedAt(frame, '100')),
        serde.decodeMessage('orders', 1, consumedAt(frame, '200')),
      ])
      const errorA = (a as PromiseRejectedResult).reason
      const errorB = (b as PromiseRejectedResult).reason
      expect(errorB).not.toBe(errorA)
      expect([failedMessageOf(errorA)?.partition, failedMessageOf(errorA)?.offset]).toEqual([0, '100'])
      expect([failedMessageOf(errorB)?.partition, failedMessageOf(errorB)?.offset]).toEqual([1, '200'])
      expect(failedMessageOf(errorB)?.headers).toEqual({ trace: Buffer.from('200') })
    })
  })

  it('eachBatch and eachMessage dead-letter each message with its own error, also when read one after the other', async () => {
    await withClient(async (client) => {
      const serde = new KafkaJsSerde(client, { preload: false })
      const dead: DeadLetter[] = []
      const options = { deadLetter: (letter: DeadLetter) => void dead.push(letter) }
      const batch = [consumedAt(unknownFrame(4), '1'), consumedAt(unknownFrame(5), '2')]
      await serde.eachBatch(async () => {}, options)({
        batch: { topic: 'orders', partition: 2, messages: batch },
        resolveOffset: () => {},
        heartbeat: async () => {},
        isRunning: () => true,
        isStale: () => false,
      })
      const each = serde.eachMessage(async () => {}, options)
      const single = [consumedAt(unknownFrame(6), '3'), consumedAt(unknownFrame(7), '4')]
      await Promise.all(single.map((message) => each({ topic: 'orders', partition: 3, message })))
      expect(new Set(dead.map((letter) => letter.error)).size).toBe(4)
      expect(
        dead.map((letter) => {
          const failed = failedMessageOf(letter.error)
          return [failed?.partition, failed?.offset, failed?.payload]
        }),
      ).toEqual([
        [2, '1', unknownFrame(4)],
        [2, '2', unknownFrame(5)],
        [3, '3', unknownFrame(6)],
        [3, '4', unknownFrame(7)],
      ])
    })
  })

  it('AnyDeserializer#deserializeMessage: concurrent reads of one unknown id reject with errors of their own', async () => {
    await withClient(async (client) => {
      const any = new AnyDeserializer(client)
      const ctx = new SerializationContext('orders', 'value')
      const payloads = [unknownFrame(8), unknownFrame(9)]
      const errors = await Promise.all(
        payloads.map((payload) =>
          any.deserializeMessage({ payload, headers: {} }, ctx).then(
            () => undefined,
            (error: unknown) => error,
          ),
        ),
      )
      expect(errors[1]).not.toBe(errors[0])
      expect(errors.map((error) => failedMessageOf(error)?.payload)).toEqual(payloads)
      expect(errors.every((error) => error instanceof SchemaNotFoundError)).toBe(true)
    })
  })

  it('ApicurioSchemaRegistry: two records of one unknown id refused by their deserializers, each error naming its record', async () => {
    await withClient(async (client) => {
      const reg = new ApicurioSchemaRegistry(client, { preload: false })
      const hook = reg.getBeforeDeserializationHook()
      const records = [
        {
          topic: 'orders',
          partition: 0,
          key: null,
          value: unknownFrame(10),
          headers: [] as [Buffer, Buffer][],
        },
        {
          topic: 'orders',
          partition: 1,
          key: null,
          value: unknownFrame(11),
          headers: [] as [Buffer, Buffer][],
        },
      ]
      await Promise.all(
        records.map(
          (record) =>
            new Promise<void>((resolve, reject) =>
              hook(record.value, 'value', record, (error) => (error ? reject(error) : resolve())),
            ),
        ),
      )
      const read = reg.getDeserializers().value
      const errors = records.map((record) => {
        try {
          read(record.value, new Map(), record)
          return undefined
        } catch (error) {
          return error
        }
      })
      expect(errors[1]).not.toBe(errors[0])
      expect(errors.every((error) => error instanceof SchemaNotFoundError)).toBe(true)
      expect(errors.map((error) => failedMessageOf(error))).toEqual([
        expect.objectContaining({
          payload: records[0]!.value,
          partition: 0,
          context: { topic: 'orders', field: 'value' },
        }),
        expect.objectContaining({
          payload: records[1]!.value,
          partition: 1,
          context: { topic: 'orders', field: 'value' },
        }),
      ])
    })
  })
})
