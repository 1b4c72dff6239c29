import { Buffer } from 'node:buffer'
import { DeserializationError } from '@x/errors'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeFrame, encodeFrame, writeFrameHeader } from './frame.js'
import { thrown } from './test-support/thrown.js'

const hex = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('hex')
const fromHex = (text: string): Uint8Array => new Uint8Array(Buffer.from(text.replaceAll(' ', ''), 'hex'))

describe('8-byte ids (idSize: 8, Apicurio 2.x and Legacy8ByteIdHandler)', () => {
  it("writes 0x00 and the id as 8 bytes big-endian, as Java's ByteBuffer.putLong (golden vectors)", () => {
    // Apicurio 2.6.13 wrote globalId 3 as 00 0000000000000003 04616212 (probe 3).
    expect(hex(encodeFrame(3, fromHex('04616212'), { idSize: 8 }))).toBe('00000000000000000304616212')
    expect(hex(encodeFrame(2 ** 32, Uint8Array.of(7), { idSize: 8 }))).toBe('00000000010000000007')
    expect(hex(encodeFrame(Number.MAX_SAFE_INTEGER, new Uint8Array(0), { idSize: 8 }))).toBe(
      '00001fffffffffffff',
    )
    expect(hex(encodeFrame(0x0102030405n, Uint8Array.of(9), { idSize: 8 }))).toBe('0000000001020304' + '0509')
    expect(hex(encodeFrame(1, Uint8Array.of(2, 4), { idSize: 4 }))).toBe('00000000010204')
    expect(hex(encodeFrame(1, Uint8Array.of(2, 4), {}))).toBe('00000000010204')
  })

  it('reads the 8-byte id and the payload after byte 9, as a view', () => {
    const bytes = fromHex('00 0000000000000003 04616212')
    const decoded = decodeFrame(bytes, { idSize: 8 })
    expect(decoded.schemaId).toBe(3)
    expect(decoded.idSize).toBe(8)
    expect(hex(decoded.payload)).toBe('04616212')
    expect(decoded.payload.byteOffset).toBe(bytes.byteOffset + 9)
    expect(decodeFrame(fromHex('00 001fffffffffffff'), { idSize: 8 }).schemaId).toBe(Number.MAX_SAFE_INTEGER)
  })

  it('writeFrameHeader with idSize 8 writes 9 bytes and returns offset + 9', () => {
    const target = new Uint8Array(12).fill(0xee)
    expect(writeFrameHeader(target, 258, 2, { idSize: 8 })).toBe(11)
    expect(hex(target)).toBe('eeee000000000000000102ee')
    expect(thrown(() => writeFrameHeader(new Uint8Array(8), 1, 0, { idSize: 8 }))).toMatchObject({
      name: 'TypeError',
      code: 'INVALID_CONFIG',
      message: 'target must have room for the 9-byte frame header at offset 0, but it has 8 bytes',
    })
  })

  it.each([
    [-1, '-1'],
    [-1n, '-1'],
    [1.5, '1.5'],
    [2n ** 53n, '9007199254740992'],
    [2n ** 63n - 1n, '9223372036854775807'],
  ])('refuses to write id %s in 8 bytes with RangeError ID_OUT_OF_RANGE naming the range', (id, shown) => {
    const error = thrown(() => encodeFrame(id, Uint8Array.of(1), { idSize: 8 }))
    expect(error).toBeInstanceOf(RangeError)
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toContain(shown)
    expect(error.message).toContain('0..9007199254740991')
  })

  it('refuses a number id beyond Number.MAX_SAFE_INTEGER as possibly rounded, never writing a rounded id', () => {
    const error = thrown(() => encodeFrame(2 ** 53, Uint8Array.of(1), { idSize: 8 }))
    expect(error).toBeInstanceOf(RangeError)
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toBe(
      'Schema id 9007199254740992 is not a safe integer, so it may have been rounded already; an 8-byte frame takes ids 0..9007199254740991',
    )
  })

  it('refuses a negative 8-byte id with a DeserializationError giving its exact value', () => {
    const error = thrown(() => decodeFrame(fromHex('00 ffffffffffffffff 01'), { idSize: 8 }))
    expect(error).toBeInstanceOf(DeserializationError)
    expect(error.message).toBe(
      'Cannot decode a frame: its 8-byte schema id is negative (-1), and no registry assigns a negative id',
    )
  })

  it('refuses an 8-byte id beyond Number.MAX_SAFE_INTEGER with its exact value, never a rounded number', () => {
    const error = thrown(() => decodeFrame(fromHex('00 0020000000000001 01'), { idSize: 8 }))
    expect(error).toBeInstanceOf(DeserializationError)
    expect(error.message).toContain('9007199254740993 is beyond 9007199254740991')
    expect(error.message).toContain('idSize 4?')
  })

  it('needs 9 bytes for an 8-byte id and says so', () => {
    const error = thrown(() => decodeFrame(fromHex('00 00000000 000001'), { idSize: 8 }))
    expect(error).toBeInstanceOf(DeserializationError)
    expect(error.message).toBe(
      'Cannot decode a frame: expected at least 9 bytes (magic byte 0x00 + 8-byte schema id), got 8',
    )
  })

  it.each([
    [2, 'number 2'],
    ['8', 'string "8"'],
    [null, 'null'],
  ])('refuses idSize %s with TypeError INVALID_CONFIG', (idSize, shown) => {
    for (const call of [
      () => encodeFrame(1, Uint8Array.of(1), { idSize } as never),
      () => writeFrameHeader(new Uint8Array(9), 1, 0, { idSize } as never),
    ]) {
      expect(thrown(call)).toMatchObject({ name: 'TypeError', code: 'INVALID_CONFIG' })
      expect(thrown(call).message).toContain(`idSize must be 4 or 8, got ${shown}`)
    }
    expect(thrown(() => decodeFrame(fromHex('0000000001'), { idSize } as never))).toMatchObject({
      name: 'TypeError',
      code: 'INVALID_CONFIG',
      message: `decodeFrame: idSize must be 4 or 8 or 'auto', got ${shown}`,
    })
  })

  it("refuses idSize 'auto' for writing (a writer must choose) and options that are not an object", () => {
    expect(thrown(() => encodeFrame(1, Uint8Array.of(1), { idSize: 'auto' } as never)).message).toBe(
      'encodeFrame: idSize must be 4 or 8 (\'auto\' is for deserializers only: a writer must choose), got string "auto"',
    )
    expect(thrown(() => decodeFrame(fromHex('0000000001'), 8 as never))).toMatchObject({
      name: 'TypeError',
      code: 'INVALID_CONFIG',
      message: 'decodeFrame options must be an object such as { idSize: 8 }, got number 8',
    })
  })
})

describe("idSize 'auto' (Java's OptimisticFallbackIdHandler)", () => {
  it('reads a 4-byte frame as 4 bytes and an 8-byte frame as 8 bytes while ids are 1 … 2^32 − 1', () => {
    expect(decodeFrame(fromHex('00 00000007 0a0b0c0d'), { idSize: 'auto' })).toMatchObject({
      schemaId: 7,
      idSize: 4,
    })
    const legacy = decodeFrame(fromHex('00 0000000000000007 0a'), { idSize: 'auto' })
    expect([legacy.schemaId, legacy.idSize, hex(legacy.payload)]).toEqual([7, 8, '0a'])
    // The 4-byte branch reads unsigned, so ids 2^31 … 2^32 − 1 read right (Java's getInt would make them negative).
    expect(decodeFrame(fromHex('00 80000000 01'), { idSize: 'auto' }).schemaId).toBe(2 ** 31)
  })

  it('reads 8 bytes only when the first 4 id bytes are zero and at least 4 more bytes follow', () => {
    expect(decodeFrame(fromHex('00 00000000 010203'), { idSize: 'auto' })).toMatchObject({
      schemaId: 0,
      idSize: 4,
    })
    expect(decodeFrame(fromHex('00 00000000 01020304'), { idSize: 'auto' })).toMatchObject({
      schemaId: 0x01020304,
      idSize: 8,
    })
  })

  it('misreads what its assumption excludes: an 8-byte id of 2^32 or more reads as a 4-byte id (the high half)', () => {
    const decoded = decodeFrame(fromHex('00 0000000100000002 aa'), { idSize: 'auto' })
    expect([decoded.schemaId, decoded.idSize, hex(decoded.payload)]).toEqual([1, 4, '00000002aa'])
  })

  it('reads every 8-byte frame of an id in 1 … 2^32 − 1 as 8 bytes and every 4-byte frame of one as 4 bytes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 0xffffffff }),
        fc.uint8Array({ maxLength: 40 }),
        (id, payload) => {
          for (const idSize of [4, 8] as const) {
            const decoded = decodeFrame(encodeFrame(id, payload, { idSize }), { idSize: 'auto' })
            expect([decoded.schemaId, decoded.idSize]).toEqual([id, idSize])
            expect(hex(decoded.payload)).toBe(hex(payload))
          }
        },
      ),
    )
  })
})

describe('a frame read with the other width', () => {
  it('a 4-byte read of an 8-byte frame of an id below 2^32 sees id 0 (which no registry assigns)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 0xffffffff }),
        fc.uint8Array({ maxLength: 20 }),
        (id, payload) => {
          expect(decodeFrame(encodeFrame(id, payload, { idSize: 8 })).schemaId).toBe(0)
        },
      ),
    )
  })

  it('an 8-byte read of a 4-byte frame takes the first 4 payload bytes into the id: id × 2^32 + those bytes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 0x1fffff }),
        fc.uint8Array({ minLength: 4, maxLength: 20 }),
        (id, payload) => {
          const decoded = decodeFrame(encodeFrame(id, payload), { idSize: 8 })
          expect(decoded.schemaId).toBe(id * 2 ** 32 + Buffer.from(payload).readUInt32BE(0))
          expect(decoded.schemaId).toBeGreaterThanOrEqual(2 ** 32)
        },
      ),
    )
    // From a 4-byte id of 2^21 on, the misread id is beyond 2^53 − 1: refused by the bytes alone.
    expect(
      thrown(() => decodeFrame(encodeFrame(0x200000, Uint8Array.of(0, 0, 0, 0)), { idSize: 8 })),
    ).toBeInstanceOf(DeserializationError)
    // With fewer than 4 payload bytes the frame is too short for an 8-byte id.
    expect(
      thrown(() => decodeFrame(encodeFrame(5, Uint8Array.of(1, 2, 3)), { idSize: 8 })).message,
    ).toContain('expected at least 9 bytes')
  })

  it('round-trips every id 0 … 2^53 − 1 and payload in 8 bytes, laid out as Node writeBigInt64BE', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.uint8Array({ maxLength: 50 }), (id, payload) => {
        const frame = encodeFrame(id, payload, { idSize: 8 })
        const reference = Buffer.alloc(9)
        reference.writeBigInt64BE(BigInt(id), 1)
        expect(hex(frame.subarray(0, 9))).toBe(reference.toString('hex'))
        const decoded = decodeFrame(frame, { idSize: 8 })
        expect(decoded.schemaId).toBe(id)
        expect(hex(decoded.payload)).toBe(hex(payload))
      }),
    )
  })
})
