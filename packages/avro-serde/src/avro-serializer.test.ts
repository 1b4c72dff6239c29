import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { AvroSerializer } from './avro-serializer.js'
import { TopicIdStrategy } from './index.js'

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const ctx = new SerializationContext('users')
const keyCtx = new SerializationContext('users', 'key')

// {"id": "u1", "age": 42} → 04 'u' '1' | zigzag(42) = 04 75 31 | 54
const userEvent = {
  type: 'record',
  name: 'UserEvent',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'age', type: 'int' },
  ],
}
const user = { id: 'u1', age: 42 }
const USER_AVRO = '04753154'

const person = {
  type: 'record',
  name: 'Person',
  namespace: 'com.example',
  fields: [
    { name: 'name', type: 'string' },
    {
      name: 'address',
      type: { type: 'record', name: 'Address', fields: [{ name: 'city', type: 'string' }] },
    },
  ],
}

let registry: InMemoryRegistry
let admin: RegistryClient
const clients: RegistryClient[] = []

/** A client with empty caches, so that request counts start from nothing. */
function newClient(options: { cacheTtlMs?: number; maxRetries?: number } = {}): RegistryClient {
  const client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0, ...options })
  clients.push(client)
  return client
}

const paths = (): string[] =>
  registry.requests.map((r) => `${r.method} ${r.path.replace('/apis/registry/v3', '')}`)

beforeAll(async () => {
  // globalIds from 1000 and contentIds from 7, so that a frame shows which one it carries.
  registry = await InMemoryRegistry.start({ firstGlobalId: 1000, firstContentId: 7 })
  admin = new RegistryClient({ url: registry.url, groupId: 'default' })
  const first = await admin.registerSchema('UserEvent', userEvent)
  expect([first.globalId, first.contentId]).toEqual([1000, 7])
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

describe('AvroSerializer wire formats (golden bytes)', () => {
  it('frames a record as 00, the 4-byte big-endian globalId and the Avro body', async () => {
    const bytes = await new AvroSerializer(newClient(), 'UserEvent').serialize(user, ctx)
    expect(hex(bytes)).toBe(`00000003e8${USER_AVRO}`)
    expect(Buffer.isBuffer(bytes)).toBe(true)
  })

  it('frames the contentId with useId: contentId (Apicurio Java 3.x default)', async () => {
    const bytes = await new AvroSerializer(newClient(), 'UserEvent', { useId: 'contentId' }).serialize(
      user,
      ctx,
    )
    expect(hex(bytes)).toBe(`0000000007${USER_AVRO}`)
  })

  it('in MESSAGE_HEADERS mode writes the bare Avro payload, one 8-byte id header of the field and the BINARY encoding header', async () => {
    const serializer = new AvroSerializer(newClient(), 'UserEvent', {
      wireFormat: WireFormat.MESSAGE_HEADERS,
    })
    const message = await serializer.serializeMessage(user, ctx)
    expect(hex(message.payload)).toBe(USER_AVRO)
    expect(Object.keys(message.headers)).toEqual(['apicurio.value.globalId', 'apicurio.value.encoding'])
    expect(hex(message.headers['apicurio.value.globalId']!)).toBe('00000000000003e8')
    expect(Buffer.from(message.headers['apicurio.value.encoding']!).toString('latin1')).toBe('BINARY')
    expect(Buffer.isBuffer(message.payload)).toBe(true)
    expect(Buffer.isBuffer(message.headers['apicurio.value.globalId'])).toBe(true)

    const byContent = new AvroSerializer(newClient(), 'UserEvent', {
      wireFormat: WireFormat.MESSAGE_HEADERS,
      useId: 'contentId',
    })
    const keyMessage = await byContent.serializeMessage(user, keyCtx)
    expect(keyMessage.headers).toEqual({
      'apicurio.key.contentId': Buffer.from('0000000000000007', 'hex'),
      'apicurio.key.encoding': Buffer.from('BINARY'),
    })
    expect(hex(keyMessage.payload)).toBe(USER_AVRO)
  })

  it('serializeMessage in FRAMED_PAYLOAD mode returns the frame and no header', async () => {
    const message = await new AvroSerializer(newClient(), 'UserEvent').serializeMessage(user, ctx)
    expect(hex(message.payload)).toBe(`00000003e8${USER_AVRO}`)
    expect(message.headers).toEqual({})
  })

  it('serialize in MESSAGE_HEADERS mode rejects with INVALID_CONFIG naming serializeMessage, before any request', async () => {
    const serializer = new AvroSerializer(newClient(), 'UserEvent', {
      wireFormat: WireFormat.MESSAGE_HEADERS,
    })
    await expect(serializer.serialize(user, ctx)).rejects.toThrow(
      expect.objectContaining({
        name: 'TypeError',
        code: 'INVALID_CONFIG',
        message: expect.stringContaining('serializeMessage'),
      }),
    )
    expect(() => serializer.serializeSync(user, ctx)).toThrow(/serializeMessageSync/)
    expect(registry.requests).toHaveLength(0)
  })

  it('refuses an id beyond 32 bits in a frame with a RangeError saying 32-bit, and writes it in a header', async () => {
    const wide = await InMemoryRegistry.start({ firstGlobalId: 2n ** 32n })
    try {
      const seed = new RegistryClient({ url: wide.url, groupId: 'default' })
      await seed.registerSchema('UserEvent', userEvent)
      await seed.close()
      const client = new RegistryClient({ url: wide.url, groupId: 'default' })
      clients.push(client)
      await expect(new AvroSerializer(client, 'UserEvent').serialize(user, ctx)).rejects.toThrow(
        expect.objectContaining({
          name: 'RangeError',
          code: 'ID_OUT_OF_RANGE',
          message: expect.stringContaining('32-bit'),
        }),
      )
      const message = await new AvroSerializer(client, 'UserEvent', {
        wireFormat: WireFormat.MESSAGE_HEADERS,
      }).serializeMessage(user, ctx)
      expect(hex(message.headers['apicurio.value.globalId']!)).toBe('0000000100000000')
    } finally {
      await wide.close()
    }
  })

  it('returns a fresh Buffer per call that later calls do not overwrite, also for values larger than the scratch space', async () => {
    const serializer = new AvroSerializer(newClient(), 'UserEvent')
    const first = await serializer.serialize(user, ctx)
    const big = { id: 'x'.repeat(300_000), age: 1 }
    const second = await serializer.serialize(big, ctx)
    const third = await serializer.serialize({ id: 'zz', age: -1 }, ctx)
    expect(hex(first)).toBe(`00000003e8${USER_AVRO}`)
    // 300000 → zigzag 600000 → varint c0 cf 24
    expect(second.length).toBe(5 + 3 + 300_000 + 1)
    expect(hex(second.subarray(0, 8))).toBe('00000003e8c0cf24')
    expect(second[second.length - 1]).toBe(0x02)
    expect(hex(third)).toBe('00000003e8047a7a01')
    expect(first.buffer === third.buffer && first.byteOffset === third.byteOffset).toBe(false)
  })
})

describe('AvroSerializer output memory', () => {
  it('keeps every message it returned intact: 3 000 kept messages of sizes around and beyond its 8 KiB slab, each the bytes the value has alone', async () => {
    const serializer = new AvroSerializer(newClient(), 'UserEvent')
    await serializer.prepare(ctx)
    const fresh = new AvroSerializer(newClient(), 'UserEvent')
    await fresh.prepare(ctx)
    const sizes = [0, 1, 5, 63, 64, 200, 1000, 4000, 4090, 4100, 8180, 8200, 20_000]
    const values = Array.from({ length: 3000 }, (_, i) => ({
      id: String.fromCharCode(97 + (i % 26)).repeat(sizes[(i * 7) % sizes.length]!),
      age: i,
    }))
    const kept = values.map((value) => serializer.serializeSync(value, ctx))
    for (const [i, value] of values.entries()) {
      // `fresh` writes each value after a call of another size, so the slabs of the two are never in step.
      fresh.serializeSync({ id: 'x'.repeat(i % 50), age: 0 }, ctx)
      expect(hex(kept[i]!), `message ${i}`).toBe(hex(fresh.serializeSync(value, ctx)))
    }
  })

  it('hands out small messages as views of one 8 KiB slab, as Buffer.allocUnsafe does of its pool; a message that fits neither its rest nor half a new one gets memory of its own', async () => {
    const serializer = new AvroSerializer(newClient(), 'UserEvent')
    const small = await Promise.all([serializer.serialize(user, ctx), serializer.serialize(user, ctx)])
    expect(small[0]!.buffer).toBe(small[1]!.buffer)
    expect(small[0]!.buffer.byteLength).toBe(8192)
    expect(small[1]!.byteOffset - small[0]!.byteOffset).toBe(16)
    const fits = await serializer.serialize({ id: 'x'.repeat(5000), age: 1 }, ctx)
    expect(fits.buffer).toBe(small[0]!.buffer)
    const own = await serializer.serialize({ id: 'x'.repeat(5000), age: 2 }, ctx)
    // Memory of its own: Buffer.allocUnsafe's (whose backing size is Node's business: 64 KiB on Node 24).
    expect(own.buffer).not.toBe(small[0]!.buffer)
    const next = await serializer.serialize(user, ctx)
    expect(next.buffer).toBe(small[0]!.buffer)
  })

  it('calls toDict once per message, also when the message starts a new slab', async () => {
    const toDict = vi.fn((value: { id: string; age: number }) => value)
    const serializer = new AvroSerializer(newClient(), 'UserEvent', { toDict })
    await serializer.prepare(ctx)
    for (let i = 0; i < 100; i++) serializer.serializeSync({ id: 'y'.repeat(700), age: i }, ctx)
    expect(toDict).toHaveBeenCalledTimes(100)
  })
})

describe('AvroSerializer requests and caching', () => {
  it('makes exactly the two lookups of getSchema for 1000 serializations, and none after', async () => {
    const serializer = new AvroSerializer(newClient(), 'UserEvent')
    for (let i = 0; i < 1000; i++) await serializer.serialize({ id: `u${i}`, age: i }, ctx)
    expect(paths()).toEqual([
      'GET /groups/default/artifacts/UserEvent/versions/branch=latest',
      'GET /ids/globalIds/1000',
    ])
  })

  it('shares one lookup between concurrent first calls', async () => {
    const serializer = new AvroSerializer(newClient(), 'UserEvent')
    const all = await Promise.all(Array.from({ length: 50 }, () => serializer.serialize(user, ctx)))
    expect(new Set(all.map(hex))).toEqual(new Set([`00000003e8${USER_AVRO}`]))
    expect(registry.requests).toHaveLength(2)
  })

  it('asks the resolver on every call and caches each resolved artifact on its own: one lookup set per artifact', async () => {
    for (const topic of ['orders', 'payments', 'refunds']) {
      await admin.registerSchema(`${topic}-value`, { ...userEvent, name: `${topic}Event` })
    }
    registry.clearRequests()
    const resolve = vi.fn(new TopicIdStrategy().resolve)
    const serializer = new AvroSerializer(newClient(), { artifactResolver: { resolve } })
    const ids = new Map<string, string>()
    for (let round = 0; round < 10; round++) {
      for (const topic of ['orders', 'payments', 'refunds']) {
        const bytes = await serializer.serialize(user, new SerializationContext(topic))
        expect(hex(bytes.subarray(5))).toBe(USER_AVRO)
        ids.set(topic, hex(bytes.subarray(0, 5)))
      }
    }
    expect(resolve).toHaveBeenCalledTimes(30)
    expect(new Set(ids.values()).size).toBe(3)
    const lookups = paths()
    expect(lookups).toHaveLength(6)
    for (const topic of ['orders', 'payments', 'refunds']) {
      expect(
        lookups.filter((p) => p.includes(`/artifacts/${topic}-value/versions/branch=latest`)),
      ).toHaveLength(1)
    }
  })

  it('serializes from the cache when the registry is down after the first call', async () => {
    const serializer = new AvroSerializer(newClient({ maxRetries: 0 }), 'UserEvent')
    await serializer.serialize(user, ctx)
    registry.inject({ status: 503, times: Number.POSITIVE_INFINITY })
    expect(hex(await serializer.serialize(user, ctx))).toBe(`00000003e8${USER_AVRO}`)
    expect(registry.requests).toHaveLength(2)
  })

  it('keeps the schema it has when cacheTtlMs runs out, refreshes in the background, and never fails on a refresh', async () => {
    await admin.registerSchema('Evolving', userEvent, { ifExists: 'CREATE_VERSION' })
    const client = newClient({ cacheTtlMs: 20, maxRetries: 0 })
    const serializer = new AvroSerializer(client, 'Evolving')
    const v1 = hex(await serializer.serialize(user, ctx))

    const v2Schema = {
      ...userEvent,
      fields: [...userEvent.fields, { name: 'note', type: 'string', default: '' }],
    }
    const v2 = await admin.registerSchema('Evolving', v2Schema, { ifExists: 'CREATE_VERSION' })
    await new Promise((resolve) => setTimeout(resolve, 40))

    registry.clearRequests()
    const fault = registry.inject({
      path: /\/versions\/branch=latest$/,
      status: 503,
      times: Number.POSITIVE_INFINITY,
    })
    expect(hex(await serializer.serialize(user, ctx))).toBe(v1)
    expect(hex(serializer.serializeSync(user, ctx))).toBe(v1)
    await vi.waitFor(() => expect(fault.hits).toBe(1), { timeout: 2000, interval: 5 })
    expect(hex(await serializer.serialize(user, ctx))).toBe(v1)

    registry.clearFaults()
    await new Promise((resolve) => setTimeout(resolve, 40))
    const v2Id = Number(v2.globalId).toString(16).padStart(8, '0')
    await vi.waitFor(
      async () =>
        expect(hex(await serializer.serialize({ ...user, note: 'n' }, ctx))).toBe(
          `00${v2Id}${USER_AVRO}026e`,
        ),
      { timeout: 2000, interval: 10 },
    )
  })
})

describe('AvroSerializer autoRegister', () => {
  it('registers the given schema with FIND_OR_CREATE_VERSION by default and reuses the found version', async () => {
    const first = await new AvroSerializer(newClient(), 'AutoFind', {
      autoRegister: true,
      schema: userEvent,
    }).serialize(user, ctx)
    const again = await new AvroSerializer(newClient(), 'AutoFind', {
      autoRegister: true,
      schema: userEvent,
    }).serialize(user, ctx)
    expect(hex(again)).toBe(hex(first))
    const posts = registry.requests.filter((r) => r.method === 'POST')
    expect(posts.map((r) => r.query.ifExists)).toEqual(['FIND_OR_CREATE_VERSION', 'FIND_OR_CREATE_VERSION'])
    expect(registry.requests.filter((r) => r.method === 'GET')).toHaveLength(0)
    const latest = await admin.getSchema('AutoFind')
    expect(hex(first.subarray(1, 5))).toBe(Number(latest.globalId).toString(16).padStart(8, '0'))
  })

  it('with CREATE_VERSION adds a version on each registration, so its id changes', async () => {
    const options = { autoRegister: true, schema: userEvent, ifExists: 'CREATE_VERSION' } as const
    const first = await new AvroSerializer(newClient(), 'AutoCreate', options).serialize(user, ctx)
    const second = await new AvroSerializer(newClient(), 'AutoCreate', options).serialize(user, ctx)
    expect(hex(second.subarray(1, 5))).not.toBe(hex(first.subarray(1, 5)))
    expect(registry.requests.filter((r) => r.method === 'POST').map((r) => r.query.ifExists)).toEqual([
      'CREATE_VERSION',
      'CREATE_VERSION',
    ])
  })

  it('with FAIL registers a new artifact, and rejects with SchemaRegistrationError when it exists', async () => {
    const options = { autoRegister: true, schema: userEvent, ifExists: 'FAIL' } as const
    const bytes = await new AvroSerializer(newClient(), 'AutoFail', options).serialize(user, ctx)
    expect(hex(bytes.subarray(5))).toBe(USER_AVRO)
    await expect(new AvroSerializer(newClient(), 'AutoFail', options).serialize(user, ctx)).rejects.toThrow(
      expect.objectContaining({ name: 'SchemaRegistrationError', code: 'SCHEMA_REGISTRATION', status: 409 }),
    )
  })

  it('refuses a schema that is not valid Avro at construction, and registers nothing', async () => {
    let error: (Error & { code?: string; cause?: unknown }) | undefined
    try {
      new AvroSerializer(newClient(), 'AutoInvalid', { autoRegister: true, schema: { type: 'nope' } })
    } catch (caught) {
      error = caught as Error & { code?: string }
    }
    expect(error).toBeInstanceOf(TypeError)
    expect(error?.code).toBe('INVALID_CONFIG')
    expect(error?.message).toContain('the schema to register (autoRegister) is not a valid Avro schema')
    expect(error?.message).toContain("unknown type name 'nope'")
    expect(error?.cause).toBeInstanceOf(Error)
    expect(
      () =>
        new AvroSerializer(newClient(), 'AutoInvalid', {
          autoRegister: true,
          schema: { type: 'record', name: 'R', fields: [{ name: 'a', type: 'int', default: 'x' }] },
        }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }))
    expect(registry.requests).toHaveLength(0)
  })

  it('accepts a schema whose missing named types its references name, and registers it with them', async () => {
    const address = {
      type: 'record',
      name: 'Address',
      namespace: 'com.example',
      fields: [{ name: 'city', type: 'string' }],
    }
    const { version } = await admin.registerSchema('com.example.Address', address)
    const serializer = new AvroSerializer(newClient(), 'AutoWithReference', {
      autoRegister: true,
      schema: {
        type: 'record',
        name: 'Home',
        namespace: 'com.example',
        fields: [{ name: 'at', type: 'Address' }],
      },
      references: [{ name: 'com.example.Address', artifactId: 'com.example.Address', version: version! }],
    })
    const bytes = await serializer.serialize({ at: { city: 'x' } }, ctx)
    expect(hex(bytes.subarray(5))).toBe('0278')
    expect(
      () =>
        new AvroSerializer(newClient(), 'AutoWithReference', {
          autoRegister: true,
          schema: {
            type: 'record',
            name: 'Home',
            namespace: 'com.example',
            fields: [{ name: 'at', type: 'Street' }],
          },
          references: [{ name: 'com.example.Address', artifactId: 'com.example.Address' }],
        }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }))
  })

  it('registers its own schema (as Java does), not only when the artifact is missing', async () => {
    await admin.registerSchema('AutoOwn', person)
    const bytes = await new AvroSerializer(newClient(), 'AutoOwn', {
      autoRegister: true,
      schema: userEvent,
    }).serialize(user, ctx)
    expect(hex(bytes.subarray(5))).toBe(USER_AVRO)
    const latest = await newClient().getSchema('AutoOwn')
    expect(JSON.parse(latest.schema).name).toBe('UserEvent')
  })
})

describe('AvroSerializer errors', () => {
  it('passes the registry errors through unwrapped', async () => {
    await expect(new AvroSerializer(newClient(), 'NoSuchArtifact').serialize(user, ctx)).rejects.toThrow(
      expect.objectContaining({
        name: 'SchemaNotFoundError',
        artifactId: 'NoSuchArtifact',
        groupId: 'default',
      }),
    )
    registry.inject({ path: /branch=latest$/, status: 500 })
    await expect(
      new AvroSerializer(newClient({ maxRetries: 0 }), 'UserEvent').serialize(user, ctx),
    ).rejects.toThrow(expect.objectContaining({ name: 'RegistryConnectionError', status: 500 }))
    const locked = await InMemoryRegistry.start({ auth: (token) => token === 'good' })
    try {
      const client = new RegistryClient({ url: locked.url, groupId: 'default' })
      clients.push(client)
      await expect(new AvroSerializer(client, 'UserEvent').serialize(user, ctx)).rejects.toThrow(
        expect.objectContaining({ name: 'AuthenticationError', code: 'AUTHENTICATION' }),
      )
    } finally {
      await locked.close()
    }
  })

  it('turns a registry schema that is not valid Avro into a SerializationError with cause', async () => {
    await admin.registerSchema('Broken', userEvent, { ifExists: 'CREATE_VERSION' })
    const latest = await admin.getSchema('Broken')
    registry.inject({
      path: `/ids/globalIds/${String(latest.globalId)}`,
      status: 200,
      body: '{"type":"nope"}',
    })
    const serializer = new AvroSerializer(newClient(), 'Broken')
    const error = await serializer.serialize(user, ctx).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'SerializationError', code: 'SERIALIZATION' })
    expect((error as Error).cause).toBeInstanceOf(Error)
    expect((error as Error).message).toContain("artifact 'Broken'")
  })

  it('wraps a throwing toDict in a SerializationError with the thrown error as cause', async () => {
    const boom = new Error('cannot convert')
    const serializer = new AvroSerializer<{ user: typeof user }>(newClient(), 'UserEvent', {
      toDict: () => {
        throw boom
      },
    })
    await expect(serializer.serialize({ user }, ctx)).rejects.toThrow(
      expect.objectContaining({
        name: 'SerializationError',
        cause: boom,
        message: expect.stringContaining('cannot convert'),
      }),
    )
  })

  it('applies toDict with the value and the context before encoding', async () => {
    const toDict = vi.fn((value: { name: string; years: number }) => ({ id: value.name, age: value.years }))
    const serializer = new AvroSerializer(newClient(), 'UserEvent', { toDict })
    expect(hex(await serializer.serialize({ name: 'u1', years: 42 }, ctx))).toBe(`00000003e8${USER_AVRO}`)
    expect(toDict).toHaveBeenCalledWith({ name: 'u1', years: 42 }, ctx)
  })

  it('refuses data not matching the schema with INVALID_DATA naming every failing path and its type', async () => {
    const serializer = new AvroSerializer(newClient(), 'UserEvent')
    const error = await serializer.serialize({ id: 7, age: 'old' }, ctx).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'TypeError', code: 'INVALID_DATA', paths: ['id', 'age'] })
    expect((error as Error).message).toMatch(/id.*string/)
    expect((error as Error).message).toMatch(/age.*int/)
  })

  it('refuses a string or a map key with a lone surrogate with INVALID_DATA naming its path, instead of writing bytes that read back as U+FFFD', async () => {
    const schema = {
      type: 'record',
      name: 'Texts',
      namespace: 'com.example',
      fields: [
        { name: 's', type: 'string' },
        { name: 'm', type: { type: 'map', values: 'int' } },
        { name: 'n', type: ['null', 'string'] },
      ],
    }
    const serializer = new AvroSerializer(newClient(), 'Texts', { autoRegister: true, schema })
    const error = await serializer
      .serialize({ s: '\uD800', m: { 'k\uDFFF': 1 }, n: 'a\uDE00b' }, ctx)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({
      name: 'TypeError',
      code: 'INVALID_DATA',
      paths: ['s', 'm["k\\udfff"]', 'n'],
    })
    expect((error as Error).message).toContain('s: expected string, got string "\\ud800"')
    expect((error as Error).message).toContain('a lone surrogate U+D800 at index 0')
    expect((error as Error).message).toContain('a lone surrogate U+DFFF at index 1')
    expect((error as Error).message).toContain('a lone surrogate U+DE00 at index 1')
    expect(() => serializer.serializeSync({ s: `${'x'.repeat(100)}\uDBFF`, m: {}, n: null }, ctx)).toThrow(
      expect.objectContaining({ code: 'INVALID_DATA', paths: ['s'] }),
    )
    // well-formed text beyond ASCII, a surrogate pair included, is written as before
    const written = serializer.serializeSync({ s: 'é😀', m: { '€': 1 }, n: null }, ctx)
    expect(hex(written.subarray(5))).toBe('0cc3a9f09f9880 0206e282ac0200 00'.replaceAll(' ', ''))
  })
  it('with strict refuses fields the schema lacks at any depth, by path; without it ignores them', async () => {
    await admin.registerSchema('Person', person)
    const extra = { name: 'Ann', address: { city: 'Oslo', zip: '0150' }, nickname: 'A' }
    const lenient = await new AvroSerializer(newClient(), 'Person').serialize(extra, ctx)
    expect(hex(lenient.subarray(5))).toBe('06416e6e084f736c6f')
    const error = await new AvroSerializer(newClient(), 'Person', { strict: true })
      .serialize(extra, ctx)
      .catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'TypeError', code: 'INVALID_DATA' })
    expect([...(error as { paths: string[] }).paths].sort()).toEqual(['address.zip', 'nickname'])
  })

  it('turns a throwing resolver, or one returning an empty string, into a ResolverError before any request', async () => {
    const boom = new Error('no topic map')
    const throwing = new AvroSerializer(newClient(), {
      artifactResolver: () => {
        throw boom
      },
    })
    await expect(throwing.serialize(user, ctx)).rejects.toThrow(
      expect.objectContaining({ name: 'ResolverError', code: 'RESOLVER', cause: boom }),
    )
    const empty = new AvroSerializer(newClient(), { artifactResolver: () => '' })
    await expect(empty.serialize(user, ctx)).rejects.toThrow(
      expect.objectContaining({ name: 'ResolverError' }),
    )
    await expect(empty.prepare(ctx)).rejects.toThrow(expect.objectContaining({ name: 'ResolverError' }))
    expect(registry.requests).toHaveLength(0)
  })
})

describe('AvroSerializer sync API', () => {
  it('throws NOT_PREPARED naming prepare() before the schema is cached', () => {
    const serializer = new AvroSerializer(newClient(), 'UserEvent')
    for (const call of [
      () => serializer.serializeSync(user, ctx),
      () => serializer.serializeMessageSync(user, ctx),
    ]) {
      expect(call).toThrow(
        expect.objectContaining({
          name: 'SerdeError',
          code: 'NOT_PREPARED',
          message: expect.stringContaining('prepare()'),
        }),
      )
    }
    expect(registry.requests).toHaveLength(0)
  })

  it('after prepare(ctx) returns the same bytes as the async methods, without a Promise or a request', async () => {
    const serializer = new AvroSerializer(newClient(), { artifactResolver: () => 'UserEvent' })
    await serializer.prepare(ctx)
    registry.clearRequests()
    const sync = serializer.serializeSync(user, ctx)
    expect(sync).toBeInstanceOf(Buffer)
    expect(hex(sync)).toBe(hex(await serializer.serialize(user, ctx)))
    expect(serializer.serializeMessageSync(user, ctx)).toEqual(await serializer.serializeMessage(user, ctx))

    const headers = new AvroSerializer(newClient(), 'UserEvent', { wireFormat: WireFormat.MESSAGE_HEADERS })
    await headers.prepare()
    registry.clearRequests()
    expect(headers.serializeMessageSync(user, keyCtx)).toEqual(await headers.serializeMessage(user, keyCtx))
    expect(registry.requests).toHaveLength(0)
  })
})

describe('AvroSerializer references', () => {
  const address = {
    type: 'record',
    name: 'Address',
    namespace: 'com.example',
    fields: [{ name: 'city', type: 'string' }],
  }
  const referencing = {
    type: 'record',
    name: 'Customer',
    namespace: 'com.example',
    fields: [
      { name: 'name', type: 'string' },
      { name: 'home', type: 'com.example.Address' },
    ],
  }
  const references = [{ name: 'com.example.Address', artifactId: 'com.example.Address', version: '1' }]

  it('encodes with a registry schema whose named types live in referenced artifacts, fetching them once', async () => {
    await admin.registerSchema('com.example.Address', address)
    await admin.registerSchema('com.example.Customer', referencing, { references })
    registry.clearRequests()
    const serializer = new AvroSerializer(newClient(), 'com.example.Customer')
    for (let i = 0; i < 20; i++) {
      const bytes = await serializer.serialize({ name: 'Ann', home: { city: 'Oslo' } }, ctx)
      expect(hex(bytes.subarray(5))).toBe('06416e6e084f736c6f')
    }
    const requests = paths()
    expect(requests.filter((p) => p.endsWith('/references'))).toHaveLength(1)
    expect(requests.filter((p) => p.includes('/artifacts/com.example.Address/versions/1'))).toHaveLength(1)
    expect(requests).toHaveLength(5)
  })

  it('registers a schema with the references option and encodes with it', async () => {
    const serializer = new AvroSerializer(newClient(), 'CustomerAuto', {
      autoRegister: true,
      schema: referencing,
      references,
    })
    const bytes = await serializer.serialize({ name: 'Bo', home: { city: 'Rome' } }, ctx)
    expect(hex(bytes.subarray(5))).toBe('04426f08526f6d65')
    const post = registry.requests.find((r) => r.method === 'POST')!
    expect(JSON.parse(post.body).firstVersion.content.references).toEqual(references)
  })
})

describe('AvroSerializer options', () => {
  const client = (): RegistryClient => newClient()
  const invalid = (build: () => unknown, fragment: string | RegExp): void => {
    expect(build).toThrow(expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }))
    expect(build).toThrow(fragment)
  }

  it.each([
    [
      'artifactId and artifactResolver',
      () => new AvroSerializer(client(), { artifactId: 'a', artifactResolver: () => 'b' }),
      'mutually exclusive',
    ],
    [
      'an artifact id as argument and resolver',
      () => new AvroSerializer(client(), 'a', { artifactResolver: () => 'b' } as never),
      'mutually exclusive',
    ],
    ['the artifact id twice', () => new AvroSerializer(client(), 'a', { artifactId: 'a' } as never), 'twice'],
    ['neither artifactId nor artifactResolver', () => new AvroSerializer(client(), {}), 'required'],
    ['an empty artifact id', () => new AvroSerializer(client(), ''), 'non-empty'],
    [
      'a bad resolver',
      () => new AvroSerializer(client(), { artifactResolver: 'topic' as never }),
      'artifactResolver',
    ],
    ['a bad useId', () => new AvroSerializer(client(), 'a', { useId: 'globalID' as never }), 'useId'],
    [
      'a bad wireFormat',
      () => new AvroSerializer(client(), 'a', { wireFormat: 'HEADERS' as never }),
      'wireFormat',
    ],
    ['a bad ifExists', () => new AvroSerializer(client(), 'a', { ifExists: 'UPDATE' as never }), 'ifExists'],
    [
      'autoRegister without schema',
      () => new AvroSerializer(client(), 'a', { autoRegister: true }),
      'schema',
    ],
    [
      'a schema that is not JSON',
      () => new AvroSerializer(client(), 'a', { autoRegister: true, schema: '{nope' }),
      'schema',
    ],
    [
      'references without autoRegister',
      () => new AvroSerializer(client(), 'a', { references: [] }),
      'autoRegister',
    ],
    [
      'a malformed reference',
      () =>
        new AvroSerializer(client(), 'a', {
          autoRegister: true,
          schema: userEvent,
          references: [{ name: 'x' } as never],
        }),
      'references[0]',
    ],
    ['a non-boolean strict', () => new AvroSerializer(client(), 'a', { strict: 'yes' as never }), 'strict'],
    [
      'a non-boolean autoRegister',
      () => new AvroSerializer(client(), 'a', { autoRegister: 1 as never }),
      'autoRegister',
    ],
    [
      'a toDict that is not a function',
      () => new AvroSerializer(client(), 'a', { toDict: {} as never }),
      'toDict',
    ],
    [
      'an unknown option',
      () => new AvroSerializer(client(), 'a', { useID: 'contentId' } as never),
      "unknown option 'useID'",
    ],
    [
      'a bad avro option',
      () => new AvroSerializer(client(), 'a', { avro: { longs: 'string' } as never }),
      'longs',
    ],
    ['no client', () => new AvroSerializer({} as never, 'a'), 'RegistryClient'],
  ])('refuses %s at construction with INVALID_CONFIG', (_name, build, fragment) => {
    invalid(build, fragment)
  })

  it('exposes useId and wireFormat with their defaults', () => {
    const serializer = new AvroSerializer(client(), 'a')
    expect([serializer.useId, serializer.wireFormat]).toEqual(['globalId', 'FRAMED_PAYLOAD'])
  })
})

describe('AvroSerializer: a typed toDict', () => {
  it('accepts a toDict annotated with the caller type it takes', async () => {
    class User {
      readonly name: string
      constructor(name: string) {
        this.name = name
      }
    }
    const serializer = new AvroSerializer<User>(newClient(), 'UserEvent', {
      toDict: (u: User) => ({ id: u.name, age: 42 }),
    })
    expect(hex((await serializer.serialize(new User('u1'), ctx)).subarray(5))).toBe(USER_AVRO)
  })
})
