import { describe, expect, test } from 'vitest'
import { codecOf, encode, hex, thrown } from './test-support/fixtures.js'

// Values that once corrupted data or cost unbounded time: names like Object.prototype members, a Map for an Avro
// map, wrong values with huge messages, throwing getters. Each test failed on the code before its fix.

const PROTOTYPE_NAMES = ['toString', 'valueOf', 'constructor', '__proto__', 'hasOwnProperty', 'isPrototypeOf']

describe('enum symbols are looked up by the symbols themselves, never through Object.prototype', () => {
  const codec = codecOf({ type: 'enum', name: 'E', symbols: ['A', 'B'] })

  test.each(PROTOTYPE_NAMES)(
    '%s is refused with INVALID_DATA instead of being written as symbol 0',
    (name) => {
      const error = thrown(() => encode(codec, name))
      expect(error).toBeInstanceOf(TypeError)
      expect(error.code).toBe('INVALID_DATA')
      expect(error.paths).toEqual([''])
      expect(error.message).toContain('not one of the symbols')
    },
  )

  test('a value of an enum field that is not a symbol names the field', () => {
    const record = codecOf({
      type: 'record',
      name: 'R',
      fields: [{ name: 'kind', type: { type: 'enum', name: 'Kind', symbols: ['A', 'B'] } }],
    })
    const error = thrown(() => encode(record, { kind: 'constructor' }))
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual(['kind'])
  })

  test('an enum whose symbols are named like Object.prototype members parses, writes and reads', () => {
    const named = codecOf({ type: 'enum', name: 'E', symbols: ['A', 'toString', 'constructor', 'valueOf'] })
    expect(hex(encode(named, 'constructor'))).toBe('04')
    expect(named.decode(encode(named, 'valueOf'), 0)).toBe('valueOf')
    expect(thrown(() => encode(named, 'hasOwnProperty')).code).toBe('INVALID_DATA')
  })

  test('a writer symbol named like an Object.prototype member reads as the reader default, not as itself', () => {
    const writer = codecOf({ type: 'enum', name: 'E', symbols: ['A', 'toString'] })
    const reader = codecOf({ type: 'enum', name: 'E', symbols: ['A', 'B'], default: 'B' })
    expect(reader.decode(encode(writer, 'toString'), 0, undefined, writer)).toBe('B')
    expect(reader.decode(encode(writer, 'A'), 0, undefined, writer)).toBe('A')
  })

  test('a writer enum with a symbol the reader lacks, and no reader default, cannot be resolved', () => {
    const writer = codecOf({ type: 'enum', name: 'E', symbols: ['A', 'constructor'] })
    const reader = codecOf({ type: 'enum', name: 'E', symbols: ['A', 'B'] })
    const error = thrown(() => reader.decode(encode(writer, 'A'), 0, undefined, writer))
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toContain('cannot be read as reader schema')
  })
})

describe('named types and wrapped-union branches are looked up without Object.prototype', () => {
  test('a record named toString and a type named constructor parse and round-trip', () => {
    const codec = codecOf({
      type: 'record',
      name: 'toString',
      fields: [
        { name: 'a', type: { type: 'fixed', name: 'constructor', size: 1 } },
        { name: 'b', type: 'constructor' },
      ],
    })
    const value = { a: Buffer.from([1]), b: Buffer.from([2]) }
    expect(hex(encode(codec, value))).toBe('01 02')
    expect(codec.decode(encode(codec, value), 0)).toEqual(value)
  })

  test('a reference to an undefined type named like an Object.prototype member is an unknown type name', () => {
    const error = thrown(() =>
      codecOf({ type: 'record', name: 'R', fields: [{ name: 'a', type: 'toString' }] }),
    )
    expect(error.message).toContain("unknown type name 'toString'")
  })

  test.each(PROTOTYPE_NAMES)('a wrapped union value keyed %s is refused with INVALID_DATA', (name) => {
    const codec = codecOf(['int', 'long'])
    const error = thrown(() => encode(codec, JSON.parse(`{"${name}": 1}`)))
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual([''])
  })
})

describe('a JavaScript Map given for an Avro map', () => {
  const codec = codecOf({ type: 'map', values: 'int' })

  test('is written with all its entries, exactly as the same plain object', () => {
    const bytes = encode(
      codec,
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
    )
    expect(hex(bytes)).toBe(hex(encode(codec, { a: 1, b: 2 })))
    expect(hex(bytes)).toBe('04 02 61 02 02 62 04 00')
    expect(codec.decode(bytes, 0)).toEqual({ a: 1, b: 2 })
  })

  test('an empty Map is the empty map', () => {
    expect(hex(encode(codec, new Map()))).toBe('00')
  })

  test('a Map with a key that is not a string is refused, never written with entries dropped', () => {
    const error = thrown(() =>
      encode(
        codec,
        new Map<unknown, number>([
          ['a', 1],
          [2, 3],
        ]),
      ),
    )
    expect(error.code).toBe('INVALID_DATA')
    expect(error.message).toContain('a Map key that is not a string: number 2')
  })

  test('a Map value of the wrong type names its key', () => {
    const error = thrown(() =>
      encode(
        codec,
        new Map<string, unknown>([
          ['a', 1],
          ['b', 'x'],
        ]),
      ),
    )
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual(['["b"]'])
  })

  test('strict mode looks into the records inside a Map', () => {
    const nested = codecOf({
      type: 'map',
      values: { type: 'record', name: 'V', fields: [{ name: 'x', type: 'int' }] },
    })
    const error = thrown(() => nested.checkStrict(new Map([['k', { x: 1, extra: true }]])))
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual(['["k"].extra'])
  })

  test('a Map in an auto union with a map branch takes that branch', () => {
    const union = codecOf(['null', { type: 'map', values: 'string' }])
    expect(hex(encode(union, new Map([['a', 'b']])))).toBe('02 02 02 61 02 62 00')
  })
})

describe('defaults of fields named like Object.prototype members', () => {
  const schema = {
    type: 'record',
    name: 'R',
    fields: [
      { name: 'constructor', type: 'string', default: 'd' },
      { name: 'toString', type: 'string', default: 't' },
      { name: 'valueOf', type: 'int', default: 7 },
      { name: 'x', type: 'int' },
    ],
  }
  const codec = codecOf(schema)

  test('apply to a plain object as they do to Object.create(null)', () => {
    const plain = encode(codec, { x: 1 })
    const bare = encode(codec, Object.assign(Object.create(null), { x: 1 }))
    expect(hex(plain)).toBe(hex(bare))
    expect(codec.decode(plain, 0)).toEqual({ constructor: 'd', toString: 't', valueOf: 7, x: 1 })
  })

  test('own values of those fields are written', () => {
    const value = { constructor: 'c', toString: 's', valueOf: 3, x: 1 }
    expect(codec.decode(encode(codec, value), 0)).toEqual(value)
  })

  test("a class instance's own getter of such a name still counts", () => {
    class Row {
      x = 2
      get toString(): string {
        return 'from-getter'
      }
    }
    expect((codec.decode(encode(codec, new Row()), 0) as { toString: string }).toString).toBe('from-getter')
  })

  test('are read through a resolver from a writer without them', () => {
    const writer = codecOf({ type: 'record', name: 'R', fields: [{ name: 'x', type: 'int' }] })
    expect(codec.decode(encode(writer, { x: 5 }), 0, undefined, writer)).toEqual({
      constructor: 'd',
      toString: 't',
      valueOf: 7,
      x: 5,
    })
  })

  test('a writer field named like an Object.prototype member that the reader lacks is skipped', () => {
    const writer = codecOf({
      type: 'record',
      name: 'R',
      fields: [
        { name: 'constructor', type: 'string' },
        { name: 'x', type: 'int' },
      ],
    })
    const reader = codecOf({ type: 'record', name: 'R', fields: [{ name: 'x', type: 'int' }] })
    expect(reader.decode(encode(writer, { constructor: 'c', x: 9 }), 0, undefined, writer)).toEqual({ x: 9 })
  })
})

/** `{ a: o, b: o }` nested `depth` times: 2^depth paths through `depth + 1` objects. */
function dag(depth: number): object {
  let node: object = {}
  for (let i = 0; i < depth; i++) node = { a: node, b: node }
  return node
}

describe('refusing a wrong value takes bounded time and gives a bounded message', () => {
  const record = codecOf({ type: 'record', name: 'S', fields: [{ name: 'name', type: 'string' }] })

  test.each([
    ['a string field', record, () => ({ name: dag(40) })],
    ['an int', codecOf('int'), () => dag(40)],
    ['a boolean', codecOf('boolean'), () => dag(40)],
    ['a double', codecOf('double'), () => dag(40)],
    ['null', codecOf('null'), () => dag(40)],
    ['an array', codecOf({ type: 'array', items: 'int' }), () => dag(40)],
    ['an enum', codecOf({ type: 'enum', name: 'E', symbols: ['A'] }), () => dag(40)],
    ['an auto union', codecOf(['null', 'string']), () => dag(40)],
    ['a wrapped union', codecOf(['int', 'long']), () => dag(40)],
  ])('a 2^40-path DAG given for %s is refused at once', (_, codec, value) => {
    const started = performance.now()
    const error = thrown(() => encode(codec, value()))
    expect(error.code).toBe('INVALID_DATA')
    expect(error.message.length).toBeLessThan(500)
    // Generous: the old code took 0.7 s at depth 22 and doubled per level (days at 40).
    expect(performance.now() - started).toBeLessThan(2000)
  })

  test('a DAG of wrong items under a recursive schema stops the search at its bound and says so', () => {
    const tree = codecOf({
      type: 'record',
      name: 'Node',
      fields: [
        { name: 'v', type: 'int' },
        { name: 'kids', type: { type: 'array', items: 'Node' } },
      ],
    })
    let node: object = { v: 'bad', kids: [] }
    for (let i = 0; i < 40; i++) node = { v: 'bad', kids: [node, node] }
    const error = thrown(() => encode(tree, node))
    expect(error.code).toBe('INVALID_DATA')
    expect(error.message).toMatch(
      /^Value does not match the Avro schema Node \(stopped after 1000 issues\): /,
    )
    expect((error.paths ?? []).length).toBe(1000)
    expect(error.message.length).toBeLessThan(2000)
  })

  test('a cyclic value is refused with INVALID_DATA', () => {
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(thrown(() => encode(record, { name: cyclic })).code).toBe('INVALID_DATA')
  })
})

describe('an error thrown while reading the value becomes INVALID_DATA with that error as cause', () => {
  const record = codecOf({
    type: 'record',
    name: 'S',
    fields: [{ name: 'inner', type: { type: 'record', name: 'T', fields: [{ name: 'x', type: 'int' }] } }],
  })
  const boom = new Error('boom')
  const hostile = () =>
    new Proxy(
      {},
      {
        ownKeys() {
          throw boom
        },
        get() {
          throw boom
        },
        getPrototypeOf() {
          throw boom
        },
      },
    )

  test('in strict mode (a Proxy whose ownKeys throws)', () => {
    const error = thrown(() => record.checkStrict({ inner: hostile() }))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.cause).toBe(boom)
    expect(error.message).toContain('boom')
  })

  test('on write (a Proxy whose traps all throw)', () => {
    const error = thrown(() => encode(record, { inner: hostile() }))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.cause).toBe(boom)
  })

  test('on write (a getter that throws)', () => {
    const value = {
      get inner(): never {
        throw boom
      },
    }
    const error = thrown(() => encode(record, value))
    expect(error.code).toBe('INVALID_DATA')
    expect(error.cause).toBe(boom)
  })
})

describe('wrapped-union messages', () => {
  test('say "or null" only for a union with a null branch', () => {
    expect(thrown(() => encode(codecOf(['int', 'long']), 'x')).message).toContain(
      'a branch of int, long, got',
    )
    expect(thrown(() => encode(codecOf(['null', 'int', 'long']), 'x')).message).toContain(
      'a branch of int, long, or null, got',
    )
  })
})

describe('a map is a plain object, a null-prototype object or a Map', () => {
  const codec = codecOf({ type: 'map', values: 'string' })

  test('each is written with its entries, as avsc writes the plain object', () => {
    const expected = hex(encode(codec, { a: 'x', b: 'y' }))
    expect(hex(encode(codec, Object.assign(Object.create(null), { a: 'x', b: 'y' })))).toBe(expected)
    expect(
      hex(
        encode(
          codec,
          new Map([
            ['a', 'x'],
            ['b', 'y'],
          ]),
        ),
      ),
    ).toBe(expected)
  })

  test('an array or a typed array given Object.prototype as its prototype is refused, not written as a map', () => {
    for (const value of [['x'], new Uint8Array([0x78])]) {
      Object.setPrototypeOf(value, Object.prototype)
      const error = thrown(() => encode(codec, value))
      expect(error).toBeInstanceOf(TypeError)
      expect((error as TypeError & { code?: string }).code).toBe('INVALID_DATA')
    }
  })
})
