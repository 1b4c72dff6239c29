import { DeserializationError } from '@x/errors'
import type { RuleValueKit, SchemaCodec } from '@x/serde-core'
import type { AvscType } from './avro/avsc-internals.js'
import type { AvroCodec, AvroEncoding } from './avro/index.js'
import { binaryToJson, jsonToBinary } from './avro/json-encoding.js'
import { fromRuleValue, toRuleFields, toRuleValue } from './avro/rule-values.js'

const SCRATCH_SIZE = 4 * 1024
const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * @internal The codec the core sees for an Avro schema: the avsc-based codec, with `strict`'s check for undeclared
 * fields before each write, writing the payload in the serde's encoding and reading it in the encoding a message's
 * header names (the `hint`), else in the serde's.
 */
export class AvroPayloadCodec implements SchemaCodec {
  readonly #codec: AvroCodec
  readonly #strict: boolean
  readonly #json: boolean
  readonly #auto: boolean
  readonly recordName: string | undefined
  #scratch: Buffer | undefined
  /** The JSON text of the last value that did not fit the caller's buffer (the core calls again with a larger one). */
  #pending: { value: unknown; text: string; length: number } | undefined

  constructor(codec: AvroCodec, strict: boolean, encoding: AvroEncoding) {
    this.#codec = codec
    this.#strict = strict
    this.#json = encoding === 'json'
    this.#auto = encoding === 'auto'
    this.recordName = codec.fullName
  }

  encodeInto(value: unknown, target: Buffer, offset: number): number {
    if (!this.#json) {
      if (this.#strict) this.#codec.checkStrict(value)
      return this.#codec.encodeInto(value, target, offset)
    }
    let pending = this.#pending
    this.#pending = undefined
    if (pending === undefined || pending.value !== value) {
      if (this.#strict) this.#codec.checkStrict(value)
      const text = this.#jsonOf(value)
      pending = { value, text, length: Buffer.byteLength(text, 'utf8') }
    }
    const end = offset + pending.length
    if (end > target.length) {
      this.#pending = pending
      return target.length - end
    }
    target.write(pending.text, offset, 'utf8')
    return end
  }

  toRuleRecord(
    value: unknown,
    fields: readonly string[] | undefined,
    kit: RuleValueKit,
  ): Record<string, unknown> {
    const { double } = kit
    const type = this.#codec.type as AvscType
    if (type.fields === undefined) return toRuleValue(type, value, double) as Record<string, unknown>
    return toRuleFields(type, value, fields, double) as Record<string, unknown>
  }

  fromRuleRecord(record: Record<string, unknown>): unknown {
    return fromRuleValue(this.#codec.type as AvscType, record)
  }

  /** The declared fields of `record`, encoded and decoded again (a field that does not fit fails the encoding). */
  decodedRuleRecord(record: Record<string, unknown>): unknown {
    const value = this.fromRuleRecord(record)
    // A fresh buffer: a decoded `bytes` value may be a view of it.
    let target = Buffer.allocUnsafe(SCRATCH_SIZE)
    let end = this.#codec.encodeInto(value, target, 0)
    if (end < 0) {
      target = Buffer.allocUnsafe(target.length - end)
      end = this.#codec.encodeInto(value, target, 0)
    }
    return this.#codec.decode(target, 0, end)
  }

  /** The Avro JSON text of `value`: its Avro binary (validated by the binary codec), transcoded. */
  #jsonOf(value: unknown): string {
    let scratch = this.#scratch ?? Buffer.allocUnsafe(SCRATCH_SIZE)
    let end = this.#codec.encodeInto(value, scratch, 0)
    while (end < 0) {
      scratch = Buffer.allocUnsafe(Math.max(scratch.length - end, scratch.length * 2))
      end = this.#codec.encodeInto(value, scratch, 0)
    }
    this.#scratch = scratch.length > 1024 * 1024 ? undefined : scratch
    return binaryToJson(this.#codec.type as AvscType, scratch, 0)
  }

  decode(bytes: Buffer, offset: number, end: number, writer?: SchemaCodec, hint?: unknown): unknown {
    const writerCodec = writer instanceof AvroPayloadCodec ? writer.#codec : undefined
    if (!(hint === undefined ? this.#json : hint === 'json')) {
      try {
        return this.#codec.decode(bytes, offset, end, writerCodec)
      } catch (error) {
        if (!(error instanceof DeserializationError)) throw error
        return this.#notBinary(error, bytes, offset, end, writerCodec, hint)
      }
    }
    return this.#decodeJson(jsonText(bytes, offset, end), writerCodec)
  }

  #decodeJson(text: string, writerCodec: AvroCodec | undefined): unknown {
    const binary = jsonToBinary((writerCodec ?? this.#codec).type as AvscType, text)
    return this.#codec.decode(binary.buf, 0, binary.length, writerCodec)
  }

  /**
   * A payload the binary read refused: with `'auto'` (and no encoding header), read as Avro's JSON encoding when it
   * is UTF-8 JSON text; else the binary read's error, saying so when the payload looks like JSON text.
   */
  #notBinary(
    error: DeserializationError,
    bytes: Buffer,
    offset: number,
    end: number,
    writerCodec: AvroCodec | undefined,
    hint: unknown,
  ): unknown {
    const text = looksLikeJsonText(bytes, offset, end)
    if (text === undefined) throw error
    if (hint !== undefined) {
      throw new DeserializationError(
        `${error.message}; the payload looks like JSON text, though the message's encoding header says BINARY`,
        { cause: error },
      )
    }
    if (!this.#auto) {
      throw new DeserializationError(
        `${error.message}; the payload looks like JSON text: Avro's JSON encoding? set avro.encoding 'json' or 'auto'`,
        { cause: error },
      )
    }
    try {
      return this.#decodeJson(text, writerCodec)
    } catch (jsonError) {
      if (!(jsonError instanceof DeserializationError)) throw jsonError
      throw new DeserializationError(
        `${error.message}; read as Avro's JSON encoding (avro.encoding 'auto'): ${jsonError.message}`,
        { cause: jsonError },
      )
    }
  }
}

/** The payload as UTF-8 text, or a `DeserializationError`. */
function jsonText(bytes: Buffer, offset: number, end: number): string {
  try {
    return utf8.decode(bytes.subarray(offset, end))
  } catch (cause) {
    throw new DeserializationError('Invalid Avro JSON: the payload is not UTF-8 text', { cause })
  }
}

/**
 * The payload's text when it looks like JSON text of a value Avro's JSON encoding writes for a record, array, map or
 * string: UTF-8, and its first and last characters other than JSON whitespace `{…}`, `[…]` or `"…"`; else undefined.
 */
function looksLikeJsonText(bytes: Buffer, offset: number, end: number): string | undefined {
  let first = offset
  while (first < end && isJsonSpace(bytes[first]!)) first++
  let last = end - 1
  while (last > first && isJsonSpace(bytes[last]!)) last--
  if (last <= first) return undefined
  const open = bytes[first]
  const close = bytes[last]
  if (
    !(open === 0x7b && close === 0x7d) &&
    !(open === 0x5b && close === 0x5d) &&
    !(open === 0x22 && close === 0x22)
  ) {
    return undefined
  }
  try {
    return utf8.decode(bytes.subarray(offset, end))
  } catch {
    return undefined
  }
}

function isJsonSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
}
