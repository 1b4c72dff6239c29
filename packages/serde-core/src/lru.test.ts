import { describe, expect, it } from 'vitest'
import { Lru } from './lru.js'

describe('Lru', () => {
  it('drops the least recently used entry beyond its bound, counting reads as uses', () => {
    const lru = new Lru<string, number>(2)
    lru.set('a', 1)
    lru.set('b', 2)
    expect(lru.get('a')).toBe(1)
    lru.set('c', 3)
    expect([lru.peek('a'), lru.peek('b'), lru.peek('c')]).toEqual([1, undefined, 3])
    expect(lru.size).toBe(2)
  })

  it('does not reorder on peek, and forgets deleted keys', () => {
    const lru = new Lru<number, string>(2)
    lru.set(1, 'one')
    lru.set(2, 'two')
    expect(lru.peek(1)).toBe('one')
    lru.set(3, 'three')
    expect(lru.peek(1)).toBeUndefined()
    lru.delete(3)
    expect([...lru.values()]).toEqual(['two'])
    expect(lru.get(3)).toBeUndefined()
  })

  it('keeps at least one entry and treats repeated reads of the last key as uses', () => {
    const lru = new Lru<string, number>(0)
    lru.set('a', 1)
    lru.set('b', 2)
    expect([lru.peek('a'), lru.get('b'), lru.get('b')]).toEqual([undefined, 2, 2])
  })
})
