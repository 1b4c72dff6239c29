import { shortAsciiString } from '@x/serde-core/internal'
import protobuf from 'protobufjs'
import { checkProtobufjs, installedProtobufjsVersion } from './protobufjs-surface.js'

// Before subclassing protobufjs's reader: refuses a protobufjs that does not behave as this package relies on.
checkProtobufjs(installedProtobufjsVersion())

/**
 * protobufjs's `BufferReader` with its short strings read faster: a string of at most 12 bytes, all ASCII (valid
 * UTF-8 by construction), is made by one `String.fromCharCode` call. protobufjs makes every proto3 string with its
 * strict UTF-8 decoder in JavaScript (`stringVerify`) and proto2 ones with `Buffer#utf8Slice` (about 80 ns each
 * whatever the length, node 20). Every other string, and any length prefix beyond one byte or beyond the bytes, is
 * protobufjs's own, errors included.
 */
export class FastReader extends protobuf.BufferReader {
  override string(): string {
    return this.#short() ?? super.string()
  }

  override stringVerify(): string {
    return this.#short() ?? super.stringVerify()
  }

  /** The string at `pos` when its length is one byte of at most 12 and its bytes are ASCII; else `undefined`. */
  #short(): string | undefined {
    const pos = this.pos
    const length = this.buf[pos]
    if (length === undefined || length > 12 || pos + 1 + length > this.len) return undefined
    const text = length === 0 ? '' : shortAsciiString(this.buf, pos + 1, length)
    if (text !== undefined) this.pos = pos + 1 + length
    return text
  }
}
