import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { AvroSerializer } from '@x/avro-serde'
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
