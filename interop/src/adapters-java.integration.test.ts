import { AvroSerializer } from '@x/avro-serde'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { type DecodedMessage, KafkaJsSerde } from '@x/kafka'
import { ProtobufSerializer } from '@x/protobuf-serde'
import { TopicIdStrategy } from '@x/serde'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { canonicalEvent, type EventRecord, eventSchema, expectedEvents, uniqueName } from './fixtures.js'
import {
  buildJavaHarness,
  javaConsume,
  javaJsonConsume,
  javaJsonProduce,
  javaProduce,
  javaProtoConsume,
  javaProtoProduce,
} from './java-harness.js'
import { expectedOrder as expectedJsonOrder, expectedOrderText, orderSchema } from './json-fixtures.js'
import { consumeRaw, createTopic, produceRaw } from './kafka-io.js'
import { expectedOrderJson, expectedOrder as expectedProtoOrder, protoText } from './proto-fixtures.js'
import { registryClients } from './registry-clients.js'

// The @x/kafka adapters against Apicurio's own Java serdes 3.1.7 on the real broker and registry, both ways, for
// each format: Java writes (its 3.x defaults: contentId in a 4-byte frame), one KafkaJsSerde reads the three topics
// with its AnyDeserializer; KafkaJsSerde.encodeMessage writes with each format's serializer, Java reads.

const COUNT = 3
const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')
const client = registryClients(registryUrl)

beforeAll(() => buildJavaHarness(), 600_000)

/** What the adapter decodes from each message of `topic`, read from the broker as KafkaJS hands it over. */
async function adapterReads(serde: KafkaJsSerde, topic: string): Promise<DecodedMessage<unknown, string>[]> {
  const messages = await consumeRaw(brokers, topic, COUNT)
  return Promise.all(
    messages.map((message, i) =>
      serde.decodeMessage(topic, 0, {
        key: null,
        value: message.value,
        headers: message.headers,
        offset: String(i),
        timestamp: '0',
      }),
    ),
  )
}

describe('Java writes each format, one KafkaJsSerde reads them all', () => {
  test('Avro, JSON Schema and Protobuf in the Java 3.x defaults, each read by the format its id names', async () => {
    const topics = {
      avro: uniqueName('adapt-avro'),
      json: uniqueName('adapt-json'),
      proto: uniqueName('adapt-proto'),
    }
    for (const topic of Object.values(topics)) await createTopic(brokers, topic)
    await javaProduce(brokers, registryUrl, topics.avro, 'default', COUNT)
    await javaJsonProduce(brokers, registryUrl, topics.json, 'default', COUNT)
    await javaProtoProduce(brokers, registryUrl, topics.proto, 'default', COUNT)
    const serde = new KafkaJsSerde(client(), { anyDeserializer: { useId: 'contentId' } })

    const avro = await adapterReads(serde, topics.avro)
    expect(avro.map((m) => m.schema?.format)).toEqual(['AVRO', 'AVRO', 'AVRO'])
    expect(avro.map((m) => canonicalEvent(m.value as EventRecord))).toEqual(
      expectedEvents(COUNT).map(canonicalEvent),
    )
    const json = await adapterReads(serde, topics.json)
    expect(json.map((m) => m.schema?.format)).toEqual(['JSON', 'JSON', 'JSON'])
    expect(json.map((m) => m.value)).toEqual(Array.from({ length: COUNT }, (_, i) => expectedJsonOrder(i)))
    const proto = await adapterReads(serde, topics.proto)
    expect(proto.map((m) => m.schema?.format)).toEqual(['PROTOBUF', 'PROTOBUF', 'PROTOBUF'])
    expect(proto.map((m) => m.value)).toEqual(Array.from({ length: COUNT }, (_, i) => expectedProtoOrder(i)))
  })
})

describe('KafkaJsSerde writes each format, Java reads', () => {
  test('Avro, JSON Schema and Protobuf frames (contentId, TopicIdStrategy) are read by the Java 3.x defaults', async () => {
    const registry = client()
    const write = async (topic: string, serde: KafkaJsSerde<unknown>, values: unknown[]) => {
      await createTopic(brokers, topic)
      const messages = []
      for (const value of values) {
        const sent = await serde.encodeMessage(topic, { value })
        messages.push({
          value: sent.value as Buffer,
          headers: (sent.headers ?? {}) as Record<string, Buffer>,
        })
      }
      await produceRaw(brokers, topic, messages)
    }
    const strategy = {
      artifactResolver: new TopicIdStrategy(),
      autoRegister: true,
      useId: 'contentId',
    } as const

    const avroTopic = uniqueName('adapt-ours-avro')
    const avroSerde = new KafkaJsSerde(registry, {
      serializer: new AvroSerializer(registry, { ...strategy, schema: eventSchema }),
    })
    await write(avroTopic, avroSerde, expectedEvents(COUNT))
    const avroLines = await javaConsume(brokers, registryUrl, avroTopic, 'default', COUNT)
    expect(avroLines.map((line) => line.value)).toEqual(expectedEvents(COUNT).map(canonicalEvent))

    const jsonTopic = uniqueName('adapt-ours-json')
    const jsonSerde = new KafkaJsSerde(registry, {
      serializer: new JsonSchemaSerializer(registry, { ...strategy, schema: orderSchema() }),
    })
    await write(
      jsonTopic,
      jsonSerde,
      Array.from({ length: COUNT }, (_, i) => expectedJsonOrder(i)),
    )
    const jsonLines = await javaJsonConsume(brokers, registryUrl, jsonTopic, 'default', COUNT)
    expect(jsonLines.map((line) => line.text)).toEqual(
      Array.from({ length: COUNT }, (_, i) => expectedOrderText(i)),
    )

    const protoTopic = uniqueName('adapt-ours-proto')
    const address = await registry.registerSchema(
      `${protoTopic}-address`,
      protoText('common/address.proto'),
      {
        artifactType: 'PROTOBUF',
      },
    )
    const protoSerde = new KafkaJsSerde(registry, {
      serializer: new ProtobufSerializer(registry, {
        ...strategy,
        schema: protoText('order.proto'),
        references: [
          { name: 'common/address.proto', artifactId: `${protoTopic}-address`, version: address.version! },
        ],
      }),
    })
    await write(
      protoTopic,
      protoSerde,
      Array.from({ length: COUNT }, (_, i) => expectedProtoOrder(i)),
    )
    const protoLines = await javaProtoConsume(brokers, registryUrl, protoTopic, 'default', COUNT)
    expect(protoLines.map((line) => JSON.parse(line.json))).toEqual(
      Array.from({ length: COUNT }, (_, i) => expectedOrderJson(i)),
    )
  })
})
