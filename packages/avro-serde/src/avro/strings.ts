import type { Tap } from './avsc-internals.js'

const fromCharCode = String.fromCharCode

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
      const text = length === 0 ? '' : shortAscii(buf, start, length)
      if (text !== undefined) {
        tap.pos = start + length
        return text
      }
    }
  }
  return tap.readString()
}

/** The `n` bytes (1 to 12) at `p` as a string when they are all ASCII, else undefined. */
function shortAscii(b: Buffer, p: number, n: number): string | undefined {
  switch (n) {
    case 1: {
      const x0 = b[p]!
      return x0 < 0x80 ? fromCharCode(x0) : undefined
    }
    case 2: {
      const x0 = b[p]!,
        x1 = b[p + 1]!
      return (x0 | x1) < 0x80 ? fromCharCode(x0, x1) : undefined
    }
    case 3: {
      const x0 = b[p]!,
        x1 = b[p + 1]!,
        x2 = b[p + 2]!
      return (x0 | x1 | x2) < 0x80 ? fromCharCode(x0, x1, x2) : undefined
    }
    case 4: {
      const x0 = b[p]!,
        x1 = b[p + 1]!,
        x2 = b[p + 2]!,
        x3 = b[p + 3]!
      return (x0 | x1 | x2 | x3) < 0x80 ? fromCharCode(x0, x1, x2, x3) : undefined
    }
    case 5: {
      const x0 = b[p]!,
        x1 = b[p + 1]!,
        x2 = b[p + 2]!,
        x3 = b[p + 3]!,
        x4 = b[p + 4]!
      return (x0 | x1 | x2 | x3 | x4) < 0x80 ? fromCharCode(x0, x1, x2, x3, x4) : undefined
    }
    case 6: {
      const x0 = b[p]!,
        x1 = b[p + 1]!,
        x2 = b[p + 2]!,
        x3 = b[p + 3]!,
        x4 = b[p + 4]!,
        x5 = b[p + 5]!
      return (x0 | x1 | x2 | x3 | x4 | x5) < 0x80 ? fromCharCode(x0, x1, x2, x3, x4, x5) : undefined
    }
    case 7: {
      const x0 = b[p]!,
        x1 = b[p + 1]!,
        x2 = b[p + 2]!,
        x3 = b[p + 3]!,
        x4 = b[p + 4]!,
        x5 = b[p + 5]!,
        x6 = b[p + 6]!
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6) < 0x80 ? fromCharCode(x0, x1, x2, x3, x4, x5, x6) : undefined
    }
    case 8: {
      const x0 = b[p]!,
        x1 = b[p + 1]!,
        x2 = b[p + 2]!,
        x3 = b[p + 3]!,
        x4 = b[p + 4]!,
        x5 = b[p + 5]!,
        x6 = b[p + 6]!,
        x7 = b[p + 7]!
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7) < 0x80
        ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7)
        : undefined
    }
    case 9: {
      const x0 = b[p]!,
        x1 = b[p + 1]!,
        x2 = b[p + 2]!,
        x3 = b[p + 3]!,
        x4 = b[p + 4]!,
        x5 = b[p + 5]!,
        x6 = b[p + 6]!,
        x7 = b[p + 7]!,
        x8 = b[p + 8]!
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8) < 0x80
        ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8)
        : undefined
    }
    case 10: {
      const x0 = b[p]!,
        x1 = b[p + 1]!,
        x2 = b[p + 2]!,
        x3 = b[p + 3]!,
        x4 = b[p + 4]!,
        x5 = b[p + 5]!,
        x6 = b[p + 6]!,
        x7 = b[p + 7]!,
        x8 = b[p + 8]!,
        x9 = b[p + 9]!
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8 | x9) < 0x80
        ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9)
        : undefined
    }
    case 11: {
      const x0 = b[p]!,
        x1 = b[p + 1]!,
        x2 = b[p + 2]!,
        x3 = b[p + 3]!,
        x4 = b[p + 4]!,
        x5 = b[p + 5]!,
        x6 = b[p + 6]!,
        x7 = b[p + 7]!,
        x8 = b[p + 8]!,
        x9 = b[p + 9]!,
        x10 = b[p + 10]!
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8 | x9 | x10) < 0x80
        ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10)
        : undefined
    }
    case 12: {
      const x0 = b[p]!,
        x1 = b[p + 1]!,
        x2 = b[p + 2]!,
        x3 = b[p + 3]!,
        x4 = b[p + 4]!,
        x5 = b[p + 5]!,
        x6 = b[p + 6]!,
        x7 = b[p + 7]!,
        x8 = b[p + 8]!,
        x9 = b[p + 9]!,
        x10 = b[p + 10]!,
        x11 = b[p + 11]!
      return (x0 | x1 | x2 | x3 | x4 | x5 | x6 | x7 | x8 | x9 | x10 | x11) < 0x80
        ? fromCharCode(x0, x1, x2, x3, x4, x5, x6, x7, x8, x9, x10, x11)
        : undefined
    }
    default:
      return undefined
  }
}
