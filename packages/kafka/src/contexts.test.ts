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

  it('keeps working past its bound: the table starts again, contexts stay right', () => {
    for (let i = 0; i < 2500; i++) expect(contextFor(`t${i}`, 'value').topic).toBe(`t${i}`)
    expect(contextFor('t0', 'value')).toEqual(new SerializationContext('t0', 'value'))
  })

  it('refuses a topic that is not a string as SerializationContext does', () => {
    expect(() => contextFor(42 as unknown as string, 'value')).toThrow(TypeError)
  })
})
