import { SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
import {
  QualifiedRecordIdStrategy,
  SimpleTopicIdStrategy,
  TopicIdStrategy,
  TopicRecordIdStrategy,
  toResolveFunction,
} from './strategies.js'

const valueCtx = new SerializationContext('orders', 'value')
const keyCtx = new SerializationContext('orders', 'key')

describe('ready-made strategies', () => {
  it('TopicIdStrategy names the artifact <topic>-<field>', () => {
    const strategy = new TopicIdStrategy()
    expect(strategy.resolve(valueCtx)).toBe('orders-value')
    expect(strategy.resolve(keyCtx)).toBe('orders-key')
  })

  it('SimpleTopicIdStrategy names the artifact after the topic whatever the field', () => {
    const strategy = new SimpleTopicIdStrategy()
    expect(strategy.resolve(valueCtx)).toBe('orders')
    expect(strategy.resolve(keyCtx)).toBe('orders')
  })

  it('QualifiedRecordIdStrategy names the artifact after the record name it was given, for any topic', () => {
    const strategy = new QualifiedRecordIdStrategy('com.example.Order')
    expect(strategy.resolve(valueCtx)).toBe('com.example.Order')
    expect(strategy.resolve(new SerializationContext('payments'))).toBe('com.example.Order')
  })

  it('TopicRecordIdStrategy names the artifact <topic>-<record name>', () => {
    const strategy = new TopicRecordIdStrategy('com.example.Order')
    expect(strategy.resolve(valueCtx)).toBe('orders-com.example.Order')
    expect(strategy.resolve(new SerializationContext('refunds', 'key'))).toBe('refunds-com.example.Order')
  })

  it('record strategies refuse an empty or missing record name at construction with INVALID_CONFIG', () => {
    for (const name of ['', undefined, 5]) {
      expect(() => new QualifiedRecordIdStrategy(name as string)).toThrow(
        expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }),
      )
      expect(() => new TopicRecordIdStrategy(name as string)).toThrow(TypeError)
    }
  })
})

describe('toResolveFunction', () => {
  it('accepts a function and an object with resolve(), calling it with the context', () => {
    expect(toResolveFunction((ctx: SerializationContext) => `${ctx.topic}!`)(valueCtx)).toBe('orders!')
    expect(toResolveFunction(new TopicIdStrategy())(keyCtx)).toBe('orders-key')
  })

  it('refuses anything else at construction with INVALID_CONFIG', () => {
    for (const resolver of ['orders', 42, null, {}, { resolve: 'x' }]) {
      expect(() => toResolveFunction(resolver)).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }))
    }
  })

  it('turns a throwing resolver into a ResolverError whose cause is the thrown error', () => {
    const boom = new Error('boom')
    const resolve = toResolveFunction(() => {
      throw boom
    })
    expect(() => resolve(valueCtx)).toThrow(
      expect.objectContaining({ name: 'ResolverError', code: 'RESOLVER', cause: boom }),
    )
  })

  it('turns a result that is not a non-empty string into a ResolverError naming what came', () => {
    for (const [result, shown] of [
      ['', 'string ""'],
      [undefined, 'undefined'],
      [null, 'null'],
      [42, 'number 42'],
    ] as const) {
      const resolve = toResolveFunction(() => result)
      expect(() => resolve(valueCtx)).toThrow(
        expect.objectContaining({ name: 'ResolverError', message: expect.stringContaining(shown) }),
      )
    }
  })
})
