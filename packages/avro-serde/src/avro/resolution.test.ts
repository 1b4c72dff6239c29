import avro from 'avsc'
import { describe, expect, test, vi } from 'vitest'
import type { AvroCodec } from './index.js'
import { codecOf, encode, thrown } from './test-support/fixtures.js'

/** Encodes `value` with `writer` and decodes it with `reader`, as a consumer with a reader schema does. */
function readAs(writer: AvroCodec, reader: AvroCodec, value: unknown): unknown {
  return reader.decode(encode(writer, value), 0, undefined, writer)
}

const record = (name: string, fields: object[], extra: object = {}) => ({
  type: 'record',
  name,
  fields,
  ...extra,
})

describe('schema resolution (reading with a reader schema other than the writer schema, as the Avro specification says)', () => {
  test('a field the reader has but the writer lacks takes the reader default', () => {
    const writer = codecOf(record('User', [{ name: 'id', type: 'string' }]))
    const reader = codecOf(
      record('User', [
        { name: 'id', type: 'string' },
        { name: 'age', type: 'int', default: 18 },
        { name: 'tags', type: { type: 'array', items: 'string' }, default: ['new'] },
        { name: 'nick', type: ['null', 'string'], default: null },
        { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' }, default: 1000 },
      ]),
    )
    expect(readAs(writer, reader, { id: 'u1' })).toEqual({
      id: 'u1',
      age: 18,
      tags: ['new'],
      nick: null,
      at: new Date(1000),
    })
  })

  test('a missing field without a default is a DeserializationError naming it', () => {
    const writer = codecOf(record('User', [{ name: 'id', type: 'string' }]))
    const reader = codecOf(
      record('User', [
        { name: 'id', type: 'string' },
        { name: 'age', type: 'int' },
      ]),
    )
    const error = thrown(() => readAs(writer, reader, { id: 'u1' }))
    expect(error.name).toBe('DeserializationError')
    expect(error.code).toBe('DESERIALIZATION')
    expect(error.message).toBe(
      'Writer schema User cannot be read as reader schema User: no matching field for default-less User.age',
    )
    expect(error.cause).toBeInstanceOf(Error)
  })

  test('a writer field the reader lacks is dropped', () => {
    const writer = codecOf(
      record('User', [
        { name: 'id', type: 'string' },
        { name: 'secret', type: { type: 'map', values: { type: 'array', items: 'long' } } },
        { name: 'age', type: 'int' },
        { name: 'tail', type: ['null', 'string'] },
      ]),
    )
    const reader = codecOf(
      record('User', [
        { name: 'age', type: 'int' },
        { name: 'id', type: 'string' },
      ]),
    )
    expect(readAs(writer, reader, { id: 'u1', secret: { a: [1, 2n ** 60n] }, age: 30, tail: 'x' })).toEqual({
      age: 30,
      id: 'u1',
    })
  })

  test.each([
    ['int', 'long', -5, -5],
    // A JavaScript number holds every int exactly: promoting to float does not round to 32-bit precision.
    ['int', 'float', 16777217, 16777217],
    ['int', 'double', 2147483647, 2147483647],
    ['long', 'float', 3, 3],
    ['long', 'double', 2n ** 53n, 2 ** 53],
    ['float', 'double', 0.5, 0.5],
    ['string', 'bytes', 'é', Buffer.from('é')],
    ['bytes', 'string', Buffer.from('é'), 'é'],
  ])('%s is promoted to %s', (from, to, value, expected) => {
    expect(readAs(codecOf(from), codecOf(to), value)).toEqual(expected)
  })

  test('an int promoted to long follows the long mode', () => {
    expect(readAs(codecOf('int'), codecOf('long', { longs: 'bigint' }), 7)).toBe(7n)
  })

  test('promotions apply inside arrays, maps and unions', () => {
    const writer = codecOf(
      record('P', [
        { name: 'list', type: { type: 'array', items: 'int' } },
        { name: 'byKey', type: { type: 'map', values: 'float' } },
        { name: 'maybe', type: ['null', 'int'] },
      ]),
    )
    const reader = codecOf(
      record('P', [
        { name: 'list', type: { type: 'array', items: 'double' } },
        { name: 'byKey', type: { type: 'map', values: 'double' } },
        { name: 'maybe', type: ['null', 'long'] },
      ]),
    )
    expect(readAs(writer, reader, { list: [1, 2], byKey: { a: 0.25 }, maybe: 3 })).toEqual({
      list: [1, 2],
      byKey: { a: 0.25 },
      maybe: 3,
    })
  })

  test('reader field aliases match writer field names', () => {
    const writer = codecOf(record('User', [{ name: 'fullName', type: 'string' }]))
    const reader = codecOf(record('User', [{ name: 'name', type: 'string', aliases: ['fullName'] }]))
    expect(readAs(writer, reader, { fullName: 'Ada' })).toEqual({ name: 'Ada' })
  })

  test('reader record aliases match the writer record name', () => {
    const writer = codecOf(record('Person', [{ name: 'id', type: 'int' }], { namespace: 'old' }))
    const reader = codecOf(
      record('User', [{ name: 'id', type: 'int' }], { namespace: 'app', aliases: ['old.Person'] }),
    )
    expect(readAs(writer, reader, { id: 1 })).toEqual({ id: 1 })
    const unaliased = codecOf(record('User', [{ name: 'id', type: 'int' }], { namespace: 'app' }))
    const error = thrown(() => readAs(writer, unaliased, { id: 1 }))
    expect(error.message).toBe(
      'Writer schema old.Person cannot be read as reader schema app.User: no alias found for old.Person',
    )
  })

  test('an enum symbol the reader lacks takes the reader enum default', () => {
    const writer = codecOf({ type: 'enum', name: 'Kind', symbols: ['A', 'B', 'C'] })
    const reader = codecOf({ type: 'enum', name: 'Kind', symbols: ['A', 'B', 'UNKNOWN'], default: 'UNKNOWN' })
    expect(readAs(writer, reader, 'C')).toBe('UNKNOWN')
    expect(readAs(writer, reader, 'B')).toBe('B')
  })

  test('a writer union branch is read into the matching reader union branch', () => {
    const writer = codecOf(['null', 'int', 'string'])
    const reader = codecOf(['string', 'null', 'long'])
    expect(readAs(writer, reader, 5)).toBe(5)
    expect(readAs(writer, reader, null)).toBeNull()
    expect(readAs(writer, reader, 'x')).toBe('x')
  })

  test('a non-union writer is read into a reader union', () => {
    expect(readAs(codecOf('string'), codecOf(['null', 'string']), 'x')).toBe('x')
  })

  test('incompatible schemas are refused with both schema names', () => {
    const error = thrown(() =>
      readAs(codecOf(record('A', [{ name: 'x', type: 'string' }])), codecOf('int'), { x: 'y' }),
    )
    expect(error.name).toBe('DeserializationError')
    expect(error.message).toMatch(/^Writer schema A cannot be read as reader schema int: /)
  })

  test('the resolver of a writer is built once and reused', () => {
    const writer = codecOf(record('User', [{ name: 'id', type: 'string' }]))
    const reader = codecOf(
      record('User', [
        { name: 'id', type: 'string' },
        { name: 'age', type: 'int', default: 1 },
      ]),
    )
    const other = codecOf(record('User', [{ name: 'id', type: 'string' }]))
    const spy = vi.spyOn(avro.Type.prototype, 'createResolver')
    const bytes = encode(writer, { id: 'a' })
    reader.decode(bytes, 0, undefined, writer)
    reader.decode(bytes, 0, undefined, other)
    const built = spy.mock.calls.filter(
      ([writerType]) => writerType === writer.type || writerType === other.type,
    )
    expect(built).toHaveLength(2)
    const calls = spy.mock.calls.length
    for (let i = 0; i < 5; i++) {
      expect(reader.decode(bytes, 0, undefined, writer)).toEqual({ id: 'a', age: 1 })
      expect(reader.decode(bytes, 0, undefined, other)).toEqual({ id: 'a', age: 1 })
    }
    expect(spy.mock.calls.length).toBe(calls)
    spy.mockRestore()
  })

  test('a failing resolution is not retried for every message, and each throw is a fresh error', () => {
    const writer = codecOf('string')
    const reader = codecOf('int')
    const spy = vi.spyOn(avro.Type.prototype, 'createResolver')
    const first = thrown(() => readAs(writer, reader, 'x'))
    const calls = spy.mock.calls.length
    const second = thrown(() => readAs(writer, reader, 'x'))
    expect(calls).toBeGreaterThan(0)
    expect(spy.mock.calls.length).toBe(calls)
    expect(first).not.toBe(second)
    expect(second.message).toBe(first.message)
    spy.mockRestore()
  })
})
