import { isWellFormed, shortAsciiString } from '@x/serde-core/internal'
import type { Tap } from './avsc-internals.js'

/**
 * Avro strings written faster than avsc's `Tap#writeString`, which asks `Buffer.byteLength` (a call into C++) for
 * every string before writing it: about half of a string-heavy record's encode time. A string shorter than 64 code
 * units is written as ASCII straight away, its one-byte length in front (64 bytes or fewer: zigzag 2 × length fits
 * in one varint byte); at its first code unit beyond U+007F (or when the buffer is too short) avsc writes it from the
 * start, over whatever was written. The bytes are avsc's, byte for byte (tested against it). A string that is not
 * well-formed Unicode (a lone surrogate, which UTF-8 cannot hold) is refused: avsc would write bytes that read back
 * as U+FFFD. An ASCII string never needs that check.
 */
export function writeString(tap: Tap, value: string): void {
  const length = value.length
  const buf = tap.buf
  const start = tap.pos + 1
  if (length < 64 && start + length <= buf.length) {
    let i = 0
    for (; i < length; i++) {
      const code = value.charCodeAt(i)
      if (code > 0x7f) break
      buf[start + i] = code
    }
    if (i === length) {
      buf[start - 1] = length << 1
      tap.pos = start + length
      return
    }
  }
  if (!isWellFormed(value)) throw new TypeError('invalid string: not well-formed Unicode')
  tap.writeString(value)
}

/**
 * Avro strings read faster than avsc's `Tap#readString`, whose `Buffer#utf8Slice` costs about 80 ns whatever the
 * length (node 20): a string of at most 12 bytes, all ASCII, is made by one `String.fromCharCode` call (20–30 ns).
 * Any other string, and anything unusual about the length (negative, several bytes, beyond the buffer), is avsc's.
 * The strings are avsc's, code unit for code unit (tested against it).
 */
export function readString(tap: Tap): string | undefined {
  const buf = tap.buf
  const pos = tap.pos
  const zigzag = buf[pos]
  // One varint byte, even (a length, not a negative one), of 0 to 12.
  if (zigzag !== undefined && zigzag < 26 && (zigzag & 1) === 0) {
    const length = zigzag >> 1
    const start = pos + 1
    if (start + length <= buf.length) {
      const text = length === 0 ? '' : shortAsciiString(buf, start, length)
      if (text !== undefined) {
        tap.pos = start + length
        return text
      }
    }
  }
  return tap.readString()
}
