import { setImmediate } from 'node:timers/promises'
import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import {
  DeserializationError,
  failedMessageOf,
  RegistryConnectionError,
  SchemaNotFoundError,
} from '@x/errors'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { AnyDeserializer } from '@x/message-contract'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  type ConsumedKafkaMessage,
  type DeadLetter,
  KafkaJsSerde,
  type OutgoingKafkaMessage,
} from './index.js'
import { formatsLoaded, preloadedInBackground } from './test-support/preloaded.js'

let registry: InMemoryRegistry
let client: RegistryClient

const ORDER = { type: 'record', name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: 'long' }] }
const NOTE = { type: 'object', properties: { text: { type: 'string' } } }

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

/** What a consumer hands over for a message that was sent as `sent`, at `offset`. */
function consumed(sent: OutgoingKafkaMessage, offset = '0'): ConsumedKafkaMessage {
  const bytes = (value: Buffer | string | null | undefined) =>
    value === null || value === undefined ? null : Buffer.isBuffer(value) ? value : Buffer.from(value)
  return {
    key: bytes(sent.key),
    value: bytes(sent.value),
    headers: sent.headers ?? {},
    offset,
    timestamp: '0',
  }
}

const avroSerde = () =>
  new KafkaJsSerde<{ id: number | bigint }>(client, {
    serializer: new AvroSerializer(client, 'orders-value', { autoRegister: true, schema: ORDER }),
  })

describe('KafkaJsSerde.encodeMessage and decodeMessage', () => {
  it('write a framed value with a string key and read them back with the schema that wrote the value', async () => {
    const serde = avroSerde()
    const sent = await serde.encodeMessage('orders', {
      key: 'o-1',
      value: { id: 7 },
      headers: { trace: 't-1' },
    })
    expect(sent.key).toEqual(Buffer.from('o-1'))
    expect((sent.value as Buffer)[0]).toBe(0)
    expect(sent.headers).toEqual({ trace: 't-1' })
    const decoded = await serde.decodeMessage('orders', 3, consumed(sent, '42'))
    const id = (sent.value as Buffer).readUInt32BE(1)
    expect(decoded).toEqual({
      topic: 'orders',
      partition: 3,
      offset: '42',
      timestamp: '0',
      key: 'o-1',
      value: { id: 7 },
      headers: { trace: 't-1' },
      schema: { idType: 'globalId', id, framed: true, format: 'AVRO' },
    })
  })

  it('write headers mode with the id header beside the caller’s headers, and read it back by that header', async () => {
    const serde = new KafkaJsSerde(client, {
      serializer: new JsonSchemaSerializer(client, 'notes-value', {
        autoRegister: true,
        schema: NOTE,
        wireFormat: 'MESSAGE_HEADERS',
        useId: 'contentId',
      }),
    })
    const sent = await serde.encodeMessage('notes', { value: { text: 'hi' }, headers: { trace: 't-2' } })
    expect(Object.keys(sent.headers ?? {}).sort()).toEqual(['apicurio.value.contentId', 'trace'])
    expect(sent.value).toEqual(Buffer.from('{"text":"hi"}'))
    const decoded = await serde.decodeMessage('notes', 0, consumed(sent))
    expect(decoded.value).toEqual({ text: 'hi' })
    expect(decoded.schema).toMatchObject({ idType: 'contentId', framed: false, format: 'JSON' })
  })

  it('pass a tombstone through: no value written, none read, no schema', async () => {
    const serde = avroSerde()
    const sent = await serde.encodeMessage('orders', { key: 'o-9', value: null })
    expect(sent).toEqual({ key: Buffer.from('o-9'), value: null, headers: {} })
    const decoded = await serde.decodeMessage('orders', 0, consumed(sent))
    expect([decoded.key, decoded.value, decoded.schema]).toEqual(['o-9', null, null])
  })

  it('write and read keys with a serde of their own, or as bytes', async () => {
    const keySchema = {
      type: 'record',
      name: 'OrderKey',
      namespace: 'shop',
      fields: [{ name: 'n', type: 'int' }],
    }
    const keyed = new KafkaJsSerde<{ id: number | bigint }, { n: number }>(client, {
      serializer: new AvroSerializer(client, 'orders-value', { autoRegister: true, schema: ORDER }),
      keys: {
        serializer: new AvroSerializer(client, 'orders-key', { autoRegister: true, schema: keySchema }),
        deserializer: new AvroDeserializer(client),
      },
    })
    const sent = await keyed.encodeMessage('orders', { key: { n: 5 }, value: { id: 1 } })
    expect((await keyed.decodeMessage('orders', 0, consumed(sent))).key).toEqual({ n: 5 })
    const raw = new KafkaJsSerde(client, { keys: 'bytes' })
    const bytes = await raw.decodeMessage('orders', 0, { ...consumed(sent), key: Buffer.from([1, 2]) })
    expect(bytes.key).toEqual(Buffer.from([1, 2]))
  })

  it('reads a key that starts with 0x00 as its type says, never as a guessed frame; a key id header reads it by its schema', async () => {
    const serde = avroSerde()
    const framedKey = Buffer.from([0, 0, 0, 0, 1, 2])
    const decoded = await serde.decodeMessage('orders', 0, {
      key: framedKey,
      value: null,
      headers: {},
      offset: '9',
      timestamp: '0',
    })
    expect(decoded.key).toBe('\u0000\u0000\u0000\u0000\u0001\u0002')
    const headerKey = await serde
      .decodeMessage('orders', 0, {
        key: Buffer.from('o-1'),
        value: null,
        headers: { 'apicurio.key.globalId': Buffer.alloc(8) },
        offset: '9',
        timestamp: '0',
      })
      .catch((e: unknown) => e)
    // The header names a schema (globalId 0, which no registry assigns): the key is read by it, and refused.
    expect(headerKey).toBeInstanceOf(SchemaNotFoundError)
    expect(failedMessageOf(headerKey)).toMatchObject({
      payload: Buffer.from('o-1'),
      context: { topic: 'orders', field: 'key' },
      partition: 0,
      offset: '9',
    })
    const short = await serde
      .decodeMessage('orders', 0, {
        key: null,
        value: Buffer.from([1, 2]),
        headers: { 'apicurio.value.globalId': Buffer.from([0, 0, 1]) },
        offset: '9',
        timestamp: '0',
      })
      .catch((e: unknown) => e)
    expect(short).toBeInstanceOf(DeserializationError)
    expect((short as Error).message).toMatch(/^Cannot read header 'apicurio\.value\.globalId': .*8 bytes.*3/)
    const twice = await serde
      .decodeMessage('orders', 1, {
        key: null,
        value: Buffer.from([2]),
        headers: { 'apicurio.value.globalId': [Buffer.alloc(8, 0), Buffer.from([0, 0, 0, 0, 0, 0, 0, 7])] },
        offset: '10',
        timestamp: '0',
      })
      .catch((e: unknown) => e)
    expect(twice).toBeInstanceOf(DeserializationError)
    expect((twice as Error).message).toBe(
      "A message of topic 'orders' carries the header apicurio.value.globalId 2 times with different ids (0x0000000000000000, 0x0000000000000007): which schema wrote its value cannot be told",
    )
    expect(failedMessageOf(twice)).toMatchObject({
      payload: Buffer.from([2]),
      context: { topic: 'orders', field: 'value' },
      partition: 1,
      offset: '10',
    })
    expect(failedMessageOf(short)).toMatchObject({
      payload: Buffer.from([1, 2]),
      context: { topic: 'orders', field: 'value' },
      partition: 0,
      offset: '9',
    })
  })

  it('refuses a value of the wrong shape on produce with the failing path, saying which topic and field it was for', async () => {
    const error = await avroSerde()
      .encodeMessage('orders', { key: 'o-1', value: { id: 'one' as never } })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect(error).toMatchObject({ code: 'INVALID_DATA', paths: ['id'] })
    expect((error as { context?: unknown }).context).toEqual({ topic: 'orders', field: 'value' })
    expect(Object.keys(error as object)).not.toContain('context')
    const key = await avroSerde()
      .encodeMessage('orders', { key: 7 as never, value: { id: 1 } })
      .catch((e: unknown) => e)
    expect((key as { context?: unknown }).context).toEqual({ topic: 'orders', field: 'key' })
  })

  it('writes a warm message in as few microtask turns with a string key as without, the caller’s headers copied, not kept', async () => {
    const serde = avroSerde()
    await serde.encodeMessage('orders', { value: { id: 0 } })
    const turns = async (message: Parameters<typeof serde.encodeMessage>[1]) => {
      let settled = false
      const sent = serde.encodeMessage('orders', message).finally(() => {
        settled = true
      })
      let count = 0
      while (!settled && count < 50) {
        await null
        count++
      }
      return { count, sent: await sent }
    }
    const plain = await turns({ value: { id: 1 } })
    const headers = { trace: 't-9' }
    const keyed = await turns({ key: 'o-1', value: { id: 1 }, headers })
    // The value's serializer, the contract's write and this method: one Promise each way, nothing more.
    expect(plain.count).toBeLessThanOrEqual(3)
    expect(keyed.count).toBe(plain.count)
    expect(keyed.sent.key).toEqual(Buffer.from('o-1'))
    expect(keyed.sent.value).toEqual(plain.sent.value)
    expect(keyed.sent.headers).toEqual({ trace: 't-9' })
    expect(keyed.sent.headers).not.toBe(headers)
    expect(plain.sent.headers).toEqual({})
    const none = await serde.encodeMessage('orders', { value: { id: 1 }, headers: null as never })
    expect(none.headers).toEqual({})
    expect(none.value).toEqual(plain.sent.value)
  })

  it('refuses what it cannot do, naming it (INVALID_CONFIG)', async () => {
    await expect(new KafkaJsSerde(client).encodeMessage('t', { value: 1 })).rejects.toThrow(
      'KafkaJsSerde: encodeMessage needs a serializer',
    )
    await expect(avroSerde().encodeMessage('t', { key: 5 as never, value: { id: 1 } })).rejects.toThrow(
      "A key written as 'string' (Java's StringSerializer) must be a string, got number 5",
    )
    expect(() => new KafkaJsSerde(client, { keys: 'utf8' as never })).toThrow(
      "KafkaJsSerde: keys must be one of 'string', 'bytes', 'long', 'int', 'short', 'double', 'float', 'uuid' or { serializer?, deserializer? }, got utf8",
    )
  })
})

describe('the eachMessage and eachBatch wrappers', () => {
  const poison = (offset: string): ConsumedKafkaMessage => ({
    key: Buffer.from('bad'),
    value: Buffer.from([1, 2, 3]),
    headers: { trace: 'p' },
    offset,
    timestamp: '0',
  })
  const unknownId = (offset: string): ConsumedKafkaMessage => ({
    key: null,
    value: Buffer.from([0, 0, 0x0f, 0x42, 0x3f, 2]),
    headers: {},
    offset,
    timestamp: '0',
  })

  it('hand decoded messages to the handler and poison messages to the dead-letter handler, untouched', async () => {
    const serde = avroSerde()
    const good = consumed(await serde.encodeMessage('orders', { key: 'o-1', value: { id: 1 } }), '0')
    const handled: unknown[] = []
    const dead: DeadLetter[] = []
    const each = serde.eachMessage(async ({ decoded }) => void handled.push(decoded.value), {
      deadLetter: (letter) => void dead.push(letter),
    })
    const bad = poison('1')
    for (const message of [good, bad, unknownId('2')]) await each({ topic: 'orders', partition: 0, message })
    expect(handled).toEqual([{ id: 1 }])
    expect(dead.map((letter) => [letter.message.offset, letter.error?.constructor])).toEqual([
      ['1', DeserializationError],
      ['2', SchemaNotFoundError],
    ])
    expect(dead[0]?.message).toBe(bad)
    expect(failedMessageOf(dead[0]?.error)?.payload).toEqual(Buffer.from([1, 2, 3]))
  })

  it('eachMessage calls the handler at once for a message of a cached id, a poison one still dead-lettered', async () => {
    const serde = avroSerde()
    const good = consumed(await serde.encodeMessage('orders', { key: 'o-1', value: { id: 3 } }), '0')
    const handled: unknown[] = []
    const dead: string[] = []
    const each = serde.eachMessage(async ({ decoded }) => void handled.push(decoded.value), {
      deadLetter: (letter) => void dead.push(letter.message.offset),
    })
    // The first message of an id waits for its lookup; the next ones need no Promise before the handler.
    await each({ topic: 'orders', partition: 0, message: good })
    const pending = each({ topic: 'orders', partition: 0, message: { ...good, offset: '1' } })
    expect(handled).toEqual([{ id: 3 }, { id: 3 }])
    await pending
    const bad = {
      ...good,
      value: Buffer.concat([good.value!.subarray(0, 5), Buffer.from([0x80])]),
      offset: '2',
    }
    await each({ topic: 'orders', partition: 0, message: bad })
    expect(dead).toEqual(['2'])
    expect(handled).toHaveLength(2)
  })

  it("eachMessage returns the handler's own Promise for a message of a cached id, and a throw as a rejection", async () => {
    const serde = avroSerde()
    const good = consumed(await serde.encodeMessage('orders', { key: 'o-1', value: { id: 4 } }), '0')
    const returned: Promise<void>[] = []
    const values: unknown[] = []
    const each = serde.eachMessage(({ decoded }) => {
      values.push(decoded.value)
      if (decoded.value === null) throw new TypeError('no tombstones here')
      const promise = Promise.resolve()
      returned.push(promise)
      return promise
    })
    // The first message of an id waits for its lookup: a Promise of the wrapper's own.
    const first = each({ topic: 'orders', partition: 0, message: good })
    await first
    expect(returned).toHaveLength(1)
    expect(first).not.toBe(returned[0])
    const second = each({ topic: 'orders', partition: 0, message: { ...good, offset: '1' } })
    expect(second).toBe(returned[1])
    const tombstone = each({ topic: 'orders', partition: 0, message: { ...good, value: null, offset: '2' } })
    expect(tombstone).toBeInstanceOf(Promise)
    await expect(tombstone).rejects.toThrow(new TypeError('no tombstones here'))
    const plain = serde.eachMessage((() => undefined) as never)
    await expect(
      plain({ topic: 'orders', partition: 0, message: { ...good, offset: '3' } }),
    ).resolves.toBeUndefined()
    expect(values).toEqual([{ id: 4 }, { id: 4 }, null])
  })

  it('read a healthy Avro value whose key Java wrote with LongSerializer (42L: 00 … 2a) with zero dead letters', async () => {
    const value = await new AvroSerializer(client, 'orders-value', {
      autoRegister: true,
      schema: ORDER,
    }).serialize({ id: 9 }, new SerializationContext('orders'))
    const key = Buffer.alloc(8)
    key.writeBigInt64BE(42n)
    expect(key.toString('hex')).toBe('000000000000002a')
    const message: ConsumedKafkaMessage = {
      key,
      value: Buffer.from(value),
      headers: {},
      offset: '5',
      timestamp: '0',
    }
    for (const [keys, expected] of [
      [undefined, '\u0000\u0000\u0000\u0000\u0000\u0000\u0000*'],
      ['long', 42],
      ['bytes', key],
    ] as const) {
      const handled: unknown[] = []
      const dead: DeadLetter[] = []
      const serde = new KafkaJsSerde(client, keys === undefined ? {} : { keys })
      const each = serde.eachMessage(async ({ decoded }) => void handled.push([decoded.key, decoded.value]), {
        deadLetter: (letter) => void dead.push(letter),
      })
      await each({ topic: 'orders', partition: 0, message })
      expect(dead).toEqual([])
      expect(handled).toEqual([[expected, { id: 9 }]])
    }
  })

  it('send a poison message to a dead-letter topic with its bytes, headers and where it came from', async () => {
    const sent: { topic: string; messages: OutgoingKafkaMessage[] }[] = []
    const producer = { send: async (record: (typeof sent)[number]) => void sent.push(record) }
    const each = avroSerde().eachMessage(async () => undefined, {
      deadLetter: { producer, topic: 'orders.DLQ' },
    })
    await each({ topic: 'orders', partition: 2, message: poison('17') })
    expect(sent).toHaveLength(1)
    expect(sent[0]?.topic).toBe('orders.DLQ')
    const [letter] = sent[0]?.messages ?? []
    expect(letter?.key).toEqual(Buffer.from('bad'))
    expect(letter?.value).toEqual(Buffer.from([1, 2, 3]))
    expect(letter?.headers).toMatchObject({
      trace: 'p',
      'x-serde-error-code': 'DESERIALIZATION',
      'x-serde-source': 'orders/2/17',
    })
    expect(String(letter?.headers?.['x-serde-error-message'])).toMatch(/^Invalid frame|magic byte/i)
  })

  it('throw an outage for the client to retry, never dead-letter it', async () => {
    const down = new RegistryClient({
      url: 'http://127.0.0.1:9/apis/registry/v3',
      groupId: 'g',
      maxRetries: 0,
    })
    const dead: DeadLetter[] = []
    const each = new KafkaJsSerde(down).eachMessage(async () => undefined, {
      deadLetter: (letter) => void dead.push(letter),
    })
    await expect(each({ topic: 'orders', partition: 0, message: unknownId('5') })).rejects.toBeInstanceOf(
      RegistryConnectionError,
    )
    expect(dead).toEqual([])
    await down.close()
  })

  it('stop at a dead-letter handler that throws, so that nothing is committed past the message', async () => {
    const each = avroSerde().eachMessage(async () => undefined, {
      deadLetter: () => {
        throw new Error('the DLQ is down')
      },
    })
    await expect(each({ topic: 'orders', partition: 0, message: poison('3') })).rejects.toThrow(
      'the DLQ is down',
    )
  })

  it('decode a batch in order: tombstones as null, poison dead-lettered, an outage thrown after the messages before it', async () => {
    const serde = avroSerde()
    const one = consumed(await serde.encodeMessage('orders', { key: 'a', value: { id: 1 } }), '0')
    const tombstone = consumed(await serde.encodeMessage('orders', { key: 'a', value: null }), '2')
    const two = consumed(await serde.encodeMessage('orders', { key: 'b', value: { id: 2 } }), '3')
    const batchOf = (messages: ConsumedKafkaMessage[]) => ({
      batch: { topic: 'orders', partition: 0, messages },
      resolveOffset: () => undefined,
      heartbeat: async () => undefined,
      isRunning: () => true,
      isStale: () => false,
    })
    const seen: unknown[][] = []
    const dead: string[] = []
    const each = serde.eachBatch(
      async ({ decoded }) => void seen.push(decoded.map((d) => [d.offset, d.value])),
      {
        deadLetter: (letter) => void dead.push(letter.message.offset),
      },
    )
    await each(batchOf([one, poison('1'), tombstone, two]))
    expect(seen).toEqual([
      [
        ['0', { id: 1 }],
        ['2', null],
        ['3', { id: 2 }],
      ],
    ])
    expect(dead).toEqual(['1'])

    const down = new RegistryClient({
      url: 'http://127.0.0.1:9/apis/registry/v3',
      groupId: 'g',
      maxRetries: 0,
    })
    const outageSeen: unknown[][] = []
    const during = new KafkaJsSerde(down).eachBatch(
      async ({ decoded }) => void outageSeen.push(decoded.map((d) => d.offset)),
    )
    await expect(during(batchOf([tombstone, unknownId('4'), two]))).rejects.toBeInstanceOf(
      RegistryConnectionError,
    )
    expect(outageSeen).toEqual([['2']])
    await down.close()

    const beforeFailedLetter: unknown[][] = []
    const failing = serde.eachBatch(
      async ({ decoded }) => void beforeFailedLetter.push(decoded.map((d) => d.offset)),
      {
        deadLetter: () => {
          throw new Error('the DLQ is down')
        },
      },
    )
    await expect(failing(batchOf([one, poison('1'), tombstone, two]))).rejects.toThrow('the DLQ is down')
    expect(beforeFailedLetter).toEqual([['0']])
  })
})

describe('KafkaJsSerde preload', () => {
  beforeEach(async () => {
    // The adapters of earlier tests start their background preload on the next turn: let them, before a spy counts.
    await setImmediate()
  })

  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('loads the three format readers in the background by default; with preload false only the format a message needs, when it arrives', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const read = vi.spyOn(AnyDeserializer.prototype, 'deserializeMessage')
    new KafkaJsSerde(client)
    const lazy = new KafkaJsSerde<{ id: number | bigint }>(client, { preload: false })
    const eager = await preloadedInBackground(preload)

    const writer = new KafkaJsSerde<{ id: number }>(client, {
      serializer: new AvroSerializer(client, 'orders-value', { autoRegister: true, schema: ORDER }),
      preload: false,
    })
    const sent = await writer.encodeMessage('orders', { key: 'o-1', value: { id: 7 } })
    const decoded = await lazy.decodeMessage('orders', 0, consumed(sent))
    expect(decoded.value).toEqual({ id: 7 })
    expect(preload).toHaveBeenCalledTimes(1)
    expect(read).toHaveBeenCalledTimes(1)
    const reader = read.mock.contexts[0] as AnyDeserializer
    expect(reader).not.toBe(eager)
    expect(formatsLoaded(reader)).toEqual({ AVRO: true, JSON: false, PROTOBUF: false })
  })

  it('loads no reader for a serde with a serializer until it makes a consumer handler, then loads all three once', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const both = new KafkaJsSerde<{ id: number }>(client, {
      serializer: new AvroSerializer(client, 'orders-value', { autoRegister: true, schema: ORDER }),
    })
    await setImmediate()
    await setImmediate()
    expect(preload).not.toHaveBeenCalled()

    both.eachMessage(async () => {})
    both.eachBatch(async () => {})
    await preloadedInBackground(preload)
  })

  it('loads no reader for a producer that wrote before it made a consumer handler, nor with preload false', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const serializer = () => new AvroSerializer(client, 'orders-value', { autoRegister: true, schema: ORDER })
    const wrote = new KafkaJsSerde<{ id: number }>(client, { serializer: serializer() })
    await wrote.encodeMessage('orders', { value: { id: 1 } })
    wrote.eachMessage(async () => {})
    const off = new KafkaJsSerde<{ id: number }>(client, { serializer: serializer(), preload: false })
    off.eachBatch(async () => {})
    await setImmediate()
    await setImmediate()
    expect(preload).not.toHaveBeenCalled()
  })
})
