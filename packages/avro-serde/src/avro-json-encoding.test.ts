import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { AvroDeserializer } from './avro-deserializer.js'
import { AvroSerializer } from './avro-serializer.js'

// The `avro: { encoding: 'json' }` option end to end: frames, headers mode (Java's `apicurio.<field>.encoding`
// header), a deserializer following that header whatever its own option says, and the sync methods.

const ctx = new SerializationContext('events')
const keyCtx = new SerializationContext('events', 'key')

const schema = {
  type: 'record',
  name: 'Event',
  namespace: 'x.json',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'big', type: 'long' },
    { name: 'note', type: ['null', 'string'] },
    { name: 'payload', type: 'bytes' },
  ],
}
const event = { id: 'ab', big: 9007199254740993n, note: 'z', payload: Buffer.from([0, 1, 0xfe, 0xff]) }
// As Apicurio's Java serde 3.1.7 writes it with apicurio.registry.avro.encoding=JSON (recorded from its output):
// control characters as \u00XX, code points 128–255 as raw UTF-8.
const EVENT_JSON = '{"id":"ab","big":9007199254740993,"note":{"string":"z"},"payload":"\\u0000\\u0001þÿ"}'
// id "ab", big as a zig-zag varint, union branch 1 + "z", 4 bytes.
const EVENT_BINARY = Buffer.from('046162' + '8280808080808020' + '02027a' + '080001feff', 'hex')
const GLOBAL_ID = 1000
const ID_HEADER = Buffer.from('00000000000003e8', 'hex')
const frameOf = (payload: Buffer | string): Buffer =>
  Buffer.concat([Buffer.from('00000003e8', 'hex'), Buffer.from(payload)])

let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: GLOBAL_ID })
  client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0 })
  const registered = await client.registerSchema('events-value', schema)
  expect(registered.globalId).toBe(GLOBAL_ID)
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

beforeEach(() => registry.clearRequests())

const jsonSerializer = (wireFormat: WireFormat = WireFormat.FRAMED_PAYLOAD) =>
  new AvroSerializer(client, 'events-value', { avro: { encoding: 'json' }, wireFormat })

describe("AvroSerializer with avro.encoding 'json'", () => {
  it("frames the compact JSON text as Java writes it: 0x00, the 4-byte id, then Avro's JSON encoding", async () => {
    const frame = await jsonSerializer().serialize(event, ctx)
    expect(Buffer.from(frame).toString('hex')).toBe(frameOf(EVENT_JSON).toString('hex'))
  })

  it('in headers mode sends the bare JSON, the id header and apicurio.<field>.encoding = JSON, as Java does', async () => {
    const serializer = jsonSerializer(WireFormat.MESSAGE_HEADERS)
    const message = await serializer.serializeMessage(event, ctx)
    expect(Buffer.from(message.payload).toString()).toBe(EVENT_JSON)
    expect(Object.keys(message.headers)).toEqual(['apicurio.value.globalId', 'apicurio.value.encoding'])
    expect(Buffer.from(message.headers['apicurio.value.globalId']!).equals(ID_HEADER)).toBe(true)
    expect(Buffer.isBuffer(message.headers['apicurio.value.encoding'])).toBe(true)
    expect(Buffer.from(message.headers['apicurio.value.encoding']!).toString()).toBe('JSON')

    const key = await serializer.serializeMessage(event, keyCtx)
    expect(Object.keys(key.headers)).toEqual(['apicurio.key.globalId', 'apicurio.key.encoding'])
  })

  it('gives every message header values of its own (changing one changes no later message)', async () => {
    const serializer = jsonSerializer(WireFormat.MESSAGE_HEADERS)
    const first = await serializer.serializeMessage(event, ctx)
    first.headers['apicurio.value.encoding']![0] = 0x58
    const second = await serializer.serializeMessage(event, ctx)
    expect(Buffer.from(second.headers['apicurio.value.encoding']!).toString()).toBe('JSON')
  })

  it('names the binary encoding in headers mode as Java does (apicurio.value.encoding = BINARY)', async () => {
    const serializer = new AvroSerializer(client, 'events-value', { wireFormat: WireFormat.MESSAGE_HEADERS })
    const message = await serializer.serializeMessage(event, ctx)
    expect(Object.keys(message.headers)).toEqual(['apicurio.value.globalId', 'apicurio.value.encoding'])
    expect(Buffer.from(message.headers['apicurio.value.encoding']!).toString('latin1')).toBe('BINARY')
    expect(Buffer.from(message.payload).equals(EVENT_BINARY)).toBe(true)
  })

  it('writes the same bytes with the sync methods once prepared', async () => {
    const serializer = jsonSerializer()
    await serializer.prepare()
    expect(Buffer.from(serializer.serializeSync(event, ctx)).equals(frameOf(EVENT_JSON))).toBe(true)
    const headers = jsonSerializer(WireFormat.MESSAGE_HEADERS)
    await headers.prepare()
    const message = headers.serializeMessageSync(event, ctx)
    expect(Buffer.from(message.payload).toString()).toBe(EVENT_JSON)
    expect(Object.keys(message.headers)).toEqual(['apicurio.value.globalId', 'apicurio.value.encoding'])
  })

  it('writes values larger than its scratch buffer', async () => {
    const long = { ...event, id: 'x'.repeat(20_000) }
    const frame = await jsonSerializer().serialize(long, ctx)
    expect(frame.subarray(5).toString()).toBe(EVENT_JSON.replace('"ab"', `"${'x'.repeat(20_000)}"`))
  })

  it('refuses a value that does not match the schema with the TypeError naming the field', async () => {
    await expect(jsonSerializer().serialize({ ...event, big: 'no' }, ctx)).rejects.toMatchObject({
      name: 'TypeError',
      code: 'INVALID_DATA',
      paths: ['big'],
    })
  })

  it("refuses an encoding other than 'binary' or 'json' at construction", () => {
    expect(() => new AvroSerializer(client, 'events-value', { avro: { encoding: 'JSON' as never } })).toThrow(
      expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }),
    )
    expect(() => new AvroDeserializer(client, { avro: { encoding: 'xml' as never } })).toThrow(
      "avro.encoding must be 'binary', 'json' or 'auto', got string \"xml\"",
    )
  })

  it("refuses avro.encoding 'auto', which only a deserializer takes, at construction", () => {
    expect(() => new AvroSerializer(client, 'events-value', { avro: { encoding: 'auto' } })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message:
          "AvroSerializer: avro.encoding 'auto' is for deserializers (a serializer writes one encoding): 'binary' or 'json'",
      }),
    )
  })
})

describe("AvroDeserializer and Avro's JSON encoding", () => {
  const jsonReader = () => new AvroDeserializer(client, { avro: { encoding: 'json' } })

  it("reads JSON frames with avro.encoding 'json', longs beyond 2^53 exact", async () => {
    expect(await jsonReader().deserialize(frameOf(EVENT_JSON), ctx)).toEqual(event)
  })

  it('follows a JSON encoding header although its own option says binary, in headers mode and framed', async () => {
    const reader = new AvroDeserializer(client)
    const headers = { 'apicurio.value.globalId': ID_HEADER, 'apicurio.value.encoding': Buffer.from('JSON') }
    expect(await reader.deserializeMessage({ payload: Buffer.from(EVENT_JSON), headers }, ctx)).toEqual(event)
    const framed = { payload: frameOf(EVENT_JSON), headers: { 'apicurio.value.encoding': 'JSON' } }
    expect(await reader.deserializeMessage(framed, ctx)).toEqual(event)
  })

  it('follows a BINARY encoding header although its own option says json', async () => {
    const headers = { 'apicurio.value.globalId': ID_HEADER, 'apicurio.value.encoding': Buffer.from('BINARY') }
    expect(await jsonReader().deserializeMessage({ payload: EVENT_BINARY, headers }, ctx)).toEqual(event)
  })

  it('reads the key header for keys and the value header for values (the last of repeated values wins)', async () => {
    const reader = new AvroDeserializer(client)
    const headers = {
      'apicurio.key.globalId': ID_HEADER,
      'apicurio.key.encoding': [Buffer.from('BINARY'), Buffer.from('JSON')],
      'apicurio.value.encoding': 'BINARY',
    }
    expect(await reader.deserializeMessage({ payload: Buffer.from(EVENT_JSON), headers }, keyCtx)).toEqual(
      event,
    )
  })

  it('uses its own option for a message without an encoding header, as the sync methods do', async () => {
    const reader = jsonReader()
    await reader.prepare(GLOBAL_ID)
    expect(reader.deserializeSync(frameOf(EVENT_JSON), ctx)).toEqual(event)
    const headers = { 'apicurio.value.globalId': ID_HEADER }
    expect(reader.deserializeMessageSync({ payload: Buffer.from(EVENT_JSON), headers }, ctx)).toEqual(event)
    const binary = { 'apicurio.value.globalId': ID_HEADER, 'apicurio.value.encoding': 'BINARY' }
    expect(reader.deserializeMessageSync({ payload: EVENT_BINARY, headers: binary }, ctx)).toEqual(event)
  })

  it('refuses an encoding header other than JSON or BINARY with a DeserializationError naming it', async () => {
    const headers = { 'apicurio.value.globalId': ID_HEADER, 'apicurio.value.encoding': 'json' }
    await expect(
      new AvroDeserializer(client).deserializeMessage({ payload: Buffer.from(EVENT_JSON), headers }, ctx),
    ).rejects.toMatchObject({
      name: 'DeserializationError',
      message: `Cannot read header 'apicurio.value.encoding': expected JSON or BINARY (the Avro encoding Apicurio's serdes name), got "json"`,
    })
  })

  it.each([
    ['a union value without its wrapper', EVENT_JSON.replace('{"string":"z"}', '"z"'), 'note'],
    ['a union wrapper naming no branch', EVENT_JSON.replace('{"string":"z"}', '{"int":1}'), 'note'],
    ['a long beyond the 64-bit range', EVENT_JSON.replace('9007199254740993', '9223372036854775808'), 'big'],
    ['bytes with a code point above 255', EVENT_JSON.replace('þÿ', 'Ā'), 'payload'],
    ['a missing field', EVENT_JSON.replace('"id":"ab",', ''), 'id'],
    ['a value of the wrong type', EVENT_JSON.replace('"ab"', '12'), 'id'],
  ])('turns %s into a DeserializationError naming the path, with the schema id', async (_, text, path) => {
    const error = await jsonReader()
      .deserialize(frameOf(text), ctx)
      .then(
        () => undefined,
        (e: unknown) => e as Error & { schemaId?: number; cause?: Error },
      )
    expect(error).toMatchObject({
      name: 'DeserializationError',
      code: 'DESERIALIZATION',
      schemaId: GLOBAL_ID,
    })
    expect(error!.message).toContain(
      `Cannot decode the Avro payload of globalId ${GLOBAL_ID}: Invalid Avro JSON at ${path}: expected`,
    )
  })
})

describe("AvroDeserializer with avro.encoding 'auto', and a JSON payload read as binary", () => {
  const autoReader = () => new AvroDeserializer(client, { avro: { encoding: 'auto' } })
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    )

  it('says a payload that fails as binary looks like JSON text, and which option reads it', async () => {
    const error = await failure(new AvroDeserializer(client).deserialize(frameOf(EVENT_JSON), ctx))
    expect(error).toMatchObject({ name: 'DeserializationError', code: 'DESERIALIZATION' })
    expect(error!.message).toBe(
      `Cannot decode the Avro payload of globalId ${GLOBAL_ID}: Invalid Avro data for schema x.json.Event: ` +
        'truncated (the 85 bytes end inside a value); the payload looks like JSON text: ' +
        "Avro's JSON encoding? set avro.encoding 'json' or 'auto'",
    )
  })

  it('says so too when the message has a BINARY encoding header, which no option overrides', async () => {
    const headers = { 'apicurio.value.globalId': ID_HEADER, 'apicurio.value.encoding': 'BINARY' }
    const error = await failure(
      autoReader().deserializeMessage({ payload: Buffer.from(` ${EVENT_JSON}\n`), headers }, ctx),
    )
    expect(error!.message).toBe(
      `Cannot decode the Avro payload of globalId ${GLOBAL_ID}: Invalid Avro data for schema x.json.Event: ` +
        'invalid union index: -29; the payload looks like JSON text, though the ' +
        "message's encoding header says BINARY",
    )
  })

  it('leaves the error of a payload that does not look like JSON text as it is', async () => {
    const error = await failure(autoReader().deserialize(frameOf(EVENT_BINARY.subarray(0, 5)), ctx))
    expect(error!.message).toBe(
      `Cannot decode the Avro payload of globalId ${GLOBAL_ID}: Invalid Avro data for schema x.json.Event: ` +
        'truncated (the 5 bytes end inside a value)',
    )
  })

  it('reads binary frames, JSON frames and headers-mode messages of both encodings, async and sync', async () => {
    const reader = autoReader()
    expect(await reader.deserialize(frameOf(EVENT_BINARY), ctx)).toEqual(event)
    expect(await reader.deserialize(frameOf(EVENT_JSON), ctx)).toEqual(event)
    const headers = { 'apicurio.value.globalId': ID_HEADER }
    expect(reader.deserializeMessageSync({ payload: Buffer.from(EVENT_JSON), headers }, ctx)).toEqual(event)
    expect(reader.deserializeMessageSync({ payload: EVENT_BINARY, headers }, ctx)).toEqual(event)
    expect(reader.deserializeSync(frameOf(`\t${EVENT_JSON} `), ctx)).toEqual(event)
  })

  it('follows an encoding header over its own guess', async () => {
    const json = { 'apicurio.value.globalId': ID_HEADER, 'apicurio.value.encoding': 'JSON' }
    const error = await failure(
      autoReader().deserializeMessage({ payload: EVENT_BINARY, headers: json }, ctx),
    )
    expect(error!.message).toBe(
      `Cannot decode the Avro payload of globalId ${GLOBAL_ID}: Invalid Avro JSON: the payload is not UTF-8 text`,
    )
  })

  it('gives both reasons when a payload that looks like JSON text is neither binary nor JSON of the schema', async () => {
    const error = await failure(autoReader().deserialize(frameOf(EVENT_JSON.replace('"ab"', '12')), ctx))
    expect(error).toMatchObject({ name: 'DeserializationError', code: 'DESERIALIZATION' })
    expect(error!.message).toBe(
      `Cannot decode the Avro payload of globalId ${GLOBAL_ID}: Invalid Avro data for schema x.json.Event: ` +
        "truncated (the 83 bytes end inside a value); read as Avro's JSON encoding (avro.encoding 'auto'): " +
        'Invalid Avro JSON at id: expected a string, got the number 12',
    )
  })
})
