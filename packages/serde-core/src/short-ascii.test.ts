import { describe, expect, it } from 'vitest'
import { shortAsciiString } from './short-ascii.js'

describe('shortAsciiString', () => {
  it('gives the string of 1 to 12 ASCII bytes at any offset, and undefined for other lengths or any byte above 0x7f', () => {
    const bytes = Buffer.from('..abcdefghijkl\u007f', 'latin1')
    for (let n = 1; n <= 12; n++) expect(shortAsciiString(bytes, 2, n)).toBe('abcdefghijkl'.slice(0, n))
    expect(shortAsciiString(bytes, 13, 2)).toBe('l\u007f')
    expect(shortAsciiString(bytes, 2, 0)).toBeUndefined()
    expect(shortAsciiString(bytes, 2, 13)).toBeUndefined()
    for (let n = 1; n <= 12; n++) {
      for (let at = 0; at < n; at++) {
        const high = Buffer.alloc(n, 0x61)
        high[at] = 0x80
        expect(shortAsciiString(high, 0, n), `${n} bytes, 0x80 at ${at}`).toBeUndefined()
      }
    }
  })
})
