import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { avroToTypeScript } from './avro-types.js'
import { jsonSchemaToTypeScript } from './json-schema-types.js'
import { protobufToTypeScript } from './protobuf-types.js'

// Each test compiles generated code with the TypeScript compiler: about a second of CPU on an idle machine, more
// when other work shares its cores, so these tests get a bound of their own.
vi.setConfig({ testTimeout: 90_000 })

// The generated types cannot drift from runtime: for every row of each type mapping, a value is written and read
// back by the real serde, rendered as a TypeScript literal, and compiled against the generated declarations (and a
// wrong value must not compile, so the check can fail).

const ctx = new SerializationContext('codegen')
const here = fileURLToPath(new URL('.', import.meta.url))
// Inside the package, so that `@types/node` (Buffer) resolves as in a user's project.
mkdirSync(join(here, '..', '..', '.codegen-test'), { recursive: true })
const scratch = mkdtempSync(join(here, '..', '..', '.codegen-test', 'run-'))
let registry: InMemoryRegistry
let client: RegistryClient
let serial = 0

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default' })
})

afterAll(async () => {
  await client.close()
  await registry.close()
  rmSync(scratch, { recursive: true, force: true })
})

/** A runtime value as a TypeScript expression of the same type. */
function literal(value: unknown): string {
  if (value === null) return 'null'
  if (typeof value === 'bigint') return `${value}n`
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return JSON.stringify(value)
  if (Buffer.isBuffer(value)) return `Buffer.from([${[...value].join(', ')}])`
  if (value instanceof Date) return `new Date(${value.getTime()})`
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`
  if (typeof value === 'object') {
    return `{ ${Object.entries(value as object)
      .map(([key, member]) => `${JSON.stringify(key)}: ${literal(member)}`)
      .join(', ')} }`
  }
  throw new TypeError(`no literal for ${typeof value}`)
}

const COMPILER_OPTIONS: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ['node'],
  skipLibCheck: true,
  exactOptionalPropertyTypes: true,
}
// The standard library and `@types/node` are parsed once and shared by every compile (each a fresh program over a
// new scratch file); the scratch files themselves are always read from disk.
const host = ts.createCompilerHost(COMPILER_OPTIONS)
const parsed = new Map<string, ts.SourceFile | undefined>()
const readSourceFile = host.getSourceFile.bind(host)
host.getSourceFile = (fileName, language, onError, shouldCreate) => {
  if (fileName.startsWith(scratch)) return readSourceFile(fileName, language, onError, shouldCreate)
  if (!parsed.has(fileName)) parsed.set(fileName, readSourceFile(fileName, language, onError, shouldCreate))
  return parsed.get(fileName)
}

/** Type errors of `declarations` followed by `const value: <type> = <expression>`. */
function compile(declarations: string, type: string, expression: string): string[] {
  serial += 1
  const file = join(scratch, `check-${serial}.ts`)
  writeFileSync(file, `${declarations}\n\nexport const value: ${type} = ${expression}\n`)
  const program = ts.createProgram([file], COMPILER_OPTIONS, host)
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

const RICH = {
  type: 'record',
  name: 'Rich',
  namespace: 'codegen',
  fields: [
    { name: 'nothing', type: 'null' },
    { name: 'flag', type: 'boolean' },
    { name: 'small', type: 'int' },
    { name: 'big', type: 'long' },
    { name: 'ratio', type: 'float' },
    { name: 'precise', type: 'double' },
    { name: 'raw', type: 'bytes' },
    { name: 'text', type: 'string' },
    { name: 'hash', type: { type: 'fixed', name: 'Hash', size: 2 } },
    { name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['A', 'B'] } },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'counts', type: { type: 'map', values: 'long' } },
    {
      name: 'child',
      type: { type: 'record', name: 'Child', fields: [{ name: 'next', type: ['null', 'Child'] }] },
    },
    { name: 'maybe', type: ['null', 'string'] },
    { name: 'numberish', type: ['int', 'long'] },
    { name: 'named', type: ['string', 'Kind'] },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
    { name: 'localAt', type: { type: 'long', logicalType: 'local-timestamp-millis' } },
    { name: 'atMicros', type: { type: 'long', logicalType: 'timestamp-micros' } },
    { name: 'atNanos', type: { type: 'long', logicalType: 'timestamp-nanos' } },
    { name: 'timeMillis', type: { type: 'int', logicalType: 'time-millis' } },
    { name: 'timeMicros', type: { type: 'long', logicalType: 'time-micros' } },
    { name: 'day', type: { type: 'int', logicalType: 'date' } },
    { name: 'id', type: { type: 'string', logicalType: 'uuid' } },
    { name: 'amount', type: { type: 'bytes', logicalType: 'decimal', precision: 9, scale: 2 } },
    { name: 'notATimestamp', type: { type: 'string', logicalType: 'timestamp-millis' } },
  ],
}

function richValue(big: bigint | number): Record<string, unknown> {
  return {
    nothing: null,
    flag: true,
    small: 7,
    big,
    ratio: 1.5,
    precise: 2.25,
    raw: Buffer.from([1, 2]),
    text: 'hi',
    hash: Buffer.from([3, 4]),
    kind: 'B',
    tags: ['x'],
    counts: { a: big },
    child: { next: { next: null } },
    maybe: 'm',
    numberish: { long: 5 },
    named: { 'codegen.Kind': 'A' },
    at: new Date(1_767_225_600_123),
    localAt: new Date(1_767_225_600_000),
    atMicros: 1_767_225_600_000_001n,
    atNanos: 1_767_225_600_000_000_001n,
    timeMillis: 1000,
    timeMicros: 1_000_001n,
    day: new Date(Date.UTC(2026, 0, 1)),
    id: '123e4567-e89b-12d3-a456-426614174000',
    amount: '1234.50',
    notATimestamp: 'text',
  }
}

describe('Avro types', () => {
  const modes = [
    { longs: 'auto', unions: 'auto', big: 2n ** 60n },
    { longs: 'auto', unions: 'wrapped', big: 42 },
    { longs: 'number', unions: 'auto', big: 42 },
    { longs: 'bigint', unions: 'wrapped', big: 2n ** 60n },
  ] as const

  it.each(modes)(
    'match what AvroDeserializer returns with longs $longs, unions $unions',
    async ({ longs, unions, big }) => {
      const avro = { longs, unions }
      const serializer = new AvroSerializer(client, `rich-${longs}-${unions}`, {
        autoRegister: true,
        schema: RICH,
        avro,
      })
      const value = richValue(big)
      if (unions === 'wrapped') value.maybe = { string: 'm' }
      if (unions === 'wrapped') value.child = { next: { 'codegen.Child': { next: null } } }
      const decoded = await new AvroDeserializer(client, { avro }).deserialize(
        await serializer.serialize(value, ctx),
        ctx,
      )
      const declarations = avroToTypeScript(RICH, avro)
      expect(compile(declarations, 'Rich', literal(decoded))).toEqual([])
      expect(
        compile(declarations, 'Rich', literal({ ...(decoded as object), big: 'not a long' })).length,
      ).toBeGreaterThan(0)
    },
  )

  it('declare named types once, enums as literal unions, and a typed constant of the schema', () => {
    const declarations = avroToTypeScript(RICH)
    expect(declarations.match(/export interface Child /g)).toHaveLength(1)
    expect(declarations).toContain('export type Kind = "A" | "B"')
    expect(declarations).toContain('  big: number | bigint\n')
    expect(declarations).toContain('  numberish: { "int": number } | { "long": number | bigint }\n')
    expect(declarations).toContain('  maybe: null | string\n')
    expect(declarations).toContain('export const RichSchema = {')
    expect(compile(declarations, 'typeof RichSchema.name', '"Rich"')).toEqual([])
  })
})

describe('Protobuf types', () => {
  const proto = `syntax = "proto3";
package shop;
message Order {
  int32 count = 1;
  int64 id = 2;
  uint64 big = 3;
  bool paid = 4;
  string note = 5;
  bytes tag = 6;
  Kind kind = 7;
  repeated Line lines = 8;
  map<string, int64> totals = 9;
  Line first = 10;
  oneof payment { string card = 11; bytes token = 12; }
  optional string coupon = 13;
  double price = 14;
  enum Kind { NONE = 0; WEB = 1; }
  message Line { string sku = 1; uint32 qty = 2; }
}
`
  it('match what ProtobufDeserializer returns', async () => {
    const serializer = new ProtobufSerializer(client, 'orders-proto', { autoRegister: true, schema: proto })
    const bytes = await serializer.serialize(
      {
        count: 1,
        id: 2n ** 62n,
        big: 5,
        paid: true,
        note: 'n',
        tag: Buffer.from([9]),
        kind: 'WEB',
        lines: [{ sku: 'a', qty: 2 }],
        totals: { x: 7 },
        first: { sku: 'b', qty: 1 },
        card: '4111',
        price: 1.25,
      },
      ctx,
    )
    const decoded = await new ProtobufDeserializer(client).deserialize(bytes, ctx)
    const declarations = protobufToTypeScript(proto)
    expect(compile(declarations, 'Order', literal(decoded))).toEqual([])
    expect(
      compile(declarations, 'Order', literal({ ...(decoded as object), paid: 'yes' })).length,
    ).toBeGreaterThan(0)
    const empty = await new ProtobufDeserializer(client).deserialize(await serializer.serialize({}, ctx), ctx)
    expect(compile(declarations, 'Order', literal(empty))).toEqual([])
  })

  it('type what imports define (files at hand, well-known types) as the deserializer returns them', async () => {
    const money =
      'syntax = "proto3";\npackage shop.common;\nmessage Money { string currency = 1; int64 units = 2; }\n'
    const payment = `syntax = "proto3";
package shop;
import "shop/common/money.proto";
import "google/protobuf/timestamp.proto";
message Payment { shop.common.Money amount = 1; google.protobuf.Timestamp at = 2; }
`
    await new ProtobufSerializer(client, 'money-proto', { autoRegister: true, schema: money }).serialize(
      { currency: 'EUR', units: 1 },
      ctx,
    )
    const serializer = new ProtobufSerializer(client, 'payments-proto', {
      autoRegister: true,
      schema: payment,
      references: [{ name: 'shop/common/money.proto', artifactId: 'money-proto', version: '1' }],
    })
    const bytes = await serializer.serialize(
      { amount: { currency: 'EUR', units: 2n ** 60n }, at: { seconds: 1_700_000_000, nanos: 5 } },
      ctx,
    )
    const decoded = await new ProtobufDeserializer(client).deserialize(bytes, ctx)
    const declarations = protobufToTypeScript(payment, {
      imports: (path) => (path === 'shop/common/money.proto' ? money : undefined),
    })
    expect(declarations).toContain(
      'export interface Payment {\n  amount: Money | null\n  at: Timestamp | null\n}',
    )
    expect(compile(declarations, 'Payment', literal(decoded))).toEqual([])
    expect(
      compile(declarations, 'Payment', literal({ ...(decoded as object), amount: { currency: 1 } })).length,
    ).toBeGreaterThan(0)
    // Without the import at hand: an error naming it, never a type left `unknown`.
    expect(() => protobufToTypeScript(payment, {}, 'payment.proto')).toThrow(
      expect.objectContaining({
        name: 'MissingImportError',
        imports: ['shop/common/money.proto'],
        importers: ['payment.proto'],
      }),
    )
  })
})

describe('JSON Schema types', () => {
  it('match what JsonSchemaDeserializer returns, integers beyond 2^53 as bigint', async () => {
    const schema = {
      title: 'com.example.Payment',
      type: 'object',
      properties: {
        id: { type: 'integer' },
        cents: { type: 'integer' },
        currency: { enum: ['EUR', 'USD'] },
        tags: { type: 'array', items: { type: 'string' } },
        payer: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        note: { type: ['string', 'null'] },
      },
      required: ['id', 'cents', 'currency'],
    }
    const serializer = new JsonSchemaSerializer(client, 'payments-json', { autoRegister: true, schema })
    const decoded = await new JsonSchemaDeserializer(client).deserialize(
      await serializer.serialize(
        { id: 9007199254740993n, cents: 5, currency: 'EUR', tags: ['a'], payer: { name: 'p' }, note: null },
        ctx,
      ),
      ctx,
    )
    const declarations = await jsonSchemaToTypeScript(schema)
    expect(compile(declarations, 'Payment', literal(decoded))).toEqual([])
    expect(
      compile(declarations, 'Payment', literal({ ...(decoded as object), currency: 'GBP' })).length,
    ).toBeGreaterThan(0)
  })
})
