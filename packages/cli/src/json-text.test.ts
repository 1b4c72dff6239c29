import { JsonSyntaxError, MAX_JSON_NESTING } from '@x/registry-client/json'
import { describe, expect, it } from 'vitest'
import { parseJsonText } from './json-text.js'

const nested = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`

describe('parseJsonText', () => {
  it('reads nesting up to the bound and refuses one level more at the bracket that goes too deep', () => {
    expect(MAX_JSON_NESTING).toBe(1000)
    expect(() => parseJsonText(nested(1000))).not.toThrow()
    const thrown = (() => {
      try {
        parseJsonText(` ${nested(1001)}`)
      } catch (error) {
        return error
      }
    })()
    expect(thrown).toBeInstanceOf(JsonSyntaxError)
    expect(thrown).toMatchObject({
      message: 'JSON nested deeper than 1000 arrays and objects at position 1001',
      position: 1001,
    })
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: `\\"${'['.repeat(5000)}`, b: '{'.repeat(5000) })
    expect(parseJsonText(text)).toEqual(JSON.parse(text))
  })

  it('keeps __proto__ and constructor as own data and integers beyond 2^53 exact', () => {
    const value = parseJsonText('{"__proto__":{"x":1},"constructor":9007199254740993}') as Record<
      string,
      unknown
    >
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor'])
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ x: 1 })
    expect(value.constructor).toBe(9007199254740993n)
  })
})
