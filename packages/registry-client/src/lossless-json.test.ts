import { describe, expect, it } from 'vitest'
import { parseLosslessJson } from './lossless-json.js'

describe('parseLosslessJson', () => {
  it('keeps safe integers as numbers and larger integer literals as exact bigints', () => {
    const value = parseLosslessJson(
      '{"a": 9007199254740991, "b": 9007199254740993, "c": -9223372036854775808, "d": 99999999999999999999}',
    )
    expect(value).toEqual({
      a: 9007199254740991,
      b: 9007199254740993n,
      c: -9223372036854775808n,
      d: 99999999999999999999n,
    })
  })

  it('reads fractions and exponents as numbers', () => {
    expect(parseLosslessJson('[1.5, -2e3, 0, -0.25E-1]')).toEqual([1.5, -2000, 0, -0.025])
  })

  it('reads strings with escapes, literals and nesting like JSON.parse', () => {
    const text = '{"s":"a\\"b\\\\c\\u00e9\\n","t":true,"f":false,"n":null,"arr":[[],{}],"o":{"k":[1,"x"]}}'
    expect(parseLosslessJson(text)).toEqual(JSON.parse(text))
  })

  it('treats a __proto__ key as an ordinary key', () => {
    const value = parseLosslessJson('{"__proto__": {"polluted": true}}') as Record<string, unknown>
    expect(Object.keys(value)).toEqual(['__proto__'])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it.each([
    ['', 'unexpected end of input'],
    ['{', 'expected a property name'],
    ['{"a" 1}', 'expected ":"'],
    ['[1 2]', 'expected "," or "]"'],
    ['{"a":1,}', 'expected a property name'],
    ['01', 'unexpected text after the JSON value'],
    ['"raw\ncontrol"', 'malformed string'],
    ['tru', 'expected true'],
    ['<html>', 'unexpected character "<"'],
    ['{"a":1} x', 'unexpected text after the JSON value'],
  ])('rejects %j with a SyntaxError (%s)', (text, fragment) => {
    expect(() => parseLosslessJson(text)).toThrow(SyntaxError)
    expect(() => parseLosslessJson(text)).toThrow(fragment)
  })

  it('refuses nesting deeper than 512 levels instead of overflowing the stack', () => {
    expect(() => parseLosslessJson('['.repeat(600) + ']'.repeat(600))).toThrow(
      'nesting deeper than 512 levels',
    )
  })
})
