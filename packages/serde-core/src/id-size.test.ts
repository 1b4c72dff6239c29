import { DeserializationError, SchemaNotFoundError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { encodeFrame, SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { normalizeDeserializerOptions } from './deserializer-options.js'
import { messageSchemaId } from './message-schema-id.js'
import { SchemaDeserializer } from './schema-deserializer.js'
import { SchemaSerializer } from './schema-serializer.js'
import { normalizeSerializerOptions } from './serializer-options.js'
import { ToyFormat } from './test-support/toy-format.js'

// idSize through the core, with the toy format: what each width writes, how each reader reads both widths, and what
// a reader of the wrong width does (a clear error, never another schema's value, where the bytes can tell).

const ctx = new SerializationContext('toys')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const text = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('hex')
const id8 = (id: number | bigint): string => BigInt(id).toString(16).padStart(16, '0')
const id4 = (id: number | bigint): string => BigInt(id).toString(16).padStart(8, '0')

let registry: InMemoryRegistry
let admin: RegistryClient
const clients: RegistryClient[] = []
let toy: { globalId: number; contentId: number }

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

function serializer(options: Record<string, unknown>, artifactId = 'toys-value') {
  const { options: shared } = normalizeSerializerOptions<unknown>('ToySerializer', artifactId, options, [])
  return new SchemaSerializer({
    owner: 'ToySerializer',
    client: newClient(),
    format: new ToyFormat(),
    options: shared,
    schemaToRegister: undefined,
  })
}

function deserializer(options: Record<string, unknown>) {
  const { options: shared } = normalizeDeserializerOptions<unknown>('ToyDeserializer', options, [])
  return new SchemaDeserializer({
    owner: 'ToyDeserializer',
    client: newClient(),
    format: new ToyFormat(),
    options: shared,
  })
}

async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise
  } catch (error) {
    return error as Error & Record<string, unknown>
  }
  throw new Error('expected a rejection')
}

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 100, firstContentId: 7 })
  admin = new RegistryClient({ url: registry.url, groupId: 'default' })
  const v1 = await admin.registerSchema(
    'toys-value',
    { title: 'Toy', fields: ['a', 'b'] },
    { artifactType: 'JSON' },
  )
  toy = { globalId: Number(v1.globalId), contentId: Number(v1.contentId) }
})

afterAll(async () => {
  for (const client of clients) await client.close()
  await admin.close()
  await registry.close()
})

beforeEach(() => registry.clearRequests())

describe('idSize on serializers', () => {
  it('idSize 8 writes 0x00 and the id as 8 bytes big-endian, async and sync alike, globalId and contentId', async () => {
    const s = serializer({ idSize: 8 })
    expect(s.idSize).toBe(8)
    const frame = await s.serialize({ a: 'x', b: 'y' }, ctx)
    expect(hex(frame)).toBe(`00${id8(toy.globalId)}${text(['x', 'y'])}`)
    expect(hex(s.serializeSync({ a: 'x', b: 'y' }, ctx))).toBe(hex(frame))
    expect(hex((await s.serializeMessage({ a: 'x', b: 'y' }, ctx)).payload)).toBe(hex(frame))
    const byContent = await serializer({ idSize: 8, useId: 'contentId' }).serialize({ a: 'x', b: 'y' }, ctx)
    expect(hex(byContent)).toBe(`00${id8(toy.contentId)}${text(['x', 'y'])}`)
  })

  it('the default stays 4 bytes', async () => {
    const s = serializer({})
    expect(s.idSize).toBe(4)
    expect(hex(await s.serialize({ a: 'x', b: 'y' }, ctx))).toBe(`00${id4(toy.globalId)}${text(['x', 'y'])}`)
  })

  it('headers mode is unaffected by idSize: the same bare payload and 8-byte id header', async () => {
    const four = await serializer({ wireFormat: WireFormat.MESSAGE_HEADERS }).serializeMessage(
      { a: 'x', b: 'y' },
      ctx,
    )
    const eight = await serializer({ wireFormat: WireFormat.MESSAGE_HEADERS, idSize: 8 }).serializeMessage(
      { a: 'x', b: 'y' },
      ctx,
    )
    expect(hex(eight.payload)).toBe(hex(four.payload))
    expect(Object.keys(eight.headers)).toEqual(['apicurio.value.globalId'])
    expect(hex(eight.headers['apicurio.value.globalId']!)).toBe(hex(four.headers['apicurio.value.globalId']!))
  })

  it.each([
    [2, 'number 2'],
    ['8', 'string "8"'],
    [null, 'null'],
  ])('refuses idSize %s with TypeError INVALID_CONFIG, serializer and deserializer', (idSize, shown) => {
    expect(() => serializer({ idSize })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message: `ToySerializer: idSize must be 4 or 8, got ${shown}`,
      }),
    )
    expect(() => deserializer({ idSize })).toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message: `ToyDeserializer: idSize must be 4 or 8 or 'auto', got ${shown}`,
      }),
    )
  })

  it("refuses idSize 'auto' on a serializer: a writer must choose a width", () => {
    expect(() => serializer({ idSize: 'auto' })).toThrow(
      'ToySerializer: idSize must be 4 or 8 (\'auto\' is for deserializers only: a writer must choose), got string "auto"',
    )
  })
})

describe('idSize on deserializers', () => {
  const frame4 = (): Uint8Array => Buffer.from(`00${id4(toy.globalId)}${text(['x', 'y'])}`, 'hex')
  const frame8 = (): Uint8Array => Buffer.from(`00${id8(toy.globalId)}${text(['x', 'y'])}`, 'hex')

  it('idSize 8 reads an 8-byte frame, async and (once prepared) sync', async () => {
    const d = deserializer({ idSize: 8 })
    expect(d.idSize).toBe(8)
    expect(await d.deserialize(frame8(), ctx)).toEqual({ a: 'x', b: 'y' })
    expect(d.deserializeSync(frame8(), ctx)).toEqual({ a: 'x', b: 'y' })
    expect(await d.deserializeMessage({ payload: frame8(), headers: {} }, ctx)).toEqual({ a: 'x', b: 'y' })
  })

  it("idSize 'auto' reads both widths with one deserializer, and one request for the id", async () => {
    const d = deserializer({ idSize: 'auto' })
    expect(await d.deserialize(frame4(), ctx)).toEqual({ a: 'x', b: 'y' })
    expect(await d.deserialize(frame8(), ctx)).toEqual({ a: 'x', b: 'y' })
    expect(d.deserializeSync(frame4(), ctx)).toEqual({ a: 'x', b: 'y' })
    expect(d.deserializeSync(frame8(), ctx)).toEqual({ a: 'x', b: 'y' })
    expect(registry.requests.map((r) => r.path)).toEqual([`/apis/registry/v3/ids/globalIds/${toy.globalId}`])
  })

  it('a 4-byte reader of an 8-byte frame sees id 0 and fails before any request, naming idSize 8 and the id', async () => {
    for (const d of [deserializer({}), deserializer({ idSize: 4 })]) {
      const error = await rejection(d.deserialize(frame8(), ctx))
      expect(error).toBeInstanceOf(DeserializationError)
      expect(error.message).toBe(
        'Cannot read the frame: its 4-byte schema id is 0, which no registry assigns. The bytes look like a frame ' +
          `with an 8-byte id (Apicurio 2.x's default, 3.x's Legacy8ByteIdHandler): 00 ${id8(toy.globalId)}, id ` +
          `${toy.globalId} as 8 bytes; read this topic with idSize: 8, or idSize: 'auto' when it holds both widths`,
      )
      expect(() => d.deserializeSync(frame8(), ctx)).toThrow(DeserializationError)
    }
    expect(registry.requests).toHaveLength(0)
  })

  it('an 8-byte reader of a 4-byte frame reads the id with 4 payload bytes: the registry does not know it', async () => {
    const d = deserializer({ idSize: 8 })
    const misread = toy.globalId * 2 ** 32 + Buffer.from(frame4()).readUInt32BE(5)
    const error = await rejection(d.deserialize(frame4(), ctx))
    expect(error).toBeInstanceOf(SchemaNotFoundError)
    // The second request asks whether the id is a contentId (it is not): the error path's one extra request.
    expect(registry.requests.map((r) => r.path)).toEqual([
      `/apis/registry/v3/ids/globalIds/${misread}`,
      `/apis/registry/v3/ids/contentIds/${misread}`,
    ])
  })

  it('an 8-byte reader of a 4-byte frame whose id is 2^21 or more fails on the bytes alone (an id beyond 2^53 − 1)', async () => {
    const error = await rejection(
      deserializer({ idSize: 8 }).deserialize(encodeFrame(2 ** 21, Buffer.from('["x","y"]')), ctx),
    )
    expect(error).toBeInstanceOf(DeserializationError)
    expect(error.message).toContain('is beyond 9007199254740991')
    expect(registry.requests).toHaveLength(0)
  })

  it('an id of 0 is refused in every width (all id bytes zero), before any request', async () => {
    for (const [idSize, bytes] of [
      [8, '00 0000000000000000 5b5d'],
      ['auto', '00 0000000000000000 5b5d'],
      ['auto', '00 00000000 5b5d'],
      [4, '00 00000000 5b5d'],
    ] as const) {
      const error = await rejection(
        deserializer({ idSize }).deserialize(Buffer.from(bytes.replaceAll(' ', ''), 'hex'), ctx),
      )
      expect(error).toBeInstanceOf(DeserializationError)
      expect(error.message).toContain('schema id is 0')
      expect(error.message).toContain('which no registry assigns')
    }
    expect(registry.requests).toHaveLength(0)
  })

  it("'auto' cannot tell an 8-byte id of 2^32 or more: it reads the upper half as a 4-byte id", async () => {
    // What its assumption (ids below 2^31) excludes: globalId 2^32 + 5, written in 8 bytes, reads as globalId 1.
    const bytes = Buffer.from(`00${id8(2 ** 32 + 5)}${text(['x', 'y'])}`, 'hex')
    expect(messageSchemaId({ payload: bytes }, 'value', 'globalId', 'auto').id).toBe(1)
    expect(messageSchemaId({ payload: bytes }, 'value', 'globalId', 8).id).toBe(2 ** 32 + 5)
  })

  it('headers mode is unaffected: an id header is read the same whatever idSize says', async () => {
    const header = Buffer.from(id8(toy.globalId), 'hex')
    for (const idSize of [4, 8, 'auto'] as const) {
      const d = deserializer({ idSize })
      const value = await d.deserializeMessage(
        { payload: Buffer.from(JSON.stringify(['x', 'y'])), headers: { 'apicurio.value.globalId': header } },
        ctx,
      )
      expect(value).toEqual({ a: 'x', b: 'y' })
    }
  })

  it('messageSchemaId reads a frame with the idSize given, 4 by default', () => {
    expect(messageSchemaId({ payload: frame8() }, 'value', 'globalId', 8)).toEqual({
      idType: 'globalId',
      id: toy.globalId,
      framed: true,
    })
    expect(messageSchemaId({ payload: frame4() }, 'value', 'contentId')).toEqual({
      idType: 'contentId',
      id: toy.globalId,
      framed: true,
    })
    expect(() => messageSchemaId({ payload: frame8() }, 'value', 'globalId')).toThrow(DeserializationError)
  })
})

describe('ids beyond 32 bits', () => {
  it('a registry id of 2^32 or more cannot go into a 4-byte frame (RangeError 32-bit) but goes into an 8-byte one', async () => {
    const big = await InMemoryRegistry.start({ firstGlobalId: 2 ** 32 + 5, firstContentId: 1 })
    try {
      const client = new RegistryClient({ url: big.url, groupId: 'default', maxRetries: 0 })
      await client.registerSchema('toys-value', { title: 'Toy', fields: ['a'] }, { artifactType: 'JSON' })
      const make = (idSize: 4 | 8) => {
        const { options } = normalizeSerializerOptions<unknown>('ToySerializer', 'toys-value', { idSize }, [])
        return new SchemaSerializer({
          owner: 'ToySerializer',
          client,
          format: new ToyFormat(),
          options,
          schemaToRegister: undefined,
        })
      }
      const error = await rejection(make(4).serialize({ a: 'x' }, ctx))
      expect(error).toMatchObject({ name: 'RangeError', code: 'ID_OUT_OF_RANGE' })
      expect(error.message).toContain('32-bit')
      const frame = await make(8).serialize({ a: 'x' }, ctx)
      expect(hex(frame)).toBe(`00${id8(2 ** 32 + 5)}${text(['x'])}`)
      const { options } = normalizeDeserializerOptions<unknown>('ToyDeserializer', { idSize: 8 }, [])
      const d = new SchemaDeserializer({ owner: 'ToyDeserializer', client, format: new ToyFormat(), options })
      expect(await d.deserialize(frame, ctx)).toEqual({ a: 'x' })
      await client.close()
    } finally {
      await big.close()
    }
  })
})
