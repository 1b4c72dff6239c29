import fc from 'fast-check'
import protobuf from 'protobufjs'
import { describe, expect, test } from 'vitest'
import { FastReader } from './fast-reader.js'

const root = protobuf.parse(`syntax = "proto3";
message S { string s = 1; repeated string more = 2; }
message B { bytes s = 1; repeated bytes more = 2; }
`).root
const proto2 = protobuf.parse(`syntax = "proto2";
message S2 { optional string s = 1; }
`).root
const S = root.lookupType('S')
const B = root.lookupType('B')
const S2 = proto2.lookupType('S2')

/** What decoding gives: the value, or the error's class and message. */
function outcome(decode: () => unknown): unknown {
  try {
    return { value: decode() }
  } catch (error) {
    return { error: (error as Error).name, message: (error as Error).message }
  }
}

describe('FastReader reads what protobufjs reads', () => {
  test("strings of any bytes up to 20 long, proto3 (verified UTF-8) and proto2, as protobufjs's own reader does", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 20 }),
        fc.array(fc.uint8Array({ maxLength: 14 }), { maxLength: 3 }),
        fc.boolean(),
        (raw, more, ascii) => {
          const pick = (b: Uint8Array) => (ascii ? b.map((x) => x & 0x7f) : b)
          const bytes = Buffer.from(B.encode({ s: pick(raw), more: more.map(pick) }).finish())
          const plain = (type: protobuf.Type) => outcome(() => type.toObject(type.decode(bytes)))
          const fast = (type: protobuf.Type) =>
            outcome(() => type.toObject(type.decode(new FastReader(bytes))))
          expect(fast(S)).toEqual(plain(S))
          expect(fast(S2)).toEqual(plain(S2))
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    )
  })

  test('a string cut short, or whose length runs past the message, fails as protobufjs fails', () => {
    const whole = Buffer.from(S.encode({ s: 'abcdef' }).finish())
    for (let cut = 1; cut < whole.length; cut++) {
      const bytes = whole.subarray(0, cut)
      expect(
        outcome(() => S.decode(new FastReader(bytes))),
        `cut at ${cut}`,
      ).toEqual(outcome(() => S.decode(bytes)))
    }
    const invalid = Buffer.from([0x0a, 0x02, 0xc3, 0x28])
    const fast = outcome(() => S.decode(new FastReader(invalid)))
    expect(fast).toEqual(outcome(() => S.decode(invalid)))
    expect(fast).toHaveProperty('error')
  })
})
