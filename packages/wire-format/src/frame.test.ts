import { Buffer } from 'node:buffer'
import { DeserializationError, isSerdeError } from '@x/errors'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeFrame, encodeFrame, FRAME_HEADER_SIZE, MAGIC_BYTE, writeFrameHeader } from './frame.js'
import { thrown } from './test-support/thrown.js'

const hex = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex')
const fromHex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text.replaceAll(' ', ''), 'hex'))

describe('encodeFrame', () => {
  it('writes the magic byte, the id as 4 bytes big-endian, then the payload (golden vectors)', () => {
    expect(MAGIC_BYTE).toBe(0)
    expect(FRAME_HEADER_SIZE).toBe(5)
    expect(hex(encodeFrame(1, Uint8Array.of(0x02, 0x04)))).toBe('00000000010204')
    expect(hex(encodeFrame(0, new Uint8Array(0)))).toBe('0000000000')
    expect(hex(encodeFrame(0x01020304, Uint8Array.of(0xff)))).toBe('0001020304ff')
    expect(hex(encodeFrame(123456, fromHex('0a 68 65 6c 6c 6f')))).toBe('000001e2400a68656c6c6f')
    expect(hex(encodeFrame(0xffffffff, Uint8Array.of(1)))).toBe('00ffffffff01')
  })

  it('accepts a bigint id inside 0..4294967295 and writes the same bytes as the number', () => {
    expect(hex(encodeFrame(4294967295n, Uint8Array.of(7)))).toBe('00ffffffff07')
    expect(hex(encodeFrame(1n, Uint8Array.of(2, 4)))).toBe('00000000010204')
  })

  it('returns a Buffer when Buffer exists, so kafkajs sends bytes and not the text "0,0,0"', () => {
    const frame = encodeFrame(1, Uint8Array.of(2))
    expect(Buffer.isBuffer(frame)).toBe(true)
    expect(frame.length).toBe(6)
  })

  it('copies the payload: changing the input afterwards leaves the frame as it was', () => {
    const payload = Uint8Array.of(1, 2, 3)
    const frame = encodeFrame(9, payload)
    payload[0] = 99
    expect(hex(frame)).toBe('0000000009010203')
  })

  it.each([
    [2 ** 32, '4294967296'],
    [2 ** 53, '9007199254740992'],
    [-1, '-1'],
    [1.5, '1.5'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [2n ** 32n, '4294967296'],
    [2n ** 63n - 1n, '9223372036854775807'],
    [-1n, '-1'],
  ])(
    'refuses id %s with a RangeError ID_OUT_OF_RANGE that says 32-bit and points to MESSAGE_HEADERS',
    (id, shown) => {
      const error = thrown(() => encodeFrame(id, Uint8Array.of(1))) as RangeError & { code?: string }
      expect(error).toBeInstanceOf(RangeError)
      expect(error.code).toBe('ID_OUT_OF_RANGE')
      expect(error.message).toContain('32-bit')
      expect(error.message).toContain('WireFormat.MESSAGE_HEADERS')
      expect(error.message).toContain(shown)
    },
  )

  it('refuses an id that is not a number or bigint, and a payload that is not bytes, with TypeError INVALID_CONFIG', () => {
    const badId = thrown(() => encodeFrame('1' as never, Uint8Array.of(1))) as TypeError & { code?: string }
    expect(badId).toBeInstanceOf(TypeError)
    expect(badId.code).toBe('INVALID_CONFIG')
    expect(badId.message).toBe('schemaId must be a number or bigint, got string "1"')
    const badPayload = thrown(() => encodeFrame(1, [1, 2] as never)) as TypeError & { code?: string }
    expect(badPayload).toBeInstanceOf(TypeError)
    expect(badPayload.code).toBe('INVALID_CONFIG')
    expect(badPayload.message).toBe('payload must be a Uint8Array, got an array')
    expect(thrown(() => encodeFrame(1, 'text' as never))).toMatchObject({ code: 'INVALID_CONFIG' })
  })
})

describe('decodeFrame', () => {
  it('reads the id and returns the rest as payload (golden vectors)', () => {
    const decoded = decodeFrame(fromHex('00 00 00 00 01 02 04'))
    expect(decoded.schemaId).toBe(1)
    expect(hex(decoded.payload)).toBe('0204')
    expect(decodeFrame(fromHex('00ffffffff'))).toEqual({
      schemaId: 4294967295,
      payload: new Uint8Array(0),
      idSize: 4,
    })
    expect(decodeFrame(fromHex('0080000000')).schemaId).toBe(2147483648)
    expect(decodeFrame(fromHex('000001e2400a')).schemaId).toBe(123456)
  })

  it('returns a view that shares the input memory instead of a copy', () => {
    const bytes = fromHex('00 00 00 00 07 aa bb cc')
    const { payload } = decodeFrame(bytes)
    expect(payload.buffer).toBe(bytes.buffer)
    expect(payload.byteOffset).toBe(bytes.byteOffset + 5)
    bytes[5] = 0x11
    expect(payload[0]).toBe(0x11)
  })

  it('keeps a Buffer a Buffer and respects an input that is itself a view at an offset', () => {
    const pool = Buffer.from('ffff00000000030102ffff', 'hex')
    const input = pool.subarray(2, 9)
    const { schemaId, payload } = decodeFrame(input)
    expect(schemaId).toBe(3)
    expect(Buffer.isBuffer(payload)).toBe(true)
    expect(hex(payload)).toBe('0102')
  })

  it.each([0, 1, 4])(
    'refuses %i bytes with a DeserializationError saying "expected at least 5 bytes, got N"',
    (n) => {
      const error = thrown(() => decodeFrame(new Uint8Array(n))) as DeserializationError
      expect(error).toBeInstanceOf(DeserializationError)
      expect(error.code).toBe('DESERIALIZATION')
      expect(error.message).toContain(`expected at least 5 bytes`)
      expect(error.message).toContain(`got ${n}`)
    },
  )

  it('refuses a first byte other than 0x00, naming the byte found and the length', () => {
    const error = thrown(() => decodeFrame(fromHex('7b 22 61 22 3a 31 7d'))) as DeserializationError
    expect(error).toBeInstanceOf(DeserializationError)
    expect(error.code).toBe('DESERIALIZATION')
    expect(error.message).toContain('expected magic byte 0x00, got 0x7b')
    expect(error.message).toContain('7 bytes')
    expect((thrown(() => decodeFrame(fromHex('01 00 00 00 01'))) as Error).message).toContain('got 0x01')
  })

  it.each([
    ['a string', 'AAAAAAE=', 'string "AAAAAAE="'],
    ['null', null, 'null'],
    ['undefined', undefined, 'undefined'],
    ['a number array', [0, 0, 0, 0, 1], 'an array'],
    ['an ArrayBuffer', new ArrayBuffer(5), 'an ArrayBuffer'],
    ['a DataView', new DataView(new ArrayBuffer(5)), 'a DataView'],
    ['an Int8Array', new Int8Array(5), 'an Int8Array'],
  ])('refuses %s with a DeserializationError saying which type came', (_label, input, shown) => {
    const error = thrown(() => decodeFrame(input as never)) as DeserializationError
    expect(error).toBeInstanceOf(DeserializationError)
    expect(error.message).toBe(`Cannot decode a frame: expected a Uint8Array, got ${shown}`)
  })
})

describe('writeFrameHeader', () => {
  it('writes the 5 header bytes at the offset and returns where the payload starts', () => {
    const target = new Uint8Array(8).fill(0xee)
    expect(writeFrameHeader(target, 0x0a0b0c0d)).toBe(5)
    expect(hex(target)).toBe('000a0b0c0deeeeee')
    expect(writeFrameHeader(target, 1n, 3)).toBe(8)
    expect(hex(target)).toBe('000a0b0000000001')
  })

  it('refuses a target without room for the header and ids beyond 32-bit', () => {
    expect(thrown(() => writeFrameHeader(new Uint8Array(4), 1))).toMatchObject({
      name: 'TypeError',
      code: 'INVALID_CONFIG',
      message: 'target must have room for the 5-byte frame header at offset 0, but it has 4 bytes',
    })
    expect(thrown(() => writeFrameHeader(new Uint8Array(8), 1, 4))).toMatchObject({ code: 'INVALID_CONFIG' })
    expect(thrown(() => writeFrameHeader(new Uint8Array(8), 1, -1))).toMatchObject({ code: 'INVALID_CONFIG' })
    expect(thrown(() => writeFrameHeader([] as never, 1))).toMatchObject({ code: 'INVALID_CONFIG' })
    expect(thrown(() => writeFrameHeader(new Uint8Array(8), 2 ** 32))).toMatchObject({
      name: 'RangeError',
      code: 'ID_OUT_OF_RANGE',
    })
  })
})

describe('frame properties', () => {
  it('decodeFrame(encodeFrame(id, payload)) gives back the id and the payload bytes for any id and payload', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.uint8Array({ maxLength: 300 }),
        (id, payload) => {
          const frame = encodeFrame(id, payload)
          expect(frame.length).toBe(payload.length + 5)
          const decoded = decodeFrame(frame)
          expect(decoded.schemaId).toBe(id)
          expect(hex(decoded.payload)).toBe(hex(payload))
          // Same layout as Node's own big-endian writer.
          const reference = Buffer.alloc(5)
          reference.writeUInt32BE(id, 1)
          expect(hex(frame.subarray(0, 5))).toBe(reference.toString('hex'))
        },
      ),
    )
  })

  it('decodeFrame on arbitrary bytes returns a result or throws DeserializationError, never anything else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 16 }), fc.boolean(), (bytes, zeroFirst) => {
        if (zeroFirst && bytes.length > 0) bytes[0] = 0
        try {
          const { schemaId, payload } = decodeFrame(bytes)
          expect(bytes.length).toBeGreaterThanOrEqual(5)
          expect(bytes[0]).toBe(0)
          expect(schemaId).toBe(Buffer.from(bytes).readUInt32BE(1))
          expect(payload.length).toBe(bytes.length - 5)
        } catch (error) {
          expect(error).toBeInstanceOf(DeserializationError)
          expect(isSerdeError(error, 'DESERIALIZATION')).toBe(true)
        }
      }),
    )
  })

  it('decodeFrame on arbitrary values of any type throws only DeserializationError', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(() => decodeFrame(value as never)).toThrow(DeserializationError)
      }),
    )
  })
})
