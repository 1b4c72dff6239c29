import { setImmediate } from 'node:timers/promises'
import { AvroSerializer, TopicIdStrategy } from '@x/avro-serde'
import { DeserializationError, type RuleViolationError, SchemaNotFoundError } from '@x/errors'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { AnyDeserializer, AnySerializer, MessageContract } from '@x/message-contract'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import {
  celCondition,
  conditionFailed,
  domainRules,
  expectRuleViolation,
  keyRules,
  ledgerMigrations,
  ledgerSchemas,
} from '@x/test-support'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApicurioSchemaRegistry, type ApicurioSchemaRegistryOptions } from './index.js'
import { formatsLoaded, preloadedInBackground } from './test-support/preloaded.js'

// The registry driven as @platformatic/kafka drives it (the order its Producer and Consumer call the hooks and the
// synchronous serdes in, read from its sources); the real client on a real broker is in the integration stage.

let registry: InMemoryRegistry
let client: RegistryClient
const ORDER = { type: 'record', name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: 'long' }] }

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

/** Runs a hook as Platformatic does: callback style; resolves when it called back, rejects with its error. */
function runHook(hook: (...args: never[]) => void, ...args: unknown[]): Promise<{ sync: boolean }> {
  return new Promise((resolve, reject) => {
    let returned = false
    ;(hook as (...a: unknown[]) => void)(...args, (error?: Error | null) =>
      error ? reject(error) : resolve({ sync: !returned }),
    )
    returned = true
  })
}

/** A registry on the shared client whose serializer writes `ORDER` records to the artifact `<topic>-value`. */
function orderWriter(options: ApicurioSchemaRegistryOptions<unknown> = {}): ApicurioSchemaRegistry {
  return new ApicurioSchemaRegistry(client, {
    serializer: new AvroSerializer(client, {
      artifactResolver: new TopicIdStrategy(),
      autoRegister: true,
      schema: ORDER,
    }),
    ...options,
  })
}

/** Produces `message` through the registry (hooks for key and value, then the serializers), as Platformatic does. */
async function produce(
  reg: ApicurioSchemaRegistry,
  message: { topic: string; key?: unknown; value?: unknown; headers: Map<unknown, unknown> },
) {
  const hook = reg.getBeforeSerializationHook()
  await runHook(hook, message.key, 'key', message)
  await runHook(hook, message.value, 'value', message)
  const serializers = reg.getSerializers()
  const headers = new Map<Buffer, Buffer>()
  for (const [name, value] of message.headers)
    headers.set(serializers.headerKey(name)!, serializers.headerValue(value)!)
  return {
    key: serializers.key(message.key, message.headers, message),
    value: serializers.value(message.value, message.headers, message),
    headers,
  }
}

/** Consumes a produced record through the registry (hooks, then header, key and value deserializers). */
async function consume(
  reg: ApicurioSchemaRegistry,
  topic: string,
  record: { key?: Buffer; value?: Buffer; headers: Map<Buffer, Buffer> },
) {
  const hook = reg.getBeforeDeserializationHook()
  const raw = {
    topic,
    partition: 0,
    key: record.key ?? null,
    value: record.value ?? null,
    headers: record.headers,
  }
  await runHook(hook, raw.key, 'key', raw)
  await runHook(hook, raw.value, 'value', raw)
  const deserializers = reg.getDeserializers()
  const headers = new Map<unknown, unknown>()
  for (const [name, value] of record.headers)
    headers.set(deserializers.headerKey(name), deserializers.headerValue(value))
  const message: { topic: string; metadata?: Record<string, unknown> } = { topic }
  return {
    key: deserializers.key(record.key, headers, message),
    value: deserializers.value(record.value, headers, message),
    metadata: message.metadata,
  }
}

describe('ApicurioSchemaRegistry, driven as @platformatic/kafka drives it', () => {
  it('writes a framed value with the artifact its strategy picks from the topic, and reads it back with its schema', async () => {
    const reg = orderWriter()
    const record = await produce(reg, {
      topic: 'orders',
      key: 'o-1',
      value: { id: 7 },
      headers: new Map([['trace', 't']]),
    })
    expect(record.key).toEqual(Buffer.from('o-1'))
    expect(record.value?.[0]).toBe(0)
    const registered = await client.getSchema('orders-value')
    expect(record.value?.readUInt32BE(1)).toBe(registered.globalId)
    const read = await consume(reg, 'orders', record as never)
    expect(read).toEqual({
      key: 'o-1',
      value: { id: 7 },
      metadata: {
        schemas: {
          value: {
            idType: 'globalId',
            id: registered.globalId,
            framed: true,
            format: 'AVRO',
            artifact: { groupId: 'default', artifactId: 'orders-value', version: registered.version },
          },
        },
      },
    })
  })

  it('in headers mode adds the id header in the hook, before Platformatic serializes the headers', async () => {
    const reg = new ApicurioSchemaRegistry(client, {
      serializer: new JsonSchemaSerializer(client, {
        artifactResolver: new TopicIdStrategy(),
        autoRegister: true,
        schema: { type: 'object', properties: { n: { type: 'integer' } } },
        wireFormat: 'MESSAGE_HEADERS',
      }),
    })
    const message = { topic: 'notes', value: { n: 1 }, headers: new Map<unknown, unknown>() }
    const record = await produce(reg, message)
    expect([...record.headers.keys()].map(String)).toEqual(['apicurio.value.globalId'])
    expect(record.value).toEqual(Buffer.from('{"n":1}'))
    const idHeader = [...record.headers.values()][0] as Buffer
    expect(reg.getSchemaId(message as never, 'value')).toBe(Number(idHeader.readBigInt64BE(0)))
    const read = await consume(reg, 'notes', record as never)
    expect(read.value).toEqual({ n: 1 })
    expect(read.metadata).toMatchObject({ schemas: { value: { framed: false, format: 'JSON' } } })
    // An id read from a header gives a frozen entry, as the frames of a prepared id do.
    expect(Object.isFrozen((read.metadata!.schemas as Record<string, unknown>).value)).toBe(true)
  })

  it('calls back at once once the serializer is prepared, as Platformatic’s own registry does, and later while it is cold', async () => {
    const reg = orderWriter()
    const hook = reg.getBeforeSerializationHook()
    const message = { topic: 'orders', key: 'k-1', value: { id: 1 }, headers: new Map([['trace', 't']]) }
    const turns = async (data: unknown, type: string, on = message) => {
      let settled = false
      let sync = false
      let returned = false
      hook(data, type, on, () => {
        settled = true
        sync = !returned
      })
      returned = true
      let count = 0
      while (!settled && count < 50) {
        await null
        count++
      }
      return { count, sync }
    }
    const cold = await runHook(hook, message.value, 'value', message)
    expect(cold).toEqual({ sync: false })
    const atOnce = { count: 0, sync: true }
    expect(await turns(message.value, 'value')).toEqual(atOnce)
    expect(await turns(message.key, 'key')).toEqual(atOnce)
    expect(await turns(undefined, 'key')).toEqual(atOnce)
    expect(await turns('trace', 'headerKey')).toEqual(atOnce)
    // Another topic's artifact is not prepared yet: its lookup comes first.
    expect((await turns({ id: 2 }, 'value', { ...message, topic: 'orders-2' })).sync).toBe(false)
  })

  it('calls back with the error when the id headers of headers mode cannot be added to the message', async () => {
    const reg = orderWriter({
      serializer: new AvroSerializer(client, {
        artifactResolver: new TopicIdStrategy(),
        autoRegister: true,
        schema: ORDER,
        wireFormat: 'MESSAGE_HEADERS',
      }),
    })
    const headers = new Map()
    headers.set = () => {
      throw new TypeError('frozen headers')
    }
    const message = { topic: 'orders-frozen', value: { id: 1 }, headers }
    await expect(runHook(reg.getBeforeSerializationHook(), message.value, 'value', message)).rejects.toThrow(
      'frozen headers',
    )
    const plain = { topic: 'orders-frozen', value: { id: 1 }, headers: new Map() }
    await runHook(reg.getBeforeSerializationHook(), plain.value, 'value', plain)
    expect(plain.headers.has('apicurio.value.globalId')).toBe(true)
  })

  it('prepares a consumed id once: on a cached id the hook asks nothing and calls back at once (as Platformatic’s own registry does), the value read as before', async () => {
    const writer = orderWriter()
    const produced = await produce(writer, { topic: 'orders', value: { id: 9 }, headers: new Map() })
    const readerClient = new RegistryClient({ url: registry.url, groupId: 'default' })
    try {
      const reader = new ApicurioSchemaRegistry(readerClient)
      const hook = reader.getBeforeDeserializationHook()
      const raw = { topic: 'orders', partition: 0, key: null, value: produced.value!, headers: new Map() }
      registry.clearRequests()
      expect(await runHook(hook, raw.value, 'value', raw)).toEqual({ sync: false })
      const cold = registry.requests.length
      expect(cold).toBeGreaterThan(0)
      for (let i = 0; i < 3; i++) expect(await runHook(hook, raw.value, 'value', raw)).toEqual({ sync: true })
      expect(registry.requests.length).toBe(cold)
      const read = await consume(reader, 'orders', { value: produced.value!, headers: new Map() })
      expect(read.value).toEqual({ id: 9 })
      expect(read.metadata).toMatchObject({
        schemas: {
          value: {
            idType: 'globalId',
            framed: true,
            format: 'AVRO',
            artifact: { artifactId: 'orders-value' },
          },
        },
      })
      expect(registry.requests.length).toBe(cold)
      expect(registry.requests.map((r) => r.path.replace(/^.*\/v3/, ''))).toEqual([
        expect.stringMatching(/^\/ids\/globalIds\/\d+$/),
        '/search/versions',
      ])
    } finally {
      await readerClient.close()
    }
  })

  it('decodes warm records of a prepared id with no lookup in any cache or the registry, each value and its schema exact', async () => {
    const writer = orderWriter()
    const values = []
    for (let id = 0; id < 40; id++)
      values.push((await produce(writer, { topic: 'warm', value: { id }, headers: new Map() })).value!)
    const readerClient = new RegistryClient({ url: registry.url, groupId: 'default' })
    try {
      const reader = new ApicurioSchemaRegistry(readerClient)
      await consume(reader, 'warm', { value: values[0]!, headers: new Map() })
      const registered = await client.getSchema('warm-value')
      const requests = registry.requests.length
      const now = vi.spyOn(AnyDeserializer.prototype, 'deserializeMessageNow')
      const prepared = vi.spyOn(AnyDeserializer.prototype, 'isPrepared')
      const toPrepare = vi.spyOn(MessageContract.prototype, 'idToPrepare')
      for (let id = 1; id < 40; id++) {
        const read = await consume(reader, 'warm', { value: values[id]!, headers: new Map() })
        expect(read).toEqual({
          key: null,
          value: { id },
          metadata: {
            schemas: {
              value: {
                idType: 'globalId',
                id: registered.globalId,
                framed: true,
                format: 'AVRO',
                artifact: { groupId: 'default', artifactId: 'warm-value', version: registered.version },
              },
            },
          },
        })
      }
      expect(now).not.toHaveBeenCalled()
      expect(prepared).not.toHaveBeenCalled()
      expect(toPrepare).not.toHaveBeenCalled()
      // One frozen schema entry shared by the warm records of the id, as Platformatic's own shares a number.
      const a = await consume(reader, 'warm', { value: values[1]!, headers: new Map() })
      const b = await consume(reader, 'warm', { value: values[2]!, headers: new Map() })
      const schemaOf = (read: { metadata: Record<string, unknown> | undefined }) =>
        (read.metadata!.schemas as Record<string, unknown>).value
      expect(schemaOf(a)).toBe(schemaOf(b))
      expect(Object.isFrozen(schemaOf(a))).toBe(true)
      expect(registry.requests.length).toBe(requests)
    } finally {
      vi.restoreAllMocks()
      await readerClient.close()
    }
  })

  it('puts one frozen metadata.schemas on the messages of the same schemas, key and value together, and adds to a schemas object another hook put there', async () => {
    const key = { type: 'record', name: 'ShelfKey', fields: [{ name: 'shelf', type: 'string' }] }
    await client.registerSchema('shelves-key', key, { artifactType: 'AVRO' })
    await client.registerSchema('shelves-value', ORDER, { artifactType: 'AVRO' })
    const keyed = new ApicurioSchemaRegistry(client, {
      serializer: new AnySerializer(client),
      keys: { serializer: new AnySerializer(client) },
    })
    const records = []
    for (let id = 0; id < 3; id++) {
      const written = await produce(keyed, {
        topic: 'shelves',
        key: { shelf: `s-${id}` },
        value: { id },
        headers: new Map(),
      })
      records.push(written as { key: Buffer; value: Buffer; headers: Map<Buffer, Buffer> })
    }
    const reads = []
    for (const record of records) reads.push(await consume(keyed, 'shelves', record))
    const schemas = reads.map((read) => read.metadata!.schemas as Record<string, { artifact?: unknown }>)
    expect(reads.map((read) => [read.key, read.value])).toEqual([
      [{ shelf: 's-0' }, { id: 0 }],
      [{ shelf: 's-1' }, { id: 1 }],
      [{ shelf: 's-2' }, { id: 2 }],
    ])
    expect(Object.keys(schemas[0]!)).toEqual(['key', 'value'])
    expect(schemas[0]!.key!.artifact).toMatchObject({ artifactId: 'shelves-key' })
    expect(schemas[0]!.value!.artifact).toMatchObject({ artifactId: 'shelves-value' })
    // The warm messages share one frozen object, as Platformatic's own shares a number; each has its own metadata.
    expect(schemas[2]).toBe(schemas[1])
    expect(Object.isFrozen(schemas[1])).toBe(true)
    expect(reads[2]!.metadata).not.toBe(reads[1]!.metadata)

    // Another hook's `schemas` object is added to; a frozen one is left as it is and replaced by a copy.
    const deserializers = keyed.getDeserializers()
    const theirs = { note: 'kept' }
    const open: { topic: string; metadata?: Record<string, unknown> } = {
      topic: 'shelves',
      metadata: { schemas: theirs, trace: 't-1' },
    }
    deserializers.value(records[1]!.value, new Map(), open)
    expect(open.metadata!.schemas).toBe(theirs)
    expect(theirs).toEqual({ note: 'kept', value: schemas[1]!.value })
    const sealed = Object.freeze({ note: 'sealed' })
    const closed: { topic: string; metadata?: Record<string, unknown> } = {
      topic: 'shelves',
      metadata: { schemas: sealed },
    }
    deserializers.value(records[1]!.value, new Map(), closed)
    expect(sealed).toEqual({ note: 'sealed' })
    expect(closed.metadata!.schemas).toEqual({ note: 'sealed', value: schemas[1]!.value })
    expect(Object.isFrozen(closed.metadata!.schemas)).toBe(true)
  })

  it('runs the hooks of a whole fetch before its reads with one lookup: the fetch’s other records of the id are prepared at once, on another topic too', async () => {
    const writer = orderWriter()
    const values: Buffer[] = []
    for (let id = 0; id < 30; id++)
      values.push((await produce(writer, { topic: 'fetch', value: { id }, headers: new Map() })).value!)
    const readerClient = new RegistryClient({ url: registry.url, groupId: 'default' })
    try {
      const reader = new ApicurioSchemaRegistry(readerClient, { preload: false })
      const hook = reader.getBeforeDeserializationHook()
      const deserializers = reader.getDeserializers()
      // Platformatic runs the hook over every record of a fetch, then the deserializers over them.
      const fetchOf = (topic: string) =>
        values.map((value) => ({ topic, partition: 0, key: null, value, headers: new Map() }))
      for (const topic of ['fetch', 'fetch-replayed']) {
        const records = fetchOf(topic)
        const toPrepare = vi.spyOn(MessageContract.prototype, 'idToPrepare')
        const requests = registry.requests.length
        expect(await runHook(hook, records[0]!.value, 'value', records[0])).toEqual({
          sync: topic !== 'fetch',
        })
        for (const record of records.slice(1))
          expect(await runHook(hook, record.value, 'value', record)).toEqual({ sync: true })
        // The first record's hook looked the id up (or found it cached); the other 29 needed nothing.
        expect(toPrepare).toHaveBeenCalledTimes(1)
        expect(registry.requests.length).toBe(topic === 'fetch' ? requests + 2 : requests)
        toPrepare.mockRestore()
        records.forEach((record, id) => {
          expect(deserializers.value(record.value, record.headers, record as never)).toEqual({ id })
        })
      }
    } finally {
      vi.restoreAllMocks()
      await readerClient.close()
    }
  })

  it('calls warm hooks back at once, deferring one to a microtask once 32 run inside one another (Platformatic 1.35 runs the next hook inside the callback)', async () => {
    const reg = new ApicurioSchemaRegistry(client)
    const hook = reg.getBeforeDeserializationHook()
    const records = Array.from({ length: 20_000 }, () => ({
      topic: 'plain',
      partition: 0,
      key: null,
      value: null,
      headers: [] as [Buffer | null, Buffer | null][],
    }))
    // Platformatic 1.35's runAsyncSeries: the next hook runs from inside the previous one's callback.
    let depth = 0
    let deepest = 0
    await new Promise<void>((resolve, reject) => {
      const next = (index: number): void => {
        if (index === records.length) {
          resolve()
          return
        }
        depth++
        deepest = Math.max(deepest, depth)
        hook(null, 'value', records[index]!, (error) => (error ? reject(error) : next(index + 1)))
        depth--
      }
      next(0)
    })
    expect(deepest).toBeGreaterThan(1)
    expect(deepest).toBeLessThanOrEqual(33)
    // Platformatic 2.x's loop: every warm callback comes before the hook returns.
    let synchronous = 0
    for (const record of records.slice(0, 100)) {
      let called = false
      hook(null, 'key', record, () => {
        called = true
      })
      if (called) synchronous++
    }
    expect(synchronous).toBe(100)
  })

  it("searches a cold id's artifact once its schema is fetched: two requests, never both in flight", async () => {
    const writer = orderWriter()
    const produced = await produce(writer, { topic: 'side-by-side', value: { id: 4 }, headers: new Map() })
    let inFlight = 0
    let most = 0
    const paths: string[] = []
    const slowFetch: typeof fetch = async (input, init) => {
      inFlight++
      most = Math.max(most, inFlight)
      paths.push(
        String(input)
          .replace(/^.*\/v3/, '')
          .replace(/\?.*$/, ''),
      )
      try {
        await new Promise((resolve) => setTimeout(resolve, 50))
        return await fetch(input, init)
      } finally {
        inFlight--
      }
    }
    const readerClient = new RegistryClient({ url: registry.url, groupId: 'default', fetch: slowFetch })
    try {
      const reader = new ApicurioSchemaRegistry(readerClient)
      const raw = {
        topic: 'side-by-side',
        partition: 0,
        key: null,
        value: produced.value!,
        headers: new Map(),
      }
      await runHook(reader.getBeforeDeserializationHook(), raw.value, 'value', raw)
      expect(paths).toEqual([expect.stringMatching(/^\/ids\/globalIds\/\d+$/), '/search/versions'])
      expect(most).toBe(1)
      const read = await consume(reader, 'side-by-side', { value: produced.value!, headers: new Map() })
      expect(read.value).toEqual({ id: 4 })
      expect(read.metadata).toMatchObject({
        schemas: { value: { artifact: { artifactId: 'side-by-side-value' } } },
      })
      expect(paths).toHaveLength(2)
    } finally {
      await readerClient.close()
    }
  })

  it('leaves a poison record to the synchronous deserializer, which refuses it as that message’s error', async () => {
    const fresh = new RegistryClient({ url: registry.url, groupId: 'default' })
    try {
      const reg = new ApicurioSchemaRegistry(fresh)
      const bad = { value: Buffer.from([0, 0, 0x0f, 0x42, 0x3f, 1]), headers: new Map<Buffer, Buffer>() }
      registry.clearRequests()
      await expect(consume(reg, 'orders', bad)).rejects.toBeInstanceOf(SchemaNotFoundError)
      // The id's schema was asked for; an id without one has no artifact to search.
      expect(registry.requests.map((r) => r.path.replace(/^.*\/v3/, ''))).toEqual(['/ids/globalIds/999999'])
      const frame = { value: Buffer.from([7, 1, 2]), headers: new Map<Buffer, Buffer>() }
      await expect(consume(reg, 'orders', frame)).rejects.toBeInstanceOf(DeserializationError)
    } finally {
      await fresh.close()
    }
  })

  it('tells the schema id of a framed payload, and fetches or peeks a globalId', async () => {
    const reg = orderWriter()
    const record = await produce(reg, { topic: 'orders', value: { id: 2 }, headers: new Map() })
    const id = record.value!.readUInt32BE(1)
    expect(reg.getSchemaId(record.value!, 'value')).toBe(id)
    expect(reg.getSchemaId(Buffer.from([9]), 'value')).toBeUndefined()
    const fresh = new RegistryClient({ url: registry.url, groupId: 'default' })
    const other = new ApicurioSchemaRegistry(fresh)
    expect(other.get(id)).toBeUndefined()
    await other.fetch(id)
    expect(other.get(id)?.schema).toBe(JSON.stringify(ORDER))
    await new Promise<void>((resolve, reject) =>
      other.fetch(id, (error) => (error ? reject(error) : resolve())),
    )
    await fresh.close()
  })
})

describe('ApicurioSchemaRegistry with data-contract rules', () => {
  it('refuses to write a value a WRITE rule fails, and throws RuleViolationError reading a record a READ rule fails', async () => {
    const payment = {
      type: 'record',
      name: 'Payment',
      fields: [
        { name: 'id', type: 'string' },
        { name: 'amount', type: 'double' },
      ],
    }
    await client.registerSchema('payments-value', payment, { artifactType: 'AVRO' })
    await client.setArtifactRuleset(
      'payments-value',
      domainRules(
        celCondition('positive', 'WRITE', 'amount > 0.0', 'ERROR'),
        celCondition('limit', 'READ', 'amount < 1000.0', 'DLQ'),
      ),
    )
    const checked = new ApicurioSchemaRegistry(client, {
      serializer: new AnySerializer(client, { rules: { enabled: true } }),
      rules: { enabled: true },
    })
    await expectRuleViolation(
      produce(checked, {
        topic: 'payments',
        key: 'p-1',
        value: { id: 'p-1', amount: -1 },
        headers: new Map(),
      }),
    )
    const plain = new ApicurioSchemaRegistry(client, { serializer: new AnySerializer(client) })
    const large = await produce(plain, {
      topic: 'payments',
      key: 'p-2',
      value: { id: 'p-2', amount: 5000 },
      headers: new Map(),
    })
    await expectRuleViolation(consume(checked, 'payments', large as never), {
      violations: [conditionFailed('limit', 'DLQ')],
    })
    const fine = await produce(checked, {
      topic: 'payments',
      key: 'p-3',
      value: { id: 'p-3', amount: 50 },
      headers: new Map(),
    })
    expect((await consume(checked, 'payments', fine as never)).value).toEqual({ id: 'p-3', amount: 50 })
    expect((await consume(plain, 'payments', large as never)).value).toEqual({ id: 'p-2', amount: 5000 })
  })
})

describe('ApicurioSchemaRegistry with migration rules and key rules', () => {
  const { v1: V1, v2: V2 } = ledgerSchemas('Entry')

  /** Produces values with the artifact's latest version (a client of its own: nothing cached). */
  async function produceAll(topic: string, values: object[]) {
    await using own = new RegistryClient({ url: registry.url, groupId: 'default' })
    const writer = new ApicurioSchemaRegistry(own, { serializer: new AnySerializer(own) })
    const out = []
    for (const value of values)
      out.push(await produce(writer, { topic, key: 'k', value, headers: new Map() }))
    return out
  }

  it('migrates records to the target version, and throws RuleViolationError naming an UPGRADE or DOWNGRADE rule that refuses one', async () => {
    await client.registerSchema('ledger-value', V1, { artifactType: 'AVRO' })
    const [small, large] = await produceAll('ledger', [
      { id: 'l-1', amount: 10 },
      { id: 'l-2', amount: 5000 },
    ])
    await client.registerSchema('ledger-value', V2, { artifactType: 'AVRO' })
    const [euro, dollar] = await produceAll('ledger', [
      { id: 'l-3', amount: 30, currency: 'EUR' },
      { id: 'l-4', amount: 40, currency: 'USD' },
    ])
    const migrations = ledgerMigrations()
    await client.setVersionRuleset('ledger-value', '2', migrations['2'])
    await client.setVersionRuleset('ledger-value', '1', migrations['1'])
    const reader = (targetVersion: string) =>
      new ApicurioSchemaRegistry(client, {
        rules: { enabled: true, migration: { enabled: true, targetVersion } },
      })
    const refusal = (error: RuleViolationError) => [
      error.name,
      error.mode,
      error.violations.map((violation) => violation.ruleName),
    ]
    const upgrading = reader('2')
    expect((await consume(upgrading, 'ledger', small as never)).value).toEqual({
      id: 'l-1',
      amount: 10,
      currency: 'EUR',
    })
    const up = await expectRuleViolation(consume(upgrading, 'ledger', large as never))
    expect(refusal(up)).toEqual(['RuleViolationError', 'UPGRADE', ['small']])
    const downgrading = reader('1')
    expect((await consume(downgrading, 'ledger', euro as never)).value).toEqual({ id: 'l-3', amount: 30 })
    const down = await expectRuleViolation(consume(downgrading, 'ledger', dollar as never))
    expect(refusal(down)).toEqual(['RuleViolationError', 'DOWNGRADE', ['euro-only']])
  })

  it('runs the rules of a key with a schema: a WRITE rule refuses a key, a READ rule refuses reading one', async () => {
    const key = { type: 'record', name: 'AccountKey', fields: [{ name: 'id', type: 'string' }] }
    await client.registerSchema('accounts-key', key, { artifactType: 'AVRO' })
    await client.registerSchema('accounts-value', V1, { artifactType: 'AVRO' })
    await client.setArtifactRuleset('accounts-key', keyRules('a-'))
    const keyed = new ApicurioSchemaRegistry(client, {
      serializer: new AnySerializer(client),
      keys: {
        serializer: new AnySerializer(client, { rules: { enabled: true } }),
        deserializer: new AnyDeserializer(client, { rules: { enabled: true } }),
      },
    })
    const value = { id: 'v', amount: 1 }
    await expectRuleViolation(
      produce(keyed, { topic: 'accounts', key: { id: 'x-1' }, value, headers: new Map() }),
      { mode: 'WRITE', violations: [conditionFailed('prefixed', 'ERROR')] },
    )
    const fine = await produce(keyed, { topic: 'accounts', key: { id: 'a-1' }, value, headers: new Map() })
    expect((await consume(keyed, 'accounts', fine as never)).key).toEqual({ id: 'a-1' })
    const long = await produce(keyed, { topic: 'accounts', key: { id: 'a-long' }, value, headers: new Map() })
    await expectRuleViolation(consume(keyed, 'accounts', long as never), {
      mode: 'READ',
      violations: [conditionFailed('short', 'DLQ')],
    })
  })
})

describe('ApicurioSchemaRegistry preload', () => {
  beforeEach(async () => {
    // The adapters of earlier tests start their background preload on the next turn: let them, before a spy counts.
    await setImmediate()
  })

  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('loads the three format readers in the background once a consumer takes its deserializers; with preload false only the format a record needs, when it arrives', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const prepare = vi.spyOn(AnyDeserializer.prototype, 'prepare')
    const consumed = new ApicurioSchemaRegistry(client)
    consumed.getDeserializers()
    consumed.getBeforeDeserializationHook()
    const lazy = new ApicurioSchemaRegistry(client, { preload: false })
    lazy.getDeserializers()
    const eager = await preloadedInBackground(preload)

    const writer = orderWriter({ preload: false })
    const record = await produce(writer, {
      topic: 'orders',
      key: 'o-1',
      value: { id: 7 },
      headers: new Map(),
    })
    const read = await consume(lazy, 'orders', record as never)
    expect(read.value).toEqual({ id: 7 })
    expect(preload).toHaveBeenCalledTimes(1)
    expect(prepare).toHaveBeenCalledTimes(1)
    const reader = prepare.mock.contexts[0] as AnyDeserializer
    expect(reader).not.toBe(eager)
    expect(formatsLoaded(reader)).toEqual({ AVRO: true, JSON: false, PROTOBUF: false })
  })

  it('loads no reader for a registry only a producer uses, whose first write would otherwise share the process with the loading', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const writer = orderWriter()
    await setImmediate()
    const record = await produce(writer, {
      topic: 'orders',
      key: 'o-2',
      value: { id: 8 },
      headers: new Map(),
    })
    await setImmediate()
    await setImmediate()
    expect(record.value!.subarray(0, 1)).toEqual(Buffer.from([0]))
    expect(preload).not.toHaveBeenCalled()
  })

  it('stops the preload a consumer started when a write first needs the registry', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const both = orderWriter()
    both.getDeserializers()
    const written = produce(both, { topic: 'orders', key: 'o-3', value: { id: 9 }, headers: new Map() })
    await setImmediate()
    expect(preload).toHaveBeenCalledTimes(1)
    expect(preload.mock.calls[0]![1]!.signal!.aborted).toBe(true)
    await expect(preload.mock.results[0]!.value).rejects.toMatchObject({ name: 'AbortError' })
    expect((await written).value!.subarray(0, 1)).toEqual(Buffer.from([0]))
  })
})
