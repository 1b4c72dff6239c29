import fc from 'fast-check'
import { DEPTHS, deepJsonText, KIB64, PROTOTYPE_NAMES } from './hostile.js'
import { mutate, Random } from './random.js'

// Byte inputs for the read paths: frames written by the library, mutated (bit flips, cuts, insertions, tails), random
// bytes with and without a frame header, and crafted frames: nesting beyond the stack, 64 KiB payloads, JSON texts
// with prototype-named keys, numbers beyond int64 and escaped lone surrogates.

/** `count` varint bytes of the zig-zag-free length `n`. */
function varint(n: number): number[] {
  const out: number[] = []
  let rest = n
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80)
    rest = Math.floor(rest / 128)
  }
  out.push(rest)
  return out
}

/** An Avro Edge nested `depth` deep through its `child` union (`prefix` is a frame of the empty-child record). */
export function deepAvroFrame(prefix: Buffer, depth: number): Buffer {
  // an Edge with every field empty: s "", l 0, d 0.0 (8 bytes), b empty, m and a empty blocks, n null, e index 0
  const empty = [0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x00, 0x00]
  const parts: number[] = []
  for (let i = 0; i < depth; i++) parts.push(...empty, 0x02) // child: branch 1, another Edge
  parts.push(...empty, 0x00) // the last child: null
  return Buffer.concat([prefix, Buffer.from(parts)])
}

/** A Protobuf Edge nested `depth` deep through field 5 (`prefix`: the frame header and the Ref message). */
export function deepProtoFrame(prefix: Buffer, depth: number): Buffer {
  const lengths = [0]
  for (let i = 1; i <= depth; i++) {
    const inner = lengths[i - 1] as number
    lengths.push(1 + varint(inner).length + inner)
  }
  const out = Buffer.alloc(lengths[depth] as number)
  let at = 0
  for (let i = depth; i >= 1; i--) {
    out[at++] = 0x2a // field 5, length-delimited
    for (const byte of varint(lengths[i - 1] as number)) out[at++] = byte
  }
  return Buffer.concat([prefix, out])
}

/** JSON payloads that a parser may take for instructions or round. */
export function hostileJsonTexts(): string[] {
  const texts = [
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '{"a":{"__proto__":{"polluted":1},"b":[{"__proto__":null}]}}',
    '"\\ud800"',
    '{"\\udfff":"x\\ud83d"}',
    '1e400',
    '-1e400',
    '-0',
    '123456789012345678901234567890',
    '-9223372036854775809',
    '9223372036854775808',
    `"${'x'.repeat(KIB64 - 16)}"`,
    `[${new Array(10_000).fill('0').join(',')}]`,
  ]
  for (const name of PROTOTYPE_NAMES) texts.push(`{${JSON.stringify(name)}:1}`)
  for (const depth of DEPTHS) {
    texts.push(
      deepJsonText(depth, 'array'),
      deepJsonText(depth, 'object'),
      deepJsonText(depth, 'object', '__proto__'),
    )
  }
  return texts
}

/** Mutated frames, random bytes (framed or not) and the crafted `extra` frames. */
export function byteInputs(frames: readonly Buffer[], extra: readonly Buffer[]): fc.Arbitrary<Buffer> {
  const header = (frames[0] as Buffer).subarray(0, 5)
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.constantFrom(...frames), fc.boolean())
        .map(([seed, frame, keepHeader]) => mutate(new Random(seed), frame, keepHeader)),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 48 }).map((bytes) => Buffer.from(bytes)) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.concat([header, bytes])),
    },
    { weight: 1, arbitrary: fc.constantFrom(...frames, ...extra) },
  )
}

/** 64 KiB of random bytes after `header`. */
export function bigFrame(header: Buffer, seed: number): Buffer {
  return Buffer.concat([header.subarray(0, 5), new Random(seed).bytes(KIB64 - 5)])
}
