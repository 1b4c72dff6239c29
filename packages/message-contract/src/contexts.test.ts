import { SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
import { contextFor } from './contexts.js'

describe('contextFor', () => {
  it('gives one frozen context per topic and field, equal to a new SerializationContext', () => {
    const value = contextFor('orders', 'value')
    expect(value).toBe(contextFor('orders', 'value'))
    expect(value).toEqual(new SerializationContext('orders', 'value'))
    expect(Object.isFrozen(value)).toBe(true)
    expect(contextFor('orders', 'key')).toEqual(new SerializationContext('orders', 'key'))
    expect(contextFor('orders', 'key')).not.toBe(value)
    expect(contextFor('refunds', 'value').topic).toBe('refunds')
  })

  it('keeps the topics used most recently past its bound of 1000, and makes the others again', () => {
    const hot = contextFor('hot', 'value')
    for (let i = 0; i < 2500; i++) {
      expect(contextFor(`t${i}`, 'value').topic).toBe(`t${i}`)
      expect(contextFor('hot', 'value')).toBe(hot)
    }
    expect(contextFor('t2499', 'value')).toBe(contextFor('t2499', 'value'))
    expect(contextFor('t0', 'value')).toEqual(new SerializationContext('t0', 'value'))
  })

  it('refuses a topic that is not a string as SerializationContext does', () => {
    expect(() => contextFor(42 as unknown as string, 'value')).toThrow(TypeError)
  })
})
