import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { isSerdeError } from '@x/errors'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ApicurioSchemaRegistry, KafkaJsSerde } from '@x/kafka'
import { AnyDeserializer, AnySerializer } from '@x/message-contract'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import {
  decodeFrame,
  decodeIdHeader,
  encodeFrame,
  encodeIdHeader,
  SerializationContext,
} from '@x/wire-format'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { propertyTests, READ_PROPERTIES, WRITE_PROPERTIES } from './support/entry-tests.js'
import { bigFrame, byteInputs, deepAvroFrame, deepProtoFrame, hostileJsonTexts } from './support/frames.js'
import {
  chain,
  cycles,
  DEPTHS,
  deepObject,
  difference,
  HOSTILE_BIGINTS,
  HOSTILE_NUMBERS,
  hostileKey,
  hostileRecord,
  hostileValue,
  ownObject,
  PROTOTYPE_NAMES,
  preview,
  sameValue,
  samples,
  sizeOf,
} from './support/hostile.js'
import {
  ANY_JSON_SCHEMA,
  cyclicEdge,
  deepEdge,
  EDGE_PROTO,
  EDGE_SCHEMA,
  edgeValue,
  jsonValue,
  protoValue,
} from './support/hostile-schemas.js'
import { EntryPoint } from './support/probe.js'
import { count, recordFigures } from './support/scale.js'

// Hostile input at every serializer and deserializer (Avro, JSON Schema, Protobuf; sync and async), AnySerializer and
// AnyDeserializer, the adapters' read paths (KafkaJsSerde#decodeMessage, ApicurioSchemaRegistry's hook and
// deserializers, fed in-memory messages) and the wire format. Each input must end in a value or one of the
// library's errors, a data fault must be poison on a read path, no input up to 64 KiB may hold the event loop, what
// is written must read back exactly, and Object.prototype must stay as it was.

const SEED = Number(process.env.RELIABILITY_SEED ?? 20_261_207)
const N = count('hostileSerdes')
const figures: Record<string, string | number> = {}
let registry: InMemoryRegistry
let client: RegistryClient

const avroCtx = new SerializationContext('hostile-edge')
const jsonCtx = new SerializationContext('hostile-json')
const protoCtx = new SerializationContext('hostile-proto')

interface Format {
  name: 'Avro' | 'JSON Schema' | 'Protobuf'
  ctx: SerializationContext
  writer: { serializeSync(value: unknown, ctx: SerializationContext): Uint8Array }
  asyncWriter: { serialize(value: unknown, ctx: SerializationContext): Promise<Uint8Array> }
  reader: {
    deserializeSync(bytes: Uint8Array, ctx: SerializationContext): unknown
    deserialize(bytes: Uint8Array, ctx: SerializationContext): Promise<unknown>
  }
  frames: Buffer[]
  extra: Buffer[]
  /** Values every run writes first: nesting beyond the stack, cycles. */
  crafted: { value: unknown; exact: boolean }[]
  /** Values to write: valid ones (`exact`: they must read back as given) and wrong-shaped ones. */
  values: fc.Arbitrary<{ value: unknown; exact: boolean }>
  /** The part of a read-back value to compare with a valid value written. */
  project(readBack: unknown, written: unknown): unknown
  /** Whether −0 must read back as −0 (false: −0 and 0 compare equal). */
  signedZero: boolean
  /**
   * Whether a value the deserializer read may be one its serializer refuses (INVALID_DATA), so that writing it back
   * does not succeed: allowed for such a value only.
   */
  unwritable?(value: unknown): boolean
}

let formats: Format[] = []

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  // retries only for a kept-alive connection the registry closed meanwhile (it injects no faults here)
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 2, retryBackoffMs: 1 })
  formats = [await avroFormat(), await jsonFormat(), await protoFormat()]
})

afterAll(async () => {
  await client.close()
  await registry.close()
  recordFigures('hostile-serdes', figures)
})

async function avroFormat(): Promise<Format> {
  const writer = new AvroSerializer(client, 'hostile-edge-value', { autoRegister: true, schema: EDGE_SCHEMA })
  const strict = new AvroSerializer(client, 'hostile-edge-value', {
    autoRegister: true,
    schema: EDGE_SCHEMA,
    strict: true,
  })
  await writer.prepare(avroCtx)
  await strict.prepare(avroCtx)
  const reader = new AvroDeserializer(client)
  let writes = 0
  const frames = [
    Buffer.from(writer.serializeSync(deepEdge(1), avroCtx)),
    Buffer.from(writer.serializeSync(deepEdge(3), avroCtx)),
    Buffer.from(
      writer.serializeSync(
        { ...deepEdge(2), s: 'x\uD83D\uDE00', m: ownObject([['__proto__', 1n]]), a: ['toString'], n: 'y' },
        avroCtx,
      ),
    ),
  ]
  await reader.prepare((frames[0] as Buffer).readUInt32BE(1))
  const header = (frames[0] as Buffer).subarray(0, 5)
  const fields = EDGE_SCHEMA.fields.map((field) => field.name)
  const wrong = fc
    .tuple(
      edgeValue,
      fc.array(fc.tuple(fc.constantFrom(...fields, ...PROTOTYPE_NAMES), hostileValue), {
        minLength: 1,
        maxLength: 3,
      }),
    )
    .map(([valid, replaced]) => {
      const value = ownObject(Object.entries(valid))
      for (const [field, item] of replaced)
        Object.defineProperty(value, field, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        })
      return value
    })
  return {
    name: 'Avro',
    ctx: avroCtx,
    // half the writes are strict: extra fields (prototype-named ones included) are then refused
    writer: {
      serializeSync: (value, ctx) => {
        writes += 1
        return (writes % 2 === 0 ? strict : writer).serializeSync(value, ctx)
      },
    },
    asyncWriter: writer,
    reader,
    frames,
    extra: [
      ...DEPTHS.map((depth) => deepAvroFrame(header, depth)),
      bigFrame(header, SEED),
      Buffer.concat([header, Buffer.alloc(0)]),
    ],
    values: fc.oneof(
      { weight: 3, arbitrary: edgeValue.map((value) => ({ value, exact: true })) },
      { weight: 4, arbitrary: wrong.map((value) => ({ value, exact: false })) },
      { weight: 1, arbitrary: hostileRecord.map((value) => ({ value, exact: false })) },
      { weight: 1, arbitrary: hostileValue.map((value) => ({ value, exact: false })) },
    ),
    crafted: [
      ...DEPTHS.map((depth) => ({ value: deepEdge(depth), exact: true })),
      { value: cyclicEdge(), exact: false },
    ],
    project: (readBack) => readBack,
    signedZero: true,
  }
}

async function jsonFormat(): Promise<Format> {
  const writer = new JsonSchemaSerializer(client, 'hostile-json-value', {
    autoRegister: true,
    schema: ANY_JSON_SCHEMA,
  })
  await writer.prepare(jsonCtx)
  const reader = new JsonSchemaDeserializer(client, { validate: true })
  const frames = [
    Buffer.from(writer.serializeSync({ id: 9007199254740993n, lines: [{ sku: 'a' }], note: null }, jsonCtx)),
    Buffer.from(writer.serializeSync(ownObject([['__proto__', { a: [1, 'x'] }]]), jsonCtx)),
  ]
  await reader.prepare((frames[0] as Buffer).readUInt32BE(1))
  const header = (frames[0] as Buffer).subarray(0, 5)
  return {
    name: 'JSON Schema',
    ctx: jsonCtx,
    writer,
    asyncWriter: writer,
    reader,
    frames,
    extra: [
      ...hostileJsonTexts().map((text) => Buffer.concat([header, Buffer.from(text)])),
      bigFrame(header, SEED),
    ],
    values: fc.oneof(
      { weight: 3, arbitrary: jsonValue.map((value) => ({ value, exact: true })) },
      { weight: 2, arbitrary: hostileRecord.map((value) => ({ value, exact: false })) },
      { weight: 2, arbitrary: hostileValue.map((value) => ({ value, exact: false })) },
    ),
    crafted: [
      ...DEPTHS.flatMap((depth) => [deepObject(depth), deepObject(depth, '__proto__')]).map((value) => ({
        value,
        exact: true,
      })),
      ...cycles().map((value) => ({ value, exact: false })),
    ],
    project: (readBack) => readBack,
    // −0 is written as 0: JSON Schema's numeric equality holds them equal (the serde documents this one exception)
    signedZero: false,
    // JSON.parse reads 1e400 as Infinity, and nesting of any depth where the text has no long integer; the writer
    // refuses both (JSON has no Infinity; its reader's exact parser stops at 1000 levels)
    unwritable: (value) => !finiteAndShallow(value, 0),
  }
}

async function protoFormat(): Promise<Format> {
  const writer = new ProtobufSerializer(client, 'hostile-proto-value', {
    autoRegister: true,
    schema: EDGE_PROTO,
  })
  await writer.prepare(protoCtx)
  const reader = new ProtobufDeserializer(client)
  const empty = Buffer.from(writer.serializeSync({}, protoCtx))
  const frames = [
    empty,
    Buffer.from(
      writer.serializeSync(
        {
          id: 2n ** 62n,
          lines: [{ sku: 'a', qty: 2, price: 1.5 }],
          counts: ownObject([
            ['__proto__', 1],
            ['toString', 2],
          ]),
          card: '4111',
          child: { id: 1, child: { card: 'x' } },
        },
        protoCtx,
      ),
    ),
  ]
  await reader.prepare(empty.readUInt32BE(1))
  let nested: Record<string, unknown> = { id: 1 }
  const deepMessages = DEPTHS.map((depth) => {
    nested = { id: 1 }
    for (let i = 0; i < depth; i++) nested = { child: nested }
    return nested
  })
  const cyclic: Record<string, unknown> = { id: 1 }
  cyclic.child = cyclic
  const fields = ['id', 'lines', 'counts', 'card', 'child']
  const wrong = fc
    .tuple(
      protoValue,
      fc.array(fc.tuple(fc.constantFrom(...fields, ...PROTOTYPE_NAMES), hostileValue), {
        minLength: 1,
        maxLength: 3,
      }),
    )
    .map(([valid, replaced]) => {
      const value = ownObject(Object.entries(valid))
      for (const [field, item] of replaced)
        Object.defineProperty(value, field, {
          value: item,
          enumerable: true,
          writable: true,
          configurable: true,
        })
      return value
    })
  return {
    name: 'Protobuf',
    ctx: protoCtx,
    writer,
    asyncWriter: writer,
    reader,
    frames,
    extra: [...DEPTHS.map((depth) => deepProtoFrame(empty, depth)), bigFrame(empty, SEED)],
    values: fc.oneof(
      { weight: 3, arbitrary: protoValue.map((value) => ({ value, exact: true })) },
      { weight: 4, arbitrary: wrong.map((value) => ({ value, exact: false })) },
      { weight: 1, arbitrary: hostileRecord.map((value) => ({ value, exact: false })) },
      { weight: 1, arbitrary: hostileValue.map((value) => ({ value, exact: false })) },
    ),
    crafted: [...deepMessages, cyclic].map((value) => ({ value, exact: false })),
    project: (readBack, written) =>
      typeof readBack === 'object' && readBack !== null && typeof written === 'object' && written !== null
        ? Object.fromEntries(
            Object.keys(written).map((key) => [key, (readBack as Record<string, unknown>)[key]]),
          )
        : readBack,
    signedZero: true,
  }
}

/** Whether a value read from JSON holds only finite numbers and nests at most 1000 arrays and objects deep. */
function finiteAndShallow(value: unknown, depth: number): boolean {
  if (typeof value === 'number') return Number.isFinite(value)
  if (typeof value !== 'object' || value === null) return true
  if (depth >= 1000) return false
  return Object.values(value).every((item) => finiteAndShallow(item, depth + 1))
}

/** A serializer's write, then the checks of what it wrote: read back exactly, and written again byte for byte. */
async function writeAndCheck(
  entry: EntryPoint,
  format: Format,
  input: { value: unknown; exact: boolean },
  write: () => Uint8Array | Promise<Uint8Array>,
): Promise<void> {
  const outcome = await entry.probe(input.value, sizeOf(input.value), write)
  if (!outcome.ok) return
  const bytes = Buffer.from(outcome.value)
  let back: unknown
  try {
    back = format.reader.deserializeSync(bytes, format.ctx)
  } catch (error) {
    entry.find('roundTrip', input.value, `written, then not read back: ${String(error).slice(0, 160)}`)
    return
  }
  if (input.exact && !sameValue(format.project(back, input.value), input.value, 0, format.signedZero)) {
    entry.find(
      'roundTrip',
      input.value,
      `read back changed: ${difference(format.project(back, input.value), input.value, '$', format.signedZero)}`,
    )
    return
  }
  try {
    const again = Buffer.from(format.writer.serializeSync(back, format.ctx))
    if (!again.equals(bytes))
      entry.find(
        'roundTrip',
        input.value,
        `rewritten as other bytes: ${again.toString('hex').slice(0, 80)} vs ${bytes.toString('hex').slice(0, 80)}`,
      )
  } catch (error) {
    entry.find(
      'roundTrip',
      input.value,
      `read back as ${preview(back)}, which is refused: ${String(error).slice(0, 160)}`,
    )
  }
}

/** A deserializer's read, then the check that what it read writes and reads back the same. */
async function readAndCheck(
  entry: EntryPoint,
  format: Format,
  bytes: Buffer,
  read: () => unknown | Promise<unknown>,
): Promise<void> {
  const outcome = await entry.probe(bytes, bytes.length, read)
  if (!outcome.ok || bytes.readUInt32BE(1) !== (format.frames[0] as Buffer).readUInt32BE(1)) return
  try {
    const again = format.reader.deserializeSync(
      format.writer.serializeSync(outcome.value, format.ctx),
      format.ctx,
    )
    if (!sameValue(again, outcome.value, 0, format.signedZero)) {
      entry.find(
        'roundTrip',
        bytes,
        `read, written and read again changed: ${difference(again, outcome.value, '$', format.signedZero)}`,
      )
    }
  } catch (error) {
    // a value the serializer refuses to write is allowed only where the format says its reader reads such values
    if ((error as { code?: unknown }).code === 'INVALID_DATA' && format.unwritable?.(outcome.value) === true)
      return
    entry.find(
      'roundTrip',
      bytes,
      `read as ${preview(outcome.value)}, which is not written back: ${String(error).slice(0, 160)}`,
    )
  }
}

/** A deserializer's sync API before `prepare` for an id is misuse, not a data fault: the caller prepares first. */
const notPrepared = (error: unknown) => isSerdeError(error, 'NOT_PREPARED')

const entries = new Map<string, EntryPoint>()
function entryPoint(name: string, read: boolean, excuse?: (error: unknown) => boolean): EntryPoint {
  const entry = new EntryPoint(name, { read, ...(excuse === undefined ? {} : { excuse }) })
  entries.set(name, entry)
  return entry
}
const get = (name: string) => () => entries.get(name) as EntryPoint

for (const [index, name] of (['Avro', 'JSON Schema', 'Protobuf'] as const).entries()) {
  const format = () => formats[index] as Format

  describe(`${name} serializer, serializeSync`, () => {
    it(`writes ${N} hostile values`, async () => {
      const entry = entryPoint(`${name} serializeSync`, false)
      for (const input of chain(format().crafted, samples(format().values, N, SEED + index))) {
        await writeAndCheck(entry, format(), input, () =>
          format().writer.serializeSync(input.value, format().ctx),
        )
      }
      Object.assign(figures, entry.figures())
    })
    propertyTests(get(`${name} serializeSync`), WRITE_PROPERTIES)
  })

  describe(`${name} serializer, serialize`, () => {
    it(`writes ${N} hostile values`, async () => {
      const entry = entryPoint(`${name} serialize`, false)
      for (const input of chain(format().crafted, samples(format().values, N, SEED + 10 + index))) {
        await writeAndCheck(entry, format(), input, () =>
          format().asyncWriter.serialize(input.value, format().ctx),
        )
      }
      Object.assign(figures, entry.figures())
    })
    propertyTests(get(`${name} serialize`), WRITE_PROPERTIES)
  })

  describe(`${name} deserializer, deserializeSync`, () => {
    it(`reads ${N} hostile frames`, async () => {
      const entry = entryPoint(`${name} deserializeSync`, true, notPrepared)
      for (const bytes of chain(
        format().extra,
        samples(byteInputs(format().frames, format().extra), N, SEED + 20 + index),
      )) {
        await readAndCheck(entry, format(), bytes, () => format().reader.deserializeSync(bytes, format().ctx))
      }
      Object.assign(figures, entry.figures())
    })
    propertyTests(get(`${name} deserializeSync`), READ_PROPERTIES)
  })

  describe(`${name} deserializer, deserialize`, () => {
    it(`reads ${N} hostile frames`, async () => {
      const entry = entryPoint(`${name} deserialize`, true)
      for (const bytes of chain(
        format().extra,
        samples(byteInputs(format().frames, format().extra), N, SEED + 30 + index),
      )) {
        await readAndCheck(entry, format(), bytes, () => format().reader.deserialize(bytes, format().ctx))
      }
      Object.assign(figures, entry.figures())
    })
    propertyTests(get(`${name} deserialize`), READ_PROPERTIES)
  })
}

describe('AnySerializer', () => {
  it(`writes ${N} hostile values of every format, sync and async`, async () => {
    const entry = entryPoint('AnySerializer', false)
    const any = new AnySerializer(client)
    for (const format of formats) await any.prepare(format.ctx)
    const inputs = fc
      .nat({ max: 2 })
      .chain((i) =>
        (formats[i] as Format).values.map((input) => ({ ...input, format: formats[i] as Format })),
      )
    let i = 0
    for (const input of samples(inputs, N, SEED + 40)) {
      const sync = i++ % 2 === 0
      await writeAndCheck(entry, input.format, input, () =>
        sync
          ? any.serializeSync(input.value, input.format.ctx)
          : any.serialize(input.value, input.format.ctx),
      )
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('AnySerializer'), WRITE_PROPERTIES)
})

/** Frames of every format, mutated and crafted. */
const anyFrames = () => fc.oneof(...formats.map((format) => byteInputs(format.frames, format.extra)))

describe('AnyDeserializer', () => {
  it(`reads ${N} hostile frames of every format, sync and async`, async () => {
    const entry = entryPoint('AnyDeserializer', true, notPrepared)
    const any = new AnyDeserializer(client)
    for (const format of formats) await any.prepare((format.frames[0] as Buffer).readUInt32BE(1))
    let i = 0
    for (const bytes of samples(anyFrames(), N, SEED + 50)) {
      const sync = i++ % 2 === 0
      const format = formats.find(
        (f) => bytes.length >= 5 && bytes.readUInt32BE(1) === (f.frames[0] as Buffer).readUInt32BE(1),
      )
      const read = () => (sync ? any.deserializeSync(bytes, jsonCtx) : any.deserialize(bytes, jsonCtx))
      if (format === undefined) await entry.probe(bytes, bytes.length, read)
      else await readAndCheck(entry, format, bytes, read)
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('AnyDeserializer'), READ_PROPERTIES)
})

/** Header names a consumer meets: Apicurio's and Confluent's id headers, the encoding header, prototype names. */
const headerName = fc.oneof(
  fc.constantFrom(
    'apicurio.value.globalId',
    'apicurio.value.contentId',
    'apicurio.key.globalId',
    'apicurio.value.encoding',
    '__value_schema_id',
    '__key_schema_id',
  ),
  hostileKey,
)
const headerBytes = fc.oneof(
  fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom(1, 2, 3, 4, 5, 6, 2 ** 31, 0).map((id) => Buffer.from(encodeIdHeader(id))),
  fc.constantFrom(Buffer.from('JSON'), Buffer.from('BINARY'), Buffer.from([0, 0, 0, 0, 1])),
)
const headerValue = fc.oneof(
  headerBytes,
  fc.string({ maxLength: 8 }),
  fc.array(fc.oneof(headerBytes, fc.string({ maxLength: 4 })), { maxLength: 3 }),
  fc.constant(undefined),
)
const headerEntries = fc.array(fc.tuple(headerName, headerValue), { maxLength: 4 })

describe('KafkaJsSerde#decodeMessage', () => {
  it(`reads ${N} hostile messages`, async () => {
    const entry = entryPoint('KafkaJsSerde#decodeMessage', true)
    const serde = new KafkaJsSerde(client)
    const messages = fc.record({
      key: fc.option(
        fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes)),
        { nil: null },
      ),
      value: fc.option(anyFrames(), { nil: null, freq: 10 }),
      headers: headerEntries.map((entries) => ownObject(entries)),
    })
    for (const message of samples(messages, N, SEED + 60)) {
      const consumed = { ...message, offset: '7', timestamp: '0' } as Parameters<
        typeof serde.decodeMessage
      >[2]
      await entry.probe(message, (message.value?.length ?? 0) + 64, () =>
        serde.decodeMessage('hostile-edge', 0, consumed),
      )
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('KafkaJsSerde#decodeMessage'), ['error', 'poison', 'time', 'prototype'], {})
})

describe("ApicurioSchemaRegistry's deserialization hook and deserializers", () => {
  it(`reads ${N} hostile messages`, async () => {
    const entry = entryPoint('ApicurioSchemaRegistry deserializers', true)
    const reader = new ApicurioSchemaRegistry(client)
    const hook = reader.getBeforeDeserializationHook()
    const deserializers = reader.getDeserializers()
    const messages = fc.record({
      key: fc.option(
        fc.uint8Array({ maxLength: 16 }).map((bytes) => Buffer.from(bytes)),
        { nil: null },
      ),
      value: fc.option(anyFrames(), { nil: null, freq: 10 }),
      headers: fc.array(
        fc.tuple(
          hostileKey.map((name) => name),
          headerBytes,
        ),
        { maxLength: 4 },
      ),
    })
    for (const message of samples(messages, N, SEED + 70)) {
      const headers = new Map<unknown, unknown>(message.headers)
      const raw = { topic: 'hostile-edge', partition: 0, key: message.key, value: message.value, headers }
      await entry.probe(message, (message.value?.length ?? 0) + 64, async () => {
        for (const [payload, type] of [
          [message.key, 'key'],
          [message.value, 'value'],
        ] as const) {
          await new Promise<void>((resolve, reject) =>
            hook(payload, type, raw, (error) =>
              error === null || error === undefined ? resolve() : reject(error),
            ),
          )
        }
        const meta: { topic: string; metadata?: Record<string, unknown> } = { topic: 'hostile-edge' }
        return [
          deserializers.key(message.key ?? undefined, headers, meta),
          deserializers.value(message.value ?? undefined, headers, meta),
        ]
      })
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('ApicurioSchemaRegistry deserializers'), ['error', 'poison', 'time', 'prototype'])
})

const hostileId: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    ...HOSTILE_NUMBERS,
    ...HOSTILE_BIGINTS,
    0,
    1,
    2 ** 32 - 1,
    2 ** 32,
    '1',
    '',
    null,
    undefined,
    {},
  ),
  fc.nat(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
)

describe('wire format, decodeFrame and decodeIdHeader', () => {
  it(`reads ${N} hostile byte strings`, async () => {
    const entry = entryPoint('wire format decode', true)
    const inputs = fc.tuple(
      fc.oneof(fc.uint8Array({ maxLength: 24 }), anyFrames()),
      fc.constantFrom(4, 8, 'auto'),
      fc.boolean(),
    )
    for (const [bytes, idSize, frame] of samples(inputs, N, SEED + 80)) {
      const input = { bytes, idSize }
      const outcome = await entry.probe(input, bytes.length, () =>
        frame ? decodeFrame(bytes, { idSize: idSize as 4 }) : decodeIdHeader(bytes),
      )
      if (!outcome.ok) continue
      if (frame) {
        const decoded = outcome.value as ReturnType<typeof decodeFrame>
        const again = Buffer.from(encodeFrame(decoded.schemaId, decoded.payload, { idSize: decoded.idSize }))
        if (!again.equals(Buffer.from(bytes)))
          entry.find('roundTrip', input, `written back as ${again.toString('hex').slice(0, 60)}`)
      } else {
        const again = Buffer.from(encodeIdHeader(outcome.value as number))
        if (!again.equals(Buffer.from(bytes)))
          entry.find('roundTrip', input, `written back as ${again.toString('hex')}`)
      }
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('wire format decode'), READ_PROPERTIES)
})

describe('wire format, encodeFrame and encodeIdHeader', () => {
  it(`writes ${N} hostile ids and payloads`, async () => {
    const entry = entryPoint('wire format encode', false)
    const inputs = fc.tuple(
      hostileId,
      fc.oneof(fc.uint8Array({ maxLength: 16 }), hostileValue),
      fc.constantFrom(4, 8, undefined, 16, 'auto', '8'),
      fc.boolean(),
    )
    for (const [id, payload, idSize, frame] of samples(inputs, N, SEED + 90)) {
      const input = { id, payload, idSize }
      const outcome = await entry.probe(input, sizeOf(payload), () =>
        frame
          ? encodeFrame(id as number, payload as Uint8Array, { idSize: idSize as 4 })
          : encodeIdHeader(id as number),
      )
      if (!outcome.ok) continue
      // an id is a number while safe, a bigint beyond; −0 is the id 0
      const expected =
        typeof id === 'bigint' && id >= -(2n ** 53n) && id <= 2n ** 53n ? Number(id) : id === 0 ? 0 : id
      try {
        if (frame) {
          const decoded = decodeFrame(outcome.value, { idSize: idSize as 4 })
          if (
            !sameValue(decoded.schemaId, expected) ||
            !Buffer.from(decoded.payload).equals(Buffer.from(payload as Uint8Array))
          ) {
            entry.find('roundTrip', input, `read back as ${preview(decoded)}`)
          }
        } else {
          const back = decodeIdHeader(outcome.value)
          if (!sameValue(back, expected)) entry.find('roundTrip', input, `read back as ${preview(back)}`)
        }
      } catch (error) {
        entry.find('roundTrip', input, `written, then not read back: ${String(error).slice(0, 160)}`)
      }
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('wire format encode'), WRITE_PROPERTIES)
})

describe('after every input', () => {
  it('ran every entry point', () => {
    expect(entries.size).toBe(18)
  })
})
