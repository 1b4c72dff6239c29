import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mutate, Random } from './support/random.js'
import { count, describeError, heapAfterGc, isLibraryError, MB, recordFigures } from './support/scale.js'
import { JSON_SCHEMA, PROTO_SCHEMA, RICH_SCHEMA, richValue } from './support/schemas.js'

// Decoding hostile bytes: random, truncated and mutated frames of a schema with every Avro type, logical types and
// longs beyond 2^53 (and of a JSON Schema and a .proto). Each input must end, fast, in one of the library's own
// errors or a value; nothing may hang, allocate what a length claims, or touch Object.prototype.

const ctx = new SerializationContext('fuzz')
let registry: InMemoryRegistry
let client: RegistryClient
const figures: Record<string, string | number> = {}
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort()

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
})

afterAll(async () => {
  await client.close()
  await registry.close()
  recordFigures('fuzz-decode', figures)
})

interface Outcome {
  values: number
  errors: number
  slowestMs: number
  unexpected: string[]
}

/** Runs `decode` on every input, timing each, and sorts the outcomes. */
function fuzz(inputs: Iterable<Buffer>, decode: (bytes: Buffer) => unknown): Outcome {
  const outcome: Outcome = { values: 0, errors: 0, slowestMs: 0, unexpected: [] }
  for (const input of inputs) {
    const started = performance.now()
    try {
      decode(input)
      outcome.values += 1
    } catch (error) {
      outcome.errors += 1
      if (!isLibraryError(error) && outcome.unexpected.length < 5) {
        outcome.unexpected.push(`${describeError(error)} for ${input.toString('hex').slice(0, 80)}`)
      }
    }
    outcome.slowestMs = Math.max(outcome.slowestMs, performance.now() - started)
  }
  return outcome
}

function* inputsFrom(random: Random, frames: readonly Buffer[], n: number): Generator<Buffer> {
  for (let i = 0; i < n; i++) {
    const kind = random.below(10)
    if (kind === 0) yield random.bytes(random.below(48))
    else if (kind === 1) yield Buffer.concat([Buffer.from([0, 0, 0, 0, 1]), random.bytes(random.below(200))])
    else yield mutate(random, random.pick(frames), kind < 8)
  }
}

describe('Avro', () => {
  it('decodes every mutated, truncated or random frame to a value or a library error, each in bounded time', async () => {
    const serializer = new AvroSerializer(client, 'fuzz-rich', { autoRegister: true, schema: RICH_SCHEMA })
    const frames = await Promise.all(
      [0, 1, 2, 3].map(async (i) => Buffer.from(await serializer.serialize(richValue(i), ctx))),
    )
    const deserializer = new AvroDeserializer(client)
    await deserializer.prepare(frames[0]!.readUInt32BE(1))
    const n = count('fuzzDecode')
    const random = new Random()
    const started = performance.now()
    const outcome = fuzz(inputsFrom(random, frames, n), (bytes) => deserializer.deserializeSync(bytes, ctx))
    const seconds = (performance.now() - started) / 1000
    expect(outcome.unexpected, `seed ${random.seed}`).toEqual([])
    expect(outcome.values + outcome.errors).toBe(n)
    expect(outcome.slowestMs).toBeLessThan(250)
    Object.assign(figures, {
      'avro inputs decoded (sync)': n,
      'avro inputs that were values / library errors': `${outcome.values} / ${outcome.errors}`,
      'avro slowest input (ms)': Number(outcome.slowestMs.toFixed(2)),
      'avro inputs per second': Math.round(n / seconds),
    })
  })

  it('looks up random ids at most once each, asks once more whether each is a contentId, and answers each unknown one with SchemaNotFoundError', async () => {
    const deserializer = new AvroDeserializer(client)
    const random = new Random(7)
    const ids = Array.from({ length: 300 }, () => 1_000_000 + random.below(1_000_000))
    registry.clearRequests()
    const results = await Promise.allSettled(
      ids.map((id) =>
        deserializer.deserialize(
          Buffer.from([0, (id >>> 24) & 0xff, (id >>> 16) & 0xff, (id >>> 8) & 0xff, id & 0xff, 0]),
          ctx,
        ),
      ),
    )
    for (const result of results) {
      expect(result.status).toBe('rejected')
      expect((result as PromiseRejectedResult).reason).toMatchObject({ name: 'SchemaNotFoundError' })
    }
    const distinct = new Set(ids).size
    const paths = registry.requests.map((request) => request.path)
    const lookups = paths.filter((path) => path.includes('/ids/globalIds/'))
    // A frame's id type is the reader's guess: an unknown id is asked once as the other type, for the error's hint.
    const hints = paths.filter((path) => path.includes('/ids/contentIds/'))
    expect(lookups.length).toBeLessThanOrEqual(distinct)
    expect(hints.length).toBeLessThanOrEqual(distinct)
    expect(lookups.length + hints.length).toBe(paths.length)
    figures['random ids looked up (async, all SchemaNotFoundError)'] = ids.length
  })

  it('refuses crafted length claims at once, without allocating what they claim', async () => {
    const serializer = new AvroSerializer(client, 'fuzz-claims', {
      autoRegister: true,
      schema: {
        type: 'record',
        name: 'Claims',
        fields: [
          { name: 's', type: 'string' },
          { name: 'nulls', type: { type: 'array', items: 'null' } },
          { name: 'm', type: { type: 'map', values: 'null' } },
        ],
      },
    })
    const frame = Buffer.from(await serializer.serialize({ s: '', nulls: [], m: {} }, ctx))
    const header = frame.subarray(0, 5)
    const deserializer = new AvroDeserializer(client)
    await deserializer.prepare(header.readUInt32BE(1))
    const varint = (n: bigint): Buffer => {
      const out: number[] = []
      let z = n >= 0n ? n << 1n : (-n << 1n) - 1n
      while (z >= 0x80n) {
        out.push(Number((z & 0x7fn) | 0x80n))
        z >>= 7n
      }
      out.push(Number(z))
      return Buffer.from(out)
    }
    const claims = [
      Buffer.concat([header, varint(2n ** 31n)]), // a 2 GiB string
      Buffer.concat([header, varint(2n ** 52n)]),
      Buffer.concat([header, varint(0n), varint(2n ** 40n)]), // 2^40 nulls (zero bytes each)
      Buffer.concat([header, varint(0n), varint(0n), varint(2n ** 40n)]), // a map of 2^40 entries
      Buffer.concat([header, varint(0n), varint(-(2n ** 40n)), varint(1n)]), // negative block count with a size
    ]
    let slowest = 0
    for (const claim of claims) {
      const before = await heapAfterGc()
      const started = performance.now()
      let caught: unknown
      try {
        deserializer.deserializeSync(claim, ctx)
      } catch (error) {
        caught = error
      }
      slowest = Math.max(slowest, performance.now() - started)
      expect(caught, claim.toString('hex')).toMatchObject({ name: 'DeserializationError' })
      expect(process.memoryUsage().heapUsed - before).toBeLessThan(16 * MB)
    }
    expect(slowest).toBeLessThan(100)
    figures['crafted length claims refused'] = claims.length
    figures['slowest crafted claim (ms)'] = Number(slowest.toFixed(2))
  })
})

describe('JSON Schema and Protobuf', () => {
  it('decode mutated and random frames to a value or a library error', async () => {
    const n = count('fuzzOtherFormats')
    const json = new JsonSchemaSerializer(client, 'fuzz-json', { autoRegister: true, schema: JSON_SCHEMA })
    const jsonFrames = [
      Buffer.from(
        await json.serialize({ id: 9007199254740993n, lines: [{ sku: 'a', qty: 2 }], note: null }, ctx),
      ),
      Buffer.from(await json.serialize({ id: 1, lines: [] }, ctx)),
    ]
    const jsonReader = new JsonSchemaDeserializer(client, { validate: true })
    await jsonReader.prepare(jsonFrames[0]!.readUInt32BE(1))
    const jsonOutcome = fuzz(inputsFrom(new Random(11), jsonFrames, n), (bytes) =>
      jsonReader.deserializeSync(bytes, ctx),
    )
    expect(jsonOutcome.unexpected).toEqual([])
    expect(jsonOutcome.slowestMs).toBeLessThan(250)

    const proto = new ProtobufSerializer(client, 'fuzz-proto', { autoRegister: true, schema: PROTO_SCHEMA })
    const protoFrames = [
      Buffer.from(
        await proto.serialize(
          {
            id: 2n ** 62n,
            lines: [{ sku: 'a', qty: 2, price: 1.5 }],
            counts: { x: 1 },
            card: '4111',
            kind: 'WEB',
          },
          ctx,
        ),
      ),
      Buffer.from(await proto.serialize({ id: 1, lines: [], counts: {}, token: Buffer.from([1, 2]) }, ctx)),
    ]
    const protoReader = new ProtobufDeserializer(client)
    await protoReader.prepare(protoFrames[0]!.readUInt32BE(1))
    const protoOutcome = fuzz(inputsFrom(new Random(13), protoFrames, n), (bytes) =>
      protoReader.deserializeSync(bytes, ctx),
    )
    expect(protoOutcome.unexpected).toEqual([])
    expect(protoOutcome.slowestMs).toBeLessThan(250)
    Object.assign(figures, {
      'json schema inputs decoded (values / library errors)': `${jsonOutcome.values} / ${jsonOutcome.errors}`,
      'protobuf inputs decoded (values / library errors)': `${protoOutcome.values} / ${protoOutcome.errors}`,
    })
  })
})

describe('after every input', () => {
  it('Object.prototype is untouched', () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })
})
