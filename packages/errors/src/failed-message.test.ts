import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import { DeserializationError, SchemaNotFoundError } from './errors.js'
import { failedMessageOf, recordFailedMessage } from './failed-message.js'
import { invalidDataError } from './misuse.js'

describe('recordFailedMessage / failedMessageOf', () => {
  const payload = Buffer.from('00000000010203', 'hex')
  const context = { topic: 'orders', field: 'value' as const }

  it('records the message on a library error as non-enumerable fields that logs do not show', () => {
    const error = recordFailedMessage(new DeserializationError('bad', { schemaId: 1 }), {
      payload,
      schemaId: 1,
      idType: 'globalId',
      headers: { secretish: 'header value' },
      context,
      partition: 3,
      offset: '42',
    })
    expect(failedMessageOf(error)).toEqual({
      payload,
      schemaId: 1,
      idType: 'globalId',
      headers: { secretish: 'header value' },
      context,
      partition: 3,
      offset: '42',
    })
    expect(Object.keys(error)).toEqual(['name', 'code'])
    expect(inspect(error)).not.toContain('header value')
    expect(JSON.stringify(error)).toBe(
      '{"name":"DeserializationError","code":"DESERIALIZATION","message":"bad","idType":"globalId","schemaId":1}',
    )
    expect(new DeserializationError('big', { schemaId: 2n ** 60n }).toJSON()).toMatchObject({
      schemaId: '1152921504606846976',
    })
  })

  it('keeps a field the error already has: a not-found error keeps the id it looked for', () => {
    const error = new SchemaNotFoundError(undefined, { idType: 'contentId', idValue: 9 })
    recordFailedMessage(error, { payload, schemaId: 9, idType: 'globalId' })
    expect(error.idType).toBe('contentId')
    expect(failedMessageOf(error)).toMatchObject({ payload, schemaId: 9, idType: 'contentId' })
  })

  it('leaves misuse errors and foreign errors untouched, and finds nothing on them', () => {
    const misuse = invalidDataError('wrong', [])
    const foreign = new Error('x')
    expect(recordFailedMessage(misuse, { payload })).toBe(misuse)
    expect(recordFailedMessage(foreign, { payload })).toBe(foreign)
    expect(failedMessageOf(misuse)).toBeUndefined()
    expect(failedMessageOf(foreign)).toBeUndefined()
    expect(failedMessageOf(new DeserializationError('no message'))).toBeUndefined()
    expect(failedMessageOf('text')).toBeUndefined()
  })
})

describe('recordFailedMessage: an error belongs to one message', () => {
  const context = { topic: 'orders', field: 'value' as const }

  it('records a second message on a copy of the same class, code, message, cause and stack, leaving the first as it was', () => {
    const cause = new Error('404')
    const shared = new SchemaNotFoundError(undefined, { idType: 'globalId', idValue: 9, cause })
    const first = Buffer.from([0, 0, 0, 0, 9, 1])
    const second = Buffer.from([0, 0, 0, 0, 9, 2])
    const a = recordFailedMessage(shared, { payload: first, context, partition: 0, offset: '100' })
    const b = recordFailedMessage(shared, { payload: second, context, partition: 1, offset: '200' })
    expect(a).toBe(shared)
    expect(b).not.toBe(shared)
    expect(b).toBeInstanceOf(SchemaNotFoundError)
    expect([b.name, b.code, b.message, b.cause, b.stack, b.idType]).toEqual([
      a.name,
      a.code,
      a.message,
      cause,
      a.stack,
      'globalId',
    ])
    expect(failedMessageOf(a)).toMatchObject({ payload: first, partition: 0, offset: '100' })
    expect(failedMessageOf(b)).toMatchObject({ payload: second, partition: 1, offset: '200' })
    expect(Object.keys(b)).toEqual(Object.keys(a))
  })

  it('adds to an error naming the same message (layers of one read), and copies one naming another offset or topic', () => {
    const payload = Buffer.from([1, 2, 3])
    const error = recordFailedMessage(new DeserializationError('bad'), { payload, context })
    expect(recordFailedMessage(error, { payload, partition: 2, offset: '7' })).toBe(error)
    expect(failedMessageOf(error)).toMatchObject({ payload, context, partition: 2, offset: '7' })
    const elsewhere = recordFailedMessage(error, { payload, partition: 2, offset: '8' })
    expect(elsewhere).not.toBe(error)
    expect(failedMessageOf(elsewhere)).toMatchObject({ payload, partition: 2, offset: '8' })
    const otherTopic = recordFailedMessage(error, { payload, context: { topic: 'refunds', field: 'value' } })
    expect(otherTopic).not.toBe(error)
    expect(failedMessageOf(otherTopic)?.context).toEqual({ topic: 'refunds', field: 'value' })
  })
})
