import { findNodeProblems } from '@x/serde-core/internal'
import protobuf from 'protobufjs'

/**
 * Every part of protobufjs this package relies on beyond calling its documented API the documented way, in one list:
 * the `BufferReader` it subclasses (fast-reader.ts) and the reader members it overrides, which reader methods the
 * generated decoders call for strings, the generated `decode` taking a reader and honouring `discardUnknown`, the
 * `$unknowns` it keeps and writes back, the `Long` objects `toObject` leaves (finish-read.ts), the `Writer` reuse of
 * the codec, and code generation from strings (`new Function`, in finish-read.ts and in protobufjs itself). Each
 * entry knows how to tell that the installed protobufjs still behaves as relied on.
 *
 * protobufjs-surface.test.ts fails, naming the entry, when one no longer holds. At load, {@link checkProtobufjs}
 * passes the version these entries were checked against at once, and checks every entry for any other version,
 * refusing to load with the list of what differs.
 */

/** The protobufjs version these entries were checked against: `dependencies.protobufjs` pins it exactly. */
export const PROTOBUFJS_VERSION = '8.8.1'

/** One internal of protobufjs this package uses. */
export interface ProtobufjsInternal {
  /** As protobufjs names it: `BufferReader`, `Reader#stringVerify`, … */
  readonly name: string
  /** What this package does with it. */
  readonly use: string
  /** What is wrong with it in the installed protobufjs, or `undefined` when it behaves as relied on. */
  problem(): string | undefined
}

type ReaderShape = { buf: Uint8Array; pos: number; len: number; discardUnknown: boolean }

/** A small schema exercising what the entries check: a proto3 and a proto2 string, a 64-bit field. */
function probeTypes(): { p3: protobuf.Type; p2: protobuf.Type } {
  const p3 = protobuf.parse('syntax = "proto3";\nmessage P3 { string s = 1; int64 n = 2; }\n').root
  const p2 = protobuf.parse('syntax = "proto2";\nmessage P2 { optional string s = 1; }\n').root
  return { p3: p3.lookupType('P3'), p2: p2.lookupType('P2') }
}

/** `P3 { s: "hi", n: 2^40 }` followed by an unknown field 9 (varint 1). */
const P3_BYTES = Uint8Array.from([
  0x0a, 0x02, 0x68, 0x69, 0x10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x48, 0x01,
])

function attempt(check: () => string | undefined): string | undefined {
  try {
    return check()
  } catch (error) {
    return `throws: ${(error as Error).message}`
  }
}

/** Every protobufjs internal used, checked by {@link findProtobufjsProblems}. */
export const PROTOBUFJS_INTERNALS: readonly ProtobufjsInternal[] = [
  {
    name: 'BufferReader',
    use: 'subclassed by FastReader, which reads `buf`, `pos` and `len` and moves `pos` past a short string',
    problem: () =>
      attempt(() => {
        if (typeof protobuf.BufferReader !== 'function') return 'missing'
        const bytes = Buffer.from([1, 2, 3])
        const reader = new protobuf.BufferReader(bytes) as unknown as ReaderShape
        if (reader.buf !== bytes || reader.pos !== 0 || reader.len !== 3) {
          return 'a new reader no longer has buf (the bytes given), pos 0 and len (their length)'
        }
        return undefined
      }),
  },
  ...(['string', 'stringVerify'] as const).map(
    (method): ProtobufjsInternal => ({
      name: `Reader#${method}`,
      use: 'overridden by FastReader to read short ASCII strings without the UTF-8 decoder',
      problem: () => {
        const own = (protobuf.BufferReader.prototype as unknown as Record<string, unknown>)[method]
        if (typeof own !== 'function') return 'missing from BufferReader.prototype'
        return own.length === 0 ? undefined : `takes ${own.length} arguments, not 0`
      },
    }),
  ),
  {
    name: 'the generated decode (strings)',
    use: 'FastReader speeds up strings only if the generated decoders call stringVerify (proto3) and string (proto2)',
    problem: () =>
      attempt(() => {
        const { p3, p2 } = probeTypes()
        const calls: string[] = []
        class Counting extends protobuf.BufferReader {
          override string(): string {
            calls.push('string')
            return super.string()
          }
          override stringVerify(): string {
            calls.push('stringVerify')
            return super.stringVerify()
          }
        }
        p3.decode(new Counting(Buffer.from(P3_BYTES)))
        p2.decode(new Counting(Buffer.from([0x0a, 0x01, 0x61])))
        const seen = calls.join(', ')
        return seen === 'stringVerify, string'
          ? undefined
          : `a proto3 then a proto2 string read called ${seen || 'nothing'}, not stringVerify, string`
      }),
  },
  {
    name: 'the generated decode (a reader, discardUnknown, $unknowns)',
    use:
      'the codec decodes from its own reader; unknownFields keeps `$unknowns` (the raw fields) with ' +
      'discardUnknown false and drops them with true',
    problem: () =>
      attempt(() => {
        const { p3 } = probeTypes()
        const keep = new protobuf.BufferReader(Buffer.from(P3_BYTES)) as unknown as ReaderShape
        keep.discardUnknown = false
        const kept = p3.decode(keep as unknown as protobuf.Reader) as unknown as { $unknowns?: Uint8Array[] }
        const raw = kept.$unknowns?.map((bytes) => Buffer.from(bytes).toString('hex'))
        if (raw?.length !== 1 || raw[0] !== '4801') {
          return `with discardUnknown false the unknown field 9 is kept as ${JSON.stringify(raw)}, not ["4801"]`
        }
        if (Object.keys(kept).includes('$unknowns')) return '$unknowns is enumerable'
        const drop = new protobuf.BufferReader(Buffer.from(P3_BYTES)) as unknown as ReaderShape
        drop.discardUnknown = true
        const dropped = p3.decode(drop as unknown as protobuf.Reader) as unknown as { $unknowns?: unknown }
        return dropped.$unknowns === undefined
          ? undefined
          : 'with discardUnknown true $unknowns is still kept'
      }),
  },
  {
    name: 'the generated encode ($unknowns)',
    use: 'a value read with unknownFields: keep is written back with its unknown fields',
    problem: () =>
      attempt(() => {
        const { p3 } = probeTypes()
        const value = { s: 'hi' }
        Object.defineProperty(value, '$unknowns', {
          value: [Uint8Array.from([0x48, 0x01])],
          enumerable: false,
        })
        const hex = Buffer.from(p3.encode(value as unknown as protobuf.Message).finish()).toString('hex')
        return hex === '0a0268694801' ? undefined : `writes ${hex}, not 0a0268694801`
      }),
  },
  {
    name: 'Type#toObject (Long objects)',
    use: 'finish-read.ts turns the `Long` objects toObject leaves (longs option unset) into numbers or bigints',
    problem: () =>
      attempt(() => {
        const { p3 } = probeTypes()
        const out = p3.toObject(p3.decode(Buffer.from(P3_BYTES))) as { n?: unknown }
        const n = out.n as { low?: unknown; high?: unknown } | undefined
        return n?.low === 0 && n?.high === 256 ? undefined : `gives n = ${String(out.n)}, not a Long of 2^40`
      }),
  },
  {
    name: 'Writer#finishInto, Writer#len, Writer#reset',
    use: 'the codec writes each message with one reused Writer, into the serializer buffer at an offset',
    problem: () =>
      attempt(() => {
        const writer = protobuf.Writer.create()
        writer.uint32(0x96).uint32(1)
        if (writer.len !== 3) return `len is ${writer.len} after 3 bytes`
        const target = Buffer.alloc(5)
        writer.finishInto(target, 2)
        writer.reset()
        const hex = target.toString('hex')
        if (hex !== '0000960101') return `finishInto at offset 2 wrote ${hex}, not 0000960101`
        const after: number = writer.len
        return after === 0 ? undefined : 'reset() leaves len non-zero'
      }),
  },
  {
    name: 'code generation from strings (new Function)',
    use: "finish-read.ts compiles each message type's finishing; protobufjs compiles its decoders the same way",
    problem: () =>
      attempt(() =>
        new Function('a', 'return a + 1')(1) === 2 ? undefined : 'new Function returns a wrong function',
      ),
  },
]

/** The entries that do not hold in the installed protobufjs, as `name: problem` lines (empty when all hold). */
function protobufjsProblems(): string[] {
  const problems: string[] = []
  for (const internal of PROTOBUFJS_INTERNALS) {
    const problem = internal.problem()
    if (problem !== undefined) problems.push(`${internal.name}: ${problem} (used for: ${internal.use})`)
  }
  return problems
}

/**
 * The entries that do not hold in the installed protobufjs, then the undocumented Node APIs (`NODE_INTERNALS` of
 * `@x/serde-core/internal`, each with a fallback) that do not hold in the running Node, as `name: problem` lines.
 */
export function findProtobufjsProblems(): string[] {
  return [...protobufjsProblems(), ...findNodeProblems()]
}

/**
 * Passes protobufjs {@link PROTOBUFJS_VERSION} at once. Any other version (or one that cannot be read, as in a
 * bundle) is checked entry by entry, and refused with every entry that does not hold: another protobufjs could read
 * or write wrong values rather than fail.
 */
export function checkProtobufjs(version: string | undefined): void {
  if (version === PROTOBUFJS_VERSION) return
  const problems = protobufjsProblems()
  if (problems.length === 0) return
  throw new Error(
    `@x/protobuf-serde was checked against protobufjs ${PROTOBUFJS_VERSION} but found ` +
      `${version === undefined ? 'a protobufjs of unknown version' : `protobufjs ${version}`}, which differs: ` +
      `${problems.join('; ')}. Let @x/protobuf-serde have its own protobufjs ${PROTOBUFJS_VERSION} (remove the ` +
      'override or resolution that forces another onto it).',
  )
}

/** The installed protobufjs's version, from its package.json (undefined when it cannot be read, e.g. in a bundle). */
export function installedProtobufjsVersion(): string | undefined {
  try {
    const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
    const module = process?.getBuiltinModule?.('node:module') as
      | { createRequire(from: string): NodeJS.Require }
      | undefined
    if (module === undefined) return undefined
    const require = module.createRequire(import.meta.url)
    const { version } = require('protobufjs/package.json') as { version?: unknown }
    return typeof version === 'string' ? version : undefined
  } catch {
    return undefined
  }
}
