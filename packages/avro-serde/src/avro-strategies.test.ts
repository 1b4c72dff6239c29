import { SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
import { QualifiedRecordIdStrategy, TopicRecordIdStrategy } from './avro-strategies.js'

const valueCtx = new SerializationContext('orders', 'value')
const order = { type: 'record', name: 'Order', namespace: 'com.example', fields: [] }

describe('the Avro record strategies', () => {
  it('QualifiedRecordIdStrategy names the artifact after the record full name, for any topic', () => {
    const strategy = new QualifiedRecordIdStrategy(order)
    expect(strategy.resolve(valueCtx)).toBe('com.example.Order')
    expect(strategy.resolve(new SerializationContext('payments'))).toBe('com.example.Order')
  })

  it('TopicRecordIdStrategy names the artifact <topic>-<record full name>', () => {
    const strategy = new TopicRecordIdStrategy(order)
    expect(strategy.resolve(valueCtx)).toBe('orders-com.example.Order')
    expect(strategy.resolve(new SerializationContext('refunds', 'key'))).toBe('refunds-com.example.Order')
  })

  it('record strategies read JSON text, a namespace-less name and a dotted name as Avro defines full names', () => {
    expect(new QualifiedRecordIdStrategy(JSON.stringify(order)).resolve(valueCtx)).toBe('com.example.Order')
    expect(
      new QualifiedRecordIdStrategy({ type: 'record', name: 'Order', fields: [] }).resolve(valueCtx),
    ).toBe('Order')
    expect(
      new TopicRecordIdStrategy({
        type: 'record',
        name: 'a.b.Order',
        namespace: 'ignored',
        fields: [],
      }).resolve(valueCtx),
    ).toBe('orders-a.b.Order')
  })

  it('record strategies refuse a schema without a name at construction with INVALID_CONFIG', () => {
    for (const schema of [
      { type: 'record', fields: [] },
      { name: '' },
      '"string"',
      'not json',
      ['null', 'string'],
    ]) {
      expect(() => new QualifiedRecordIdStrategy(schema)).toThrow(
        expect.objectContaining({ name: 'TypeError', code: 'INVALID_CONFIG' }),
      )
      expect(() => new TopicRecordIdStrategy(schema)).toThrow(TypeError)
    }
  })
})
