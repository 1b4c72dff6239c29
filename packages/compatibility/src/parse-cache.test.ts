import { describe, expect, it } from 'vitest'
import { ParseCache } from './parse-cache.js'

describe('ParseCache', () => {
  it('makes a value once per key and drops the oldest beyond its limit', () => {
    const made: string[] = []
    const cache = new ParseCache<string>(2)
    const get = (key: string) =>
      cache.get(key, () => {
        made.push(key)
        return key.toUpperCase()
      })
    expect([get('a'), get('a'), get('b'), get('c'), get('b'), get('a')]).toEqual([
      'A',
      'A',
      'B',
      'C',
      'B',
      'A',
    ])
    expect(made).toEqual(['a', 'b', 'c', 'a'])
  })

  it('keeps nothing when making the value throws', () => {
    const cache = new ParseCache<number>(2)
    expect(() =>
      cache.get('x', () => {
        throw new Error('unreadable')
      }),
    ).toThrow('unreadable')
    expect(cache.get('x', () => 1)).toBe(1)
  })
})
