import { describe, expect, it } from 'vitest'
import { MessageField, WireFormat } from './message-field.js'
import { SerializationContext } from './serialization-context.js'
import { thrown } from './test-support/thrown.js'

describe('MessageField and WireFormat', () => {
  it('are frozen string constants with the documented values', () => {
    expect(MessageField).toEqual({ KEY: 'key', VALUE: 'value' })
    expect(WireFormat).toEqual({ FRAMED_PAYLOAD: 'FRAMED_PAYLOAD', MESSAGE_HEADERS: 'MESSAGE_HEADERS' })
    expect(Object.isFrozen(MessageField)).toBe(true)
    expect(Object.isFrozen(WireFormat)).toBe(true)
    const field: MessageField = 'key'
    const format: WireFormat = 'MESSAGE_HEADERS'
    expect([field, format]).toEqual([MessageField.KEY, WireFormat.MESSAGE_HEADERS])
  })
})

describe('SerializationContext', () => {
  it('takes (topic, field) and ({ topic, field }) alike', () => {
    const positional = new SerializationContext('orders', MessageField.KEY)
    const named = new SerializationContext({ topic: 'orders', field: MessageField.KEY })
    expect(positional.topic).toBe('orders')
    expect(positional.field).toBe('key')
    expect({ ...named }).toEqual({ ...positional })
  })

  it('defaults field to MessageField.VALUE in both forms', () => {
    expect(new SerializationContext('orders').field).toBe('value')
    expect(new SerializationContext({ topic: 'orders' }).field).toBe('value')
    expect(new SerializationContext('orders', undefined).field).toBe('value')
  })

  it('is frozen: topic and field cannot be changed after construction', () => {
    const ctx = new SerializationContext('orders')
    expect(Object.isFrozen(ctx)).toBe(true)
    expect(() => {
      ;(ctx as { topic: string }).topic = 'other'
    }).toThrow(TypeError)
    expect(ctx.topic).toBe('orders')
  })

  it('can be subclassed (only the exact class freezes itself)', () => {
    class TracedContext extends SerializationContext {
      readonly traceId = 'abc'
    }
    const ctx = new TracedContext('orders', 'key')
    expect([ctx.topic, ctx.field, ctx.traceId]).toEqual(['orders', 'key', 'abc'])
    expect(ctx).toBeInstanceOf(SerializationContext)
  })

  it.each([
    [
      () => new SerializationContext(42 as never),
      'SerializationContext: topic must be a string, got number 42',
    ],
    [
      () => new SerializationContext(undefined as never),
      'SerializationContext: topic must be a string, got undefined',
    ],
    [
      () => new SerializationContext({} as never),
      'SerializationContext: topic must be a string, got undefined',
    ],
    [
      () => new SerializationContext('orders', 'VALUE' as never),
      "SerializationContext: field must be 'key' or 'value' (MessageField), got string \"VALUE\"",
    ],
    [
      () => new SerializationContext({ topic: 'orders', field: 'headers' as never }),
      "SerializationContext: field must be 'key' or 'value' (MessageField), got string \"headers\"",
    ],
    [
      () => new SerializationContext({ topic: 'orders' } as never, 'key'),
      'SerializationContext takes either (topic, field) or ({ topic, field }), not an object and a field',
    ],
  ])('refuses misuse #%# with TypeError INVALID_CONFIG', (construct, message) => {
    const error = thrown(construct)
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toBe(message)
  })
})
