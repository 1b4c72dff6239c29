import { describe, expect, it, vi } from 'vitest'
import { JsonSchemaCodec } from './json-codec.js'

// A Node without the undocumented Buffer#utf8Slice: payloads are decoded with the documented toString.
vi.mock('@x/serde-core/internal', async (original) => ({
  ...(await original<typeof import('@x/serde-core/internal')>()),
  HAS_UTF8_SLICE: false,
}))

describe('JSON payloads where Buffer#utf8Slice is missing', () => {
  it('decode through toString exactly as through utf8Slice: text, a legal U+FFFD, and invalid UTF-8 refused', () => {
    const codec = new JsonSchemaCodec({}, (() => true) as never, false, false)
    const toStringSpy = vi.spyOn(Buffer.prototype, 'toString')
    const text = Buffer.from('xx{"a":"é€😀\uFFFD","n":12345678901234567890}', 'utf8')
    expect(codec.decode(text, 2, text.length)).toEqual({ a: 'é€😀\uFFFD', n: 12345678901234567890n })
    expect(toStringSpy).toHaveBeenCalledWith('utf8', 2, text.length)
    const invalid = Buffer.from([0x22, 0xc3, 0x28, 0x22])
    expect(() => codec.decode(invalid, 0, invalid.length)).toThrow('The payload is not valid UTF-8')
    expect(toStringSpy).toHaveBeenCalledWith('utf8', 0, invalid.length)
    toStringSpy.mockRestore()
  })
})
