import { type RegisteredSchema, RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext, WireFormat } from '@x/wire-format'
import fc from 'fast-check'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  ProtobufDeserializer,
  ProtobufSerializer,
  QualifiedRecordIdStrategy,
  TopicIdStrategy,
  TopicRecordIdStrategy,
} from './index.js'
import {
  ADDRESS_PROTO,
  CUSTOMER_BYTES,
  expectedOrder,
  JAVA_ADDRESS_PROTO,
  JAVA_INDEXES,
  JAVA_ORDER_PROTO,
  ORDER_BYTES,
  ORDER_PROTO,
  REF,
  REFUND_BYTES,
} from './test-support/java-golden.js'

const ctx = new SerializationContext('orders')
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const idHex = (id: unknown): string => Number(id).toString(16).padStart(8, '0')

let registry: InMemoryRegistry
let admin: RegistryClient
const clients: RegistryClient[] = []
/** order.proto (by hand) and its Java-registered form, each registered with address.proto as a reference. */
let ours: RegisteredSchema
let javas: RegisteredSchema

function newClient(): RegistryClient {
  const client = new RegistryClient({
    url: registry.url,
    groupId: 'default',
    retryBackoffMs: 0,
    maxRetries: 0,
  })
  clients.push(client)
  return client
}

const paths = (): string[] =>
  registry.requests.map((r) => `${r.method} ${r.path.replace('/apis/registry/v3', '')}`)

async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await promise
  } catch (error) {
    return error as Error & Record<string, unknown>
  }
  throw new Error('expected a rejection')
}

const frame = (id: unknown, ...parts: string[]): Buffer =>
  Buffer.from(`00${idHex(id)}${parts.join('')}`, 'hex')

async function registerOrder(artifactId: string, text: string, addressText: string) {
  const address = await admin.registerSchema(`${artifactId}-address`, addressText, {
    artifactType: 'PROTOBUF',
  })
  return admin.registerSchema(artifactId, text, {
    artifactType: 'PROTOBUF',
    references: [
      { name: 'common/address.proto', artifactId: `${artifactId}-address`, version: address.version! },
    ],
  })
}

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 70, firstContentId: 30 })
  admin = new RegistryClient({ url: registry.url, groupId: 'default' })
  ours = await registerOrder('orders-value', ORDER_PROTO, ADDRESS_PROTO)
  javas = await registerOrder('java-orders', JAVA_ORDER_PROTO, JAVA_ADDRESS_PROTO)
})

afterAll(async () => {
  for (const client of clients) await client.close()
  await admin.close()
  await registry.close()
})

beforeEach(() => {
  registry.clearFaults()
  registry.clearRequests()
})

describe("the bytes are Apicurio's Java serde's", () => {
  it.each([0, 1])('order %i is written after a Ref naming Order: exactly what Java writes', async (i) => {
    const serializer = new ProtobufSerializer(newClient(), { artifactResolver: new TopicIdStrategy() })
    const bytes = await serializer.serialize(expectedOrder(i), ctx)
    expect(hex(bytes)).toBe(`00${idHex(ours.globalId)}${REF.Order}${ORDER_BYTES[i]}`)
  })

  it('with framing confluent, order is written after the single byte 00, Refund after 02 02, Customer after 04 00 00', async () => {
    const client = newClient()
    const order = new ProtobufSerializer(client, 'orders-value', { framing: 'confluent' })
    expect(hex((await order.serialize(expectedOrder(0), ctx)).subarray(5))).toBe(`00${ORDER_BYTES[0]}`)
    const refund = new ProtobufSerializer(client, 'orders-value', {
      framing: 'confluent',
      messageType: 'interop.shop.Refund',
    })
    expect(hex((await refund.serialize({ order_id: -5 }, ctx)).subarray(5))).toBe(
      `${JAVA_INDEXES['[1]']}${REFUND_BYTES}`,
    )
    const customer = new ProtobufSerializer(client, 'orders-value', {
      framing: 'confluent',
      messageType: 'interop.shop.Order.Customer',
    })
    expect(hex((await customer.serialize({ name: 'x', points: 1 }, ctx)).subarray(5))).toBe(
      `${JAVA_INDEXES['[0,0]']}${CUSTOMER_BYTES}`,
    )
    const refundRef = new ProtobufSerializer(client, 'orders-value', { messageType: 'interop.shop.Refund' })
    expect(hex((await refundRef.serialize({ order_id: -5n }, ctx)).subarray(5))).toBe(
      `${REF.Refund}${REFUND_BYTES}`,
    )
  })

  // Message indexes count the messages a file declares: Java's Wire-reformatted text declares the map's CountsEntry,
  // so Customer is [0, 1] there and [0, 0] in the hand-written text (as Java's and Confluent's writers count them).
  it.each([
    ['the hand-written order.proto', () => ours.globalId, '040000'],
    [
      'the Wire-reformatted order.proto Java registers (maps as map_entry messages)',
      () => javas.globalId,
      '040002',
    ],
  ])("Java's frames of every framing are read back exactly with %s", async (_, id, customerIndexes) => {
    const client = newClient()
    const refs = new ProtobufDeserializer(client)
    const indexes = new ProtobufDeserializer(client, { framing: 'confluent' })
    for (const i of [0, 1]) {
      expect(await refs.deserialize(frame(id(), REF.Order!, ORDER_BYTES[i]!), ctx)).toEqual(expectedOrder(i))
      expect(await indexes.deserialize(frame(id(), JAVA_INDEXES['[0]']!, ORDER_BYTES[i]!), ctx)).toEqual(
        expectedOrder(i),
      )
      expect(await indexes.deserialize(frame(id(), '00', ORDER_BYTES[i]!), ctx)).toEqual(expectedOrder(i))
    }
    expect(await refs.deserialize(frame(id(), REF.Refund!, REFUND_BYTES), ctx)).toEqual({ order_id: -5 })
    expect(await refs.deserialize(frame(id(), REF.Customer!, CUSTOMER_BYTES), ctx)).toEqual({
      name: 'x',
      points: 1,
    })
    expect(await indexes.deserialize(frame(id(), customerIndexes, CUSTOMER_BYTES), ctx)).toEqual({
      name: 'x',
      points: 1,
    })
  })

  it('reads interleaved message types in one reused buffer right: a remembered prefix is a copy, compared byte for byte', async () => {
    const client = newClient()
    const refs = new ProtobufDeserializer(client)
    const frames = [
      frame(ours.globalId, REF.Order!, ORDER_BYTES[0]!),
      frame(ours.globalId, REF.Refund!, REFUND_BYTES),
      frame(ours.globalId, REF.Order!, ORDER_BYTES[1]!),
      frame(ours.globalId, REF.Customer!, CUSTOMER_BYTES),
    ]
    const reused = Buffer.alloc(Math.max(...frames.map((f) => f.length)))
    const expected = [expectedOrder(0), { order_id: -5 }, expectedOrder(1), { name: 'x', points: 1 }]
    for (const round of [0, 1]) {
      for (const [i, f] of frames.entries()) {
        reused.fill(round === 0 ? 0 : 0xff)
        f.copy(reused)
        expect(await refs.deserialize(reused.subarray(0, f.length), ctx)).toEqual(expected[i])
      }
    }
  })

  it('puts the id in one 8-byte header in MESSAGE_HEADERS mode and reads it back', async () => {
    const client = newClient()
    const serializer = new ProtobufSerializer(client, 'orders-value', {
      wireFormat: WireFormat.MESSAGE_HEADERS,
      useId: 'contentId',
    })
    const { payload, headers } = await serializer.serializeMessage(expectedOrder(1), ctx)
    expect(hex(payload)).toBe(`${REF.Order}${ORDER_BYTES[1]}`)
    expect(Object.keys(headers)).toEqual(['apicurio.value.contentId'])
    await expect(
      new ProtobufDeserializer(client).deserializeMessage({ payload, headers }, ctx),
    ).resolves.toEqual(expectedOrder(1))
  })
})

describe('request counts', () => {
  it('reads an id with an import: the content, its references, the imported version; then nothing more', async () => {
    const deserializer = new ProtobufDeserializer(newClient())
    const message = frame(ours.globalId, REF.Order!, ORDER_BYTES[0]!)
    await Promise.all([1, 2, 3].map(() => deserializer.deserialize(message, ctx)))
    expect(paths()).toEqual([
      `GET /ids/globalIds/${ours.globalId}`,
      `GET /ids/globalIds/${ours.globalId}/references`,
      expect.stringMatching(/^GET \/groups\/default\/artifacts\/orders-value-address\/versions\/1$/),
      expect.stringMatching(/^GET \/ids\/globalIds\/\d+$/),
    ])
    expect(deserializer.deserializeSync(message, ctx)).toEqual(expectedOrder(0))
    expect(registry.requests).toHaveLength(4)
  })

  it('reads a schema whose only import is a well-known type without any reference request', async () => {
    const { globalId } = await admin.registerSchema(
      'stamped',
      'syntax = "proto3";\nimport "google/protobuf/timestamp.proto";\nmessage Stamped { google.protobuf.Timestamp at = 1; }\n',
      { artifactType: 'PROTOBUF' },
    )
    registry.clearRequests()
    const value = await new ProtobufDeserializer(newClient()).deserialize(
      frame(globalId, '090a075374616d706564', '0a0208 07'.replace(' ', '')),
      ctx,
    )
    expect(value).toEqual({ at: { seconds: 7, nanos: 0 } })
    expect(paths()).toEqual([`GET /ids/globalIds/${globalId}`])
  })
})

describe('values', () => {
  const LIMITS = `syntax = "proto3";
message Limits {
  int64 s = 1;
  uint64 u = 2;
  sint64 z = 3;
  fixed64 f = 4;
  int32 i = 5;
  uint32 w = 6;
  E e = 7;
  repeated int64 many = 8;
  map<int64, int64> by = 9;
  optional string maybe = 10;
  enum E { ZERO = 0; ONE = 1; }
}
`
  beforeAll(async () => {
    await admin.registerSchema('limits', LIMITS, { artifactType: 'PROTOBUF' })
  })

  async function roundTrip(value: unknown, options: object = {}) {
    const client = newClient()
    const bytes = await new ProtobufSerializer(client, 'limits').serialize(value, ctx)
    return new ProtobufDeserializer(client, options).deserialize(bytes, ctx)
  }

  it('keeps 64-bit integers exact: a number while safe, a bigint beyond, at every boundary', async () => {
    const value = {
      s: -(2n ** 63n),
      u: 2n ** 64n - 1n,
      z: 2n ** 63n - 1n,
      f: 9007199254740993n,
      i: -(2 ** 31),
      w: 2 ** 32 - 1,
      e: 'ONE',
      many: [9007199254740991, 9007199254740992n, -9007199254740993n],
      by: { '-9223372036854775808': 1, '5': 2n ** 60n },
    }
    expect(await roundTrip(value)).toEqual({
      s: -(2n ** 63n),
      u: 2n ** 64n - 1n,
      z: 2n ** 63n - 1n,
      f: 9007199254740993n,
      i: -(2 ** 31),
      w: 2 ** 32 - 1,
      e: 'ONE',
      many: [9007199254740991, 9007199254740992n, -9007199254740993n],
      by: { '-9223372036854775808': 1, '5': 2n ** 60n },
    })
  })

  it('reads the 64-bit values around ±2^53 and across the 32-bit halves as numbers exactly where safe, bigints beyond', async () => {
    const cases: [bigint, bigint | number][] = [
      [-1n, -1],
      [2n ** 32n - 1n, 2 ** 32 - 1],
      [2n ** 32n, 2 ** 32],
      [-(2n ** 32n), -(2 ** 32)],
      [-(2n ** 32n) - 1n, -(2 ** 32) - 1],
      [2n ** 53n - 1n, 2 ** 53 - 1],
      [-(2n ** 53n) + 1n, -(2 ** 53) + 1],
      [2n ** 53n, 2n ** 53n],
      [-(2n ** 53n), -(2n ** 53n)],
      [2n ** 62n + 12345n, 2n ** 62n + 12345n],
    ]
    for (const [given, read] of cases) {
      expect(
        (await roundTrip({
          s: given,
          z: given,
          f: given < 0n ? 0 : given,
          u: given < 0n ? 0 : given,
        })) as object,
      ).toMatchObject({ s: read, z: read, f: given < 0n ? 0 : read, u: given < 0n ? 0 : read })
    }
    expect(await roundTrip({ u: 2n ** 64n - 2n ** 32n })).toMatchObject({ u: 2n ** 64n - 2n ** 32n })
  })

  it('writes messages of very different sizes in turn with one serializer, each exactly (its writer is reused)', async () => {
    const client = newClient()
    const serializer = new ProtobufSerializer(client, 'limits')
    const deserializer = new ProtobufDeserializer(client)
    const sizes = [0, 3, 300, 2 * 1024 * 1024 + 7, 1, 70_000, 0]
    await serializer.prepare(ctx)
    const written: Buffer[] = []
    for (const size of sizes)
      written.push(Buffer.from(serializer.serializeSync({ maybe: 'x'.repeat(size), s: size }, ctx)))
    for (const [i, size] of sizes.entries()) {
      expect(await deserializer.deserialize(written[i]!, ctx)).toMatchObject({
        maybe: 'x'.repeat(size),
        s: size,
      })
    }
    expect(written[6]).toEqual(written[0])
  })

  it("reads longs as bigints with longs: 'bigint', and refuses unsafe ones with longs: 'number' (cause a RangeError)", async () => {
    expect(await roundTrip({ s: 5, many: [1] }, { longs: 'bigint' })).toMatchObject({
      s: 5n,
      u: 0n,
      many: [1n],
    })
    const client = newClient()
    const bytes = await new ProtobufSerializer(client, 'limits').serialize({ s: 2n ** 53n }, ctx)
    const error = await rejection(
      new ProtobufDeserializer(client, { longs: 'number' }).deserialize(bytes, ctx),
    )
    expect(error).toMatchObject({ name: 'DeserializationError', code: 'DESERIALIZATION' })
    expect(error.cause).toBeInstanceOf(RangeError)
    expect((error.cause as Error).message).toContain('9007199254740992')
  })

  it('finishes 64-bit values inside messages: one, a list and a map of them, a recursive type, and leaves messages without any alone', async () => {
    await admin.registerSchema(
      'nested-longs',
      `syntax = "proto3";
message Outer {
  Inner one = 1;
  repeated Inner list = 2;
  map<string, Inner> byKey = 3;
  Plain plain = 4;
  Tree tree = 5;
  uint64 top = 6;
}
message Inner { int64 n = 1; repeated sint64 ns = 2; }
message Plain { string s = 1; int32 i = 2; }
message Tree { fixed64 v = 1; Tree next = 2; }
`,
      { artifactType: 'PROTOBUF' },
    )
    const client = newClient()
    const value = {
      one: { n: 2n ** 60n, ns: [1, -(2n ** 62n)] },
      list: [{ n: 7 }, { n: -(2n ** 53n) }],
      byKey: { a: { n: 9007199254740993n }, b: { n: -3 } },
      plain: { s: 'x', i: 4 },
      tree: { v: 1, next: { v: 2n ** 64n - 1n, next: { v: 5 } } },
      top: 2n ** 63n,
    }
    const bytes = await new ProtobufSerializer(client, 'nested-longs').serialize(value, ctx)
    // Every value given is read back as given: numbers where safe, bigints beyond.
    expect(await new ProtobufDeserializer(client).deserialize(bytes, ctx)).toMatchObject(value)
    const asBigints = await new ProtobufDeserializer(client, { longs: 'bigint' }).deserialize(bytes, ctx)
    expect(asBigints).toMatchObject({
      one: { n: 2n ** 60n, ns: [1n, -(2n ** 62n)] },
      list: [{ n: 7n }, { n: -(2n ** 53n) }],
    })
    expect((asBigints as { tree: { next: { next: { v: unknown } } } }).tree.next.next.v).toBe(5n)
  })

  it('reads enums as names by default, as numbers when asked, and keeps a number the schema does not name', async () => {
    expect(await roundTrip({ e: 'ONE' })).toMatchObject({ e: 'ONE' })
    expect(await roundTrip({ e: 'ONE' }, { enums: 'number' })).toMatchObject({ e: 1 })
    expect(await roundTrip({ e: 7 })).toMatchObject({ e: 7 })
  })

  it('gives proto3 defaults for fields not on the wire, or leaves them out with defaults: false; optional stays absent', async () => {
    expect(await roundTrip({})).toEqual({ s: 0, u: 0, z: 0, f: 0, i: 0, w: 0, e: 'ZERO', many: [], by: {} })
    expect(await roundTrip({ i: 3 }, { defaults: false })).toEqual({ i: 3 })
    expect(await roundTrip({ maybe: '' })).toMatchObject({ maybe: '' })
  })

  it('takes a Map for a map field and the engine’s message instances as they are', async () => {
    expect(await roundTrip({ by: new Map<bigint, number>([[1n, 2]]) })).toMatchObject({ by: { '1': 2 } })
  })

  it('refuses a value that does not fit with INVALID_DATA naming every failing path', async () => {
    const serializer = new ProtobufSerializer(newClient(), 'limits')
    await serializer.prepare()
    let error: (Error & { code?: string; paths?: string[] }) | undefined
    try {
      serializer.serializeSync(
        { s: 2 ** 60, u: -1n, i: 2 ** 31, w: -1, e: 'TWO', many: [1, 'x'], by: { x: 1 }, maybe: 5 },
        ctx,
      )
    } catch (caught) {
      error = caught as typeof error
    }
    expect(error).toBeInstanceOf(TypeError)
    expect(error?.code).toBe('INVALID_DATA')
    expect(error?.paths).toEqual(['s', 'u', 'i', 'w', 'e', 'many[1]', 'by', 'maybe'])
    expect(error?.message).toContain(
      's: expected int64 (a safe integer number or a bigint from -2^63 to 2^63 - 1), got number 1152921504606847000 (beyond 2^53 a number may already be rounded: use a bigint)',
    )
    expect(() => serializer.serializeSync('nope', ctx)).toThrow(
      expect.objectContaining({ code: 'INVALID_DATA', paths: [''] }),
    )
  })

  it('refuses two members of one oneof', async () => {
    const serializer = new ProtobufSerializer(newClient(), 'orders-value')
    await expect(serializer.serialize({ card: 'a', iban: 'b' }, ctx)).rejects.toMatchObject({
      code: 'INVALID_DATA',
      message: expect.stringContaining('expected at most one of card, iban (a oneof)'),
    })
  })
})

describe('proto2', () => {
  it('reads and writes proto2 messages: optional fields with declared defaults, repeated unpacked ints', async () => {
    await admin.registerSchema(
      'legacy',
      'syntax = "proto2";\npackage old;\nmessage Legacy {\n  optional int32 n = 1 [default = 7];\n  optional string s = 2;\n  repeated int32 r = 3;\n}\n',
      { artifactType: 'PROTOBUF' },
    )
    const client = newClient()
    const serializer = new ProtobufSerializer(client, 'legacy')
    const bytes = await serializer.serialize({ s: 'x', r: [1, 2] }, ctx)
    // proto2 repeated scalars are not packed unless asked: two field-3 varints.
    expect(hex(bytes.subarray(5))).toBe('080a064c6567616379120178180118 02'.replace(' ', ''))
    expect(await new ProtobufDeserializer(client).deserialize(bytes, ctx)).toEqual({
      n: 7,
      s: 'x',
      r: [1, 2],
    })
  })
})

describe('unknown fields', () => {
  it('are dropped by default and kept with unknownFields: keep, then written back', async () => {
    const v2 = await admin.registerSchema(
      'evolving',
      'syntax = "proto3";\nmessage M { string a = 1; int64 b = 2; }\n',
      {
        artifactType: 'PROTOBUF',
      },
    )
    const v1 = await admin.registerSchema(
      'evolving-v1',
      'syntax = "proto3";\nmessage M { string a = 1; }\n',
      {
        artifactType: 'PROTOBUF',
      },
    )
    const client = newClient()
    const written = await new ProtobufSerializer(client, 'evolving').serialize({ a: 'x', b: 2n ** 62n }, ctx)
    // The same message bytes, under the id of the older schema that lacks field b.
    const asV1 = Buffer.concat([frame(v1.globalId), written.subarray(5)])
    expect(await new ProtobufDeserializer(client).deserialize(asV1, ctx)).toEqual({ a: 'x' })
    const kept = (await new ProtobufDeserializer(client, { unknownFields: 'keep' }).deserialize(
      asV1,
      ctx,
    )) as object
    expect(kept).toEqual({ a: 'x' })
    expect(Object.keys(kept)).toEqual(['a'])
    const again = await new ProtobufSerializer(client, 'evolving-v1').serialize(kept, ctx)
    expect(hex(again.subarray(5))).toBe(hex(written.subarray(5)))
    expect(v2.globalId).not.toBe(v1.globalId)
  })
})

describe('bad input is a DeserializationError with its cause, fast', () => {
  const id = () => ours.globalId
  it.each([
    ['no Ref at all', '', /expected an Apicurio Ref/],
    ['a Ref whose length runs past the bytes', '7f0a05', /expected an Apicurio Ref/],
    [
      'a Ref naming no message of the schema',
      '080a064e6f53756368',
      /the Ref names 'NoSuch', which is no message of the schema/,
    ],
    ['a truncated varint', `${REF.Order}08ff`, /index out of range|bytes/],
    ['a length beyond the bytes left', `${REF.Order}12ffffffff07`, /index out of range/],
    ['a wrong wire type', `${REF.Order}0f`, /invalid wire type/],
    ['invalid UTF-8 in a string', `${REF.Order}1202c328`, /utf-?8/i],
    [
      'message indexes read as a Ref',
      '0200',
      /look like Confluent message indexes: read them with framing: 'confluent'/,
    ],
  ])('%s', async (_, payload, reason) => {
    const error = await rejection(
      new ProtobufDeserializer(newClient()).deserialize(frame(id(), payload), ctx),
    )
    expect(error).toMatchObject({ name: 'DeserializationError', code: 'DESERIALIZATION' })
    expect(error.message).toMatch(/^Cannot decode the Protobuf payload of globalId \d+: /)
    expect((error.cause as Error).message).toMatch(reason)
  })

  it('refuses message indexes naming no message, and nesting beyond the recursion limit', async () => {
    const client = newClient()
    const indexes = new ProtobufDeserializer(client, { framing: 'confluent' })
    await expect(indexes.deserialize(frame(id(), '0206'), ctx)).rejects.toMatchObject({
      cause: expect.objectContaining({
        message: expect.stringContaining('the message indexes [3] name no message'),
      }),
    })
    const { globalId } = await admin.registerSchema(
      'tree',
      'syntax = "proto3";\nmessage Node { Node child = 1; }\n',
      {
        artifactType: 'PROTOBUF',
      },
    )
    // 150 levels of { child: … }: each level is field 1, length-delimited.
    let inner = Buffer.alloc(0)
    for (let level = 0; level < 150; level++)
      inner = Buffer.concat([Buffer.from([0x0a, ...varint(inner.length)]), inner])
    const error = await rejection(
      new ProtobufDeserializer(client).deserialize(frame(globalId, '060a044e6f6465', hex(inner)), ctx),
    )
    expect((error.cause as Error).message).toMatch(/max depth exceeded/)
  })

  it('throws only DeserializationErrors for arbitrary payloads (property)', async () => {
    const deserializer = new ProtobufDeserializer(newClient())
    await deserializer.prepare(Number(id()))
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }),
          fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.concat([Buffer.from(REF.Order!, 'hex'), b])),
        ),
        (payload) => {
          try {
            deserializer.deserializeSync(Buffer.concat([frame(id()), payload]), ctx)
          } catch (error) {
            expect((error as Error).name).toBe('DeserializationError')
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 2000) },
    )
  })
})

function varint(n: number): number[] {
  const out: number[] = []
  let v = n
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80)
    v >>>= 7
  }
  out.push(v)
  return out
}

describe('autoRegister', () => {
  it('registers the .proto with its references, and each well-known import as an artifact of its own, as Java does', async () => {
    const address = await admin.registerSchema('auto-address', ADDRESS_PROTO, { artifactType: 'PROTOBUF' })
    registry.clearRequests()
    const serializer = new ProtobufSerializer(newClient(), 'auto-order', {
      autoRegister: true,
      schema: ORDER_PROTO,
      references: [{ name: 'common/address.proto', artifactId: 'auto-address', version: address.version! }],
    })
    const bytes = await serializer.serialize(expectedOrder(0), ctx)
    expect(hex(bytes.subarray(5))).toBe(`${REF.Order}${ORDER_BYTES[0]}`)
    const posts = registry.requests
      .filter((r) => r.method === 'POST')
      .map((r) => JSON.parse(r.body) as Record<string, any>)
    expect(posts.map((p) => [p.artifactId, p.artifactType, p.firstVersion.content.contentType])).toEqual([
      ['google/protobuf/timestamp.proto', 'PROTOBUF', 'application/x-protobuf'],
      ['auto-order', 'PROTOBUF', 'application/x-protobuf'],
    ])
    expect(posts[0]!.firstVersion.content.content).toContain(
      'message Timestamp {\n  int64 seconds = 1;\n  int32 nanos = 2;\n}',
    )
    expect(posts[1]!.firstVersion.content.references).toEqual([
      { name: 'common/address.proto', artifactId: 'auto-address', version: address.version },
      {
        name: 'google/protobuf/timestamp.proto',
        artifactId: 'google/protobuf/timestamp.proto',
        version: '1',
      },
    ])
  })

  it('refuses at construction, registering nothing, a .proto that does not parse, an unknown messageType, an import without a reference', async () => {
    const attempts: [object, RegExp][] = [
      [
        { schema: 'syntax = "proto3"; message {' },
        /^ProtobufSerializer: the schema to register \(autoRegister\) is not a valid Protobuf schema: the schema: illegal type name '\{' \(line 1\)$/,
      ],
      [
        { schema: ADDRESS_PROTO, messageType: 'interop.common.Nope' },
        /messageType 'interop.common.Nope' is no message/,
      ],
      [
        { schema: ORDER_PROTO },
        /^ProtobufSerializer: the schema to register \(autoRegister\) is not a valid Protobuf schema: it imports 'common\/address.proto', which needs its references \(give 'common\/address.proto' as a reference named as the schema names it\)$/,
      ],
      [{ schema: 5 }, /schema must be the .proto text/],
    ]
    for (const [options, message] of attempts) {
      expect(
        () => new ProtobufSerializer(newClient(), 'x', { autoRegister: true, ...options } as never),
      ).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', message: expect.stringMatching(message) }))
    }
    expect(registry.requests).toHaveLength(0)
  })
})

describe('record strategies and options', () => {
  it('name the artifact after the message full name: the first message, or messageType', () => {
    expect(new QualifiedRecordIdStrategy(ORDER_PROTO).resolve(ctx)).toBe('interop.shop.Order')
    expect(new TopicRecordIdStrategy(ORDER_PROTO, 'interop.shop.Refund').resolve(ctx)).toBe(
      'orders-interop.shop.Refund',
    )
    expect(() => new QualifiedRecordIdStrategy(ORDER_PROTO, 'x.Y')).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    )
  })

  it('refuses misused options at construction, naming the class', () => {
    expect(() => new ProtobufSerializer(newClient(), 'x', { framing: 'indexes' as never })).toThrow(
      "ProtobufSerializer: framing must be 'apicurio' or 'confluent', got string \"indexes\"",
    )
    expect(() => new ProtobufDeserializer(newClient(), { longs: 'string' as never })).toThrow(
      "ProtobufDeserializer: longs must be 'auto' or 'number' or 'bigint'",
    )
    expect(() => new ProtobufDeserializer(newClient(), { messageType: 'x' } as never)).toThrow(
      "ProtobufDeserializer: unknown option 'messageType'",
    )
  })
})
