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

  it('gives each field its own context when topics and fields alternate, the last one read first', () => {
    const orders = contextFor('orders', 'value')
    const ordersKey = contextFor('orders', 'key')
    for (const [topic, field] of [
      ['refunds', 'value'],
      ['orders', 'value'],
      ['orders', 'key'],
      ['refunds', 'key'],
      ['orders', 'key'],
      ['orders', 'value'],
    ] as const) {
      const ctx = contextFor(topic, field)
      expect([ctx.topic, ctx.field]).toEqual([topic, field])
    }
    expect(contextFor('orders', 'value')).toBe(orders)
    expect(contextFor('orders', 'key')).toBe(ordersKey)
  })

  it('refuses a topic that is not a string as SerializationContext does', () => {
    expect(() => contextFor(42 as unknown as string, 'value')).toThrow(TypeError)
  })
})
