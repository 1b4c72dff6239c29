const fromCharCode = String.fromCharCode

/**
 * The `n` bytes (1 to 12) at `p` as a string when they are all ASCII, else `undefined` (and for any other `n`): one
 * `String.fromCharCode` call, 20–30 ns on node 20, where `Buffer#utf8Slice` costs about 80 ns whatever the length.
 * What the Avro and Protobuf readers make their short strings with; longer or non-ASCII ones are the engine's. The
 * twelve cases are written out on purpose: a call with a fixed number of arguments is what is fast (a loop that
 * appends characters, or `fromCharCode.apply`, costs two to five times as much).
 *
 * Not public API: exported only from the `./internal` entry point, for the format packages.
 */
export function shortAsciiString(b: Uint8Array, p: number, n: number): string | undefined {
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
