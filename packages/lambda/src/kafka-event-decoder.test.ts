import { AvroSerializer } from '@x/avro-serde'
import { DeserializationError, failedMessageOf, RegistryConnectionError } from '@x/errors'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient, takeSnapshot } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { type KafkaDeadLetter, KafkaEventDecoder, type KafkaEventRecord, kafkaConsumer } from './index.js'
import { eventRecord, mskEvent } from './test-support/events.js'

const PAYMENT = {
  type: 'record',
  name: 'Payment',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'double' },
  ],
}
const ORDER = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { sku: { type: 'string' }, qty: { type: 'integer' } },
  required: ['sku', 'qty'],
}
const PROTO = 'syntax = "proto3";\npackage shop;\nmessage Item { string name = 1; int32 count = 2; }\n'

let registry: InMemoryRegistry
let writer: RegistryClient
let avroFrame: Buffer
let avroBare: { payload: Buffer; headers: [string, Uint8Array][] }
let jsonBare: { payload: Buffer; headers: [string, Uint8Array][] }
let protoFrame: Buffer
let avroGlobalId: number

function pairs(headers: Record<string, Uint8Array>): [string, Uint8Array][] {
  return Object.entries(headers)
}

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  writer = new RegistryClient({ url: registry.url, groupId: 'default' })
  const avro = new AvroSerializer(writer, {
    artifactId: 'payments-value',
    autoRegister: true,
    schema: PAYMENT,
  })
  const ctx = new SerializationContext('payments')
  avroFrame = Buffer.from(await avro.serialize({ id: 'p-1', amount: 12.5 }, ctx))
  avroGlobalId = avroFrame.readUInt32BE(1)
  const headersAvro = new AvroSerializer(writer, {
    artifactId: 'payments-value',
    autoRegister: true,
    schema: PAYMENT,
    wireFormat: WireFormat.MESSAGE_HEADERS,
  })
  const bare = await headersAvro.serializeMessage({ id: 'p-2', amount: 3 }, ctx)
  avroBare = { payload: Buffer.from(bare.payload), headers: pairs(bare.headers) }
  const json = new JsonSchemaSerializer(writer, {
    artifactId: 'orders-value',
    autoRegister: true,
    schema: ORDER,
    wireFormat: WireFormat.MESSAGE_HEADERS,
  })
  const order = await json.serializeMessage({ sku: 'A-1', qty: 2 }, new SerializationContext('orders'))
  jsonBare = { payload: Buffer.from(order.payload), headers: pairs(order.headers) }
  const proto = new ProtobufSerializer(writer, {
    artifactId: 'items-value',
    autoRegister: true,
    schema: PROTO,
  })
  protoFrame = Buffer.from(
    await proto.serialize({ name: 'pen', count: 3 }, new SerializationContext('items')),
  )
})

afterAll(async () => {
  await writer.close()
  await registry.close()
})

function reader(): RegistryClient {
  return new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
}

describe('KafkaEventDecoder', () => {
  it('decodes every format, framed and in headers mode, with keys, tombstones and repeated headers, in event order', async () => {
    await using client = reader()
    const decoder = new KafkaEventDecoder(client)
    const records = await decoder.decode(
      mskEvent([
        eventRecord('payments', 0, 10, Buffer.from('k-1'), avroFrame, [
          ['trace', Buffer.from('a')],
          ['trace', Buffer.from('b')],
        ]),
        eventRecord('payments', 0, 11, null, avroBare.payload, avroBare.headers),
        eventRecord('orders', 1, 7, Buffer.from('o-1'), jsonBare.payload, jsonBare.headers),
        eventRecord('items', 2, 3, null, protoFrame),
        eventRecord('payments', 0, 12, Buffer.from('k-1'), null),
      ]),
    )
    expect(records.map((r) => [r.topic, r.partition, r.offset, r.key, r.value, r.schema?.format])).toEqual([
      ['payments', 0, 10, 'k-1', { id: 'p-1', amount: 12.5 }, 'AVRO'],
      ['payments', 0, 11, null, { id: 'p-2', amount: 3 }, 'AVRO'],
      ['payments', 0, 12, 'k-1', null, undefined],
      ['orders', 1, 7, 'o-1', { sku: 'A-1', qty: 2 }, 'JSON'],
      ['items', 2, 3, null, { name: 'pen', count: 3 }, 'PROTOBUF'],
    ])
    expect(records[0]!.headers).toEqual({ trace: [Buffer.from('a'), Buffer.from('b')] })
    expect(records[0]!.schema).toEqual({ idType: 'globalId', id: avroGlobalId, framed: true, format: 'AVRO' })
    expect(records[1]!.schema?.framed).toBe(false)
    expect(records[0]!.timestamp).toBe(1_700_000_000_010)
    expect(records[0]!.original.value).toBe(avroFrame.toString('base64'))
  })

  it("reads a Confluent 8 __value_schema_id header and a Long key Java's LongSerializer wrote", async () => {
    await using client = reader()
    const decoder = new KafkaEventDecoder(client, { keys: 'long' })
    const id = Buffer.alloc(5)
    id.writeUInt32BE(avroGlobalId, 1)
    const [record] = await decoder.decode(
      mskEvent([
        eventRecord('payments', 0, 1, Buffer.from([0, 0, 0, 0, 0, 0, 0, 42]), avroBare.payload, [
          ['__value_schema_id', id],
        ]),
      ]),
    )
    expect([record!.key, record!.value, record!.schema?.framed]).toEqual([
      42,
      { id: 'p-2', amount: 3 },
      false,
    ])
  })

  it('parses values through a Standard Schema (zod), its output typed', async () => {
    await using client = reader()
    const Payment = z
      .object({ id: z.string(), amount: z.number() })
      .transform((p) => ({ ...p, cents: p.amount * 100 }))
    const decoder = new KafkaEventDecoder(client, { valueSchema: Payment })
    const [record] = await decoder.decode(mskEvent([eventRecord('payments', 0, 1, null, avroFrame)]))
    const cents: number | undefined = record!.value?.cents
    expect(cents).toBe(1250)
    expect(record!.value).toEqual({ id: 'p-1', amount: 12.5, cents: 1250 })
  })

  it('fails a value its output schema refuses with a DeserializationError naming the issues and the record', async () => {
    await using client = reader()
    const decoder = new KafkaEventDecoder(client, {
      valueSchema: z.object({ id: z.string(), amount: z.number().max(10) }),
    })
    const error = await decoder
      .decode(mskEvent([eventRecord('payments', 3, 99, null, avroFrame)]))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DeserializationError)
    expect((error as DeserializationError).code).toBe('DESERIALIZATION')
    expect((error as Error).message).toMatch(/^The decoded value does not match its output schema: amount: /)
    expect((error as { issues: unknown[] }).issues).toHaveLength(1)
    expect(failedMessageOf(error)).toMatchObject({
      context: { topic: 'payments', field: 'value' },
      partition: 3,
      offset: '99',
    })
    expect(Buffer.from(failedMessageOf(error)!.payload)).toEqual(avroFrame)
  })
})

describe('kafkaConsumer', () => {
  const garbage = Buffer.from([0, 0, 0, 0x7f, 0xff, 1, 2])

  it('rejects the invocation with the error of a record that cannot be read, naming its topic, partition and offset, before the handler runs', async () => {
    await using client = reader()
    let called = false
    const handler = kafkaConsumer(
      () => {
        called = true
      },
      { client },
    )
    const error = await handler(
      mskEvent([
        eventRecord('payments', 0, 1, null, avroFrame),
        eventRecord('payments', 0, 2, null, garbage),
      ]),
      {},
    ).catch((e: unknown) => e)
    expect(called).toBe(false)
    expect(error as { name: string; code: string }).toMatchObject({
      name: 'SchemaNotFoundError',
      code: 'SCHEMA_NOT_FOUND',
    })
    expect(failedMessageOf(error)).toMatchObject({
      context: { topic: 'payments', field: 'value' },
      partition: 0,
      offset: '2',
    })
  })

  it('hands poison records to deadLetter with the x-serde headers and calls the handler with the others', async () => {
    await using client = reader()
    const letters: KafkaDeadLetter[] = []
    const seen: unknown[] = []
    const handler = kafkaConsumer(
      async (event, context: { awsRequestId: string }) => {
        seen.push(...event.records.map((r) => r.value), event.eventSource, context.awsRequestId)
        return { done: event.records.length }
      },
      { client, deadLetter: (letter) => void letters.push(letter) },
    )
    const bad = eventRecord('payments', 0, 2, null, garbage)
    const result = await handler(
      mskEvent([
        eventRecord('payments', 0, 1, null, avroFrame),
        bad,
        eventRecord('payments', 0, 3, null, avroBare.payload, avroBare.headers),
      ]),
      {
        awsRequestId: 'r-1',
      },
    )
    expect(result).toEqual({ done: 2 })
    expect(seen).toEqual([{ id: 'p-1', amount: 12.5 }, { id: 'p-2', amount: 3 }, 'aws:kafka', 'r-1'])
    expect(letters).toHaveLength(1)
    expect(letters[0]!.record).toBe(bad)
    expect([letters[0]!.topic, letters[0]!.partition, letters[0]!.offset]).toEqual(['payments', 0, 2])
    expect(letters[0]!.headers).toEqual({
      'x-serde-error-code': 'SCHEMA_NOT_FOUND',
      'x-serde-error-message': (letters[0]!.error as Error).message,
      'x-serde-source': 'payments/0/2',
    })
  })

  it('never dead-letters an outage: the invocation rejects with the RegistryConnectionError', async () => {
    await using client = new RegistryClient({
      url: 'http://127.0.0.1:9/apis/registry/v3',
      groupId: 'default',
      maxRetries: 0,
    })
    const letters: KafkaDeadLetter[] = []
    const handler = kafkaConsumer(() => 'unreached', {
      client,
      deadLetter: (letter) => void letters.push(letter),
    })
    await expect(handler(mskEvent([eventRecord('payments', 0, 1, null, avroFrame)]), {})).rejects.toThrow(
      RegistryConnectionError,
    )
    expect(letters).toEqual([])
  })

  it('refuses an event without records grouped in arrays with a TypeError (INVALID_DATA)', async () => {
    await using client = reader()
    const handler = kafkaConsumer(() => 'unreached', { client })
    await expect(handler({ records: { 'payments-0': 'x' } } as never, {})).rejects.toMatchObject({
      name: 'TypeError',
      code: 'INVALID_DATA',
      message: 'Not a Kafka event: records["payments-0"] must be an array of records',
    })
  })
})

describe('a cold decode with a schema snapshot', () => {
  it('makes no registry request at all, for every format, framed and in headers mode', async () => {
    await using taker = reader()
    const snapshot = await takeSnapshot(taker, [
      { artifactId: 'payments-value' },
      { artifactId: 'orders-value' },
      { artifactId: 'items-value' },
    ])
    registry.clearRequests()
    await using client = new RegistryClient({
      url: registry.url,
      groupId: 'default',
      snapshot: JSON.parse(JSON.stringify(snapshot)),
    })
    const records = await new KafkaEventDecoder(client).decode(
      mskEvent([
        eventRecord('payments', 0, 10, null, avroFrame),
        eventRecord('payments', 0, 11, null, avroBare.payload, avroBare.headers),
        eventRecord('orders', 0, 1, null, jsonBare.payload, jsonBare.headers),
        eventRecord('items', 0, 1, null, protoFrame),
      ]),
    )
    expect(records.map((r) => r.value)).toEqual([
      { id: 'p-1', amount: 12.5 },
      { id: 'p-2', amount: 3 },
      { sku: 'A-1', qty: 2 },
      { name: 'pen', count: 3 },
    ])
    expect(registry.requests).toHaveLength(0)
  })

  it('offline, fails a record whose schema the snapshot lacks as an outage (never dead-lettered)', async () => {
    await using client = new RegistryClient({
      url: registry.url,
      groupId: 'default',
      snapshot: { snapshotVersion: 1, versions: [] },
      offline: true,
    })
    registry.clearRequests()
    const letters: KafkaDeadLetter[] = []
    const record: KafkaEventRecord = eventRecord('payments', 0, 5, null, avroFrame)
    const error = await new KafkaEventDecoder(client, { deadLetter: (l) => void letters.push(l) })
      .decode(mskEvent([record]))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RegistryConnectionError)
    expect((error as Error).message).toMatch(
      /^The registry client is offline \(offline: true\) and makes no request: GET \/ids\/globalIds\//,
    )
    expect(failedMessageOf(error)).toMatchObject({ partition: 0, offset: '5' })
    expect([letters, registry.requests]).toEqual([[], []])
  })
})
