import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  JsonSchemaDeserializer,
  JsonSchemaSerializer,
  QualifiedRecordIdStrategy,
  TopicIdStrategy,
  TopicRecordIdStrategy,
} from './index.js'

const ctx = new SerializationContext('orders')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const idHex = (id: unknown, bytes = 4): string =>
  Number(id)
    .toString(16)
    .padStart(bytes * 2, '0')

const ORDER_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'com.example.Order',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    sku: { type: 'string', pattern: '^[A-Z]{3}-[0-9]+$' },
    qty: { type: 'integer', minimum: 1 },
    at: { type: 'string', format: 'date-time' },
  },
  required: ['id', 'sku', 'qty'],
  additionalProperties: false,
}
const order = { id: 9007199254740993n, sku: 'ABC-1', qty: 2 }
const ORDER_TEXT = '{"id":9007199254740993,"sku":"ABC-1","qty":2}'

let registry: InMemoryRegistry
let admin: RegistryClient
const clients: RegistryClient[] = []
let orderIds: { globalId: unknown; contentId: unknown }

function newClient(): RegistryClient {
  const client = new RegistryClient({
    url: registry.url,
    groupId: 'default',
    retryBackoffMs: 0,
    maxRetries: 0,
  })
  clients.push(client)
  return client
}

const paths = (): string[] =>
  registry.requests.map((r) => `${r.method} ${r.path.replace('/apis/registry/v3', '')}`)

async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise
  } catch (error) {
    return error as Error & Record<string, unknown>
  }
  throw new Error('expected a rejection')
}

function frame(id: unknown, text: string | Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`00${idHex(id)}`, 'hex'),
    Buffer.isBuffer(text) ? text : Buffer.from(text),
  ])
}

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 50, firstContentId: 9 })
  admin = new RegistryClient({ url: registry.url, groupId: 'default' })
  const registered = await admin.registerSchema('orders-value', ORDER_SCHEMA, { artifactType: 'JSON' })
  orderIds = { globalId: registered.globalId, contentId: registered.contentId }
})

afterAll(async () => {
  for (const client of clients) await client.close()
  await admin.close()
  await registry.close()
})

beforeEach(() => {
  registry.clearFaults()
  registry.clearRequests()
})

describe('JsonSchemaSerializer', () => {
  it('writes 0x00, the 4-byte globalId and the compact UTF-8 JSON, a bigint as its exact digits', async () => {
    const serializer = new JsonSchemaSerializer(newClient(), { artifactResolver: new TopicIdStrategy() })
    const bytes = await serializer.serialize(order, ctx)
    expect(hex(bytes)).toBe(`00${idHex(orderIds.globalId)}${Buffer.from(ORDER_TEXT).toString('hex')}`)
    expect(paths()).toEqual([
      'GET /groups/default/artifacts/orders-value/versions/branch=latest',
      `GET /ids/globalIds/${orderIds.globalId}`,
    ])
    expect(hex(serializer.serializeSync(order, ctx))).toBe(hex(bytes))
    expect(registry.requests).toHaveLength(2)
  })

  it('writes the contentId with useId contentId, and the id in a header in MESSAGE_HEADERS mode', async () => {
    const framed = await new JsonSchemaSerializer(newClient(), 'orders-value', {
      useId: 'contentId',
    }).serialize(order, ctx)
    expect(hex(framed.subarray(0, 5))).toBe(`00${idHex(orderIds.contentId)}`)
    const message = await new JsonSchemaSerializer(newClient(), 'orders-value', {
      useId: 'contentId',
      wireFormat: WireFormat.MESSAGE_HEADERS,
    }).serializeMessage(order, ctx)
    expect(message.payload.toString()).toBe(ORDER_TEXT)
    expect(Object.keys(message.headers)).toEqual(['apicurio.value.contentId'])
    expect(hex(message.headers['apicurio.value.contentId']!)).toBe(idHex(orderIds.contentId, 8))
  })

  it('refuses a value the schema does not allow with INVALID_DATA, every failing path dotted and its keyword in the message', async () => {
    const serializer = new JsonSchemaSerializer(newClient(), 'orders-value')
    await serializer.prepare()
    let error: (Error & { code?: string; paths?: string[] }) | undefined
    try {
      serializer.serializeSync({ id: 1.5, sku: 'abc', qty: 0, extra: true, at: 'yesterday' }, ctx)
    } catch (caught) {
      error = caught as typeof error
    }
    expect(error).toBeInstanceOf(TypeError)
    expect(error?.code).toBe('INVALID_DATA')
    expect(error?.paths).toEqual(['extra', 'id', 'sku', 'qty', 'at'])
    expect(error?.message).toBe(
      'Value does not match the JSON Schema: ' +
        'extra: expected no such property, got boolean true (additionalProperties); ' +
        'id: expected integer, got number 1.5 (type); ' +
        'sku: expected to match pattern "^[A-Z]{3}-[0-9]+$", got string "abc" (pattern); ' +
        'qty: expected to be >= 1, got number 0 (minimum); ' +
        'at: expected to match format "date-time", got string "yesterday" (format)',
    )
    const missing = await rejection(serializer.serialize({ sku: 'ABC-1' }, ctx))
    expect(missing.paths).toEqual(['id', 'qty'])
    expect(missing.message).toBe(
      'Value does not match the JSON Schema: id: expected a value, got undefined (required); ' +
        'qty: expected a value, got undefined (required)',
    )
  })

  it('writes array items as [i] and property names that are not identifiers as ["name"]', async () => {
    const schema = {
      type: 'object',
      properties: {
        lines: { type: 'array', items: { type: 'object', properties: { 'unit price': { type: 'number' } } } },
        counts: { type: 'object', additionalProperties: { type: 'integer' } },
      },
    }
    const serializer = new JsonSchemaSerializer(newClient(), 'path-notation', { autoRegister: true, schema })
    const error = await rejection(
      serializer.serialize(
        { lines: [{ 'unit price': 1 }, { 'unit price': 'x' }], counts: { a: 1, '0': 'y' } },
        ctx,
      ),
    )
    expect(error.paths).toEqual(['lines[1]["unit price"]', 'counts["0"]'])
  })

  it('validates what is written: a Date counts as the ISO text it becomes', async () => {
    const serializer = new JsonSchemaSerializer(newClient(), 'orders-value')
    const bytes = await serializer.serialize({ ...order, at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)) }, ctx)
    expect(bytes.subarray(5).toString()).toBe(`${ORDER_TEXT.slice(0, -1)},"at":"2026-01-02T03:04:05.000Z"}`)
  })

  it('with validate: false writes any JSON value without looking at the schema', async () => {
    const serializer = new JsonSchemaSerializer(newClient(), 'orders-value', { validate: false })
    expect((await serializer.serialize({ anything: [1, 2n] }, ctx)).subarray(5).toString()).toBe(
      '{"anything":[1,2]}',
    )
  })

  it('refuses values JSON cannot hold: undefined, a function, a cycle', async () => {
    const serializer = new JsonSchemaSerializer(newClient(), 'orders-value', { validate: false })
    await serializer.prepare()
    for (const value of [undefined, () => 1]) {
      expect(() => serializer.serializeSync(value, ctx)).toThrow(
        expect.objectContaining({ code: 'INVALID_DATA' }),
      )
    }
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(() => serializer.serializeSync(cyclic, ctx)).toThrow(
      expect.objectContaining({ code: 'INVALID_DATA', cause: expect.any(TypeError) }),
    )
  })

  it('registers with artifactType JSON on autoRegister, and refuses at construction a schema that does not compile', async () => {
    const schema = { title: 'Thing', type: 'object', properties: { a: { type: 'string' } } }
    const bytes = await new JsonSchemaSerializer(newClient(), 'things', {
      autoRegister: true,
      schema,
    }).serialize({ a: 'x' }, ctx)
    expect(bytes.subarray(5).toString()).toBe('{"a":"x"}')
    const body = JSON.parse(registry.requests[0]!.body) as {
      artifactType: string
      firstVersion: { content: unknown }
    }
    expect(body.artifactType).toBe('JSON')
    expect(body.firstVersion.content).toEqual({
      content: JSON.stringify(schema),
      contentType: 'application/json',
      references: [],
    })
    registry.clearRequests()
    expect(
      () => new JsonSchemaSerializer(newClient(), 'bad', { autoRegister: true, schema: { type: 'nope' } }),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_CONFIG',
        message: expect.stringContaining('not a valid JSON Schema'),
      }),
    )
    expect(
      () => new JsonSchemaSerializer(newClient(), 'bad', { autoRegister: true, schema: '{nope' }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }))
    expect(registry.requests).toHaveLength(0)
  })

  it('names unknown options, naming the class', () => {
    expect(() => new JsonSchemaSerializer(newClient(), 'x', { validation: true } as never)).toThrow(
      "JsonSchemaSerializer: unknown option 'validation'",
    )
  })
})

describe('JsonSchemaDeserializer', () => {
  it('reads an integer beyond 2^53 as an exact bigint, with one request per id', async () => {
    const deserializer = new JsonSchemaDeserializer(newClient())
    const values = await Promise.all(
      [1, 2, 3].map(() => deserializer.deserialize(frame(orderIds.globalId, ORDER_TEXT), ctx)),
    )
    for (const value of values) expect(value).toEqual(order)
    expect(paths()).toEqual([`GET /ids/globalIds/${orderIds.globalId}`])
    expect(deserializer.deserializeSync(frame(orderIds.globalId, '{"id":1,"sku":"X","qty":1}'), ctx)).toEqual(
      { id: 1, sku: 'X', qty: 1 },
    )
  })

  it("reads Jackson's number spellings (2.0, 1.0E21, -0.0) and a byte order mark", async () => {
    const deserializer = new JsonSchemaDeserializer(newClient())
    const text = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('{"a":2.0,"b":1.0E21,"c":-0.0,"d":1.0E-7}'),
    ])
    expect(await deserializer.deserialize(frame(orderIds.globalId, text), ctx)).toEqual({
      a: 2,
      b: 1e21,
      c: -0,
      d: 1e-7,
    })
  })

  it('reads the id from an apicurio.value.contentId header, ignoring the msgType header Java adds', async () => {
    const deserializer = new JsonSchemaDeserializer(newClient())
    const message = {
      payload: Buffer.from(ORDER_TEXT),
      headers: {
        'apicurio.value.contentId': Buffer.from(idHex(orderIds.contentId, 8), 'hex'),
        'apicurio.value.msgType': 'java.util.LinkedHashMap',
      },
    }
    await expect(deserializer.deserializeMessage(message, ctx)).resolves.toEqual(order)
  })

  it.each([
    [
      'invalid UTF-8',
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
      /not valid UTF-8/,
    ],
    ['invalid JSON', Buffer.from('{"id":'), /JSON/],
    ['trailing garbage', Buffer.from('{"id":1} x'), /JSON/],
    [
      'trailing garbage after a long',
      Buffer.from('{"id":12345678901234567890} x'),
      /Expected the end of the JSON text/,
    ],
    ['an empty payload', Buffer.alloc(0), /JSON/],
  ])('refuses %s with a DeserializationError whose cause says why', async (_, payload, reason) => {
    const error = await rejection(
      new JsonSchemaDeserializer(newClient()).deserialize(frame(orderIds.globalId, payload), ctx),
    )
    expect(error).toMatchObject({
      name: 'DeserializationError',
      code: 'DESERIALIZATION',
      schemaId: Number(orderIds.globalId),
    })
    expect(error.message).toMatch(/^Cannot decode the JSON Schema payload of globalId \d+: /)
    expect((error.cause as Error).message).toMatch(reason)
  })

  it('validates on read only when asked, and then a mismatch is a DeserializationError with the paths in its cause', async () => {
    const text = '{"id":"x","sku":"ABC-1","qty":2}'
    await expect(
      new JsonSchemaDeserializer(newClient()).deserialize(frame(orderIds.globalId, text), ctx),
    ).resolves.toEqual({
      id: 'x',
      sku: 'ABC-1',
      qty: 2,
    })
    const error = await rejection(
      new JsonSchemaDeserializer(newClient(), { validate: true }).deserialize(
        frame(orderIds.globalId, text),
        ctx,
      ),
    )
    expect(error.name).toBe('DeserializationError')
    expect(error.cause).toMatchObject({ name: 'TypeError', code: 'INVALID_DATA', paths: ['id'] })
    // A long beyond 2^53 passes `type: integer`.
    await expect(
      new JsonSchemaDeserializer(newClient(), { validate: true }).deserialize(
        frame(orderIds.globalId, ORDER_TEXT),
        ctx,
      ),
    ).resolves.toEqual(order)
  })

  it('validates against a readerSchema instead of the writer schema', async () => {
    const deserializer = new JsonSchemaDeserializer(newClient(), {
      validate: true,
      readerSchema: { type: 'object', required: ['note'] },
    })
    const error = await rejection(deserializer.deserialize(frame(orderIds.globalId, ORDER_TEXT), ctx))
    expect(error.cause).toMatchObject({ paths: ['note'] })
  })
})

describe('JSON Schema references', () => {
  it('fetches the referenced schemas once and resolves $ref by the reference name and by $id', async () => {
    const address = {
      $id: 'https://example.com/schemas/address.json',
      type: 'object',
      properties: { zip: { type: 'string', pattern: '^[0-9]{5}$' } },
      required: ['zip'],
    }
    const { version } = await admin.registerSchema('address', address, { artifactType: 'JSON' })
    const customer = {
      title: 'Customer',
      type: 'object',
      properties: {
        home: { $ref: 'address.json' },
        work: { $ref: 'https://example.com/schemas/address.json' },
      },
    }
    const references = [{ name: 'address.json', artifactId: 'address', version: version! }]
    const serializer = new JsonSchemaSerializer(newClient(), 'customer', {
      autoRegister: true,
      schema: customer,
      references,
    })
    registry.clearRequests()
    const bytes = await serializer.serialize({ home: { zip: '12345' }, work: { zip: '54321' } }, ctx)
    expect(bytes.subarray(5).toString()).toBe('{"home":{"zip":"12345"},"work":{"zip":"54321"}}')
    await expect(serializer.serialize({ home: { zip: 'x' } }, ctx)).rejects.toMatchObject({
      paths: ['home.zip'],
    })
    const deserializer = new JsonSchemaDeserializer(newClient(), { validate: true })
    const id = Number.parseInt(hex(bytes.subarray(1, 5)), 16)
    registry.clearRequests()
    await expect(deserializer.deserialize(bytes, ctx)).resolves.toEqual({
      home: { zip: '12345' },
      work: { zip: '54321' },
    })
    expect(paths()).toEqual([
      `GET /ids/globalIds/${id}`,
      `GET /ids/globalIds/${id}/references`,
      `GET /groups/default/artifacts/address/versions/${version}`,
      expect.stringMatching(/^GET \/ids\/globalIds\/\d+$/),
    ])
  })

  it('a $ref to a reference the registry does not list is a DeserializationError naming it', async () => {
    const { globalId } = await admin.registerSchema(
      'dangling',
      { type: 'object', properties: { a: { $ref: 'missing.json' } } },
      { artifactType: 'JSON' },
    )
    const error = await rejection(
      new JsonSchemaDeserializer(newClient()).deserialize(frame(globalId, '{}'), ctx),
    )
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toContain(
      'is not a valid JSON Schema schema (it uses definitions it does not hold, and the registry lists no references)',
    )
    expect(error.message).toContain('missing.json')
  })
})

describe('JSON Schema record strategies', () => {
  it('name the artifact after the schema title', () => {
    expect(new QualifiedRecordIdStrategy(ORDER_SCHEMA).resolve(ctx)).toBe('com.example.Order')
    expect(new TopicRecordIdStrategy(JSON.stringify(ORDER_SCHEMA)).resolve(ctx)).toBe(
      'orders-com.example.Order',
    )
    expect(() => new QualifiedRecordIdStrategy({ type: 'object' })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    )
  })
})

describe('items compared with each other', () => {
  it('writes with a schema whose enum holds 12 000 values, and refuses a value of none of them', async () => {
    const values = Array.from({ length: 12_000 }, (_, index) => index)
    const writer = new JsonSchemaSerializer(newClient(), 'codes-value', {
      autoRegister: true,
      schema: { type: 'object', properties: { code: { enum: values } }, required: ['code'] },
    })
    const ctx = new SerializationContext('codes', 'value')
    const bytes = await writer.serialize({ code: 11_999 }, ctx)
    expect(Buffer.from(bytes).subarray(5).toString()).toBe('{"code":11999}')
    const refused = await rejection(writer.serialize({ code: 12_000 }, ctx))
    expect(refused).toBeInstanceOf(TypeError)
    expect(refused.code).toBe('INVALID_DATA')
  })

  it('refuses a registered schema whose enum repeats a value among thousands, naming the two items as ajv does', async () => {
    const values: unknown[] = Array.from({ length: 6_000 }, (_, index) => ({ k: index }))
    values.push({ k: 5 })
    await admin.registerSchema('repeats-value', { enum: values }, { artifactType: 'JSON' })
    const writer = new JsonSchemaSerializer(newClient(), 'repeats-value')
    const refused = await rejection(writer.serialize({ k: 1 }, new SerializationContext('repeats', 'value')))
    expect(refused.message).toContain(
      'data/enum must NOT have duplicate items (items ## 5 and 6000 are identical)',
    )
  })

  it('reads an array of thousands of different objects under uniqueItems, and refuses one that repeats an item', async () => {
    const writer = new JsonSchemaSerializer(newClient(), 'lines-value', {
      autoRegister: true,
      schema: { type: 'array', items: { type: 'object' }, uniqueItems: true },
    })
    const ctx = new SerializationContext('lines', 'value')
    const lines = Array.from({ length: 5_000 }, (_, index) => ({ sku: `s${index}`, qty: index % 3 }))
    const bytes = await writer.serialize(lines, ctx)
    const reader = new JsonSchemaDeserializer(newClient(), { validate: true })
    expect(await reader.deserialize(Buffer.from(bytes), ctx)).toEqual(lines)
    const refused = await rejection(writer.serialize([...lines, { qty: 1, sku: 's7' }], ctx))
    expect(refused).toBeInstanceOf(TypeError)
    expect(refused.code).toBe('INVALID_DATA')
    expect(refused.message).toContain('5000')
  })
})
