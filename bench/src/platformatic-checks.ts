import { deepStrictEqual } from 'node:assert/strict'
import { AvroSerializer } from '@x/avro-serde'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ApicurioSchemaRegistry } from '@x/kafka'
import { RegistryClient } from '@x/registry-client'
import { MessageField, SerializationContext } from '@x/wire-format'
import type { BenchEnv } from './cases.js'
import { EVENT_ARTIFACT, EVENT_RECORD, GROUP_ID } from './fixtures.js'
import { plain } from './frames.js'
import { JSON_TOPIC, jsonFrame, PEER_TOPIC } from './peer-cases.js'
import { JSON_ARTIFACT } from './peer-fixtures.js'
import {
  type PlatformaticRegistry,
  platformaticJsonUnavailable,
  platformaticUnavailable,
  platformaticVersion,
  runDeserializationHook,
  runSerializationHook,
} from './peers/platformatic.js'
import { platformaticRegistry } from './platformatic-cases.js'

/** Writes `value` to `topic` through a registry's hook and synchronous serializer, as Platformatic's producer does. */
async function write(registry: PlatformaticRegistry, topic: string, id: number): Promise<Buffer> {
  const message = { topic, value: EVENT_RECORD, headers: new Map(), metadata: { schemas: { value: id } } }
  await runSerializationHook(registry, EVENT_RECORD, message)
  return registry.getSerializers().value(EVENT_RECORD, message.headers, message)!
}

/** Reads `frame` through a registry's hook and synchronous deserializer, as Platformatic's consumer does. */
async function read(registry: PlatformaticRegistry, topic: string, frame: Buffer): Promise<unknown> {
  const message = { topic, partition: 0, headers: new Map() }
  await runDeserializationHook(registry, frame, message)
  return registry.getDeserializers().value(frame, message.headers, { topic, partition: 0 })
}

/**
 * Before timing the Platformatic cases: our ApicurioSchemaRegistry and Platformatic's ConfluentSchemaRegistry, each
 * driven as Platformatic's clients drive them, write exactly the frame our serializers write, and each reads it back
 * to a value deep-equal to the record. A mismatch aborts the bench.
 */
export async function checkPlatformatic(env: BenchEnv): Promise<string[]> {
  const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
  try {
    const ours = {
      avro: new ApicurioSchemaRegistry(client, {
        serializer: new AvroSerializer(client, EVENT_ARTIFACT),
      }) as unknown as PlatformaticRegistry,
      json: new ApicurioSchemaRegistry(client, {
        serializer: new JsonSchemaSerializer(client, JSON_ARTIFACT),
        anyDeserializer: { validate: true },
      }) as unknown as PlatformaticRegistry,
    }
    const avroFrame = Buffer.from(
      await new AvroSerializer(client, EVENT_ARTIFACT).serialize(
        EVENT_RECORD,
        new SerializationContext(PEER_TOPIC, MessageField.VALUE),
      ),
    )
    const json = jsonFrame(env.jsonId)
    deepStrictEqual(
      await write(ours.avro, PEER_TOPIC, env.eventId),
      avroFrame,
      'ApicurioSchemaRegistry Avro bytes',
    )
    deepStrictEqual(
      plain(await read(ours.avro, PEER_TOPIC, avroFrame)),
      EVENT_RECORD,
      'ApicurioSchemaRegistry reads Avro',
    )
    deepStrictEqual(await write(ours.json, JSON_TOPIC, env.jsonId), json, 'ApicurioSchemaRegistry JSON bytes')
    deepStrictEqual(
      await read(ours.json, JSON_TOPIC, json),
      EVENT_RECORD,
      'ApicurioSchemaRegistry reads JSON',
    )
    const done = [
      `@x/kafka ApicurioSchemaRegistry (as Platformatic drives it) writes our ${avroFrame.length}-byte Avro and ${json.length}-byte JSON frames and reads them back equal`,
    ]
    const reason = platformaticUnavailable()
    if (reason !== undefined) return [...done, `skipped Platformatic's ConfluentSchemaRegistry: ${reason}`]
    const theirs = await platformaticRegistry(env)
    deepStrictEqual(await write(theirs, PEER_TOPIC, env.eventId), avroFrame, 'Platformatic Avro bytes = ours')
    deepStrictEqual(
      plain(await read(theirs, PEER_TOPIC, avroFrame)),
      EVENT_RECORD,
      'Platformatic reads our Avro frame',
    )
    done.push(
      `@platformatic/kafka ${platformaticVersion()} ConfluentSchemaRegistry writes the same Avro frame and reads ours back equal`,
    )
    const jsonReason = platformaticJsonUnavailable()
    if (jsonReason !== undefined) return [...done, `skipped its JSON Schema: ${jsonReason}`]
    deepStrictEqual(await write(theirs, JSON_TOPIC, env.jsonId), json, 'Platformatic JSON bytes = ours')
    deepStrictEqual(await read(theirs, JSON_TOPIC, json), EVENT_RECORD, 'Platformatic reads our JSON frame')
    return [
      ...done,
      `@platformatic/kafka ${platformaticVersion()} ConfluentSchemaRegistry writes the same JSON frame and reads ours back equal`,
    ]
  } finally {
    await client.close()
  }
}
