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
