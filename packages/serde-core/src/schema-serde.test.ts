import { inspect } from 'node:util'
import { failedMessageOf, RegistryConnectionError, SchemaNotFoundError, type SerdeError } from '@x/errors'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { normalizeDeserializerOptions } from './deserializer-options.js'
import type { RegistryPort } from './registry-port.js'
import { SchemaDeserializer } from './schema-deserializer.js'
import { SchemaSerializer } from './schema-serializer.js'
import { normalizeSerializerOptions } from './serializer-options.js'
import { TopicIdStrategy } from './strategies.js'
import { ToyFormat } from './test-support/toy-format.js'

// The core's guarantees, proven with a toy format (no Avro, no real format): request counts, single flight,
// NOT_PREPARED, both wire formats, error classes, references, reader schemas. The Avro serde's own tests prove the
// same through Avro.

const ctx = new SerializationContext('toys')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const text = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('hex')

let registry: InMemoryRegistry
let admin: RegistryClient
const clients: RegistryClient[] = []
let toyV1: { globalId: number; contentId: number }

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

function serializer(
  client: unknown,
  artifactIdOrOptions: unknown,
  options?: unknown,
  format = new ToyFormat(),
) {
  const { options: shared } = normalizeSerializerOptions<unknown>(
    'ToySerializer',
    artifactIdOrOptions,
    options,
    [],
  )
  const schemaToRegister = shared.autoRegister ? JSON.stringify(shared.schema) : undefined
  return new SchemaSerializer({ owner: 'ToySerializer', client, format, options: shared, schemaToRegister })
}

function deserializer(client: unknown, options?: unknown, format = new ToyFormat()) {
  const { options: shared } = normalizeDeserializerOptions<unknown>('ToyDeserializer', options, [])
  return new SchemaDeserializer({ owner: 'ToyDeserializer', client, format, options: shared })
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

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 100, firstContentId: 7 })
  admin = new RegistryClient({ url: registry.url, groupId: 'default' })
  const v1 = await admin.registerSchema(
    'toys-value',
    { title: 'Toy', fields: ['a', 'b'] },
    { artifactType: 'JSON' },
  )
  toyV1 = { globalId: Number(v1.globalId), contentId: Number(v1.contentId) }
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

describe('SchemaSerializer', () => {
  it('frames the codec output after 0x00 and the 4-byte id, with two requests for the first call only', async () => {
    const s = serializer(newClient(), 'toys-value')
    const frames = await Promise.all([1, 2, 3].map(() => s.serialize({ a: 'x', b: 'y' }, ctx)))
    for (const frame of frames)
      expect(hex(frame)).toBe(`00${toyV1.globalId.toString(16).padStart(8, '0')}${text(['x', 'y'])}`)
    expect(paths()).toEqual([
      'GET /groups/default/artifacts/toys-value/versions/branch=latest',
      `GET /ids/globalIds/${toyV1.globalId}`,
    ])
    await s.serialize({ a: 'p', b: 'q' }, ctx)
    expect(registry.requests).toHaveLength(2)
  })

  it('writes the contentId with useId contentId', async () => {
    const frame = await serializer(newClient(), 'toys-value', { useId: 'contentId' }).serialize(
      { a: 'x', b: 'y' },
      ctx,
    )
    expect(hex(frame.subarray(0, 5))).toBe(`00${toyV1.contentId.toString(16).padStart(8, '0')}`)
  })

  it('serializeSync before any call is NOT_PREPARED, naming prepare(); after prepare() it gives the same bytes', async () => {
    const s = serializer(newClient(), { artifactResolver: new TopicIdStrategy() })
    expect(() => s.serializeSync({ a: 'x', b: 'y' }, ctx)).toThrow(
      expect.objectContaining({
        name: 'SerdeError',
        code: 'NOT_PREPARED',
        message: expect.stringContaining('prepare()'),
      }),
    )
    await s.prepare(ctx)
    expect(hex(s.serializeSync({ a: 'x', b: 'y' }, ctx))).toBe(
      hex(await s.serialize({ a: 'x', b: 'y' }, ctx)),
    )
  })

  it('in MESSAGE_HEADERS mode refuses serialize before any request and puts the id in one 8-byte header', async () => {
    const s = serializer(newClient(), 'toys-value', { wireFormat: WireFormat.MESSAGE_HEADERS })
    const error = await rejection(s.serialize({ a: 'x', b: 'y' }, ctx))
    expect(error).toMatchObject({ name: 'TypeError', code: 'INVALID_CONFIG' })
    expect(error.message).toContain('ToySerializer.serialize() returns only bytes')
    expect(registry.requests).toHaveLength(0)
    const message = await s.serializeMessage({ a: 'x', b: 'y' }, new SerializationContext('toys', 'key'))
    expect(hex(message.payload)).toBe(text(['x', 'y']))
    expect(Object.keys(message.headers)).toEqual(['apicurio.key.globalId'])
    expect(hex(message.headers['apicurio.key.globalId']!)).toBe(toyV1.globalId.toString(16).padStart(16, '0'))
  })

  it("registers with autoRegister under the format's artifact type and content type, and makes no lookup", async () => {
    const schema = { title: 'Auto', fields: ['z'] }
    const frame = await serializer(newClient(), 'toy-auto', { autoRegister: true, schema }).serialize(
      { z: 'q' },
      ctx,
    )
    expect(paths()).toEqual(['POST /groups/default/artifacts'])
    const body = JSON.parse(registry.requests[0]!.body) as Record<string, any>
    expect(body.artifactType).toBe('JSON')
    expect(body.firstVersion.content).toEqual({
      content: JSON.stringify(schema),
      contentType: 'application/json',
      references: [],
    })
    expect(hex(frame.subarray(5))).toBe(text(['q']))
  })

  it('passes a data error of the codec through, wraps a throwing toDict and an unusable registry schema', async () => {
    const s = serializer(newClient(), 'toys-value', {
      toDict: (value: { boom?: boolean }) => {
        if (value.boom) throw new Error('no dict')
        return value
      },
    })
    await expect(s.serialize({ a: 'x' } as never, ctx)).rejects.toMatchObject({
      name: 'TypeError',
      code: 'INVALID_DATA',
      paths: ['b'],
    })
    const thrown = await rejection(s.serialize({ boom: true }, ctx))
    expect(thrown).toMatchObject({ name: 'SerializationError', code: 'SERIALIZATION' })
    expect((thrown.cause as Error).message).toBe('no dict')
    await admin.registerSchema('toy-broken', { title: 'Broken' }, { artifactType: 'JSON' })
    const broken = await rejection(serializer(newClient(), 'toy-broken').serialize({}, ctx))
    expect(broken).toMatchObject({ name: 'SerializationError' })
    expect(broken.message).toContain("The registry schema of artifact 'toy-broken'")
    expect(broken.message).toContain('is not a valid Toy schema: a Toy schema has a fields array')
  })

  it('works with any object that has the registry port methods, and refuses anything else at construction', async () => {
    const client = newClient()
    const port: RegistryPort = {
      getSchema: (a) => client.getSchema(a),
      getSchemaByGlobalId: (id) => client.getSchemaByGlobalId(id),
      getSchemaByContentId: (id) => client.getSchemaByContentId(id),
      getReferencesByGlobalId: (id) => client.getReferencesByGlobalId(id),
      getReferencesByContentId: (id) => client.getReferencesByContentId(id),
      getSchemaVersion: (a, v, o) => client.getSchemaVersion(a, v, o),
      registerSchema: (a, s, o) => client.registerSchema(a, s, o),
    }
    expect(hex((await serializer(port, 'toys-value').serialize({ a: 'x', b: 'y' }, ctx)).subarray(5))).toBe(
      text(['x', 'y']),
    )
    expect(() => serializer({ getSchema() {} }, 'toys-value')).toThrow(
      expect.objectContaining({
        code: 'INVALID_CONFIG',
        message: expect.stringContaining('getSchemaByGlobalId()'),
      }),
    )
  })
})

describe('SchemaDeserializer', () => {
  const frameOf = (id: number, value: unknown): Buffer =>
    Buffer.concat([
      Buffer.from([0]),
      Buffer.from(id.toString(16).padStart(8, '0'), 'hex'),
      Buffer.from(JSON.stringify(value)),
    ])

  it('makes one request per id for any number of concurrent calls, then none', async () => {
    const d = deserializer(newClient())
    const values = await Promise.all(
      Array.from({ length: 50 }, () => d.deserialize(frameOf(toyV1.globalId, ['x', 'y']), ctx)),
    )
    expect(values).toEqual(Array.from({ length: 50 }, () => ({ a: 'x', b: 'y' })))
    expect(paths()).toEqual([`GET /ids/globalIds/${toyV1.globalId}`])
    expect(d.deserializeSync(frameOf(toyV1.globalId, ['p', 'q']), ctx)).toEqual({ a: 'p', b: 'q' })
    expect(registry.requests).toHaveLength(1)
  })

  it('reads the id type from an id header, and is NOT_PREPARED before the id is cached', async () => {
    const d = deserializer(newClient())
    const header = Buffer.from(toyV1.contentId.toString(16).padStart(16, '0'), 'hex')
    const message = { payload: Buffer.from('["x","y"]'), headers: { 'apicurio.value.contentId': header } }
    expect(() => d.deserializeMessageSync(message, ctx)).toThrow(
      expect.objectContaining({
        code: 'NOT_PREPARED',
        message: expect.stringContaining(`prepare(${toyV1.contentId}, ctx, 'contentId')`),
      }),
    )
    await expect(d.deserializeMessage(message, ctx)).resolves.toEqual({ a: 'x', b: 'y' })
    expect(paths()).toEqual([`GET /ids/contentIds/${toyV1.contentId}`])
    expect(d.deserializeMessageSync(message, ctx)).toEqual({ a: 'x', b: 'y' })
  })

  it('wraps every codec failure and a throwing fromDict into a DeserializationError with cause and schemaId', async () => {
    const d = deserializer(newClient())
    const bad = await rejection(d.deserialize(frameOf(toyV1.globalId, ['only one']), ctx))
    expect(bad).toMatchObject({
      name: 'DeserializationError',
      code: 'DESERIALIZATION',
      schemaId: toyV1.globalId,
    })
    expect(bad.message).toBe(
      `Cannot decode the Toy payload of globalId ${toyV1.globalId}: Toy payload is not an array of 2 strings`,
    )
    expect(bad.cause).toBeInstanceOf(TypeError)
    const garbage = await rejection(
      d.deserialize(Buffer.concat([frameOf(toyV1.globalId, []).subarray(0, 5), Buffer.from('{')]), ctx),
    )
    expect(garbage.cause).toBeInstanceOf(SyntaxError)
    const throwing = deserializer(newClient(), {
      fromDict: () => {
        throw new Error('no')
      },
    })
    await expect(throwing.deserialize(frameOf(toyV1.globalId, ['x', 'y']), ctx)).rejects.toMatchObject({
      name: 'DeserializationError',
      message: 'fromDict threw: no',
    })
  })

  it('fetches references only when the schema needs them: the list by id, then each referenced version, once', async () => {
    const base = await admin.registerSchema('toy-base', { fields: ['c'] }, { artifactType: 'JSON' })
    const user = await admin.registerSchema(
      'toy-user',
      { fields: ['a'], uses: ['base.toy'] },
      {
        artifactType: 'JSON',
        references: [{ name: 'base.toy', artifactId: 'toy-base', version: base.version! }],
      },
    )
    registry.clearRequests()
    const format = new ToyFormat()
    const d = deserializer(newClient(), {}, format)
    const value = await d.deserialize(frameOf(Number(user.globalId), ['x', 'z']), ctx)
    expect(value).toEqual({ a: 'x', c: 'z' })
    expect(paths()).toEqual([
      `GET /ids/globalIds/${user.globalId}`,
      `GET /ids/globalIds/${user.globalId}/references`,
      `GET /groups/default/artifacts/toy-base/versions/${base.version}`,
      `GET /ids/globalIds/${base.globalId}`,
    ])
    // The schema alone (needs its reference), the referenced schema alone (needs none of its own), then both.
    expect(format.parses.map((p) => [p.schema, p.references?.map((r) => r.name)])).toEqual([
      ['{"fields":["a"],"uses":["base.toy"]}', undefined],
      ['{"fields":["c"]}', undefined],
      ['{"fields":["a"],"uses":["base.toy"]}', ['base.toy']],
    ])
    expect(format.parses[2]!.references![0]).toMatchObject({
      artifactId: 'toy-base',
      schema: '{"fields":["c"]}',
    })
  })

  it('reads with the latest version of an artifact as the reader schema', async () => {
    await admin.registerSchema('toy-reader', { fields: ['b', 'n'] }, { artifactType: 'JSON' })
    registry.clearRequests()
    const d = deserializer(newClient(), { useLatestVersion: true, artifactId: 'toy-reader' })
    await expect(d.deserialize(frameOf(toyV1.globalId, ['x', 'y']), ctx)).resolves.toEqual({
      b: 'y',
      n: null,
    })
    expect(registry.requests).toHaveLength(3)
  })

  it('says whether an id is prepared without asking the registry: the writer schema, with useLatestVersion the reader too', async () => {
    await admin.registerSchema('toy-reader', { fields: ['b', 'n'] }, { artifactType: 'JSON' })
    const d = deserializer(newClient())
    registry.clearRequests()
    expect(d.isPrepared(toyV1.globalId)).toBe(false)
    await d.prepare(toyV1.globalId)
    expect(d.isPrepared(toyV1.globalId)).toBe(true)
    expect(d.isPrepared(toyV1.globalId, ctx, 'contentId')).toBe(false)
    expect(d.isPrepared(-1)).toBe(false)
    expect(d.isPrepared(toyV1.globalId, ctx, 'nonsense' as never)).toBe(false)
    const latest = deserializer(newClient(), { useLatestVersion: true, artifactId: 'toy-reader' })
    expect(latest.isPrepared(toyV1.globalId, ctx)).toBe(false)
    await latest.deserialize(frameOf(toyV1.globalId, ['x', 'y']), ctx)
    expect(latest.isPrepared(toyV1.globalId, ctx)).toBe(true)
    expect(latest.isPrepared(toyV1.globalId)).toBe(true)
    const asked = registry.requests.length
    d.isPrepared(12345)
    latest.isPrepared(12345, ctx)
    expect(registry.requests).toHaveLength(asked)
  })
})

describe('a frame whose id the registry knows only as the other id type', () => {
  const frame = (id: number) => Buffer.concat([Buffer.from([0, 0, 0, 0, id]), Buffer.from('["x","y"]')])

  it('says a contentId of that number exists and names useId, with one extra request', async () => {
    const error = await rejection(deserializer(newClient()).deserialize(frame(toyV1.contentId), ctx))
    expect(error).toBeInstanceOf(SchemaNotFoundError)
    expect(error.message).toBe(
      `Schema not found: no globalId ${toyV1.contentId}, but a contentId ${toyV1.contentId} exists: the producer ` +
        "writes contentIds, as Java 3.x does by default: set useId 'contentId'",
    )
    expect(error).toMatchObject({ code: 'SCHEMA_NOT_FOUND', idType: 'globalId', idValue: toyV1.contentId })
    expect((error.cause as Error).message).toBe(
      `Schema not found: globalId ${toyV1.contentId} (the registry at ${registry.url} answered HTTP 404 (No version ` +
        `with global ID '${toyV1.contentId}' found.))`,
    )
    expect(failedMessageOf(error)).toMatchObject({ schemaId: toyV1.contentId, idType: 'globalId' })
    expect(paths()).toEqual([
      `GET /ids/globalIds/${toyV1.contentId}`,
      `GET /ids/contentIds/${toyV1.contentId}`,
    ])
  })

  it('says a globalId of that number exists when reading contentIds', async () => {
    const error = await rejection(
      deserializer(newClient(), { useId: 'contentId' }).deserialize(frame(toyV1.globalId), ctx),
    )
    expect(error.message).toBe(
      `Schema not found: no contentId ${toyV1.globalId}, but a globalId ${toyV1.globalId} exists: the producer ` +
        "writes globalIds, as Java 2.x and this library's serializers do by default: set useId 'globalId'",
    )
    expect(registry.requests).toHaveLength(2)
  })

  it('leaves the error as it is when neither id type knows the number, or the id came from a header', async () => {
    const unknown = await rejection(deserializer(newClient()).deserialize(frame(99), ctx))
    expect(unknown.message).toBe(
      `Schema not found: globalId 99 (the registry at ${registry.url} answered HTTP 404 (No version with global ID ` +
        `'99' found.))`,
    )
    expect(registry.requests).toHaveLength(2)
    registry.clearRequests()
    const headers = { 'apicurio.value.globalId': Buffer.from([0, 0, 0, 0, 0, 0, 0, toyV1.contentId]) }
    const named = await rejection(
      deserializer(newClient()).deserializeMessage({ payload: Buffer.from('["x","y"]'), headers }, ctx),
    )
    expect(named.message).toMatch(
      new RegExp(`^Schema not found: globalId ${toyV1.contentId} \\(the registry`),
    )
    expect(registry.requests).toHaveLength(1)
  })
})

describe('what a failed deserialization carries for a dead-letter handler', () => {
  const frameOf = (id: number, value: unknown): Buffer =>
    Buffer.concat([
      Buffer.from([0]),
      Buffer.from(id.toString(16).padStart(8, '0'), 'hex'),
      Buffer.from(JSON.stringify(value)),
    ])

  it('an undecodable frame: the bytes given, the id and its type, the context, all non-enumerable', async () => {
    const d = deserializer(newClient())
    const bytes = frameOf(toyV1.globalId, ['only one'])
    const error = await rejection(d.deserialize(bytes, ctx))
    expect(error.name).toBe('DeserializationError')
    expect(failedMessageOf(error)).toEqual({
      payload: bytes,
      schemaId: toyV1.globalId,
      idType: 'globalId',
      headers: undefined,
      context: ctx,
    })
    expect(error.payload).toBe(bytes)
    expect(Object.keys(error)).toEqual(['name', 'code'])
    expect(JSON.stringify(error)).not.toContain('only one')
    expect(inspect(error)).not.toContain('only one')
    expect((error as unknown as SerdeError).toJSON()).toMatchObject({ schemaId: toyV1.globalId })
  })

  it('a registry error while deserializing a message: the payload, the headers and the id of the header', async () => {
    const d = deserializer(newClient())
    const headers = { 'apicurio.value.contentId': Buffer.from('00000000000f4240', 'hex'), trace: 'abc' }
    const payload = Buffer.from('["x","y"]')
    const error = await rejection(d.deserializeMessage({ payload, headers }, ctx))
    expect(error).toBeInstanceOf(SchemaNotFoundError)
    expect(failedMessageOf(error)).toEqual({
      payload,
      schemaId: 1_000_000,
      idType: 'contentId',
      headers,
      context: ctx,
    })
    // The error's own enumerable fields are unchanged (the id it was looking for).
    expect(Object.keys(error)).toEqual(['name', 'code', 'idType', 'idValue', 'url', 'status'])
  })

  it('a bad magic byte carries the bytes without an id; NOT_PREPARED and a failing registry carry the id', async () => {
    const d = deserializer(newClient())
    const bad = Buffer.from([1, 0, 0, 0, 1, 2])
    expect(failedMessageOf(await rejection(d.deserialize(bad, ctx)))).toEqual({
      payload: bad,
      schemaId: undefined,
      idType: undefined,
      headers: undefined,
      context: ctx,
    })
    const frame = frameOf(toyV1.globalId, ['x', 'y'])
    let notPrepared: unknown
    try {
      d.deserializeSync(frame, ctx)
    } catch (error) {
      notPrepared = error
    }
    expect(notPrepared).toMatchObject({ code: 'NOT_PREPARED' })
    expect(failedMessageOf(notPrepared)).toMatchObject({ payload: frame, schemaId: toyV1.globalId })
    registry.inject({ status: 503, times: 1 })
    const down = await rejection(d.deserialize(frame, ctx))
    expect(down).toBeInstanceOf(RegistryConnectionError)
    expect(failedMessageOf(down)).toMatchObject({
      payload: frame,
      schemaId: toyV1.globalId,
      idType: 'globalId',
    })
  })

  it('a message whose payload is not bytes carries nothing: there are no bytes to dead-letter', async () => {
    const d = deserializer(newClient())
    const error = await rejection(d.deserializeMessage({ payload: 'text' } as never, ctx))
    expect(error.name).toBe('DeserializationError')
    expect(failedMessageOf(error)).toBeUndefined()
  })
})
