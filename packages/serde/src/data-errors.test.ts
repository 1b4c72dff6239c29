import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AvroSerializer, type DataTypeError, RegistryClient, SerializationContext } from './index.js'
import { JsonSchemaSerializer } from './json-schema.js'
import { ProtobufSerializer } from './protobuf.js'
import { InMemoryRegistry } from './testing.js'

// One wrong value, written with the same shape of schema in each format: every format must name the same places and
// describe what came the same way (a reader of any format shows them side by side).
const WRONG = { n: 'x', sub: { x: 1 }, tags: ['a', 2] }

const AVRO = {
  type: 'record',
  name: 'Thing',
  fields: [
    { name: 'n', type: 'int' },
    { name: 'sub', type: { type: 'record', name: 'Sub', fields: [{ name: 'x', type: 'string' }] } },
    { name: 'tags', type: { type: 'array', items: 'string' } },
  ],
}

const JSON_SCHEMA = {
  type: 'object',
  properties: {
    n: { type: 'integer' },
    sub: { type: 'object', properties: { x: { type: 'string' } } },
    tags: { type: 'array', items: { type: 'string' } },
  },
}

const PROTO = `syntax = "proto3";
message Thing {
  int32 n = 1;
  Sub sub = 2;
  repeated string tags = 3;
}
message Sub {
  string x = 1;
}
`

const ctx = new SerializationContext('things')
let registry: InMemoryRegistry
let client: RegistryClient

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
})

afterAll(async () => {
  await client.close()
  await registry.close()
})

async function refusal(serialize: Promise<unknown>): Promise<DataTypeError> {
  try {
    await serialize
  } catch (error) {
    return error as DataTypeError
  }
  throw new Error('expected the value to be refused')
}

describe('a wrong value in every format', () => {
  it('names the same paths, describes what came the same way, and keeps the error class and code', async () => {
    const avro = await refusal(
      new AvroSerializer(client, 'thing-avro', { autoRegister: true, schema: AVRO }).serialize(WRONG, ctx),
    )
    const json = await refusal(
      new JsonSchemaSerializer(client, 'thing-json', { autoRegister: true, schema: JSON_SCHEMA }).serialize(
        WRONG,
        ctx,
      ),
    )
    const proto = await refusal(
      new ProtobufSerializer(client, 'thing-proto', { autoRegister: true, schema: PROTO }).serialize(
        WRONG,
        ctx,
      ),
    )
    for (const error of [avro, json, proto]) {
      expect(error).toBeInstanceOf(TypeError)
      expect(error.code).toBe('INVALID_DATA')
      expect(error.paths).toEqual(['n', 'sub.x', 'tags[1]'])
    }
    expect(avro.message).toBe(
      'Value does not match the Avro schema Thing: n: expected int, got string "x"; ' +
        'sub.x: expected string, got number 1; tags[1]: expected string, got number 2',
    )
    expect(json.message).toBe(
      'Value does not match the JSON Schema: n: expected integer, got string "x" (type); ' +
        'sub.x: expected string, got number 1 (type); tags[1]: expected string, got number 2 (type)',
    )
    expect(proto.message).toBe(
      'Value does not match the Protobuf message Thing: ' +
        'n: expected int32 (an integer from -2^31 to 2^31 - 1), got string "x"; ' +
        'sub.x: expected string, got number 1; tags[1]: expected string, got number 2',
    )
  })
})
