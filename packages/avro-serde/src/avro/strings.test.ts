import avro from 'avsc'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { codecOf } from './test-support/fixtures.js'

/** avsc's own string type: the authority on the bytes `writeString` must produce. */
const avscString = avro.Type.forSchema('string')
const avscMap = avro.Type.forSchema({ type: 'map', values: 'int' })

describe('writeString writes the bytes avsc writes', () => {
  test('ASCII below 64 code units, at 63 and 64, non-ASCII at the start, middle and end, and a surrogate pair', () => {
    const ours = codecOf({ type: 'string' })
    const samples = [
      '',
      'a',
      'x'.repeat(63),
      'x'.repeat(64),
      'x'.repeat(200),
      'é',
      'abcé',
      'éabc',
      `${'x'.repeat(40)}€${'y'.repeat(10)}`,
      '😀',
      `${'x'.repeat(70)}😀`,
      '\u007f\u0080',
    ]
    for (const value of samples) {
      const scratch = Buffer.alloc(512, 0xaa)
      const end = ours.encodeInto(value, scratch, 3)
      expect(scratch.subarray(3, end).toString('hex'), JSON.stringify(value)).toBe(
        avscString.toBuffer(value).toString('hex'),
      )
    }
  })

  test('agrees with avsc on any string, and on map keys', () => {
    const ours = codecOf({ type: 'string' })
    const oursMap = codecOf({ type: 'map', values: 'int' })
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 100 }),
        fc.string({ maxLength: 80 }),
        (value, key) => {
          const scratch = Buffer.alloc(1024)
          const end = ours.encodeInto(value, scratch, 0)
          expect(scratch.subarray(0, end).equals(avscString.toBuffer(value))).toBe(true)
          const mapEnd = oursMap.encodeInto({ [key]: 1 }, scratch, 0)
          expect(scratch.subarray(0, mapEnd).equals(avscMap.toBuffer({ [key]: 1 }))).toBe(true)
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    )
  })

  test('a lone surrogate, which avsc writes as bytes that read back as U+FFFD, is refused; so is one in a map key', () => {
    const ours = codecOf({ type: 'string' })
    const oursMap = codecOf({ type: 'map', values: 'int' })
    for (const value of ['\ud800', 'a\udc00b', '\ud83d', `${'x'.repeat(70)}\udfff`, '😀\ud800']) {
      expect(() => ours.encodeInto(value, Buffer.alloc(512), 0), JSON.stringify(value)).toThrow(
        expect.objectContaining({ code: 'INVALID_DATA', paths: [''] }),
      )
      expect(() => oursMap.encodeInto({ k: 1, [value]: 2 }, Buffer.alloc(512), 0)).toThrow(
        expect.objectContaining({ code: 'INVALID_DATA', paths: [`[${JSON.stringify(value)}]`] }),
      )
    }
  })

  test('a buffer too short tells the size needed, as avsc does', () => {
    const ours = codecOf({ type: 'string' })
    for (const value of ['abcdef', 'x'.repeat(63), 'é'.repeat(10)]) {
      for (let size = 0; size < Buffer.byteLength(value) + 2; size++) {
        const expected = avscString.encode(value, Buffer.alloc(size), 0)
        expect(ours.encodeInto(value, Buffer.alloc(size), 0), `${value} into ${size}`).toBe(expected)
      }
    }
  })
})

describe('readString reads the strings avsc reads', () => {
  test('every length up to 70, ASCII or not, invalid UTF-8 included, in a record and as map keys', () => {
    const record = { type: 'record', name: 'R', fields: [{ name: 's', type: 'string' }] } as const
    const ours = codecOf(record)
    const oursMap = codecOf({ type: 'map', values: 'null' })
    const avscRecord = avro.Type.forSchema(record as unknown as avro.Schema)
    const avscKeys = avro.Type.forSchema({ type: 'map', values: 'null' })
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), fc.boolean(), (raw, ascii) => {
        const bytes = ascii ? raw.map((b) => b & 0x7f) : raw
        const length = Buffer.from(avscString.toBuffer('x'.repeat(bytes.length))).subarray(
          0,
          -bytes.length || undefined,
        )
        const body = Buffer.concat([length, bytes])
        expect(ours.decode(body, 0)).toEqual(avscRecord.fromBuffer(body))
        const map = Buffer.concat([Buffer.from([0x02]), body, Buffer.from([0x00])])
        expect(oursMap.decode(map, 0)).toEqual(avscKeys.fromBuffer(map))
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    )
  })

  test('a length beyond the bytes, a negative length and a cut are refused as avsc refuses them', () => {
    const ours = codecOf({ type: 'string' })
    for (const hex of ['0a6162', '01', '03616263', '']) {
      const bytes = Buffer.from(hex, 'hex')
      expect(() => avscString.fromBuffer(bytes), hex).toThrow()
      expect(() => ours.decode(bytes, 0), hex).toThrow(/Invalid Avro data|truncated|negative/i)
    }
  })
})
