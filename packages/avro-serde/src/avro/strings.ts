import type { Tap } from './avsc-internals.js'

/**
 * Avro strings written faster than avsc's `Tap#writeString`, which asks `Buffer.byteLength` (a call into C++) for
 * every string before writing it: about half of a string-heavy record's encode time. A string shorter than 64 code
 * units is written as ASCII straight away, its one-byte length in front (64 bytes or fewer: zigzag 2 × length fits
 * in one varint byte); at its first code unit beyond U+007F (or when the buffer is too short) avsc writes it from the
 * start, over whatever was written. The bytes are avsc's, byte for byte (tested against it).
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
  tap.writeString(value)
}
