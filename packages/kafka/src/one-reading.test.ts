import { AvroSerializer } from '@x/avro-serde'
import { failedMessageOf, isSerdeError } from '@x/errors'
import { AnyDeserializer, AnySerializer } from '@x/message-contract'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { celCondition, domainRules } from '@x/test-support'
import { encodeIdHeader } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ApicurioSchemaRegistry,
  type ConsumedKafkaMessage,
  type EachMessagePayload,
  type KafkaHeaders,
  KafkaJsSerde,
  type PlatformaticRecord,
} from './index.js'

// One corpus read through every binding of the message contract: KafkaJS (`decodeMessage`, `eachBatch`),
// Confluent's KafkaJS API (the same class, driven with the payload its `eachMessage` hands over) and Platformatic
// (`ApicurioSchemaRegistry`, driven as its consumer drives it: hooks over the raw record, then the synchronous
// deserializers, then `onCorruptedMessage`). Each message must come out the same: the same value, or the same error
// class and code with the same failed message and the same dead-letter headers.

let registry: InMemoryRegistry
let client: RegistryClient
const PAYMENT = {
  type: 'record',
  name: 'Payment',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'double' },
  ],
}
const TOPIC = 'payments'
const PARTITION = 4

interface Entry {
  name: string
  key: Buffer | null
  value: Buffer | null
  /** The raw header pairs, as on the wire (a name may repeat). */
  pairs: [Buffer, Buffer][]
}

/** What a binding made of an entry: the value read, or the error and what a dead-letter topic was sent. */
interface Outcome {
  value?: unknown
  key?: unknown
  error?: { name: string; code: unknown; message: string }
  failed?: {
    topic: string | undefined
    field: string | undefined
    partition: number | undefined
    offset: string | undefined
    payload: string | undefined
  }
  deadLetter?: Record<string, string> | undefined
}

const corpus: Entry[] = []

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
  await client.registerSchema(`${TOPIC}-value`, PAYMENT, { artifactType: 'AVRO' })
  await client.setArtifactRuleset(
    `${TOPIC}-value`,
    domainRules(celCondition('limit', 'READ', 'amount < 1000.0', 'DLQ')),
  )
  const writer = new AnySerializer(client)
  const write = async (value: unknown) =>
    Buffer.from(await writer.serialize(value, { topic: TOPIC, field: 'value' } as never))
  const good = await write({ id: 'p-1', amount: 50 })
  const id = good.readUInt32BE(1)
  const name = Buffer.from('apicurio.value.globalId')
  corpus.push(
    {
      name: 'a good frame',
      key: Buffer.from('p-1'),
      value: good,
      pairs: [[Buffer.from('trace'), Buffer.from('t')]],
    },
    {
      name: 'an unknown id',
      key: Buffer.from('p-2'),
      value: Buffer.from([0, 0, 0x0f, 0x42, 0x3f, 2]),
      pairs: [],
    },
    { name: 'a truncated frame', key: null, value: Buffer.from([0, 0, 0]), pairs: [] },
    { name: 'a bad magic byte', key: Buffer.from('p-3'), value: Buffer.from([7, 0, 0, 0, 1, 2]), pairs: [] },
    {
      name: 'a rule violation',
      key: Buffer.from('p-4'),
      value: await write({ id: 'p-4', amount: 5000 }),
      pairs: [],
    },
    {
      name: 'repeated id headers naming two ids',
      key: Buffer.from('p-5'),
      value: good.subarray(5),
      pairs: [
        [name, Buffer.from(encodeIdHeader(id))],
        [name, Buffer.from(encodeIdHeader(id + 1000))],
      ],
    },
  )
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

/** The pairs as KafkaJS (and Confluent's KafkaJS API) hand them over: a repeated header as an array. */
function kafkaHeaders(pairs: [Buffer, Buffer][]): KafkaHeaders {
  const headers: KafkaHeaders = {}
  for (const [name, value] of pairs) {
    const seen = headers[name.toString()]
    headers[name.toString()] =
      seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen as Buffer, value]
  }
  return headers
}

const offsetOf = (index: number) => String(100 + index)

function consumed(entry: Entry, index: number): ConsumedKafkaMessage {
  return {
    key: entry.key,
    value: entry.value,
    headers: kafkaHeaders(entry.pairs),
    offset: offsetOf(index),
    timestamp: '0',
  }
}

function described(error: unknown): Pick<Outcome, 'error' | 'failed'> {
  const failed = failedMessageOf(error)
  return {
    error: {
      name: (error as Error).name,
      code: (error as { code?: unknown }).code,
      message: (error as Error).message,
    },
    failed: {
      topic: failed?.context?.topic,
      field: failed?.context?.field,
      partition: failed?.partition,
      offset: failed?.offset,
      payload: failed === undefined ? undefined : Buffer.from(failed.payload).toString('hex'),
    },
  }
}

/** The `x-serde-*` headers of a dead-letter message, as text. */
function serdeHeaders(headers: Iterable<[string | Buffer, unknown]>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of headers) {
    const text = String(name)
    if (text.startsWith('x-serde-')) out[text] = Buffer.isBuffer(value) ? value.toString() : String(value)
  }
  return out
}

const options = { rules: { enabled: true }, preload: false } as const

/** KafkaJS: `decodeMessage` for the value or error, `eachBatch` with a dead-letter topic for its headers. */
async function throughKafkaJs(): Promise<Outcome[]> {
  const serde = new KafkaJsSerde(client, options)
  const outcomes: Outcome[] = []
  for (const [index, entry] of corpus.entries()) {
    try {
      const decoded = await serde.decodeMessage(TOPIC, PARTITION, consumed(entry, index))
      outcomes.push({ key: decoded.key, value: decoded.value })
    } catch (error) {
      outcomes.push(described(error))
    }
  }
  const sent: { headers?: KafkaHeaders }[] = []
  const producer = {
    send: async (record: { messages: { headers?: KafkaHeaders }[] }) => void sent.push(...record.messages),
  }
  const messages = corpus.map(consumed)
  await new KafkaJsSerde(client, options).eachBatch(async () => {}, {
    deadLetter: { producer, topic: 'dlq' },
  })({
    batch: { topic: TOPIC, partition: PARTITION, messages },
    resolveOffset: () => {},
    heartbeat: async () => {},
    isRunning: () => true,
    isStale: () => false,
  })
  attachDeadLetters(
    outcomes,
    sent.map((message) => serdeHeaders(Object.entries(message.headers ?? {}))),
  )
  return outcomes
}

/** Confluent's KafkaJS API: the same class, driven by `eachMessage` with the payload Confluent hands over. */
async function throughConfluent(): Promise<Outcome[]> {
  const serde = new KafkaJsSerde(client, options)
  const handled: Outcome[] = []
  const errors: unknown[] = []
  const sent: { headers?: KafkaHeaders }[] = []
  // The same messages through two wrappers: one hands the dead letter (its error) to a function, one sends it.
  const toFunction = serde.eachMessage(
    async ({ decoded }) => void handled.push({ key: decoded.key, value: decoded.value }),
    { deadLetter: ({ error }) => void errors.push(error) },
  )
  const producer = {
    send: async (record: { messages: { headers?: KafkaHeaders }[] }) => void sent.push(...record.messages),
  }
  const toTopic = serde.eachMessage(async () => {}, { deadLetter: { producer, topic: 'dlq' } })
  const outcomes: Outcome[] = []
  for (const [index, entry] of corpus.entries()) {
    // Confluent's payload: its message carries more fields than KafkaJS's (leaderEpoch, size), headers the same.
    const message = { ...consumed(entry, index), leaderEpoch: 0, size: 0 }
    const payload = {
      topic: TOPIC,
      partition: PARTITION,
      message,
      heartbeat: async () => {},
      pause: () => () => {},
    }
    const failures = errors.length
    await toFunction(payload as EachMessagePayload)
    if (errors.length === failures) {
      outcomes.push(handled.at(-1)!)
      continue
    }
    await toTopic(payload as EachMessagePayload)
    outcomes.push({
      ...described(errors.at(-1)),
      deadLetter: serdeHeaders(Object.entries(sent.at(-1)?.headers ?? {})),
    })
  }
  return outcomes
}

/**
 * Platformatic: hooks over the raw records of a fetch, then the deserializers, then `onCorruptedMessage` (1.35) or
 * `onDeserializationError` (2.x), called as each calls its handler.
 */
async function throughPlatformatic(version: 1 | 2): Promise<Outcome[]> {
  const sent: { headers?: Map<Buffer, Buffer> }[] = []
  const reg = new ApicurioSchemaRegistry(client, {
    ...options,
    deadLetter: { producer: { send: async ({ messages }) => void sent.push(...messages) }, topic: 'dlq' },
  })
  const records = corpus.map((entry, index): PlatformaticRecord & { topic?: string; partition?: number } => ({
    key: entry.key,
    value: entry.value,
    headers: entry.pairs,
    offsetDelta: index,
  }))
  const hook = reg.getBeforeDeserializationHook()
  for (const record of records) {
    record.topic = TOPIC
    record.partition = PARTITION
    for (const field of ['key', 'value'] as const) {
      await new Promise<void>((resolve, reject) =>
        hook(record[field], field, record as never, (error) => (error ? reject(error) : resolve())),
      )
    }
  }
  const deserializers = reg.getDeserializers()
  const onCorrupted = reg.getCorruptedMessageHandler()
  const onDeserializationError = reg.getDeserializationErrorHandler()
  const outcomes: Outcome[] = []
  for (const record of records) {
    const headers = new Map<string, Buffer>()
    for (const [name, value] of record.headers) headers.set(name!.toString(), value!)
    const message = { ...record, topic: TOPIC, partition: PARTITION }
    try {
      const key = deserializers.key(record.key ?? undefined, headers, message as never)
      const value = deserializers.value(record.value ?? undefined, headers, message as never)
      outcomes.push({ key, value })
    } catch (error) {
      const before = sent.length
      if (version === 1) expect(onCorrupted(record, TOPIC, PARTITION, 0n, 100n)).toBe(false)
      else {
        const offset = 100n + BigInt(record.offsetDelta)
        const context = { error, payloadType: 'value', record, topic: TOPIC, partition: PARTITION, offset }
        expect(onDeserializationError(context)).toBe('skip')
      }
      await Promise.resolve()
      // Header names as bytes, as a Platformatic producer without serializers must be given them.
      for (const name of sent.at(-1)?.headers?.keys() ?? []) expect(Buffer.isBuffer(name)).toBe(true)
      outcomes.push({
        ...described(error),
        deadLetter: sent.length > before ? serdeHeaders(sent.at(-1)!.headers ?? []) : undefined,
      })
    }
  }
  return outcomes
}

/** Puts the dead-letter headers sent, in order, on the outcomes that are errors. */
function attachDeadLetters(outcomes: Outcome[], headers: Record<string, string>[]): void {
  let next = 0
  for (const outcome of outcomes) if (outcome.error !== undefined) outcome.deadLetter = headers[next++]
}

describe('one reading of a consumed message through every binding', () => {
  it('KafkaJS, the Confluent shape and Platformatic 1.35 and 2.x give the same value, or the same error, failed message and dead-letter headers', async () => {
    const kafkajs = await throughKafkaJs()
    const confluent = await throughConfluent()
    const platformatic = await throughPlatformatic(1)
    const platformatic2 = await throughPlatformatic(2)
    // The corpus as KafkaJS reads it, exactly.
    expect(kafkajs.map((outcome) => outcome.value ?? outcome.error?.code)).toEqual([
      { id: 'p-1', amount: 50 },
      'SCHEMA_NOT_FOUND',
      'DESERIALIZATION',
      'DESERIALIZATION',
      'RULE_VIOLATION',
      'DESERIALIZATION',
    ])
    for (const [index, entry] of corpus.entries()) {
      const outcome = kafkajs[index]!
      if (outcome.error === undefined) continue
      expect(outcome.failed, entry.name).toEqual({
        topic: TOPIC,
        field: 'value',
        partition: PARTITION,
        offset: offsetOf(index),
        payload: entry.value!.toString('hex'),
      })
      expect(outcome.deadLetter?.['x-serde-source'], entry.name).toBe(
        `${TOPIC}/${PARTITION}/${offsetOf(index)}`,
      )
      expect(outcome.deadLetter?.['x-serde-error-code'], entry.name).toBe(outcome.error.code)
    }
    expect(kafkajs[4]?.deadLetter).toMatchObject({ 'x-serde-rule': 'limit', 'x-serde-rule-mode': 'READ' })
    expect(confluent).toEqual(kafkajs)
    expect(platformatic).toEqual(kafkajs)
    expect(platformatic2).toEqual(kafkajs)
  })

  it('writes a key with its serializer to the same bytes, and refuses a key without one (INVALID_CONFIG), in every binding', async () => {
    const keySerializer = () =>
      new AvroSerializer(client, { artifactId: 'payment-key', autoRegister: true, schema: '"string"' })
    const writer = new AvroSerializer(client, { artifactId: `${TOPIC}-value` })
    const kafkajs = new KafkaJsSerde(client, {
      serializer: writer,
      keys: { serializer: keySerializer() },
      preload: false,
    })
    const platformatic = new ApicurioSchemaRegistry(client, {
      serializer: writer,
      keys: { serializer: keySerializer() },
      preload: false,
    })
    const value = { id: 'p-9', amount: 9 }
    const sent = await kafkajs.encodeMessage(TOPIC, { key: 'p-9', value })
    const message = { topic: TOPIC, key: 'p-9', value, headers: new Map() }
    const hook = platformatic.getBeforeSerializationHook()
    for (const field of ['key', 'value'] as const) {
      await new Promise<void>((resolve, reject) =>
        hook(message[field], field, message, (error) => (error ? reject(error) : resolve())),
      )
    }
    expect(platformatic.getSerializers().key('p-9', message.headers, message)).toEqual(sent.key)
    expect(platformatic.getSerializers().value(value, message.headers, message)).toEqual(sent.value)

    const readOnly = { keys: { deserializer: new AnyDeserializer(client) }, preload: false }
    const refusals = await Promise.all([
      new KafkaJsSerde(client, { ...readOnly, serializer: writer })
        .encodeMessage(TOPIC, { key: 'p-9', value })
        .then(
          () => undefined,
          (error: unknown) => error,
        ),
      (async () => {
        try {
          new ApicurioSchemaRegistry(client, { ...readOnly, serializer: writer }).getSerializers().key('p-9')
        } catch (error) {
          return error
        }
      })(),
    ])
    for (const refused of refusals) {
      expect(refused).toBeInstanceOf(TypeError)
      expect(refused).toMatchObject({
        code: 'INVALID_CONFIG',
        message: expect.stringContaining('keys need a serializer'),
      })
      expect(isSerdeError(refused)).toBe(false)
    }
  })
})

describe('ApicurioSchemaRegistry#getCorruptedMessageHandler', () => {
  const record = (
    value: Buffer,
    offsetDelta: number,
  ): PlatformaticRecord & { topic: string; partition: number } => ({
    topic: TOPIC,
    partition: 1,
    key: Buffer.from('k'),
    value,
    headers: [[Buffer.from('trace'), Buffer.from('t')]],
    offsetDelta,
  })

  /** Reads a record's value through the registry's deserializer, giving what it threw. */
  function refuse(reg: ApicurioSchemaRegistry, raw: ReturnType<typeof record>): unknown {
    try {
      reg.getDeserializers().value(raw.value ?? undefined, new Map(), raw as never)
    } catch (error) {
      return error
    }
    throw new Error('expected the record to be refused')
  }

  it('hands a poison record to a dead-letter function with its offset, the offset recorded on its error', async () => {
    const letters: { offset: string; error: unknown; record: unknown }[] = []
    const reg = new ApicurioSchemaRegistry(client, {
      preload: false,
      deadLetter: (dead) => void letters.push(dead),
    })
    const raw = record(Buffer.from([7, 1, 2]), 3)
    const thrown = refuse(reg, raw)
    expect(reg.getCorruptedMessageHandler()(raw, TOPIC, 1, 0n, 40n)).toBe(false)
    expect(letters).toHaveLength(1)
    expect(letters[0]?.offset).toBe('43')
    expect(letters[0]?.record).toBe(raw)
    expect(letters[0]?.error).toBe(thrown)
    expect(failedMessageOf(thrown)).toMatchObject({ partition: 1, offset: '43', payload: raw.value })
  })

  it('ends the stream (true) without deadLetter, for a record it did not refuse, and when the function throws at once', () => {
    const raw = record(Buffer.from([7, 1, 2]), 0)
    const plain = new ApicurioSchemaRegistry(client, { preload: false })
    const thrown = refuse(plain, raw)
    expect(plain.getCorruptedMessageHandler()(raw, TOPIC, 1, 0n, 5n)).toBe(true)
    expect(failedMessageOf(thrown)?.offset).toBe('5')
    const throwing = new ApicurioSchemaRegistry(client, {
      preload: false,
      deadLetter: () => {
        throw new Error('cannot')
      },
    })
    expect(throwing.getCorruptedMessageHandler()(record(Buffer.from([9]), 0), TOPIC, 1, 0n, 0n)).toBe(true)
    const other = record(Buffer.from([7, 7]), 1)
    refuse(throwing, other)
    expect(throwing.getCorruptedMessageHandler()(other, TOPIC, 1, 0n, 0n)).toBe(true)
  })
})

/**
 * What @platformatic/kafka 2.12.1's messages stream does with a fetch, given `onDeserializationError`: the
 * before-deserialization hook over each record's key and value (a hook's error is recorded on its record, the others
 * go on), then each record in order: a hook's error, or what a deserializer throws (headers, key, then value), is
 * handed to the handler; `'skip'` drops the record, `'fail'` destroys the stream with the hook's error itself, or with
 * a `UserError` ('Failed to deserialize a message.') whose `cause` is the deserializer's error.
 */
async function consume2x(
  reg: ApicurioSchemaRegistry,
  records: (PlatformaticRecord & { topic: string; partition: number })[],
  firstOffset: bigint,
): Promise<{ values: unknown[]; actions: string[]; contexts: { error: unknown }[]; destroyed?: Error }> {
  const hook = reg.getBeforeDeserializationHook()
  const hookErrors = new Map<object, unknown>()
  for (const record of records) {
    for (const field of ['key', 'value'] as const) {
      await new Promise<void>((resolve) =>
        hook(record[field], field, record, (error) => {
          if (error && !hookErrors.has(record)) hookErrors.set(record, error)
          resolve()
        }),
      )
    }
  }
  const deserializers = reg.getDeserializers()
  const handler = reg.getDeserializationErrorHandler()
  const out: Awaited<ReturnType<typeof consume2x>> = { values: [], actions: [], contexts: [] }
  for (const record of records) {
    const message = { ...record }
    const hookFailed = hookErrors.has(record)
    let payloadType = 'headerKey'
    try {
      if (hookFailed) throw hookErrors.get(record)
      const headers = new Map<string | undefined, Buffer | undefined>()
      for (const [name, value] of record.headers) {
        payloadType = 'headerKey'
        const headerKey = deserializers.headerKey(name ?? undefined)
        payloadType = 'headerValue'
        headers.set(headerKey, deserializers.headerValue(value ?? undefined))
      }
      payloadType = 'key'
      deserializers.key(record.key ?? undefined, headers, message)
      payloadType = 'value'
      out.values.push(deserializers.value(record.value ?? undefined, headers, message))
    } catch (error) {
      const context = {
        error,
        payloadType,
        record,
        topic: record.topic,
        partition: record.partition,
        offset: firstOffset + BigInt(record.offsetDelta),
        timestamp: 0n,
        commit: () => {},
      }
      out.contexts.push(context)
      const action = handler(context)
      out.actions.push(action)
      if (action === 'skip') continue
      out.destroyed = hookFailed
        ? (error as Error)
        : new Error('Failed to deserialize a message.', { cause: error })
      return out
    }
  }
  return out
}

describe('ApicurioSchemaRegistry#getDeserializationErrorHandler (Platformatic 2.x)', () => {
  const raw = (
    value: Buffer,
    offsetDelta: number,
  ): PlatformaticRecord & { topic: string; partition: number } => ({
    topic: TOPIC,
    partition: 1,
    key: Buffer.from(`k${offsetDelta}`),
    value,
    headers: [[Buffer.from('trace'), Buffer.from(`t${offsetDelta}`)]],
    offsetDelta,
  })
  const fetchOf = () => [
    raw(corpus[0]!.value!, 0),
    raw(Buffer.from([7, 0, 0, 0, 1, 2]), 1),
    raw(corpus[0]!.value!, 2),
  ]
  const BAD_MAGIC = { name: 'DeserializationError', code: 'DESERIALIZATION' }

  it('sends a poison record to a dead-letter topic with its key, value, headers and the x-serde-* headers, skips it, and records its offset on its error', async () => {
    const sent: {
      topic: string
      key?: Buffer | null
      value?: Buffer | null
      headers?: Map<Buffer, Buffer>
    }[] = []
    const reg = new ApicurioSchemaRegistry(client, {
      preload: false,
      deadLetter: {
        producer: { send: async ({ messages }) => void sent.push(...messages) },
        topic: 'payments.DLQ',
      },
    })
    const records = fetchOf()
    const out = await consume2x(reg, records, 40n)
    expect(out.actions).toEqual(['skip'])
    expect(out.destroyed).toBeUndefined()
    expect(out.values).toEqual([
      { id: 'p-1', amount: 50 },
      { id: 'p-1', amount: 50 },
    ])
    const error = out.contexts[0]!.error
    expect(error).toMatchObject(BAD_MAGIC)
    expect(failedMessageOf(error)).toEqual({
      payload: Buffer.from([7, 0, 0, 0, 1, 2]),
      headers: { trace: Buffer.from('t1') },
      context: { topic: TOPIC, field: 'value' },
      partition: 1,
      offset: '41',
    })
    expect(sent).toHaveLength(1)
    const [letter] = sent
    expect(letter?.topic).toBe('payments.DLQ')
    expect(letter?.key).toEqual(Buffer.from('k1'))
    expect(letter?.value).toEqual(Buffer.from([7, 0, 0, 0, 1, 2]))
    // Names and values as bytes: a Platformatic producer without serializers writes them as given (a string name
    // fails its record writer).
    expect([...letter!.headers!].flat().every((part) => Buffer.isBuffer(part))).toBe(true)
    expect(
      Object.fromEntries(
        [...letter!.headers!].map(([name, value]) => [name.toString(), value.toString('utf8')]),
      ),
    ).toEqual({
      trace: 't1',
      'x-serde-error-code': 'DESERIALIZATION',
      'x-serde-error-message': (error as Error).message,
      'x-serde-source': `${TOPIC}/1/41`,
    })
  })

  it('hands a poison record to a dead-letter function with its offset, the record as consumed and its error', async () => {
    const letters: unknown[] = []
    const reg = new ApicurioSchemaRegistry(client, {
      preload: false,
      deadLetter: (dead) => void letters.push(dead),
    })
    const records = fetchOf()
    const out = await consume2x(reg, records, 7n)
    expect(out.actions).toEqual(['skip'])
    expect(out.values).toHaveLength(2)
    expect(letters).toEqual([
      { topic: TOPIC, partition: 1, offset: '8', record: records[1], error: out.contexts[0]!.error },
    ])
    expect((letters[0] as { record: unknown }).record).toBe(records[1])
  })

  it('fails the stream on a poison record without deadLetter, and when the dead-letter function throws at once, its error the cause', async () => {
    for (const deadLetter of [
      undefined,
      () => {
        throw new Error('cannot')
      },
    ]) {
      const reg = new ApicurioSchemaRegistry(client, { preload: false, ...(deadLetter && { deadLetter }) })
      const out = await consume2x(reg, fetchOf(), 0n)
      expect(out.actions).toEqual(['fail'])
      expect(out.values).toEqual([{ id: 'p-1', amount: 50 }]) // the record after it is not reached
      expect(out.destroyed?.message).toBe('Failed to deserialize a message.')
      expect(out.destroyed?.cause).toBe(out.contexts[0]!.error)
      expect(out.destroyed?.cause).toMatchObject(BAD_MAGIC)
      expect(failedMessageOf(out.destroyed?.cause)?.offset).toBe('1')
    }
  })

  it('fails the stream with an outage of the hook (RegistryConnectionError), never dead-lettered', async () => {
    const letters: unknown[] = []
    const cold = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
    const fault = registry.inject({ path: /\/ids\//, status: 503, times: Number.POSITIVE_INFINITY })
    try {
      const reg = new ApicurioSchemaRegistry(cold, {
        preload: false,
        deadLetter: (dead) => void letters.push(dead),
      })
      const out = await consume2x(reg, fetchOf(), 0n)
      expect(out.actions).toEqual(['fail'])
      expect(out.values).toEqual([])
      expect(out.destroyed).toBe(out.contexts[0]!.error)
      expect(out.destroyed).toMatchObject({ name: 'RegistryConnectionError', code: 'REGISTRY_CONNECTION' })
      expect(letters).toEqual([])
    } finally {
      fault.remove()
      await cold.close()
    }
  })
})
