import { describe, expect, it } from 'vitest'
import { type ProtoSchema, parseProto } from './proto-schema.js'
import { ProtobufCodec, type ReadOptions } from './protobuf-codec.js'
import type { LongMode } from './values.js'

/** A 64-bit value that is read back as a number when safe: still a protobufjs `Long` when it was not finished. */
const isLong = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && 'low' in value && 'high' in value

/** The paths of every `Long` left over in a read value. */
function leftoverLongs(value: unknown, path = '$', out: string[] = []): string[] {
  if (isLong(value)) out.push(path)
  else if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) leftoverLongs(item, `${path}[${i}]`, out)
  } else if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) leftoverLongs(item, `${path}.${key}`, out)
  }
  return out
}

const MUTUAL = `syntax = "proto3";
message A { B b = 1; int64 v = 2; }
message B { A a = 1; }
`

/** Three messages in one cycle, the 64-bit field in the last one reached, reached through lists and maps too. */
const TRIANGLE = `syntax = "proto3";
message P { Q q = 1; repeated Q qs = 2; }
message Q { map<string, R> rs = 1; }
message R { P p = 1; uint64 u = 2; repeated sint64 many = 3; }
`

function codecOf(
  schema: string | ProtoSchema,
  messageType: string,
  read: Partial<ReadOptions> = {},
): ProtobufCodec {
  return new ProtobufCodec(
    typeof schema === 'string' ? parseProto(schema) : schema,
    'confluent',
    { longs: 'auto', enums: 'name', defaults: false, unknownFields: 'drop', ...read },
    { messageType, framing: 'confluent' },
  )
}

function roundTrip(codec: ProtobufCodec, value: unknown): unknown {
  const target = Buffer.alloc(1 << 16)
  const end = codec.encodeInto(value, target, 0)
  expect(end).toBeGreaterThan(0)
  return codec.decode(target, 0, end)
}

/** `A` nested `depth` times through `B`, each level with its own `v`. */
function chain(depth: number, v: (level: number) => number | bigint): Record<string, unknown> {
  let value: Record<string, unknown> = { v: v(depth) }
  for (let level = depth - 1; level >= 0; level--) value = { v: v(level), b: { a: value } }
  return value
}

const MODES: readonly [LongMode, (n: bigint) => number | bigint][] = [
  [
    'auto',
    (n) => (n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= -BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n),
  ],
  ['number', (n) => Number(n)],
  ['bigint', (n) => n],
]

describe('64-bit values under mutually recursive messages', () => {
  for (const [longs, expected] of MODES) {
    for (const unknownFields of ['drop', 'keep'] as const) {
      it(`reads b.a.v of A { B b; int64 v } / B { A a } as ${longs === 'bigint' ? 'a bigint' : 'a number'} with longs '${longs}', unknown fields ${unknownFields}`, () => {
        const codec = codecOf(MUTUAL, 'A', { longs, unknownFields })
        expect(roundTrip(codec, { v: 1, b: { a: { v: 2 } } })).toEqual({
          v: expected(1n),
          b: { a: { v: expected(2n) } },
        })
      })
    }
  }

  it('finishes every level of a 40-deep A → B → A chain, whichever message of the cycle is planned first', () => {
    const v = (level: number): bigint => 2n ** 40n + BigInt(level)
    for (const first of ['A', 'B']) {
      // One parse for both codecs: the plans of its types are built from the codec made first.
      const schema = parseProto(MUTUAL)
      const codecs = new Map<string, ProtobufCodec>()
      for (const name of first === 'A' ? ['A', 'B'] : ['B', 'A']) codecs.set(name, codecOf(schema, name))
      const read = roundTrip(codecs.get('A')!, chain(40, v))
      expect(leftoverLongs(read)).toEqual([])
      expect(read).toEqual(chain(40, (level) => Number(v(level))))
      expect(roundTrip(codecs.get('B')!, { a: { v: 5n, b: { a: { v: 6n } } } })).toEqual({
        a: { v: 5, b: { a: { v: 6 } } },
      })
    }
  })

  it('finishes a three-message cycle through a list and a map, in every longs mode, beyond 2^53 as bigints', () => {
    const big = 2n ** 63n + 7n
    const value = {
      q: { rs: { x: { u: 3, many: [-1, 2], p: { qs: [{ rs: { y: { u: big, many: [-(2n ** 60n)] } } }] } } } },
    }
    const asRead = (longs: LongMode): unknown => roundTrip(codecOf(TRIANGLE, 'P', { longs }), value)
    expect(asRead('auto')).toEqual(value)
    expect(leftoverLongs(asRead('auto'))).toEqual([])
    expect(asRead('bigint')).toEqual({
      q: {
        rs: { x: { u: 3n, many: [-1n, 2n], p: { qs: [{ rs: { y: { u: big, many: [-(2n ** 60n)] } } }] } } },
      },
    })
    expect(() => asRead('number')).toThrow(RangeError)
    const small = { q: { rs: { x: { u: 3, p: { q: { rs: { y: { u: 4, many: [5] } } } } } } } }
    expect(roundTrip(codecOf(TRIANGLE, 'P', { longs: 'number' }), small)).toEqual(small)
  })

  it('finishes the cycle when the message read first is the one that holds no 64-bit field itself', () => {
    const codec = codecOf(TRIANGLE, 'Q')
    const read = roundTrip(codec, { rs: { k: { p: { q: { rs: { z: { u: 2n ** 62n } } } } } } })
    expect(read).toEqual({ rs: { k: { p: { q: { rs: { z: { u: 2n ** 62n } } } } } } })
  })
})
