/// <reference path="../../../scripts/integration/context.d.ts" />
import { randomBytes } from 'node:crypto'
import { RegistryClient } from '@x/registry-client'
import { SerializationContext, WireFormat } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { EVERYTHING_SCHEMA, everythingValue } from './avro/test-support/fixtures.js'
import { AvroDeserializer } from './avro-deserializer.js'
import { AvroSerializer } from './avro-serializer.js'
import { TopicIdStrategy } from './index.js'

// The serde against a real Apicurio Registry 3 (integration stage: `inject('registryUrl')`, or X_SERDE_TEST_REGISTRY_URL). All
// artifacts live in a group unique to the run, so the suite also passes against a long-lived registry; ids are taken
// from the registry's answers, never assumed.

const url = (inject('registryUrl') ?? process.env.X_SERDE_TEST_REGISTRY_URL ?? '').replace(/\/+$/, '')
const group = `serde-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
const ctx = new SerializationContext('users')
const clients: RegistryClient[] = []

function newClient(): RegistryClient {
  const client = new RegistryClient({
    url,
    groupId: group,
    maxRetries: 1,
    retryBackoffMs: 100,
    timeoutMs: 30_000,
  })
  clients.push(client)
  return client
}

const idBytes = (id: unknown): string => Number(id).toString(16).padStart(8, '0')

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

let admin: RegistryClient

beforeAll(() => {
  expect(url).toMatch(/\/apis\/registry\/v3$/)
  admin = newClient()
})

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()))
})

describe('serde against a real Apicurio Registry 3', () => {
  it.each([
    ['globalId', WireFormat.FRAMED_PAYLOAD],
    ['contentId', WireFormat.FRAMED_PAYLOAD],
    ['globalId', WireFormat.MESSAGE_HEADERS],
    ['contentId', WireFormat.MESSAGE_HEADERS],
  ] as const)('round-trips a record using every Avro type with %s in %s', async (useId, wireFormat) => {
    const registered = await admin.registerSchema('Everything', EVERYTHING_SCHEMA)
    const message = await new AvroSerializer(newClient(), 'Everything', {
      useId,
      wireFormat,
    }).serializeMessage(everythingValue(), ctx)
    if (wireFormat === WireFormat.FRAMED_PAYLOAD) {
      expect(Buffer.from(message.payload.subarray(0, 5)).toString('hex')).toBe(
        `00${idBytes(registered[useId])}`,
      )
      expect(message.headers).toEqual({})
    } else {
      const header = Buffer.alloc(8)
      header.writeBigInt64BE(BigInt(registered[useId]!))
      expect(message.headers).toEqual({
        [`apicurio.value.${useId}`]: header,
        'apicurio.value.encoding': Buffer.from('BINARY'),
      })
    }
    const deserializer = new AvroDeserializer(newClient(), { useId })
    expect(await deserializer.deserializeMessage(message, ctx)).toEqual(everythingValue())
  })

  it('auto-registers with each ifExists as the registry answers it', async () => {
    const find = { autoRegister: true, schema: userEvent } as const
    const first = await new AvroSerializer(newClient(), 'Auto', find).serialize(user, ctx)
    const found = await new AvroSerializer(newClient(), 'Auto', find).serialize(user, ctx)
    expect(Buffer.from(found).toString('hex')).toBe(Buffer.from(first).toString('hex'))

    const created = await new AvroSerializer(newClient(), 'Auto', {
      ...find,
      ifExists: 'CREATE_VERSION',
    }).serialize(user, ctx)
    expect(Buffer.from(created.subarray(1, 5)).toString('hex')).not.toBe(
      Buffer.from(first.subarray(1, 5)).toString('hex'),
    )

    await expect(
      new AvroSerializer(newClient(), 'Auto', { ...find, ifExists: 'FAIL' }).serialize(user, ctx),
    ).rejects.toThrow(expect.objectContaining({ name: 'SchemaRegistrationError', status: 409 }))

    expect(await new AvroDeserializer(newClient()).deserialize(created, ctx)).toEqual(user)
  })

  it('resolves Apicurio artifact references as the Java serde registers nested records, both id types', async () => {
    const address = {
      type: 'record',
      name: 'Address',
      namespace: 'com.example',
      fields: [{ name: 'city', type: 'string' }],
    }
    const person = {
      type: 'record',
      name: 'Person',
      namespace: 'com.example',
      fields: [
        { name: 'name', type: 'string' },
        { name: 'address', type: 'com.example.Address' },
      ],
    }
    const addressVersion = await admin.registerSchema('com.example.Address', address)
    const references = [
      {
        name: 'com.example.Address',
        groupId: group,
        artifactId: 'com.example.Address',
        version: addressVersion.version!,
      },
    ]
    await admin.registerSchema('com.example.Person', person, { references })
    const ann = { name: 'Ann', address: { city: 'Oslo' } }
    for (const useId of ['globalId', 'contentId'] as const) {
      const bytes = await new AvroSerializer(newClient(), 'com.example.Person', { useId }).serialize(ann, ctx)
      expect(Buffer.from(bytes.subarray(5)).toString('hex')).toBe('06416e6e084f736c6f')
      expect(await new AvroDeserializer(newClient(), { useId }).deserialize(bytes, ctx)).toEqual(ann)
    }
    const auto = await new AvroSerializer(newClient(), 'com.example.Customer', {
      autoRegister: true,
      schema: { ...person, name: 'Customer' },
      references,
    }).serialize(ann, ctx)
    expect(await new AvroDeserializer(newClient()).deserialize(auto, ctx)).toEqual(ann)
  })

  it('serves many topics from one serializer and reads with the latest version as reader schema', async () => {
    const v2 = {
      ...userEvent,
      fields: [...userEvent.fields, { name: 'name', type: 'string', default: 'anon' }],
    }
    await admin.registerSchema('orders-value', userEvent)
    await admin.registerSchema('payments-value', userEvent)
    const serializer = new AvroSerializer(newClient(), { artifactResolver: new TopicIdStrategy() })
    const orders = await serializer.serialize(user, new SerializationContext('orders'))
    const payments = await serializer.serialize(user, new SerializationContext('payments'))
    expect(orders.subarray(1, 5)).not.toEqual(payments.subarray(1, 5))

    await admin.registerSchema('orders-value', v2, { ifExists: 'CREATE_VERSION' })
    const reader = new AvroDeserializer(newClient(), {
      useLatestVersion: true,
      artifactResolver: new TopicIdStrategy(),
    })
    expect(await reader.deserialize(orders, new SerializationContext('orders'))).toEqual({
      ...user,
      name: 'anon',
    })
    expect(await reader.deserialize(payments, new SerializationContext('payments'))).toEqual(user)
  })
})
