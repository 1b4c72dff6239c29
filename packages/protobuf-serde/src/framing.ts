import type { DeclaredMessage } from './proto-schema.js'

/**
 * The bytes between the schema id and the message, which say which message of the file follows.
 *
 * - `apicurio` (Apicurio's Java serde 3.x, `apicurio.registry.serde.send-type-ref=true`, its default): a
 *   length-delimited `Ref` message, Apicurio's `ref.proto` `message Ref { string name = 1; }`, holding the message's
 *   simple name (Java: `descriptor.getName()`): `len 0a nameLen name`.
 * - `confluent` (Confluent's serdes, Java's `send-indexes=true`): the zig-zag varint count of message indexes, then
 *   each index zig-zag: the path of the message among the file's messages. `[0]` (the first message) is written as the
 *   single byte `00` (Confluent's shortcut); the full form `02 00`, which Apicurio's Java serde writes, is read too.
 */
export type Framing = 'apicurio' | 'confluent'

function varint(value: number, out: number[]): void {
  let v = value >>> 0
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80)
    v >>>= 7
  }
  out.push(v)
}

const zigzag = (n: number): number => ((n << 1) ^ (n >> 31)) >>> 0

/** The prefix written before a message of `declared` in `framing`. */
export function prefixFor(declared: DeclaredMessage, framing: Framing): Buffer {
  const out: number[] = []
  if (framing === 'confluent') {
    const { indexes } = declared
    if (indexes.length === 1 && indexes[0] === 0) return Buffer.from([0])
    varint(zigzag(indexes.length), out)
    for (const index of indexes) varint(zigzag(index), out)
    return Buffer.from(out)
  }
  const name = Buffer.from(declared.type.name, 'utf8')
  const ref: number[] = [0x0a]
  varint(name.length, ref)
  varint(ref.length + name.length, out)
  return Buffer.concat([Buffer.from(out), Buffer.from(ref), name])
}

/** The prefix bytes could not be read as the framing says: what was expected and what came. */
export class FramingError extends Error {
  override name = 'FramingError'
}

/** Reads an unsigned varint of at most 32 bits at `pos`; returns [value, next] or throws on truncation. */
function readVarint(bytes: Uint8Array, pos: number, end: number, what: string): [number, number] {
  let value = 0
  let shift = 0
  for (let i = 0; i < 5; i++) {
    if (pos >= end) throw new FramingError(`${what}: the bytes end inside a varint`)
    const b = bytes[pos++]!
    value |= (b & 0x7f) << shift
    if ((b & 0x80) === 0) return [value >>> 0, pos]
    shift += 7
  }
  throw new FramingError(`${what}: a varint longer than 5 bytes`)
}

const unzigzag = (n: number): number => (n >>> 1) ^ -(n & 1)

/** What a prefix names, and where the message starts. */
export interface ReadPrefix {
  /** The `Ref`'s name (apicurio) … */
  readonly name?: string
  /** … or the message indexes (confluent). */
  readonly indexes?: readonly number[]
  readonly start: number
}

const MAX_INDEXES = 64

/** Reads Confluent message indexes at `pos`. */
export function readIndexes(bytes: Uint8Array, pos: number, end: number): ReadPrefix {
  let [count, next] = readVarint(bytes, pos, end, 'message indexes')
  count = unzigzag(count)
  if (count === 0) return { indexes: [0], start: next }
  if (count < 0 || count > MAX_INDEXES) {
    throw new FramingError(
      `message indexes: a count of ${count} is not a message path (0 to ${MAX_INDEXES})${looksLikeRef(bytes, pos, end) ? `; the bytes look like an Apicurio Ref frame naming '${refName(bytes, pos, end)}': read them with framing: 'apicurio'` : ''}`,
    )
  }
  const indexes: number[] = []
  for (let i = 0; i < count; i++) {
    let index: number
    ;[index, next] = readVarint(bytes, next, end, 'message indexes')
    index = unzigzag(index)
    if (index < 0) throw new FramingError(`message indexes: a negative index ${index}`)
    indexes.push(index)
  }
  return { indexes, start: next }
}

/** Reads an Apicurio `Ref` (length-delimited, field 1 = the name) at `pos`. */
export function readRef(bytes: Uint8Array, pos: number, end: number): ReadPrefix {
  if (pos >= end) {
    throw new FramingError('expected an Apicurio Ref (a length, then 0a and the message name), got no bytes')
  }
  const [length, body] = readVarint(bytes, pos, end, 'the Ref')
  const refEnd = body + length
  if (length === 0 || refEnd > end || bytes[body] !== 0x0a) {
    throw new FramingError(
      `expected an Apicurio Ref (a length, then 0a and the message name), got ${hexAt(bytes, pos, end)}${
        looksLikeIndexes(bytes, pos, end)
          ? "; the bytes look like Confluent message indexes: read them with framing: 'confluent'"
          : ''
      }`,
    )
  }
  const [nameLength, nameStart] = readVarint(bytes, body + 1, refEnd, 'the Ref')
  if (nameStart + nameLength !== refEnd) {
    throw new FramingError(
      `the Ref's name does not fill the Ref (${nameLength} bytes named, ${refEnd - nameStart} there)`,
    )
  }
  const name = Buffer.from(bytes.buffer, bytes.byteOffset + nameStart, nameLength).toString('utf8')
  return { name, start: refEnd }
}

function hexAt(bytes: Uint8Array, pos: number, end: number): string {
  const shown = Buffer.from(bytes.buffer, bytes.byteOffset + pos, Math.min(8, end - pos)).toString('hex')
  return shown === '' ? 'no bytes' : shown.replace(/(..)/g, '$1 ').trim()
}

function looksLikeRef(bytes: Uint8Array, pos: number, end: number): boolean {
  try {
    readRef(bytes, pos, end)
    return true
  } catch {
    return false
  }
}

function refName(bytes: Uint8Array, pos: number, end: number): string {
  return readRef(bytes, pos, end).name ?? ''
}

/** Small zig-zag counts with small indexes: 00, or 02 00, 04 00 02 … */
function looksLikeIndexes(bytes: Uint8Array, pos: number, end: number): boolean {
  if (pos >= end) return false
  const first = bytes[pos]!
  if (first === 0) return true
  if (first % 2 !== 0 || first > 16 || pos + first / 2 >= end) return false
  for (let i = 1; i <= first / 2; i++) if (bytes[pos + i]! > 0x7f) return false
  return true
}
