import { failedMessageOf } from '@x/errors'
import {
  ApicurioSchemaRegistry,
  type ConsumedKafkaMessage,
  type KafkaHeaders,
  KafkaJsSerde,
  type KeyType,
} from '@x/kafka'
import { AnySerializer } from '@x/message-contract'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MessageReader } from './commands/consume.js'
import { Connection } from './connection.js'
import { utf8Text } from './consume-lines.js'
import type { Io } from './io.js'
import { toJsonText } from './json-output.js'

// One corpus of consumed messages read through every path a consumer of this family takes — KafkaJS's
// (`KafkaJsSerde`), Confluent's KafkaJS API (the same serde, the messages shaped as that client hands them over),
// @platformatic/kafka's (`ApicurioSchemaRegistry`'s hook and synchronous deserializers, driven as the client drives
// them) and `x-serde consume --json` (`MessageReader` and its JSON line): every path gives the same key, value and
// schema, or the same error class and code.

let registry: InMemoryRegistry
let client: RegistryClient
let connection: Connection
const io: Io = {
  stdout: () => {},
  stderr: () => {},
  env: {},
  cwd: '/',
  readStdin: async () => Buffer.alloc(0),
}

const ORDER = {
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'tag', type: 'bytes' },
  ],
}
const ORDER_KEY = {
  type: 'record',
  name: 'OrderKey',
  namespace: 'shop',
  fields: [{ name: 'sku', type: 'string' }],
}
const NOTE = { type: 'object', properties: { text: { type: 'string' }, n: { type: 'integer' } } }
const POINT = 'syntax = "proto3";\npackage geo;\nmessage Point { int64 x = 1; string label = 2; }\n'
const order = { id: 2n ** 60n, note: 'first', tag: Buffer.from([0, 255]) }

/** A corpus entry: a consumed message (KafkaJS's shape) and the keys setting every path reads it with. */
interface Entry {
  name: string
  topic: string
  keys: KeyType | 'schema'
  key: Buffer | null
  value: Buffer | null
  headers: KafkaHeaders
}

const corpus: Entry[] = []
let otherTypeId = 0

const id8 = (id: number) => {
  const bytes = Buffer.alloc(8)
  bytes.writeUInt32BE(id, 4)
  return bytes
}
const buffers = (headers: Record<string, Uint8Array>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Buffer.from(value)]))

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 30, firstContentId: 5 })
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
  await client.registerSchema('orders-value', ORDER, { artifactType: 'AVRO' })
  await client.registerSchema('orders-key', ORDER_KEY, { artifactType: 'AVRO' })
  await client.registerSchema('notes-value', NOTE, { artifactType: 'JSON' })
  await client.registerSchema('points-value', POINT, { artifactType: 'PROTOBUF' })
  const spec = await client.registerSchema(
    'spec-value',
    '{"openapi":"3.0.0","info":{"title":"t","version":"1"}}',
    {
      artifactType: 'OPENAPI',
    },
  )
  otherTypeId = Number(spec.globalId)
  connection = new Connection({ registry: registry.url }, io)

  const write = async (
    name: string,
    topic: string,
    value: unknown,
    options: ConstructorParameters<typeof AnySerializer>[1] = {},
  ) => {
    const written = await new AnySerializer(client, options).serializeMessage(
      value,
      new SerializationContext(topic),
    )
    corpus.push({
      name,
      topic,
      keys: 'string',
      key: Buffer.from('k-1'),
      value: Buffer.from(written.payload),
      headers: buffers(written.headers),
    })
    return corpus[corpus.length - 1]!
  }
  const headersMode = { wireFormat: WireFormat.MESSAGE_HEADERS }
  const framedOrder = await write('Avro framed, 4-byte id', 'orders', order)
  await write('Avro framed, 8-byte id', 'orders', order, { idSize: 8 })
  const headersOrder = await write('Avro in headers mode (encoding BINARY)', 'orders', order, headersMode)
  await write('Avro JSON encoding in headers mode', 'orders', order, {
    ...headersMode,
    avro: { encoding: 'json' },
  })
  await write('Avro by contentId in headers mode', 'orders', order, { ...headersMode, useId: 'contentId' })
  await write('JSON Schema framed', 'notes', { text: 'hi', n: 3 })
  await write('JSON Schema in headers mode', 'notes', { text: 'hi', n: 3 }, headersMode)
  await write('Protobuf framed', 'points', { x: 2n ** 62n, label: 'p' })
  await write('Protobuf in headers mode', 'points', { x: -5, label: 'q' }, headersMode)

  const withKey = (name: string, keys: KeyType | 'schema', key: Buffer | null, headers: KafkaHeaders = {}) =>
    corpus.push({ ...framedOrder, name, keys, key, headers })
  withKey('a tombstone', 'string', Buffer.from('gone'))
  corpus[corpus.length - 1]!.value = null
  const long = Buffer.alloc(8)
  long.writeBigInt64BE(42n)
  withKey("a key Java's LongSerializer wrote (42L), read as string", 'string', long)
  withKey("a key Java's LongSerializer wrote (42L), read as long", 'long', long)
  withKey("a key Java's IntegerSerializer wrote (42)", 'int', Buffer.from('0000002a', 'hex'))
  withKey("a key Java's ShortSerializer wrote (-2)", 'short', Buffer.from('fffe', 'hex'))
  withKey("a key Java's DoubleSerializer wrote (1.5)", 'double', Buffer.from('3ff8000000000000', 'hex'))
  withKey("a key Java's FloatSerializer wrote (1.5)", 'float', Buffer.from('3fc00000', 'hex'))
  withKey("a key Java's UUIDSerializer wrote", 'uuid', Buffer.from('123e4567-e89b-12d3-a456-426614174000'))
  withKey('a key of bytes that are not UTF-8', 'bytes', Buffer.from([0, 0xff, 0xfe]))
  withKey('no key', 'string', null)
  withKey(
    "a key read as long that is not 8 bytes (Java's IntegerSerializer wrote it)",
    'long',
    Buffer.alloc(4),
  )
  const keyWriter = new AnySerializer(client, headersMode)
  const keyWritten = await keyWriter.serializeMessage(
    { sku: 'A-1' },
    new SerializationContext('orders', 'key'),
  )
  withKey(
    'a key in headers mode, named by apicurio.key.globalId',
    'string',
    Buffer.from(keyWritten.payload),
    {
      ...buffers(keyWritten.headers),
    },
  )
  const framedKey = Buffer.from(
    await new AnySerializer(client).serialize({ sku: 'B-2' }, new SerializationContext('orders', 'key')),
  )
  withKey('a framed key, read with a schema', 'schema', framedKey)

  const valueId = headersOrder.headers['apicurio.value.globalId'] as Buffer
  const globalId = valueId.readUInt32BE(4)
  const again = (name: string, headers: KafkaHeaders, value = headersOrder.value) =>
    corpus.push({ ...headersOrder, name, headers, value })
  again('the value id header repeated with the same id', { 'apicurio.value.globalId': [valueId, valueId] })
  again('the value id header repeated with different ids', {
    'apicurio.value.globalId': [valueId, id8(globalId + 1)],
  })
  again("Confluent 8's __value_schema_id header (0x00 + a 4-byte id)", {
    __value_schema_id: Buffer.from([0, 0, 0, 0, globalId]),
  })
  again("Confluent 8's __value_schema_id header holding a GUID", {
    __value_schema_id: Buffer.concat([Buffer.from([1]), Buffer.alloc(16, 7)]),
  })
  again('a truncated frame', {}, Buffer.from([0, 0, 0]))
  again('a frame whose payload ends inside a value', {}, (framedOrder.value as Buffer).subarray(0, 8))
  again('an unknown id', {}, Buffer.from([0, 0, 0x0f, 0x42, 0x3f, 2]))
  again('an artifact of another type (OPENAPI)', {}, Buffer.from([0, 0, 0, 0, otherTypeId, 2]))
  again('bytes that are not a frame', {}, Buffer.from('plain text'))
})

afterAll(async () => {
  await connection?.close()
  await client?.close()
  await registry?.close()
})

/**
 * What a path made of a message: its key, value and schema as the CLI prints them, or its error's class and code and
 * the failed message it names (topic, field, partition, offset and the bytes of the field that failed, in hex).
 */
type Outcome = { decoded: string } | { error: [string, string | undefined]; failed: string }

const printedKey = (key: unknown) =>
  Buffer.isBuffer(key) ? (utf8Text(key) ?? { base64: key.toString('base64') }) : key

function outcome(key: unknown, value: unknown, schema: unknown): Outcome {
  const { idType, id, framed, format } = (schema ?? {}) as Record<string, unknown>
  const named = schema === null || schema === undefined ? null : { idType, id, framed, format }
  return { decoded: toJsonText({ key: printedKey(key), value, schema: named }, 0) }
}

function failure(error: unknown): Outcome {
  const { name, code } = error as { name: string; code?: string }
  const failed = failedMessageOf(error)
  return {
    error: [name, code],
    failed: failedText(
      failed?.context?.topic,
      failed?.context?.field,
      failed?.partition,
      failed?.offset,
      failed?.payload,
    ),
  }
}

const failedText = (
  topic: string | undefined,
  field: string | undefined,
  partition: number | undefined,
  offset: string | undefined,
  payload: Uint8Array | null | undefined,
) =>
  `${topic}/${field} partition ${partition} offset ${offset}: ${payload ? Buffer.from(payload).toString('hex') : payload}`

const keysOption = (keys: Entry['keys']) => (keys === 'schema' ? {} : keys)
const READ = { idSize: 'auto' as const }

async function throughKafkaJs(entry: Entry, shape: 'kafkajs' | 'confluent'): Promise<Outcome> {
  const serde = new KafkaJsSerde(client, { keys: keysOption(entry.keys), anyDeserializer: READ })
  const message: ConsumedKafkaMessage = {
    key: entry.key,
    value: entry.value,
    offset: '17',
    timestamp: '0',
  }
  // Confluent's client leaves out the headers of a message without any; KafkaJS gives {}.
  if (shape === 'kafkajs' || Object.keys(entry.headers).length > 0) message.headers = entry.headers
  try {
    const decoded = await serde.decodeMessage(entry.topic, 0, message)
    return outcome(decoded.key, decoded.value, decoded.schema)
  } catch (error) {
    return failure(error)
  }
}

/** Drives `ApicurioSchemaRegistry` as @platformatic/kafka's consumer does: the hook for key and value, then the synchronous deserializers. */
async function throughPlatformatic(entry: Entry): Promise<Outcome> {
  const reg = new ApicurioSchemaRegistry(client, { keys: keysOption(entry.keys), anyDeserializer: READ })
  const pairs: [Buffer, Buffer][] = []
  for (const [name, value] of Object.entries(entry.headers)) {
    for (const one of Array.isArray(value) ? value : [value])
      pairs.push([Buffer.from(name), Buffer.from(one!)])
  }
  const raw = {
    topic: entry.topic,
    partition: 0,
    key: entry.key,
    value: entry.value,
    headers: pairs,
    offsetDelta: 7,
  }
  const hook = reg.getBeforeDeserializationHook()
  const run = (payload: Buffer | null, type: string) =>
    new Promise<void>((resolve, reject) =>
      hook(payload, type, raw, (error) => (error ? reject(error) : resolve())),
    )
  try {
    await run(entry.key, 'key')
    await run(entry.value, 'value')
  } catch (error) {
    return failure(error)
  }
  const deserializers = reg.getDeserializers()
  // Platformatic's header Map keeps the last value of a repeated header; the record's own pairs keep them all.
  const headers = new Map<unknown, unknown>(pairs.map(([name, value]) => [name.toString(), value]))
  const message = { ...raw, metadata: {} as Record<string, unknown> }
  try {
    const key = deserializers.key(entry.key ?? undefined, headers, message)
    const value = deserializers.value(entry.value ?? undefined, headers, message)
    const schemas = (message.metadata.schemas ?? {}) as Record<string, unknown>
    return outcome(key, value, entry.value === null ? null : schemas.value)
  } catch (error) {
    // Platformatic hands a record its deserializers refused to `onCorruptedMessage`, with the fetch's first offset.
    reg.getCorruptedMessageHandler()(raw, entry.topic, 0, 0n, 10n)
    return failure(error)
  }
}

/** `x-serde consume --json --id-size auto --key-type …`: the reader of each message, as its JSON line prints it. */
async function throughCli(entry: Entry): Promise<Outcome> {
  const reader = new MessageReader(connection, 'globalId', 'auto', entry.keys)
  const line = await reader.read(entry.topic, 0, {
    key: entry.key,
    value: entry.value,
    headers: entry.headers,
    offset: '17',
    timestamp: '0',
  })
  if (line.error !== undefined) {
    return {
      error: [line.error.name, line.error.code],
      failed: failedText(line.topic, line.error.field, line.partition, line.offset, line.raw),
    }
  }
  const schema =
    line.schema === null || line.schema === undefined
      ? null
      : {
          idType: line.schema.idType,
          id: line.schema.id,
          framed: line.schema.mode === 'framed',
          format: line.schema.format ?? undefined,
        }
  return outcome(line.key, line.value, schema)
}

describe('the message contract, read differentially', () => {
  it('gives the same key, value and schema, or the same error class and code, on all four read paths', async () => {
    expect(corpus.length).toBe(31)
    const rows: Record<string, Outcome> = {}
    const disagreements: string[] = []
    for (const entry of corpus) {
      const kafkajs = await throughKafkaJs(entry, 'kafkajs')
      const paths = {
        confluent: await throughKafkaJs(entry, 'confluent'),
        platformatic: await throughPlatformatic(entry),
        cli: await throughCli(entry),
      }
      rows[entry.name] = kafkajs
      for (const [path, result] of Object.entries(paths)) {
        if (JSON.stringify(result) !== JSON.stringify(kafkajs)) {
          disagreements.push(
            `${entry.name}: kafkajs ${JSON.stringify(kafkajs)} ≠ ${path} ${JSON.stringify(result)}`,
          )
        }
      }
    }
    expect(disagreements).toEqual([])
    // What the paths agree on, for the entries whose outcome the contract fixes.
    const errors = Object.fromEntries(
      Object.entries(rows).flatMap(([name, row]) => ('error' in row ? [[name, row.error]] : [])),
    )
    // Each failure names its own message: the topic, the field that failed, where it was consumed, and its bytes.
    for (const entry of corpus) {
      const row = rows[entry.name]!
      if (!('error' in row)) continue
      const field = entry.name.startsWith('a key') ? 'key' : 'value'
      const bytes = field === 'key' ? entry.key : entry.value
      expect(row.failed, entry.name).toBe(
        `${entry.topic}/${field} partition 0 offset 17: ${bytes?.toString('hex')}`,
      )
    }
    expect(errors).toEqual({
      "a key read as long that is not 8 bytes (Java's IntegerSerializer wrote it)": [
        'DeserializationError',
        'DESERIALIZATION',
      ],
      'the value id header repeated with different ids': ['DeserializationError', 'DESERIALIZATION'],
      "Confluent 8's __value_schema_id header holding a GUID": ['DeserializationError', 'DESERIALIZATION'],
      'a truncated frame': ['DeserializationError', 'DESERIALIZATION'],
      'a frame whose payload ends inside a value': ['DeserializationError', 'DESERIALIZATION'],
      'an unknown id': ['SchemaNotFoundError', 'SCHEMA_NOT_FOUND'],
      'an artifact of another type (OPENAPI)': ['DeserializationError', 'DESERIALIZATION'],
      'bytes that are not a frame': ['DeserializationError', 'DESERIALIZATION'],
    })
    const decoded = (name: string) => JSON.parse((rows[name] as { decoded: string }).decoded)
    expect(decoded('a tombstone')).toEqual({ key: 'gone', value: null, schema: null })
    expect(decoded("a key Java's LongSerializer wrote (42L), read as long").key).toBe(42)
    expect(decoded("a key Java's UUIDSerializer wrote").key).toBe('123e4567-e89b-12d3-a456-426614174000')
    expect(decoded('a key in headers mode, named by apicurio.key.globalId').key).toEqual({ sku: 'A-1' })
    expect(decoded('a framed key, read with a schema').key).toEqual({ sku: 'B-2' })
    expect(decoded("Confluent 8's __value_schema_id header (0x00 + a 4-byte id)")).toMatchObject({
      value: { note: 'first' },
      schema: { framed: false, format: 'AVRO' },
    })
    expect(decoded('Avro JSON encoding in headers mode').value).toEqual(
      decoded('Avro framed, 4-byte id').value,
    )
  })
})
