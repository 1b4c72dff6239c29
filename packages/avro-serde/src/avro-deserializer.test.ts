import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { EVERYTHING_SCHEMA, everythingValue } from './avro/test-support/fixtures.js'
import { AvroDeserializer } from './avro-deserializer.js'
import { AvroSerializer } from './avro-serializer.js'
import { TopicIdStrategy } from './index.js'

const bytesOf = (text: string): Buffer => Buffer.from(text, 'hex')
const ctx = new SerializationContext('users')
const keyCtx = new SerializationContext('users', 'key')

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
// The frame of `user` with globalId 1000 (0x3e8), and its bare Avro body.
const USER_FRAME = '00000003e804753154'
const USER_AVRO = '04753154'
const GLOBAL_HEADER = bytesOf('00000000000003e8')

let registry: InMemoryRegistry
let admin: RegistryClient
const clients: RegistryClient[] = []

function newClient(options: { maxRetries?: number } = {}): RegistryClient {
  const client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0, ...options })
  clients.push(client)
  return client
}

const paths = (): string[] =>
  registry.requests.map((r) => `${r.method} ${r.path.replace('/apis/registry/v3', '')}`)

async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  return promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (error: unknown) => error as Error & Record<string, unknown>,
  )
}

beforeAll(async () => {
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

describe('AvroDeserializer framed input', () => {
  it('decodes a golden frame by its globalId', async () => {
    expect(await new AvroDeserializer(newClient()).deserialize(bytesOf(USER_FRAME), ctx)).toEqual(user)
    expect(paths()).toEqual(['GET /ids/globalIds/1000'])
  })

  it('reads the 4-byte id as a contentId with useId: contentId', async () => {
    const value = await new AvroDeserializer(newClient(), { useId: 'contentId' }).deserialize(
      bytesOf(`0000000007${USER_AVRO}`),
      ctx,
    )
    expect(value).toEqual(user)
    expect(paths()).toEqual(['GET /ids/contentIds/7'])
  })

  it('makes one request for 1000 deserializations, and one for 50 concurrent first calls', async () => {
    const deserializer = new AvroDeserializer(newClient())
    for (let i = 0; i < 1000; i++) await deserializer.deserialize(bytesOf(USER_FRAME), ctx)
    expect(registry.requests).toHaveLength(1)

    registry.clearRequests()
    const concurrent = new AvroDeserializer(newClient())
    const values = await Promise.all(
      Array.from({ length: 50 }, () => concurrent.deserialize(bytesOf(USER_FRAME), ctx)),
    )
    expect(values.every((value) => (value as { id: string }).id === 'u1')).toBe(true)
    expect(registry.requests).toHaveLength(1)
  })

  it.each([
    ['an empty input', ''],
    ['four bytes', '00000003'],
    ['a one-byte input with a bad magic byte', '01'],
  ])('rejects %s as too short with DeserializationError before any request', async (_name, input) => {
    const error = await rejection(new AvroDeserializer(newClient()).deserialize(bytesOf(input), ctx))
    expect(error).toMatchObject({ name: 'DeserializationError', code: 'DESERIALIZATION' })
    expect(error.message).toContain('at least 5 bytes')
    expect(registry.requests).toHaveLength(0)
  })

  it('rejects a magic byte other than 0x00 with DeserializationError before any request', async () => {
    const deserializer = new AvroDeserializer(newClient())
    const error = await rejection(deserializer.deserialize(bytesOf('01000003e804753154'), ctx))
    expect(error).toMatchObject({ name: 'DeserializationError', message: expect.stringContaining('0x01') })
    expect(() => deserializer.deserializeSync(bytesOf('7b22696422'), ctx)).toThrow(/magic byte/)
    await expect(deserializer.deserialize('not bytes' as never, ctx)).rejects.toThrow(
      expect.objectContaining({ name: 'DeserializationError' }),
    )
    expect(registry.requests).toHaveLength(0)
  })

  it('wraps a truncated payload and trailing bytes in DeserializationError with cause and the schema id', async () => {
    const deserializer = new AvroDeserializer(newClient())
    const truncated = await rejection(deserializer.deserialize(bytesOf('00000003e8047531'), ctx))
    expect(truncated).toMatchObject({ name: 'DeserializationError', schemaId: 1000 })
    expect(truncated.cause).toBeInstanceOf(Error)
    const trailing = await rejection(deserializer.deserialize(bytesOf(`${USER_FRAME}00`), ctx))
    expect(trailing).toMatchObject({ name: 'DeserializationError', schemaId: 1000 })
    expect(trailing.message).toContain('trailing')
  })

  it('passes registry errors through unwrapped', async () => {
    await expect(
      new AvroDeserializer(newClient()).deserialize(bytesOf(`0000bc614e${USER_AVRO}`), ctx),
    ).rejects.toThrow(
      expect.objectContaining({ name: 'SchemaNotFoundError', idType: 'globalId', idValue: 12345678 }),
    )
    registry.inject({ path: /\/ids\//, status: 503, times: Number.POSITIVE_INFINITY })
    await expect(
      new AvroDeserializer(newClient({ maxRetries: 0 })).deserialize(bytesOf(USER_FRAME), ctx),
    ).rejects.toThrow(expect.objectContaining({ name: 'RegistryConnectionError', status: 503 }))
    const locked = await InMemoryRegistry.start({ auth: () => false })
    try {
      const client = new RegistryClient({ url: locked.url, groupId: 'default' })
      clients.push(client)
      await expect(new AvroDeserializer(client).deserialize(bytesOf(USER_FRAME), ctx)).rejects.toThrow(
        expect.objectContaining({ name: 'AuthenticationError' }),
      )
    } finally {
      await locked.close()
    }
  })

  it('turns a writer schema that is not valid Avro into a DeserializationError with cause', async () => {
    registry.inject({ path: '/ids/globalIds/1000', status: 200, body: '{"type":"record","name":"X"}' })
    const error = await rejection(new AvroDeserializer(newClient()).deserialize(bytesOf(USER_FRAME), ctx))
    expect(error).toMatchObject({ name: 'DeserializationError', schemaId: 1000 })
    expect(error.message).toContain('globalId 1000')
    expect(error.cause).toBeInstanceOf(Error)
  })

  it('returns what fromDict makes of the decoded value and the context', async () => {
    const fromDict = vi.fn((value: unknown) => `user ${(value as { id: string }).id}`)
    const deserializer = new AvroDeserializer<string>(newClient(), { fromDict })
    const result: string = await deserializer.deserialize(bytesOf(USER_FRAME), ctx)
    expect(result).toBe('user u1')
    expect(fromDict).toHaveBeenCalledWith(expect.objectContaining(user), ctx)
  })

  it('wraps a throwing fromDict in DeserializationError with the thrown error as cause', async () => {
    const boom = new Error('bad shape')
    const deserializer = new AvroDeserializer(newClient(), {
      fromDict: () => {
        throw boom
      },
    })
    await expect(deserializer.deserialize(bytesOf(USER_FRAME), ctx)).rejects.toThrow(
      expect.objectContaining({
        name: 'DeserializationError',
        cause: boom,
        message: expect.stringContaining('bad shape'),
      }),
    )
  })
})

describe('AvroDeserializer sync API', () => {
  it('throws NOT_PREPARED naming the id to fetch first', () => {
    const deserializer = new AvroDeserializer(newClient())
    expect(() => deserializer.deserializeSync(bytesOf(USER_FRAME), ctx)).toThrow(
      expect.objectContaining({
        name: 'SerdeError',
        code: 'NOT_PREPARED',
        message: expect.stringContaining('globalId 1000'),
      }),
    )
    expect(() => deserializer.deserializeSync(bytesOf(USER_FRAME), ctx)).toThrow(/prepare\(1000\)/)
    expect(registry.requests).toHaveLength(0)
  })

  it('after prepare(id, ctx) decodes without a Promise or a request, equal to the async result', async () => {
    const deserializer = new AvroDeserializer(newClient())
    await deserializer.prepare(1000, ctx)
    registry.clearRequests()
    const sync = deserializer.deserializeSync(bytesOf(USER_FRAME), ctx)
    expect(sync).toEqual(user)
    expect(sync).toEqual(await deserializer.deserialize(bytesOf(USER_FRAME), ctx))
    expect(
      deserializer.deserializeMessageSync(
        { payload: bytesOf(USER_AVRO), headers: { 'apicurio.value.globalId': GLOBAL_HEADER } },
        ctx,
      ),
    ).toEqual(user)
    expect(registry.requests).toHaveLength(0)
  })

  it('is prepared as a side effect of deserialize, and prepare takes the id type of a header', async () => {
    const deserializer = new AvroDeserializer(newClient())
    await deserializer.deserialize(bytesOf(USER_FRAME), ctx)
    expect(deserializer.deserializeSync(bytesOf(USER_FRAME), ctx)).toEqual(user)
    const byContent = {
      payload: bytesOf(USER_AVRO),
      headers: { 'apicurio.value.contentId': bytesOf('0000000000000007') },
    }
    expect(() => deserializer.deserializeMessageSync(byContent, ctx)).toThrow(/contentId 7.*'contentId'/)
    await deserializer.prepare(7, ctx, 'contentId')
    expect(deserializer.deserializeMessageSync(byContent, ctx)).toEqual(user)
  })
})

describe('AvroDeserializer header mode', () => {
  it('decodes the bare payload with the id of the apicurio.<field> header', async () => {
    const message = { payload: bytesOf(USER_AVRO), headers: { 'apicurio.key.globalId': GLOBAL_HEADER } }
    expect(await new AvroDeserializer(newClient()).deserializeMessage(message, keyCtx)).toEqual(user)
  })

  it('takes the id type from the header name whatever useId says', async () => {
    const message = {
      payload: bytesOf(USER_AVRO),
      headers: { 'apicurio.value.contentId': bytesOf('0000000000000007') },
    }
    expect(await new AvroDeserializer(newClient()).deserializeMessage(message, ctx)).toEqual(user)
    expect(paths()).toEqual(['GET /ids/contentIds/7'])
  })

  it('falls back to the frame with useId when no id header of the field is present', async () => {
    const deserializer = new AvroDeserializer(newClient())
    expect(await deserializer.deserializeMessage({ payload: bytesOf(USER_FRAME) }, ctx)).toEqual(user)
    expect(await deserializer.deserializeMessage({ payload: bytesOf(USER_FRAME), headers: {} }, ctx)).toEqual(
      user,
    )
    // A key header says nothing about the value.
    const keyOnly = {
      payload: bytesOf(USER_FRAME),
      headers: { 'apicurio.key.globalId': bytesOf('00000000000003e7') },
    }
    expect(await deserializer.deserializeMessage(keyOnly, ctx)).toEqual(user)
    expect(
      await deserializer.deserializeMessage(
        { payload: bytesOf(USER_FRAME), headers: { 'apicurio.value.globalId': [] } },
        ctx,
      ),
    ).toEqual(user)
  })

  it('lets the id header beat a payload that also looks like a frame', async () => {
    const small = {
      type: 'record',
      name: 'Small',
      fields: [
        { name: 'n', type: 'int' },
        { name: 's', type: 'string' },
      ],
    }
    const registered = await admin.registerSchema('Small', small)
    // {n: 0, s: 'abcd'} is 00 08 61 62 63 64: a "frame" of id 0x08616263.
    const payload = bytesOf('000861626364')
    const header = Buffer.alloc(8)
    header.writeBigInt64BE(BigInt(registered.globalId!))
    registry.clearRequests()
    const value = await new AvroDeserializer(newClient()).deserializeMessage(
      { payload, headers: { 'apicurio.value.globalId': header } },
      ctx,
    )
    expect(value).toEqual({ n: 0, s: 'abcd' })
    expect(paths()).toEqual([`GET /ids/globalIds/${String(registered.globalId)}`])
  })

  it('with both id headers present uses the one matching useId', async () => {
    const headers = {
      'apicurio.value.globalId': GLOBAL_HEADER,
      'apicurio.value.contentId': bytesOf('00000000000f423f'),
    }
    const message = { payload: bytesOf(USER_AVRO), headers }
    expect(await new AvroDeserializer(newClient()).deserializeMessage(message, ctx)).toEqual(user)
    await expect(
      new AvroDeserializer(newClient(), { useId: 'contentId' }).deserializeMessage(message, ctx),
    ).rejects.toThrow(
      expect.objectContaining({ name: 'SchemaNotFoundError', idType: 'contentId', idValue: 999999 }),
    )
  })

  it('reads the last of a repeated header, and a string value as its latin1 bytes', async () => {
    const deserializer = new AvroDeserializer(newClient())
    const repeated = {
      payload: bytesOf(USER_AVRO),
      headers: { 'apicurio.value.globalId': [bytesOf('00000000000f423f'), GLOBAL_HEADER] },
    }
    expect(await deserializer.deserializeMessage(repeated, ctx)).toEqual(user)
    const text = {
      payload: bytesOf(USER_AVRO),
      headers: { 'apicurio.value.globalId': '\0\0\0\0\0\0\x03\xe8' },
    }
    expect(await deserializer.deserializeMessage(text, ctx)).toEqual(user)
  })

  it('names a header value that is not bytes once, with what came', async () => {
    const message = { payload: bytesOf(USER_AVRO), headers: { 'apicurio.value.globalId': [null] } }
    const error = await rejection(new AvroDeserializer(newClient()).deserializeMessage(message as never, ctx))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toBe(
      "Cannot read header 'apicurio.value.globalId': expected bytes or a string, got null",
    )
  })

  it('rejects an id header of other than 8 bytes with DeserializationError before any request', async () => {
    const message = {
      payload: bytesOf(USER_AVRO),
      headers: { 'apicurio.value.globalId': bytesOf('000003e8') },
    }
    const error = await rejection(new AvroDeserializer(newClient()).deserializeMessage(message, ctx))
    expect(error).toMatchObject({
      name: 'DeserializationError',
      message: expect.stringContaining('apicurio.value.globalId'),
    })
    expect(error.message).toContain('8 bytes')
    await expect(
      new AvroDeserializer(newClient()).deserializeMessage({ headers: {} } as never, ctx),
    ).rejects.toThrow(expect.objectContaining({ name: 'DeserializationError' }))
    expect(registry.requests).toHaveLength(0)
  })
})

describe('AvroDeserializer reader schemas', () => {
  const reader = {
    type: 'record',
    name: 'UserEvent',
    namespace: 'com.example',
    fields: [
      { name: 'identifier', type: 'string', aliases: ['id'] },
      { name: 'age', type: 'long' },
      { name: 'name', type: 'string', default: 'anon' },
    ],
  }

  it('resolves the writer schema into readerSchema: aliases, promotions, defaults, dropped fields', async () => {
    const wider = { ...userEvent, fields: [...userEvent.fields, { name: 'extra', type: 'boolean' }] }
    const registered = await admin.registerSchema('Wider', wider)
    const frame = Buffer.concat([
      bytesOf(`00${Number(registered.globalId).toString(16).padStart(8, '0')}`),
      bytesOf(`${USER_AVRO}01`),
    ])
    for (const readerSchema of [reader, JSON.stringify(reader)]) {
      const deserializer = new AvroDeserializer(newClient(), { readerSchema })
      expect(await deserializer.deserialize(bytesOf(USER_FRAME), ctx)).toEqual({
        identifier: 'u1',
        age: 42,
        name: 'anon',
      })
      expect(await deserializer.deserialize(frame, ctx)).toEqual({ identifier: 'u1', age: 42, name: 'anon' })
      expect(deserializer.deserializeSync(frame, ctx)).toEqual({ identifier: 'u1', age: 42, name: 'anon' })
    }
  })

  it('rejects a writer schema the reader cannot resolve with DeserializationError and cause', async () => {
    const incompatible = {
      ...userEvent,
      fields: [
        { name: 'id', type: 'string' },
        { name: 'age', type: 'boolean' },
      ],
    }
    const error = await rejection(
      new AvroDeserializer(newClient(), { readerSchema: incompatible }).deserialize(bytesOf(USER_FRAME), ctx),
    )
    expect(error).toMatchObject({ name: 'DeserializationError', schemaId: 1000 })
    expect(error.cause).toBeInstanceOf(Error)
  })

  it('uses the latest version of the artifact as reader with useLatestVersion, fetched once', async () => {
    await admin.registerSchema('Evolve', userEvent, { ifExists: 'CREATE_VERSION' })
    await admin.registerSchema('Evolve', reader, { ifExists: 'CREATE_VERSION' })
    registry.clearRequests()
    const deserializer = new AvroDeserializer(newClient(), { useLatestVersion: true, artifactId: 'Evolve' })
    for (let i = 0; i < 100; i++) {
      expect(await deserializer.deserialize(bytesOf(USER_FRAME), ctx)).toEqual({
        identifier: 'u1',
        age: 42,
        name: 'anon',
      })
    }
    expect(paths().filter((p) => p.includes('/artifacts/Evolve/versions/branch=latest'))).toHaveLength(1)
    expect(registry.requests).toHaveLength(3)
    expect(deserializer.deserializeSync(bytesOf(USER_FRAME), ctx)).toEqual({
      identifier: 'u1',
      age: 42,
      name: 'anon',
    })
  })

  it('resolves the reader artifact per call with artifactResolver, each artifact fetched once', async () => {
    await admin.registerSchema('orders-value', reader)
    await admin.registerSchema('refunds-value', userEvent)
    registry.clearRequests()
    const deserializer = new AvroDeserializer(newClient(), {
      useLatestVersion: true,
      artifactResolver: new TopicIdStrategy(),
    })
    for (let i = 0; i < 5; i++) {
      expect(await deserializer.deserialize(bytesOf(USER_FRAME), new SerializationContext('orders'))).toEqual(
        {
          identifier: 'u1',
          age: 42,
          name: 'anon',
        },
      )
      expect(
        await deserializer.deserialize(bytesOf(USER_FRAME), new SerializationContext('refunds')),
      ).toEqual(user)
    }
    const latest = paths().filter((p) => p.includes('branch=latest'))
    expect(latest).toEqual([
      'GET /groups/default/artifacts/orders-value/versions/branch=latest',
      'GET /groups/default/artifacts/refunds-value/versions/branch=latest',
    ])
    expect(() =>
      deserializer.deserializeSync(bytesOf(USER_FRAME), new SerializationContext('payments')),
    ).toThrow(
      expect.objectContaining({ code: 'NOT_PREPARED', message: expect.stringContaining('payments-value') }),
    )
  })

  it('with the client cacheTtlMs refreshes the latest reader in the background, keeping the old one meanwhile', async () => {
    await admin.registerSchema('Refreshing', userEvent, { ifExists: 'CREATE_VERSION' })
    const client = new RegistryClient({
      url: registry.url,
      groupId: 'default',
      cacheTtlMs: 20,
      maxRetries: 0,
    })
    clients.push(client)
    const deserializer = new AvroDeserializer(client, { useLatestVersion: true, artifactId: 'Refreshing' })
    expect(await deserializer.deserialize(bytesOf(USER_FRAME), ctx)).toEqual(user)
    await admin.registerSchema('Refreshing', reader, { ifExists: 'CREATE_VERSION' })
    await new Promise((resolve) => setTimeout(resolve, 40))
    const fault = registry.inject({ path: /Refreshing\/versions\/branch=latest$/, status: 503, times: 1 })
    expect(await deserializer.deserialize(bytesOf(USER_FRAME), ctx)).toEqual(user)
    await vi.waitFor(() => expect(fault.hits).toBe(1), { timeout: 2000, interval: 5 })
    await new Promise((resolve) => setTimeout(resolve, 40))
    await vi.waitFor(
      async () =>
        expect(await deserializer.deserialize(bytesOf(USER_FRAME), ctx)).toEqual({
          identifier: 'u1',
          age: 42,
          name: 'anon',
        }),
      { timeout: 2000, interval: 10 },
    )
  })

  it('turns a failing resolver into a ResolverError', async () => {
    const deserializer = new AvroDeserializer(newClient(), {
      useLatestVersion: true,
      artifactResolver: () => '',
    })
    await expect(deserializer.deserialize(bytesOf(USER_FRAME), ctx)).rejects.toThrow(
      expect.objectContaining({ name: 'ResolverError', code: 'RESOLVER' }),
    )
  })
})

describe('AvroDeserializer references', () => {
  const address = {
    type: 'record',
    name: 'Address',
    namespace: 'com.example',
    fields: [{ name: 'city', type: 'string' }],
  }
  const personWithRef = {
    type: 'record',
    name: 'Person',
    namespace: 'com.example',
    fields: [
      { name: 'name', type: 'string' },
      { name: 'address', type: 'com.example.Address' },
    ],
  }
  const references = [{ name: 'com.example.Address', artifactId: 'com.example.Address', version: '1' }]

  it('fetches the references of a writer schema once, as Java registers nested records, and decodes', async () => {
    const registeredAddress = await admin.registerSchema('com.example.Address', address)
    const registeredPerson = await admin.registerSchema('com.example.Person', personWithRef, { references })
    // {name: 'Ann', address: {city: 'Oslo'}}
    const body = '06416e6e084f736c6f'
    for (const useId of ['globalId', 'contentId'] as const) {
      registry.clearRequests()
      const id = Number(registeredPerson[useId])
      const frame = bytesOf(`00${id.toString(16).padStart(8, '0')}${body}`)
      const deserializer = new AvroDeserializer(newClient(), { useId })
      for (let i = 0; i < 100; i++) {
        expect(await deserializer.deserialize(frame, ctx)).toEqual({ name: 'Ann', address: { city: 'Oslo' } })
      }
      const segment = useId === 'globalId' ? 'globalIds' : 'contentIds'
      expect(paths()).toEqual([
        `GET /ids/${segment}/${id}`,
        `GET /ids/${segment}/${id}/references`,
        'GET /groups/default/artifacts/com.example.Address/versions/1',
        `GET /ids/globalIds/${String(registeredAddress.globalId)}`,
      ])
    }
  })

  it('looks references without a groupId up in the default group, also from a client of another group', async () => {
    const defaults = new RegistryClient({ url: registry.url, groupId: 'default' })
    const others = new RegistryClient({ url: registry.url, groupId: 'orders' })
    try {
      await defaults.registerSchema('com.example.Address', address)
      // As Apicurio's Java serde registers them: the parent and its nested type in `default`, references groupless.
      const person = await defaults.registerSchema('com.example.Person', personWithRef, { references })
      const frame = bytesOf(`00${Number(person.globalId).toString(16).padStart(8, '0')}06416e6e084f736c6f`)
      registry.clearRequests()
      const deserializer = new AvroDeserializer(others)
      expect(await deserializer.deserialize(frame, ctx)).toEqual({ name: 'Ann', address: { city: 'Oslo' } })
      expect(paths()).toContain('GET /groups/default/artifacts/com.example.Address/versions/1')
      expect(paths().some((p) => p.includes('/groups/orders/'))).toBe(false)
    } finally {
      await defaults.close()
      await others.close()
    }
  })

  it('resolves references of references depth first', async () => {
    const country = {
      type: 'record',
      name: 'Country',
      namespace: 'geo',
      fields: [{ name: 'code', type: 'string' }],
    }
    const city = {
      type: 'record',
      name: 'City',
      namespace: 'geo',
      fields: [
        { name: 'name', type: 'string' },
        { name: 'country', type: 'geo.Country' },
      ],
    }
    const trip = {
      type: 'record',
      name: 'Trip',
      namespace: 'geo',
      fields: [{ name: 'to', type: 'geo.City' }],
    }
    await admin.registerSchema('geo.Country', country)
    await admin.registerSchema('geo.City', city, {
      references: [{ name: 'geo.Country', artifactId: 'geo.Country', version: '1' }],
    })
    const registered = await admin.registerSchema('geo.Trip', trip, {
      references: [{ name: 'geo.City', artifactId: 'geo.City', version: '1' }],
    })
    const frame = bytesOf(`00${Number(registered.globalId).toString(16).padStart(8, '0')}084f736c6f044e4f`)
    registry.clearRequests()
    const deserializer = new AvroDeserializer(newClient())
    expect(await deserializer.deserialize(frame, ctx)).toEqual({
      to: { name: 'Oslo', country: { code: 'NO' } },
    })
    const requests = paths()
    expect(requests.filter((p) => p.endsWith('/references'))).toHaveLength(2)
    expect(requests.filter((p) => p.includes('/artifacts/geo.'))).toEqual([
      'GET /groups/default/artifacts/geo.City/versions/1',
      'GET /groups/default/artifacts/geo.Country/versions/1',
    ])
  })

  it('reports a schema whose references the registry does not list as DeserializationError', async () => {
    const lonely = { type: 'record', name: 'Lonely', fields: [{ name: 'a', type: 'com.example.Nowhere' }] }
    registry.inject({ path: '/ids/globalIds/424242', status: 200, body: JSON.stringify(lonely) })
    registry.inject({ path: '/ids/globalIds/424242/references', status: 200, body: '[]' })
    const error = await rejection(new AvroDeserializer(newClient()).deserialize(bytesOf('000006793200'), ctx))
    expect(error).toMatchObject({ name: 'DeserializationError', schemaId: 424242 })
    expect(error.message).toContain('no references')
  })
})

describe('AvroSerializer → AvroDeserializer round trips', () => {
  it.each([
    ['globalId', WireFormat.FRAMED_PAYLOAD],
    ['contentId', WireFormat.FRAMED_PAYLOAD],
    ['globalId', WireFormat.MESSAGE_HEADERS],
    ['contentId', WireFormat.MESSAGE_HEADERS],
  ] as const)('round-trips a record using every Avro type with %s in %s', async (useId, wireFormat) => {
    await admin.registerSchema('Everything', EVERYTHING_SCHEMA)
    const serializer = new AvroSerializer(newClient(), 'Everything', { useId, wireFormat })
    const deserializer = new AvroDeserializer(newClient(), { useId })
    const value = everythingValue()
    const message = await serializer.serializeMessage(value, ctx)
    const decoded =
      wireFormat === WireFormat.FRAMED_PAYLOAD
        ? await deserializer.deserialize(message.payload, ctx)
        : await deserializer.deserializeMessage(message, ctx)
    expect(decoded).toEqual(value)
    expect(deserializer.deserializeMessageSync(message, ctx)).toEqual(value)
  })

  it('round-trips the key of a message in header mode', async () => {
    const serializer = new AvroSerializer(newClient(), 'UserEvent', {
      wireFormat: WireFormat.MESSAGE_HEADERS,
      useId: 'contentId',
    })
    const message = await serializer.serializeMessage(user, keyCtx)
    expect(Object.keys(message.headers)).toEqual(['apicurio.key.contentId', 'apicurio.key.encoding'])
    expect(await new AvroDeserializer(newClient()).deserializeMessage(message, keyCtx)).toEqual(user)
  })
})

describe('AvroDeserializer options', () => {
  const resolver = (): string => 'b'
  it.each<[string, Record<string, unknown>, string]>([
    [
      'artifactId and artifactResolver',
      { useLatestVersion: true, artifactId: 'a', artifactResolver: resolver },
      'mutually exclusive',
    ],
    ['useLatestVersion without an artifact', { useLatestVersion: true }, 'artifactId or artifactResolver'],
    [
      'useLatestVersion with readerSchema',
      { useLatestVersion: true, artifactId: 'a', readerSchema: userEvent },
      'readerSchema',
    ],
    ['artifactId without useLatestVersion', { artifactId: 'a' }, 'useLatestVersion'],
    ['artifactResolver without useLatestVersion', { artifactResolver: resolver }, 'useLatestVersion'],
    ['a bad useId', { useId: 'GlobalId' }, 'useId'],
    [
      'a readerSchema that is not valid Avro',
      { readerSchema: { type: 'record', name: 'X' } },
      'readerSchema',
    ],
    ['a readerSchema that is not JSON', { readerSchema: '{' }, 'readerSchema'],
    ['a fromDict that is not a function', { fromDict: 'x' }, 'fromDict'],
    ['a non-boolean useLatestVersion', { useLatestVersion: 'yes', artifactId: 'a' }, 'useLatestVersion'],
    ['an unknown option', { readerSchemas: userEvent }, "unknown option 'readerSchemas'"],
    ['a bad avro option', { avro: { unions: 'never' } }, 'unions'],
  ])('refuses %s at construction with INVALID_CONFIG', (_name, options, fragment) => {
    const build = () => new AvroDeserializer(newClient(), options as never)
    expect(build).toThrow(expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }))
    expect(build).toThrow(fragment)
  })

  it('refuses something that is not a registry client', () => {
    expect(() => new AvroDeserializer(undefined as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    )
  })

  it('exposes useId, globalId by default', () => {
    expect(new AvroDeserializer(newClient()).useId).toBe('globalId')
    expect(new AvroDeserializer(newClient(), { useId: 'contentId' }).useId).toBe('contentId')
  })
})

describe('AvroDeserializer: long range and a typed fromDict', () => {
  it("with longs: 'number', a long beyond 2^53 is a DeserializationError whose cause is the RangeError", async () => {
    const { globalId } = await admin.registerSchema('BigLong', {
      type: 'record',
      name: 'Big',
      fields: [{ name: 'n', type: 'long' }],
    })
    // 2^60 as an Avro long: zig-zag 2^61, a 9-byte varint.
    const frame = Buffer.concat([
      bytesOf('00'),
      bytesOf(Number(globalId).toString(16).padStart(8, '0')),
      bytesOf('808080808080808020'),
    ])
    const deserializer = new AvroDeserializer(newClient(), { avro: { longs: 'number' } })
    const error = await rejection(deserializer.deserialize(frame, ctx))
    expect(error.name).toBe('DeserializationError')
    expect(error.code).toBe('DESERIALIZATION')
    expect(error.cause).toBeInstanceOf(RangeError)
    expect((error.cause as { code?: string }).code).toBe('INVALID_DATA')
    expect(() => deserializer.deserializeSync(frame, ctx)).toThrow(
      expect.objectContaining({ name: 'DeserializationError' }),
    )
    await expect(new AvroDeserializer(newClient()).deserialize(frame, ctx)).resolves.toEqual({ n: 2n ** 60n })
  })

  it('accepts a fromDict annotated with the decoded type it expects, and returns what it returns', async () => {
    const deserializer = new AvroDeserializer(newClient(), {
      fromDict: (d: Record<string, unknown>) => new Map(Object.entries(d)),
    })
    const value: Map<string, unknown> = await deserializer.deserialize(bytesOf(USER_FRAME), ctx)
    expect(value).toEqual(
      new Map<string, unknown>([
        ['id', 'u1'],
        ['age', 42],
      ]),
    )
  })
})
