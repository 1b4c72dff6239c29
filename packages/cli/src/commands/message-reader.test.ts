import { AvroSerializer } from '@x/avro-serde'
import { RegistryClient } from '@x/registry-client'
import { parseExactJson } from '@x/registry-client/json'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Connection } from '../connection.js'
import type { Io } from '../io.js'
import { avroInput } from '../json-input.js'
import { toJsonText } from '../json-output.js'
import { MessageReader } from './consume.js'

// What consume makes of each consumed message (KafkaJS's shape), against InMemoryRegistry: the broker's part is the
// integration stage's (cli-kafka).

let registry: InMemoryRegistry
let admin: RegistryClient
let connection: Connection
const io: Io = {
  stdout: () => {},
  stderr: () => {},
  env: {},
  cwd: '/',
  readStdin: async () => Buffer.alloc(0),
}
const ORDER = { type: 'record', name: 'Order', fields: [{ name: 'id', type: 'long' }] }
const KEY = { type: 'record', name: 'Key', fields: [{ name: 'sku', type: 'string' }] }

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 40, firstContentId: 7 })
  admin = new RegistryClient({ url: registry.url, groupId: 'default' })
  await admin.registerSchema('orders-value', ORDER, { artifactType: 'AVRO' })
  await admin.registerSchema('orders-key', KEY, { artifactType: 'AVRO' })
  connection = new Connection({ registry: registry.url }, io)
})

afterAll(async () => {
  await connection.close()
  await admin.close()
  await registry.close()
})

const message = (value: Buffer | null, key: Buffer | null = null, headers = {}) => ({
  key,
  value,
  headers,
  offset: '7',
  timestamp: '0',
})

describe('MessageReader', () => {
  it('prints a frame read by globalId that carries a contentId as an error line naming --use-id contentId', async () => {
    const ctx = new SerializationContext('orders')
    const serializer = new AvroSerializer(admin, 'orders-value', { useId: 'contentId' })
    const value = Buffer.from(await serializer.serialize({ id: 3 }, ctx))
    expect(value.subarray(0, 5).toString('hex')).toBe('0000000007')
    const line = await new MessageReader(connection, 'globalId').read('orders', 0, message(value))
    expect(line.error).toEqual({
      name: 'SchemaNotFoundError',
      code: 'SCHEMA_NOT_FOUND',
      field: 'value',
      message:
        'Schema not found: no globalId 7, but a contentId 7 exists: the producer writes contentIds, as Java 3.x ' +
        'does by default: pass --use-id contentId',
    })
    const read = await new MessageReader(connection, 'contentId').read('orders', 0, message(value))
    expect([read.error, read.value]).toEqual([undefined, { id: 3 }])
  })

  it("reads Avro's JSON encoding with encoding 'json' or 'auto', and with 'binary' prints an error line saying what the bytes look like", async () => {
    const ctx = new SerializationContext('orders')
    const serializer = new AvroSerializer(admin, 'orders-value', { avro: { encoding: 'json' } })
    const value = Buffer.from(await serializer.serialize({ id: 3 }, ctx))
    for (const encoding of ['json', 'auto'] as const) {
      const line = await new MessageReader(connection, 'globalId', 4, 'bytes', encoding).read(
        'orders',
        0,
        message(value),
      )
      expect([line.error, line.value]).toEqual([undefined, { id: 3 }])
    }
    const binary = await new MessageReader(connection, 'globalId').read('orders', 0, message(value))
    expect(binary.error).toEqual({
      name: 'DeserializationError',
      code: 'DESERIALIZATION',
      field: 'value',
      message:
        'Cannot decode the Avro payload of globalId 40: Invalid Avro data for schema Order: 7 trailing bytes after ' +
        "a complete value (it ends at offset 6 of 13); the payload looks like JSON text: Avro's JSON encoding? " +
        'pass --encoding json or auto',
    })
  })

  it('decodes a framed value and, with --key-type schema, a framed key, naming the artifact version of the id', async () => {
    const ctx = new SerializationContext('orders')
    const value = Buffer.from(
      await new AvroSerializer(admin, 'orders-value').serialize({ id: 2n ** 60n }, ctx),
    )
    const key = Buffer.from(
      await new AvroSerializer(admin, 'orders-key').serialize(
        { sku: 'A-1' },
        new SerializationContext('orders', 'key'),
      ),
    )
    const line = await new MessageReader(connection, 'globalId', 4, 'schema').read(
      'orders',
      3,
      message(value, key),
    )
    expect(line).toEqual({
      topic: 'orders',
      partition: 3,
      offset: '7',
      timestamp: '0',
      headers: {},
      key: { sku: 'A-1' },
      schema: {
        format: 'AVRO',
        idType: 'globalId',
        id: 40,
        mode: 'framed',
        groupId: 'default',
        artifactId: 'orders-value',
        version: '1',
      },
      value: { id: 2n ** 60n },
    })
  })

  it('reads headers mode by contentId, and prints a text key and the id header as base64', async () => {
    const serializer = new AvroSerializer(admin, 'orders-value', {
      wireFormat: WireFormat.MESSAGE_HEADERS,
      useId: 'contentId',
    })
    const written = await serializer.serializeMessage({ id: 5 }, new SerializationContext('orders'))
    const headers = Object.fromEntries(Object.entries(written.headers).map(([n, v]) => [n, Buffer.from(v)]))
    const line = await new MessageReader(connection, 'globalId').read(
      'orders',
      0,
      message(Buffer.from(written.payload), Buffer.from('k-1'), headers),
    )
    expect(line).toMatchObject({
      key: 'k-1',
      headers: { 'apicurio.value.contentId': { base64: 'AAAAAAAAAAc=' } },
      schema: { format: 'AVRO', idType: 'contentId', id: 7, mode: 'headers', artifactId: 'orders-value' },
      value: { id: 5 },
    })
  })

  it('makes a message that will never decode an error line with its raw bytes, and passes a tombstone as null', async () => {
    const reader = new MessageReader(connection, 'globalId')
    const garbage = await reader.read('orders', 0, message(Buffer.from('hello'), Buffer.from([0xff, 0xfe])))
    expect(garbage).toMatchObject({
      key: { base64: '//4=' },
      error: { name: 'DeserializationError', code: 'DESERIALIZATION' },
      raw: Buffer.from('hello'),
    })
    const unknown = await reader.read('orders', 0, message(Buffer.from([0, 0, 0, 0x03, 0xe7, 2])))
    expect(unknown.error).toMatchObject({ name: 'SchemaNotFoundError', code: 'SCHEMA_NOT_FOUND' })
    expect(await reader.read('orders', 0, message(null, Buffer.from('gone')))).toEqual({
      topic: 'orders',
      partition: 0,
      offset: '7',
      timestamp: '0',
      headers: {},
      key: 'gone',
      schema: null,
      value: null,
    })
  })

  it('reads Apicurio 2.x frames (an 8-byte id) with --id-size 8 or auto; read as 4-byte they are error lines naming idSize 8', async () => {
    const ctx = new SerializationContext('orders')
    const value = Buffer.from(
      await new AvroSerializer(admin, 'orders-value', { idSize: 8 }).serialize({ id: 3 }, ctx),
    )
    expect(value.subarray(0, 9).toString('hex')).toBe('000000000000000028')
    for (const idSize of [8, 'auto'] as const) {
      const line = await new MessageReader(connection, 'globalId', idSize).read('orders', 0, message(value))
      expect(line).toMatchObject({ schema: { format: 'AVRO', idType: 'globalId', id: 40 }, value: { id: 3 } })
    }
    const asFour = await new MessageReader(connection, 'globalId').read('orders', 0, message(value))
    expect(asFour.error).toMatchObject({ name: 'DeserializationError' })
    expect((asFour.error as { message: string }).message).toContain('idSize')
  })

  it('prints each value of a union whose branches would print alike wrapped, inside referenced types too, so that produce writes it back byte for byte', async () => {
    const owner = {
      type: 'record',
      name: 'Owner',
      namespace: 'refs',
      fields: [
        { name: 'note', type: ['null', 'string', 'bytes'] },
        { name: 'badge', type: ['null', 'int', 'bytes'] },
      ],
    }
    const registered = await admin.registerSchema('refs.Owner', owner, { artifactType: 'AVRO' })
    const account = {
      type: 'record',
      name: 'Account',
      namespace: 'refs',
      fields: [
        { name: 'owners', type: { type: 'array', items: 'refs.Owner' } },
        { name: 'seen', type: ['null', 'string', { type: 'long', logicalType: 'timestamp-millis' }] },
        { name: 'count', type: ['int', 'long'] },
      ],
    }
    await admin.registerSchema('accounts-value', account, {
      artifactType: 'AVRO',
      references: [{ name: 'refs.Owner', artifactId: 'refs.Owner', version: registered.version! }],
    })
    const serializer = new AvroSerializer(admin, 'accounts-value')
    const ctx = new SerializationContext('accounts')
    const values = [
      {
        owners: [
          { note: Buffer.from([1, 2, 3]), badge: Buffer.from([4]) },
          { note: 'AQID', badge: 7 },
        ],
        seen: new Date('2024-01-01T00:00:00.000Z'),
        count: { long: 5 },
      },
      { owners: [{ note: null, badge: null }], seen: '2024-01-01T00:00:00.000Z', count: { int: 6 } },
    ]
    const reader = new MessageReader(connection, 'globalId')
    // What produce converts a printed line with: the artifact's schema and the texts it references.
    const convert = avroInput((await admin.getSchema('accounts-value')).schema, [JSON.stringify(owner)])
    const printed: string[] = []
    for (const value of values) {
      const bytes = Buffer.from(await serializer.serialize(value, ctx))
      const line = await reader.read('accounts', 0, message(bytes))
      const text = toJsonText(line.value, 0)
      printed.push(text)
      expect(Buffer.from(await serializer.serialize(convert(parseExactJson(text).value), ctx))).toEqual(bytes)
    }
    expect(printed).toEqual([
      '{"owners":[{"note":{"bytes":"AQID"},"badge":"BA=="},{"note":{"string":"AQID"},"badge":7}],' +
        '"seen":{"long":"2024-01-01T00:00:00.000Z"},"count":{"long":5}}',
      '{"owners":[{"note":null,"badge":null}],"seen":{"string":"2024-01-01T00:00:00.000Z"},"count":{"int":6}}',
    ])
  })

  it('prints a key read with a schema as it prints a value: a union whose branches would print alike wrapped by branch', async () => {
    const note = ['null', 'string', 'bytes']
    await admin.registerSchema('notes-key', note, { artifactType: 'AVRO' })
    const keyCtx = new SerializationContext('notes', 'key')
    const keys = new AvroSerializer(admin, 'notes-key')
    const value = Buffer.from(await new AvroSerializer(admin, 'orders-value').serialize({ id: 1 }, keyCtx))
    const reader = new MessageReader(connection, 'globalId', 4, 'schema')
    const printed: string[] = []
    for (const key of [Buffer.from([1, 2, 3]), 'AQID']) {
      const bytes = Buffer.from(await keys.serialize(key, keyCtx))
      const line = await reader.read('notes', 0, message(value, bytes))
      expect(line.error).toBeUndefined()
      printed.push(toJsonText(line.key, 0))
    }
    expect(printed).toEqual(['{"bytes":"AQID"}', '{"string":"AQID"}'])
  })

  it('throws an outage instead of making it an error line', async () => {
    const down = new Connection({ registry: 'http://127.0.0.1:1/apis/registry/v3' }, io)
    try {
      await expect(
        new MessageReader(down, 'globalId').read('orders', 0, message(Buffer.from([0, 0, 0, 0, 40, 2]))),
      ).rejects.toMatchObject({ code: 'REGISTRY_CONNECTION' })
    } finally {
      await down.close()
    }
  })
})
