// Run with `node example.mjs`: a format of its own on the shared core — here JSON text without validation, under the
// registry's JSON artifact type. The core does the rest: framing, registration, the id caches, the sync API, errors.
// Against REGISTRY_URL when set, else an in-memory registry (@x/registry-testing).
import { RegistryClient } from '@x/registry-client'
import {
  normalizeDeserializerOptions,
  normalizeSerializerOptions,
  SchemaDeserializer,
  SchemaSerializer,
} from '@x/serde-core'
import { SerializationContext } from '@x/wire-format'

const plainJson = {
  name: 'plain JSON',
  artifactType: 'JSON',
  contentType: 'application/json',
  parse: () => ({
    // Writes what follows the id into the core's buffer; returns the end, or -(bytes missing) to get a bigger one.
    encodeInto(value, target, offset) {
      const text = Buffer.from(JSON.stringify(value))
      if (offset + text.length > target.length) return -(offset + text.length - target.length)
      return offset + text.copy(target, offset)
    },
    decode: (bytes, offset, end) => JSON.parse(Buffer.from(bytes).toString('utf8', offset, end)),
  }),
  needsReferences: () => false,
}

class PlainJsonSerializer extends SchemaSerializer {
  constructor(client, artifactId, options) {
    const { options: shared } = normalizeSerializerOptions('PlainJsonSerializer', artifactId, options, [])
    const schemaToRegister = shared.autoRegister ? JSON.stringify(shared.schema) : undefined
    super({ owner: 'PlainJsonSerializer', client, format: plainJson, options: shared, schemaToRegister })
  }
}
class PlainJsonDeserializer extends SchemaDeserializer {
  constructor(client, options) {
    const { options: shared } = normalizeDeserializerOptions('PlainJsonDeserializer', options, [])
    super({ owner: 'PlainJsonDeserializer', client, format: plainJson, options: shared })
  }
}

const inMemory = process.env.REGISTRY_URL
  ? undefined
  : await (await import('@x/registry-testing')).InMemoryRegistry.start()
const client = new RegistryClient({
  url: process.env.REGISTRY_URL ?? inMemory.url,
  groupId: 'serde-core-example',
})
try {
  const schema = { type: 'object', properties: { n: { type: 'integer' } } }
  const serializer = new PlainJsonSerializer(client, 'pings-value', { autoRegister: true, schema })
  const ctx = new SerializationContext('pings')
  const bytes = await serializer.serialize({ n: 7 }, ctx)
  console.log(Buffer.from(bytes).toString('hex')) // 00, the 4-byte id, then the JSON text
  console.log(await new PlainJsonDeserializer(client).deserialize(bytes, ctx)) // { n: 7 }
} finally {
  await client.close()
  await inMemory?.close()
}
