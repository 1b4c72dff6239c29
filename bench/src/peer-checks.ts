import { deepStrictEqual } from 'node:assert/strict'
import * as confluent from '@confluentinc/schemaregistry'
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry'
import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { MessageField, SerializationContext } from '@x/wire-format'
import type { BenchEnv } from './cases.js'
import { EVENT_ARTIFACT, EVENT_RECORD, GROUP_ID } from './fixtures.js'
import { plain } from './frames.js'
import {
  bufbuildEvent,
  JSON_TOPIC,
  jsonFrame,
  PEER_TOPIC,
  PROTO_TOPIC,
  protoConfluentFrame,
  protoFrame,
} from './peer-cases.js'
import { JSON_ARTIFACT, PROTO_ARTIFACT } from './peer-fixtures.js'
import { kafkajs4Registry, kafkajs4Unavailable, kafkajs4Version } from './peers/kafkajs-4.js'

/**
 * Before timing the peers: each writes exactly the bytes we write (5-byte header + identical body) and reads our
 * frame back to a value deep-equal to the record. A mismatch aborts the bench.
 */
export async function checkPeers(env: BenchEnv): Promise<string[]> {
  const done: string[] = []
  const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
  try {
    const ctx = new SerializationContext(PEER_TOPIC, MessageField.VALUE)
    const ours = Buffer.from(await new AvroSerializer(client, EVENT_ARTIFACT).serialize(EVENT_RECORD, ctx))
    const kafkajs = new SchemaRegistry({ host: env.confluentUrl })
    const registryClient = new confluent.SchemaRegistryClient({ baseURLs: [env.confluentUrl] })
    const serializer = new confluent.AvroSerializer(registryClient, confluent.SerdeType.VALUE, {
      useLatestVersion: true,
      autoRegisterSchemas: false,
    })
    deepStrictEqual(await kafkajs.encode(env.eventId, EVENT_RECORD), ours, 'kafkajs-SR Avro bytes = ours')
    deepStrictEqual(await serializer.serialize(PEER_TOPIC, EVENT_RECORD), ours, 'Confluent Avro bytes = ours')
    deepStrictEqual(plain(await kafkajs.decode(ours)), EVENT_RECORD, 'kafkajs-SR reads our Avro frame')
    const avroReader = new confluent.AvroDeserializer(registryClient, confluent.SerdeType.VALUE, {})
    deepStrictEqual(
      plain(await avroReader.deserialize(PEER_TOPIC, ours)),
      EVENT_RECORD,
      'Confluent reads our Avro frame',
    )
    deepStrictEqual(
      plain(await new AvroDeserializer(client).deserialize(ours, ctx)),
      EVENT_RECORD,
      'we read it',
    )
    done.push(
      `Avro: ours, kafkajs-SR and Confluent write the same ${ours.length}-byte frame and read it back equal`,
    )
    const four = kafkajs4Unavailable() === undefined ? await kafkajs4Registry(env.confluentUrl) : undefined
    if (four !== undefined) {
      deepStrictEqual(await four.encode(env.eventId, EVENT_RECORD), ours, 'kafkajs-SR 4.x Avro bytes = ours')
      deepStrictEqual(plain(await four.decode(ours)), EVENT_RECORD, 'kafkajs-SR 4.x reads our Avro frame')
      done.push(`Avro: kafkajs-SR ${kafkajs4Version()} writes the same frame and reads ours back equal`)
    }

    const jsonCtx = new SerializationContext(JSON_TOPIC, MessageField.VALUE)
    const json = Buffer.from(
      await new JsonSchemaSerializer(client, JSON_ARTIFACT).serialize(EVENT_RECORD, jsonCtx),
    )
    deepStrictEqual(json, jsonFrame(env.jsonId), 'our JSON frame = header + JSON.stringify(record)')
    deepStrictEqual(await kafkajs.encode(env.jsonId, EVENT_RECORD), json, 'kafkajs-SR JSON bytes = ours')
    const jsonSerializer = new confluent.JsonSerializer(registryClient, confluent.SerdeType.VALUE, {
      useLatestVersion: true,
      autoRegisterSchemas: false,
      validate: true,
    })
    deepStrictEqual(
      await jsonSerializer.serialize(JSON_TOPIC, EVENT_RECORD),
      json,
      'Confluent JSON bytes = ours',
    )
    deepStrictEqual(await kafkajs.decode(json), EVENT_RECORD, 'kafkajs-SR reads our JSON frame')
    const jsonReader = new confluent.JsonDeserializer(registryClient, confluent.SerdeType.VALUE, {})
    deepStrictEqual(
      await jsonReader.deserialize(JSON_TOPIC, json),
      EVENT_RECORD,
      'Confluent reads our JSON frame',
    )
    deepStrictEqual(
      await new JsonSchemaDeserializer(client).deserialize(json, jsonCtx),
      EVENT_RECORD,
      'we read it',
    )
    done.push(
      `JSON Schema: ours, kafkajs-SR and Confluent write the same ${json.length}-byte frame and read it back equal`,
    )
    if (four !== undefined) {
      deepStrictEqual(await four.encode(env.jsonId, EVENT_RECORD), json, 'kafkajs-SR 4.x JSON bytes = ours')
      deepStrictEqual(await four.decode(json), EVENT_RECORD, 'kafkajs-SR 4.x reads our JSON frame')
      done.push(
        `JSON Schema: kafkajs-SR ${kafkajs4Version()} writes the same frame and reads ours back equal`,
      )
    }

    const protoCtx = new SerializationContext('bench-proto', MessageField.VALUE)
    const proto = Buffer.from(
      await new ProtobufSerializer(client, PROTO_ARTIFACT).serialize(EVENT_RECORD, protoCtx),
    )
    deepStrictEqual(proto, protoFrame(env.protoId), 'our Protobuf frame = header + Ref + protobufjs encode')
    deepStrictEqual(
      await new ProtobufDeserializer(client).deserialize(proto, protoCtx),
      EVENT_RECORD,
      'we read it',
    )
    done.push(`Protobuf: our ${proto.length}-byte frame = header + Ref + protobufjs bytes, read back equal`)
    const confluentCtx = new SerializationContext(PROTO_TOPIC, MessageField.VALUE)
    const oursConfluent = Buffer.from(
      await new ProtobufSerializer(client, PROTO_ARTIFACT, { framing: 'confluent' }).serialize(
        EVENT_RECORD,
        confluentCtx,
      ),
    )
    deepStrictEqual(oursConfluent, protoConfluentFrame(env.protoId), 'our Confluent-framed Protobuf frame')
    const schema = bufbuildEvent()
    const protoSerializer = new confluent.ProtobufSerializer(registryClient, confluent.SerdeType.VALUE, {
      useLatestVersion: true,
      autoRegisterSchemas: false,
      registry: schema.registry,
    })
    const theirs = await protoSerializer.serialize(PROTO_TOPIC, schema.create({ ...EVENT_RECORD, kind: 1 }))
    deepStrictEqual(theirs, oursConfluent, 'Confluent Protobuf bytes = ours (framing: confluent)')
    const protoReader = new confluent.ProtobufDeserializer(registryClient, confluent.SerdeType.VALUE, {})
    const read = (await protoReader.deserialize(PROTO_TOPIC, oursConfluent)) as unknown as Record<
      string,
      unknown
    >
    deepStrictEqual(
      {
        id: read.id,
        seq: read.seq,
        ts: Number(read.ts),
        kind: read.kind,
        tags: read.tags,
        attrs: read.attrs,
      },
      {
        id: EVENT_RECORD.id,
        seq: EVENT_RECORD.seq,
        ts: EVENT_RECORD.ts,
        kind: 1,
        tags: EVENT_RECORD.tags,
        attrs: EVENT_RECORD.attrs,
      },
      'Confluent reads our Protobuf frame',
    )
    deepStrictEqual(
      await new ProtobufDeserializer(client, { framing: 'confluent' }).deserialize(theirs, confluentCtx),
      EVENT_RECORD,
      'we read the Confluent Protobuf frame',
    )
    done.push(
      `Protobuf: ours (framing confluent) and Confluent write the same ${theirs.length}-byte frame; each reads the other's`,
    )
  } finally {
    await client.close()
  }
  return done
}
