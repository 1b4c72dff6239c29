import { describe, expect, test } from 'vitest'
import { MAX_ZERO_BYTE_ITEMS } from './limits.js'
import { codecOf, encode, fromHex, hex, thrown } from './test-support/fixtures.js'

/** The zigzag varint of a non-negative count. */
function count(n: number): string {
  let z = BigInt(n) * 2n
  const out: number[] = []
  while (z >= 0x80n) {
    out.push(Number(z & 0x7fn) | 0x80)
    z >>= 7n
  }
  out.push(Number(z))
  return hex(Buffer.from(out))
}

describe('hostile block counts fail fast, before any allocation', () => {
  test('a 6-byte payload claiming 2^31 array items', () => {
    const bytes = fromHex(`${count(2 ** 31)} 02`)
    expect(bytes.length).toBe(6)
    const error = thrown(() => codecOf({ type: 'array', items: 'int' }).decode(bytes, 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toBe(
      'Invalid Avro data for schema array: Avro data claims 2147483648 array items but only 1 byte remain',
    )
  })

  test('an array count of 2^62 items of 8 bytes each', () => {
    const error = thrown(() =>
      codecOf({ type: 'array', items: 'double' }).decode(fromHex(`${count(2 ** 62)} 00`), 0),
    )
    expect(error.message).toContain('array items but only 1 byte remain')
  })

  test('a count larger than the bytes left divided by the smallest item', () => {
    // Three doubles need 24 bytes; 16 are there.
    const bytes = fromHex(`06 ${'00 '.repeat(16)}`)
    expect(thrown(() => codecOf({ type: 'array', items: 'double' }).decode(bytes, 0)).message).toContain(
      'claims 3 array items but only 16 bytes remain',
    )
  })

  test('a map claiming more entries than bytes', () => {
    const error = thrown(() =>
      codecOf({ type: 'map', values: 'null' }).decode(fromHex(`${count(2 ** 40)} 02 61`), 0),
    )
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toContain('Avro data claims 1099511627776 map entries but only 2 bytes remain')
  })

  test('a negative count (a block with its byte size) is bounded too', () => {
    const bytes = fromHex('ff ff ff ff 0f 02 00')
    expect(thrown(() => codecOf({ type: 'array', items: 'int' }).decode(bytes, 0)).message).toContain(
      'claims 2147483648 array items',
    )
  })

  test('items that take no bytes are capped per decoded value', () => {
    const codec = codecOf({ type: 'array', items: 'null' })
    const error = thrown(() => codec.decode(fromHex(`${count(2 ** 31)} 00`), 0))
    expect(error.message).toBe(
      `Invalid Avro data for schema array: Avro data claims 2147483648 array items that take no bytes, beyond the limit of ${MAX_ZERO_BYTE_ITEMS} per datum`,
    )
    expect(codec.decode(fromHex(`${count(1000)} 00`), 0)).toHaveLength(1000)
  })

  test('the cap on empty items counts across nested arrays and restarts with each value', () => {
    const codec = codecOf({ type: 'array', items: { type: 'array', items: 'null' } })
    const half = (MAX_ZERO_BYTE_ITEMS / 2) | 0
    const ok = fromHex(`04 ${count(half)} 00 ${count(half)} 00 00`)
    expect((codec.decode(ok, 0) as unknown[][]).map((inner) => inner.length)).toEqual([half, half])
    expect((codec.decode(ok, 0) as unknown[][]).length).toBe(2)
    const over = fromHex(`04 ${count(half)} 00 ${count(half + 1)} 00 00`)
    expect(thrown(() => codec.decode(over, 0)).message).toContain('that take no bytes')
  })

  test('a writer-only array skipped during resolution is bounded too', () => {
    const writer = codecOf({
      type: 'record',
      name: 'R',
      fields: [
        { name: 'skip', type: { type: 'array', items: 'long' } },
        { name: 'keep', type: 'int' },
      ],
    })
    const reader = codecOf({ type: 'record', name: 'R', fields: [{ name: 'keep', type: 'int' }] })
    expect(reader.decode(fromHex('04 02 04 00 0e'), 0, undefined, writer)).toEqual({ keep: 7 })
    const error = thrown(() => reader.decode(fromHex(`${count(2 ** 31)} 0e`), 0, undefined, writer))
    expect(error.message).toContain('claims 2147483648 array items but only 1 byte remain')
    const backwards = thrown(() => reader.decode(fromHex('01 03 00 0e'), 0, undefined, writer))
    expect(backwards.message).toContain('negative block size -2')
  })

  test('string and bytes lengths beyond the data are reported as truncated without allocating', () => {
    for (const schema of ['string', 'bytes']) {
      const error = thrown(() => codecOf(schema).decode(fromHex(`${count(2 ** 40)} 61`), 0))
      expect(error.message).toBe(
        `Invalid Avro data for schema ${schema}: truncated (the 7 bytes end inside a value)`,
      )
    }
  })

  test('a negative string length is refused', () => {
    expect(thrown(() => codecOf('string').decode(fromHex('01 61'), 0)).name).toBe('DeserializationError')
  })

  test('nesting deeper than the stack allows is a DeserializationError', () => {
    const codec = codecOf({
      type: 'record',
      name: 'Node',
      fields: [{ name: 'next', type: ['null', 'Node'] }],
    })
    const bytes = Buffer.alloc(1_000_001, 0x02)
    bytes[bytes.length - 1] = 0
    const error = thrown(() => codec.decode(bytes, 0))
    expect(error.name).toBe('DeserializationError')
    expect(error.cause).toBeInstanceOf(RangeError)
  })

  test('a block of items written with its byte size (negative count) decodes', () => {
    expect(codecOf({ type: 'array', items: 'int' }).decode(fromHex('03 04 02 04 00'), 0)).toEqual([1, 2])
    expect(codecOf({ type: 'map', values: 'int' }).decode(fromHex('01 06 02 61 02 00'), 0)).toEqual({ a: 1 })
  })
})

describe('keys that name prototype properties stay own data properties', () => {
  test('a map key __proto__ decodes as an own property and no prototype changes', () => {
    const codec = codecOf({ type: 'map', values: { type: 'map', values: 'string' } })
    const hostile = fromHex(
      `02 12 ${hex(Buffer.from('__proto__'))} 02 10 ${hex(Buffer.from('polluted'))} 06 79 65 73 00 00`,
    )
    const map = codec.decode(hostile, 0) as Record<string, unknown>
    expect(Object.getPrototypeOf(map)).toBe(Object.prototype)
    expect(Object.keys(map)).toEqual(['__proto__'])
    expect(Object.getOwnPropertyDescriptor(map, '__proto__')?.value).toEqual({ polluted: 'yes' })
    expect(map.polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  test('map keys constructor and hasOwnProperty are plain entries', () => {
    const codec = codecOf({ type: 'map', values: 'int' })
    const value = JSON.parse('{"__proto__": 1, "constructor": 2, "hasOwnProperty": 3}')
    const decoded = codec.decode(encode(codec, value), 0) as Record<string, unknown>
    expect(Object.entries(decoded)).toEqual([
      ['__proto__', 1],
      ['constructor', 2],
      ['hasOwnProperty', 3],
    ])
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype)
  })

  const protoSchema = {
    type: 'record',
    name: 'Odd',
    fields: [
      { name: '__proto__', type: { type: 'map', values: 'string' } },
      { name: 'constructor', type: 'string' },
      { name: 'n', type: 'int', default: 1 },
    ],
  }

  test('a record field named __proto__ is written from, and decoded to, an own property', () => {
    const codec = codecOf(protoSchema)
    const value = JSON.parse('{"__proto__": {"polluted": "yes"}, "constructor": "c", "n": 2}')
    const bytes = encode(codec, value)
    expect(hex(bytes)).toBe(`02 10 ${hex(Buffer.from('polluted'))} 06 79 65 73 00 02 63 04`)
    const decoded = codec.decode(bytes, 0) as Record<string, unknown>
    expect(Object.keys(decoded)).toEqual(['__proto__', 'constructor', 'n'])
    expect(Object.getOwnPropertyDescriptor(decoded, '__proto__')?.value).toEqual({ polluted: 'yes' })
    expect(decoded.polluted).toBeUndefined()
    expect(decoded.constructor).toBe('c')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  test('an inherited __proto__ is not mistaken for the field', () => {
    const codec = codecOf(protoSchema)
    const error = thrown(() => codec.encodeInto({ constructor: 'c' }, Buffer.alloc(32), 0))
    expect(error.paths).toEqual(['__proto__'])
  })

  test('a record with a __proto__ field resolves against another version of itself', () => {
    const writer = codecOf(protoSchema)
    const reader = codecOf({
      type: 'record',
      name: 'Odd',
      fields: [
        { name: 'n', type: 'long' },
        { name: 'proto', type: { type: 'map', values: 'string' }, aliases: ['__proto__'] },
        { name: 'extra', type: 'string', default: 'd' },
      ],
    })
    const bytes = encode(writer, JSON.parse('{"__proto__": {"k": "v"}, "constructor": "c", "n": 2}'))
    expect(reader.decode(bytes, 0, undefined, writer)).toEqual({ n: 2, proto: { k: 'v' }, extra: 'd' })
    const error = thrown(() =>
      writer.decode(encode(reader, { n: 3, proto: { a: 'b' } }), 0, undefined, reader),
    )
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toBe(
      'Writer schema Odd cannot be read as reader schema Odd: no matching field for default-less Odd.__proto__',
    )
  })
})
