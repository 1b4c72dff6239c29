import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import protobuf from 'protobufjs'
import descriptor from 'protobufjs/ext/descriptor.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ProtobufDeserializer, ProtobufSerializer } from './index.js'
import { parseProto } from './proto-schema.js'
import { looksSerialized, protoTextOfSerialized } from './serialized-descriptor.js'

// What @confluentinc/schemaregistry 1.10.1 registered through Apicurio 3.3.3's ccompat API (autoRegisterSchemas) for
// interop/fixtures/ccompat/shop.proto, and Apicurio stored as the artifact's content: the base64 of the file's
// FileDescriptorProto (recorded 2026-11-25).
const CONFLUENT_SHOP =
  'CgpzaG9wLnByb3RvEgppbnRlcm9wLmNjIhUKBUZpcnN0EgwKAWEYASABKAlSAWEiyAEKBU9yZGVyEg4KAmlkGAEgASgDUgJpZBIQCgNza3UYAiAB' +
  'KAlSA3NrdRIUCgVsaW5lcxgDIAMoBVIFbGluZXMSKgoEbGluZRgEIAEoCzIWLmludGVyb3AuY2MuT3JkZXIuTGluZVIEbGluZRosCgRMaW5lEhIK' +
  'BG5hbWUYASABKAlSBG5hbWUSEAoDcXR5GAIgASgEUgNxdHkaLQoFSW5uZXIaJAoGRGVlcGVyEgwKAXMYASABKAlSAXMSDAoBbhgCIAEoA1IBbmIG' +
  'cHJvdG8z'

// Confluent's frame of interop.cc.Order { id: 2^53 + 1, sku: "SKU-1", lines: [1, 2, 300], line: { name: "n", qty:
// 2^64 - 1 } }: message indexes [1] (02 02), then the message.
const ORDER_BODY = '0881808080808080101205534b552d311a040102ac02220e0a016e10ffffffffffffffffff01'

describe("Confluent's serialized Protobuf schemas (base64 FileDescriptorProto)", () => {
  it('turns the base64 Confluent registers back into .proto text, messages in declaration order', () => {
    expect(protoTextOfSerialized(CONFLUENT_SHOP)).toBe(
      [
        'syntax = "proto3";',
        'package interop.cc;',
        'message First {',
        '  string a = 1;',
        '}',
        'message Order {',
        '  int64 id = 1;',
        '  string sku = 2;',
        '  repeated int32 lines = 3;',
        '  .interop.cc.Order.Line line = 4;',
        '  message Line {',
        '    string name = 1;',
        '    uint64 qty = 2;',
        '  }',
        '  message Inner {',
        '    message Deeper {',
        '      string s = 1;',
        '      int64 n = 2;',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    )
    expect(parseProto(CONFLUENT_SHOP).messages.map((m) => [m.type.fullName, m.indexes])).toEqual([
      ['.interop.cc.First', [0]],
      ['.interop.cc.Order', [1]],
      ['.interop.cc.Order.Line', [1, 0]],
      ['.interop.cc.Order.Inner', [1, 1]],
      ['.interop.cc.Order.Inner.Deeper', [1, 1, 0]],
    ])
  })

  it('tells base64 from .proto text', () => {
    expect(looksSerialized(CONFLUENT_SHOP)).toBe(true)
    expect(looksSerialized('syntax = "proto3"; message A {}')).toBe(false)
    expect(looksSerialized('message')).toBe(false)
  })

  it('keeps maps, enums, oneofs and proto3 optional fields: the same bytes as the .proto text it came from', () => {
    const text = `syntax = "proto3";
package x.rich;
message Rich {
  map<string, int64> counts = 1;
  Status status = 2;
  oneof payment { string card = 3; string iban = 4; }
  optional int32 maybe = 5;
  repeated Item items = 6;
  message Item { bytes blob = 1; }
  enum Status { NEW = 0; PAID = 1; }
}
enum Top { A = 0; B = 1; }
`
    // The descriptor as protoc would write it (protobufjs's own conversion), in base64 as Confluent registers it.
    const root = protobuf.parse(text, { keepCase: true }).root
    const set = (root as unknown as { toDescriptor(syntax: string): { file: object[] } }).toDescriptor(
      'proto3',
    )
    const encoded = descriptor.FileDescriptorProto.encode(set.file[0]!).finish()
    const base64 = Buffer.from(encoded).toString('base64')
    const fromText = parseProto(text)
    const fromBase64 = parseProto(base64)
    const value = {
      counts: { a: 1, b: 2 },
      status: 1,
      iban: 'DE1',
      maybe: 0,
      items: [{ blob: Buffer.from([1]) }],
    }
    const bytesOf = (schema: typeof fromText) =>
      Buffer.from(schema.root.lookupType('x.rich.Rich').encode(value).finish()).toString('hex')
    expect(bytesOf(fromBase64)).toBe(bytesOf(fromText))
    // A descriptor lists each map's entry message (option map_entry), which counts in message indexes, as in Java's
    // Wire-reformatted text; the other messages are the text's.
    const entries = fromBase64.messages.filter((m) => m.type.options?.map_entry === true)
    expect(entries).toHaveLength(1)
    expect(fromBase64.messages.filter((m) => !entries.includes(m)).map((m) => m.type.fullName)).toEqual(
      fromText.messages.map((m) => m.type.fullName),
    )
    const rich = fromBase64.root.lookupType('x.rich.Rich')
    expect(rich.fields.counts!.map).toBe(true)
    expect(rich.oneofs.payment!.fieldsArray.map((f) => f.name)).toEqual(['card', 'iban'])
  })

  it('refuses base64 that is not a FileDescriptorProto as an invalid schema', () => {
    expect(() => parseProto('AAAA////')).toThrow(/base64 text that is not a serialized FileDescriptorProto/)
  })
})

describe("protobufjs's descriptor types", () => {
  it('are loaded at the first serialized schema, not when the package is imported or .proto text is parsed', () => {
    const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url))
    const module = fileURLToPath(new URL('../dist/serialized-descriptor.js', import.meta.url))
    const script = `import { createRequire } from 'node:module'
const { loadProto } = await import(${JSON.stringify(entry)})
const { protoTextOfSerialized } = await import(${JSON.stringify(module)})
const loaded = () => Object.keys(createRequire(${JSON.stringify(entry)}).cache).some((f) => f.replaceAll('\\\\', '/').endsWith('/ext/descriptor.js'))
const steps = [loaded()]
await loadProto('syntax = "proto3"; message M { int64 id = 1; }')
steps.push(loaded())
const text = protoTextOfSerialized(${JSON.stringify(CONFLUENT_SHOP)})
steps.push(loaded(), text.split('\\n')[1])
process.stdout.write(JSON.stringify(steps))`
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(JSON.parse(out)).toEqual([false, false, true, 'package interop.cc;'])
  })
})

describe('ProtobufDeserializer and ProtobufSerializer with a schema Confluent registered', () => {
  let registry: InMemoryRegistry
  let client: RegistryClient
  let contentId: number

  beforeAll(async () => {
    registry = await InMemoryRegistry.start()
    client = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 0 })
    const registered = await client.registerSchema('shop-value', CONFLUENT_SHOP, { artifactType: 'PROTOBUF' })
    contentId = Number(registered.contentId)
  })

  afterAll(async () => {
    await client.close()
    await registry.close()
  })

  const ctx = new SerializationContext('shop')
  const frame = (body: string) => Buffer.from(`00${contentId.toString(16).padStart(8, '0')}${body}`, 'hex')

  it("reads Confluent's frames by their message indexes, the single-zero shortcut and nested paths too", async () => {
    const reader = new ProtobufDeserializer(client, { useId: 'contentId', framing: 'confluent' })
    expect(await reader.deserialize(frame(`0202${ORDER_BODY}`), ctx)).toEqual({
      id: 9007199254740993n,
      sku: 'SKU-1',
      lines: [1, 2, 300],
      line: { name: 'n', qty: 18446744073709551615n },
    })
    expect(await reader.deserialize(frame('000a056669727374'), ctx)).toEqual({ a: 'first' })
    expect(await reader.deserialize(frame('060202000a0464656570'), ctx)).toEqual({ s: 'deep', n: 0 })
  })

  it('writes the frames Confluent writes for the same messages', async () => {
    const writer = new ProtobufSerializer(client, 'shop-value', {
      useId: 'contentId',
      framing: 'confluent',
      messageType: 'interop.cc.Order',
    })
    const bytes = await writer.serialize(
      {
        id: 9007199254740993n,
        sku: 'SKU-1',
        lines: [1, 2, 300],
        line: { name: 'n', qty: 18446744073709551615n },
      },
      ctx,
    )
    expect(Buffer.from(bytes).toString('hex')).toBe(frame(`0202${ORDER_BODY}`).toString('hex'))
  })
})
