// Compiled by tsc (moduleResolution node16, then bundler) against the installed packages' types; not run.

import { KafkaJsSerde } from '@x/kafka'
import { RegistryClient as BareClient, type RegisteredSchema } from '@x/registry-client'
import { AvroDeserializer, AvroSerializer, RegistryClient, SerdeError, SerializationContext } from '@x/serde'
import { JsonSchemaSerializer } from '@x/serde/json-schema'
import { InMemoryRegistry } from '@x/serde/testing'
import { type DecodedFrame, decodeFrame, encodeFrame } from '@x/wire-format'

export async function roundTrip(): Promise<{ id: string }> {
  const registry = await InMemoryRegistry.start()
  const client = new RegistryClient({ url: registry.url, groupId: 'g' })
  const serializer = new AvroSerializer<{ id: string }>(client, 'x', {
    autoRegister: true,
    schema: { type: 'record', name: 'X', fields: [{ name: 'id', type: 'string' }] },
  })
  const deserializer = new AvroDeserializer<{ id: string }>(client)
  const ctx = new SerializationContext('t', 'value')
  const value = await deserializer.deserialize(await serializer.serialize({ id: 'a' }, ctx), ctx)
  const serde = new KafkaJsSerde(client, { serializer })
  void serde
  void JsonSchemaSerializer
  await registry.close()
  return value
}

export const schemaOf = (s: RegisteredSchema): string => s.schema
export const bare: typeof BareClient = BareClient
export const frame: DecodedFrame = decodeFrame(encodeFrame(1, new Uint8Array([1])))
export const isOurs = (e: unknown): boolean => e instanceof SerdeError
