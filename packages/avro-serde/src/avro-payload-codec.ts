import { DeserializationError } from '@x/errors'
import type { SchemaCodec } from '@x/serde-core'
import type { AvscType } from './avro/avsc-internals.js'
import type { AvroCodec, AvroEncoding } from './avro/index.js'
import { binaryToJson, jsonToBinary } from './avro/json-encoding.js'

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
  readonly recordName: string | undefined
  #scratch: Buffer | undefined
  /** The JSON text of the last value that did not fit the caller's buffer (the core calls again with a larger one). */
  #pending: { value: unknown; text: string; length: number } | undefined

  constructor(codec: AvroCodec, strict: boolean, encoding: AvroEncoding) {
    this.#codec = codec
    this.#strict = strict
    this.#json = encoding === 'json'
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
      return this.#codec.decode(bytes, offset, end, writerCodec)
    }
    let text: string
    try {
      text = utf8.decode(bytes.subarray(offset, end))
    } catch (cause) {
      throw new DeserializationError('Invalid Avro JSON: the payload is not UTF-8 text', { cause })
    }
    const binary = jsonToBinary((writerCodec ?? this.#codec).type as AvscType, text)
    return this.#codec.decode(binary.buf, 0, binary.length, writerCodec)
  }
}
