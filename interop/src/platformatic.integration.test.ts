import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { AvroSerializer } from '@x/avro-serde'
import { failedMessageOf } from '@x/errors'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { type ApicurioSchemaRegistry, ApicurioSchemaRegistry as Registry } from '@x/kafka'
import { ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { TopicIdStrategy } from '@x/serde'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { interopDir, repoDir } from './paths.js'
import { runProcess } from './run-process.js'

// @platformatic/kafka 2.x (Node 22+; an optional dependency, which pnpm installs on Node 22 and newer) with our
// ApicurioSchemaRegistry on the real broker and the real Apicurio Registry of the integration stage: the Producer
// and Consumer drive the registry's hooks and synchronous serdes themselves. Declared through `import()`, so that
// this file also typechecks where the package is not installed (Node 20).

const brokers = [inject('kafkaBrokers')]
const url = inject('registryUrl')
const group = `platformatic-it-${randomUUID().slice(0, 8)}`

interface PlatformaticModule {
  Producer: new (
    options: Record<string, unknown>,
  ) => {
    send(request: { messages: Record<string, unknown>[] }): Promise<unknown>
    close(): Promise<void>
  }
  Consumer: new (
    options: Record<string, unknown>,
  ) => {
    consume(
      options: Record<string, unknown>,
    ): Promise<AsyncIterable<ConsumedMessage> & { close(): Promise<void> }>
    close(force?: boolean): Promise<void>
  }
  MessagesStreamModes: { EARLIEST: string }
}

interface ConsumedMessage {
  key: unknown
  value: unknown
  offset: bigint
  headers: Map<unknown, unknown>
  metadata: {
    schemas?: Record<string, { format?: string; framed?: boolean; artifact?: { artifactId: string } }>
  }
}

let platformatic: PlatformaticModule | undefined
let client: RegistryClient

beforeAll(async () => {
  client = new RegistryClient({ url, groupId: group })
  try {
    platformatic = (await import('@platformatic/kafka' as string)) as PlatformaticModule
  } catch {
    platformatic = undefined
  }
})

afterAll(async () => {
  await client.close()
})

describe('ApicurioSchemaRegistry inside @platformatic/kafka on a real broker', () => {
  it('is installed here (the integration stage runs on Node 24, where pnpm installs the optional client)', () => {
    expect(process.versions.node.split('.')[0]).not.toBe('20')
    expect(platformatic).toBeDefined()
  })

  it('produces Avro framed, JSON Schema in headers mode and Protobuf to one topic, and one consumer reads them all', async () => {
    const { Producer, Consumer, MessagesStreamModes } = platformatic!
    const topic = `platformatic-${randomUUID()}`
    const registry = (serializer: unknown): ApicurioSchemaRegistry =>
      new Registry(client, { serializer: serializer as never })
    const avro = registry(
      new AvroSerializer(client, {
        artifactResolver: new TopicIdStrategy(),
        autoRegister: true,
        schema: { type: 'record', name: 'Order', namespace: 'it', fields: [{ name: 'id', type: 'long' }] },
      }),
    )
    const json = registry(
      new JsonSchemaSerializer(client, {
        artifactResolver: () => `${topic}-json`,
        autoRegister: true,
        schema: { type: 'object', properties: { id: { type: 'integer' } } },
        wireFormat: 'MESSAGE_HEADERS',
      }),
    )
    const proto = registry(
      new ProtobufSerializer(client, {
        artifactResolver: () => `${topic}-proto`,
        autoRegister: true,
        schema: 'syntax = "proto3";\npackage it;\nmessage Order { int64 id = 1; }\n',
      }),
    )
    for (const [reg, value] of [
      [avro, { id: 1 }],
      [json, { id: 2 }],
      [proto, { id: 3 }],
    ] as const) {
      const producer = new Producer({
        clientId: 'x-serde-it',
        bootstrapBrokers: brokers,
        registry: reg,
        autocreateTopics: true,
      })
      await producer.send({
        messages: [{ topic, key: `k${value.id}`, value, headers: { trace: `t${value.id}` } }],
      })
      await producer.close()
    }
    const consumer = new Consumer({
      groupId: `${group}-${randomUUID()}`,
      clientId: 'x-serde-it',
      bootstrapBrokers: brokers,
      registry: new Registry(client),
    })
    const stream = await consumer.consume({ topics: [topic], mode: MessagesStreamModes.EARLIEST })
    const read: unknown[] = []
    for await (const message of stream) {
      const schema = message.metadata.schemas?.value
      read.push([
        message.key,
        message.value,
        String(message.headers.get('trace')),
        schema?.format,
        schema?.framed,
        schema?.artifact?.artifactId,
      ])
      if (read.length === 3) break
    }
    await stream.close()
    await consumer.close(true)
    expect(read).toEqual([
      ['k1', { id: 1 }, 't1', 'AVRO', true, `${topic}-value`],
      ['k2', { id: 2 }, 't2', 'JSON', false, `${topic}-json`],
      ['k3', { id: 3 }, 't3', 'PROTOBUF', true, `${topic}-proto`],
    ])
  })

  it('dead-letters a poison record with getDeserializationErrorHandler (2.x): the records around it read, the dead-letter topic gets its bytes and x-serde-* headers, an outage fails the stream', async () => {
    const { Producer, Consumer, MessagesStreamModes } = platformatic!
    const topic = `platformatic-dlq-${randomUUID()}`
    const dlq = `${topic}.DLQ`
    const writer = new Registry(client, {
      serializer: new AvroSerializer(client, {
        artifactResolver: new TopicIdStrategy(),
        autoRegister: true,
        schema: { type: 'record', name: 'Order', namespace: 'it', fields: [{ name: 'id', type: 'long' }] },
      }) as never,
    })
    const options = { clientId: 'x-serde-it', bootstrapBrokers: brokers, autocreateTopics: true }
    const producer = new Producer({ ...options, registry: writer })
    // No registry, no serializers: keys, values and header names and values sent as the Buffers they are.
    const raw = new Producer(options)
    const poison = Buffer.from([7, 0, 0, 0, 1, 2])
    await producer.send({ messages: [{ topic, partition: 0, key: 'k0', value: { id: 0 } }] })
    await raw.send({
      messages: [
        {
          topic,
          partition: 0,
          key: Buffer.from('k1'),
          value: poison,
          headers: new Map([[Buffer.from('trace'), Buffer.from('t1')]]),
        },
      ],
    })
    await producer.send({ messages: [{ topic, partition: 0, key: 'k2', value: { id: 2 } }] })

    let sending: Promise<unknown> | undefined
    const reader = new Registry(client, {
      deadLetter: { producer: { send: (request) => (sending = raw.send(request)) }, topic: dlq },
    })
    const handler = reader.getDeserializationErrorHandler()
    const handled: { action: string; error: unknown }[] = []
    const consumer = new Consumer({ ...options, groupId: `${group}-${randomUUID()}`, registry: reader })
    const stream = await consumer.consume({
      topics: [topic],
      mode: MessagesStreamModes.EARLIEST,
      onDeserializationError: (context: Parameters<typeof handler>[0]) => {
        const action = handler(context)
        handled.push({ action, error: context.error })
        return action
      },
    })
    const read: unknown[] = []
    for await (const message of stream) {
      read.push([message.key, message.value, message.offset])
      if (read.length === 2) break
    }
    await stream.close()
    await consumer.close(true)
    expect(read).toEqual([
      ['k0', { id: 0 }, 0n],
      ['k2', { id: 2 }, 2n],
    ])
    expect(handled.map(({ action }) => action)).toEqual(['skip'])
    const error = handled[0]!.error
    expect(error).toMatchObject({ name: 'DeserializationError', code: 'DESERIALIZATION' })
    expect(failedMessageOf(error)).toMatchObject({
      payload: poison,
      context: { topic, field: 'value' },
      partition: 0,
      offset: '1',
    })
    await sending

    // The dead-letter topic read as bytes (no registry, no deserializers).
    const plain = new Consumer({ ...options, groupId: `${group}-${randomUUID()}` })
    const letters = await plain.consume({ topics: [dlq], mode: MessagesStreamModes.EARLIEST })
    let letter: ConsumedMessage | undefined
    for await (const message of letters) {
      letter = message
      break
    }
    await letters.close()
    await plain.close(true)
    expect(letter?.key).toEqual(Buffer.from('k1'))
    expect(letter?.value).toEqual(poison)
    expect(
      Object.fromEntries([...letter!.headers].map(([name, value]) => [String(name), String(value)])),
    ).toEqual({
      trace: 't1',
      'x-serde-error-code': 'DESERIALIZATION',
      'x-serde-error-message': (error as Error).message,
      'x-serde-source': `${topic}/0/1`,
    })

    // An outage (the registry unreachable while the hook fetches the schema) fails the stream, with that error.
    const down = new RegistryClient({
      url: 'http://127.0.0.1:9/apis/registry/v3',
      groupId: group,
      maxRetries: 0,
    })
    const letters2: unknown[] = []
    const cut = new Registry(down, { deadLetter: (dead) => void letters2.push(dead) })
    const failing = new Consumer({ ...options, groupId: `${group}-${randomUUID()}`, registry: cut })
    const failed = await failing.consume({
      topics: [topic],
      mode: MessagesStreamModes.EARLIEST,
      onDeserializationError: cut.getDeserializationErrorHandler(),
    })
    const outcome = await (async () => {
      try {
        for await (const _ of failed) return 'read a message'
      } catch (thrown) {
        return thrown
      }
    })()
    await failing.close(true)
    await down.close()
    await producer.close()
    await raw.close()
    expect(outcome).toMatchObject({ name: 'RegistryConnectionError', code: 'REGISTRY_CONNECTION' })
    expect(letters2).toEqual([])
  })

  it('works with @platformatic/kafka 1.35 on Node 20 too: 1500 messages in one send, produced and consumed', async () => {
    const topic = `platformatic-135-${randomUUID()}`
    const { stdout } = await runProcess(
      join(repoDir, 'scripts/with-node.sh'),
      ['20', 'node', join(interopDir, 'fixtures/platformatic-1/round-trip.mjs')],
      {
        cwd: interopDir,
        env: { BROKERS: brokers[0]!, REGISTRY_URL: url, TOPIC: topic, GROUP: `${group}-135` },
        timeoutMs: 240_000,
      },
    )
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>
    expect(result).toEqual({
      node: 'v20.20.2',
      platformatic: '1.35.0',
      count: 1500,
      last: { key: 'k1499', value: { id: 1499 } },
    })
  }, 300_000)

  it('works with @platformatic/kafka 2.x on Node 22 as on 24: 1500 messages in one send, produced and consumed', async () => {
    const topic = `platformatic-2-node22-${randomUUID()}`
    const { stdout } = await runProcess(
      join(repoDir, 'scripts/with-node.sh'),
      ['22', 'node', join(interopDir, 'fixtures/platformatic-1/round-trip.mjs')],
      {
        cwd: interopDir,
        env: {
          BROKERS: brokers[0]!,
          REGISTRY_URL: url,
          TOPIC: topic,
          GROUP: `${group}-n22`,
          PLATFORMATIC: '@platformatic/kafka',
        },
        timeoutMs: 240_000,
      },
    )
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>
    expect(result).toEqual({
      node: 'v22.23.3',
      platformatic: '2.12.1',
      count: 1500,
      last: { key: 'k1499', value: { id: 1499 } },
    })
  }, 300_000)
})
