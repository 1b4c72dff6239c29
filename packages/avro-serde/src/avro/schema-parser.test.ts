import avro from 'avsc'
import { describe, expect, test } from 'vitest'
import { isMissingNamedType } from './index.js'
import { codecOf, encode, thrown } from './test-support/fixtures.js'

const address = {
  type: 'record',
  name: 'Address',
  namespace: 'com.example',
  fields: [{ name: 'city', type: 'string' }],
}
const country = { type: 'enum', name: 'Country', namespace: 'com.example', symbols: ['FR', 'DE'] }
const customer = {
  type: 'record',
  name: 'Customer',
  namespace: 'com.example',
  fields: [
    { name: 'home', type: 'Address' },
    { name: 'work', type: ['null', 'com.example.Address'], default: null },
    { name: 'country', type: { type: 'com.example.Country' } },
  ],
}

describe('references', () => {
  test('a schema using named types of other artifacts parses after its references', () => {
    const codec = codecOf(JSON.stringify(customer), undefined, [JSON.stringify(address), country])
    const value = { home: { city: 'Paris' }, work: { city: 'Lyon' }, country: 'FR' }
    expect(codec.decode(encode(codec, value), 0)).toEqual(value)
    expect(codec.fullName).toBe('com.example.Customer')
  })

  test('without its references the schema fails and names the missing type', () => {
    const error = thrown(() => codecOf(customer))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toBe(
      "Invalid Avro schema: unknown type name 'com.example.Address' (not defined here or in a reference)",
    )
    expect(isMissingNamedType(error)).toBe('com.example.Address')
  })

  test('a reference that itself misses a type names it too', () => {
    const error = thrown(() => codecOf(customer, undefined, [customer]))
    expect(error.message.startsWith('Invalid Avro schema reference #1: ')).toBe(true)
    expect(isMissingNamedType(error)).toBe('com.example.Address')
  })

  test('a reference listed twice is parsed once', () => {
    const codec = codecOf(customer, undefined, [address, country, JSON.stringify(address)])
    expect(codec.decode(encode(codec, { home: { city: 'a' }, country: 'DE' }), 0)).toEqual({
      home: { city: 'a' },
      work: null,
      country: 'DE',
    })
  })

  test('a missing simple name is taken in the enclosing namespace, a dotted one as it is', () => {
    const inNamespace = { type: 'record', name: 'R', namespace: 'a.b', fields: [{ name: 'x', type: 'Gone' }] }
    expect(isMissingNamedType(thrown(() => codecOf(inNamespace)))).toBe('a.b.Gone')
    const dotted = { type: 'record', name: 'R', namespace: 'a.b', fields: [{ name: 'x', type: 'c.Gone' }] }
    expect(isMissingNamedType(thrown(() => codecOf(dotted)))).toBe('c.Gone')
  })

  test('a reference with a leading dot finds a type of the null namespace', () => {
    const schema = {
      type: 'record',
      name: 'R',
      namespace: 'a.b',
      fields: [
        { name: 'x', type: { type: 'fixed', name: 'F', namespace: '', size: 1 } },
        { name: 'y', type: '.F' },
      ],
    }
    const codec = codecOf(schema)
    const value = { x: Buffer.from([1]), y: Buffer.from([2]) }
    expect(codec.decode(encode(codec, value), 0)).toEqual(value)
  })

  test('a primitive name in a namespace and an invalid name are not missing named types', () => {
    const primitive = { type: 'record', name: 'R', fields: [{ name: 'x', type: 'a.b.int' }] }
    expect(codecOf(primitive).decode(encode(codecOf(primitive), { x: 3 }), 0)).toEqual({ x: 3 })
    const invalid = { type: 'record', name: 'R', fields: [{ name: 'x', type: 'not-a-name' }] }
    const error = thrown(() => codecOf(invalid))
    expect(error.code).toBe('INVALID_CONFIG')
    expect(isMissingNamedType(error)).toBeUndefined()
  })

  test('any other failure is not a missing named type', () => {
    expect(isMissingNamedType(thrown(() => codecOf('{"type": "record"}')))).toBeUndefined()
    expect(isMissingNamedType(new Error('undefined type name: x'))).toBeUndefined()
    expect(isMissingNamedType(undefined)).toBeUndefined()
  })
})

describe('invalid schemas', () => {
  test.each([
    ['text that is not JSON', '{"type": ', /^Invalid Avro schema: not valid JSON \(/],
    [
      'a record without fields',
      { type: 'record', name: 'R' },
      /^Invalid Avro schema: non-array record fields/,
    ],
    ['an unknown type', { type: 'integer' }, /^Invalid Avro schema: unknown type name 'integer'/],
    [
      'a union with two branches of one type',
      ['long', { type: 'long', logicalType: 'timestamp-millis' }],
      /duplicate union branch name: "long"/,
    ],
    ['a nested union', ['null', ['int', 'string']], /unions cannot be directly nested/],
    [
      'a bad default',
      { type: 'record', name: 'R', fields: [{ name: 'a', type: 'int', default: 'x' }] },
      /incompatible field default/,
    ],
  ])('%s is a TypeError INVALID_CONFIG with the avsc error as cause', (_name, schema, message) => {
    const error = thrown(() => codecOf(schema))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toMatch(message)
    expect(error.cause).toBeInstanceOf(Error)
  })

  test('an avsc Type is refused: the schema JSON is expected', () => {
    const error = thrown(() => codecOf(avro.Type.forSchema('int') as unknown as object))
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toBe('Invalid Avro schema: pass the schema JSON (text or object), not an avsc Type')
  })
})

describe('named types', () => {
  test('a recursive record round-trips', () => {
    const codec = codecOf({
      type: 'record',
      name: 'Node',
      fields: [
        { name: 'value', type: 'int' },
        { name: 'children', type: { type: 'array', items: 'Node' } },
      ],
    })
    const tree = {
      value: 1,
      children: [
        { value: 2, children: [] },
        { value: 3, children: [{ value: 4, children: [] }] },
      ],
    }
    expect(codec.decode(encode(codec, tree), 0)).toEqual(tree)
  })

  test('a type name used by reference with {"type": name} resolves', () => {
    const codec = codecOf({
      type: 'record',
      name: 'R',
      fields: [
        { name: 'a', type: { type: 'fixed', name: 'F', size: 1 } },
        { name: 'b', type: { type: 'F' } },
      ],
    })
    const value = { a: Buffer.from([1]), b: Buffer.from([2]) }
    expect(codec.decode(encode(codec, value), 0)).toEqual(value)
  })
})
