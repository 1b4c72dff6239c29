import { describe, expect, it } from 'vitest'
import { idOutOfRangeError, invalidConfigError, invalidDataError, isSerdeError } from './index.js'

describe('invalidConfigError', () => {
  it('is a plain TypeError with code INVALID_CONFIG and the message', () => {
    const error = invalidConfigError('url must be a non-empty string, got undefined')
    expect(error).toBeInstanceOf(TypeError)
    expect(error.name).toBe('TypeError')
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toBe('url must be a non-empty string, got undefined')
    expect(isSerdeError(error)).toBe(false)
    expect(Object.hasOwn(error, 'cause')).toBe(false)
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'INVALID_CONFIG' })
  })
})

describe('invalidDataError', () => {
  it('is a TypeError with code INVALID_DATA and a frozen copy of the failing paths', () => {
    const paths = ['user.age', 'tags[2]']
    const error = invalidDataError('user.age: expected int, got string', paths)
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual(['user.age', 'tags[2]'])
    expect(Object.isFrozen(error.paths)).toBe(true)
    paths.push('later')
    expect(error.paths).toEqual(['user.age', 'tags[2]'])
    expect(Object.hasOwn(error, 'cause')).toBe(false)
  })

  it('keeps a cause, not enumerable, out of JSON', () => {
    const cause = new Error('token=abc123')
    const error = invalidDataError('bad', ['x'], cause)
    expect(error.cause).toBe(cause)
    expect(Object.getOwnPropertyDescriptor(error, 'cause')?.enumerable).toBe(false)
    expect(JSON.stringify(error)).toBe('{"code":"INVALID_DATA","paths":["x"]}')
  })
})

describe('idOutOfRangeError', () => {
  it('is a RangeError with code ID_OUT_OF_RANGE', () => {
    const error = idOutOfRangeError('globalId 9223372036854775808 is outside the signed 64-bit range')
    expect(error).toBeInstanceOf(RangeError)
    expect(error.name).toBe('RangeError')
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toContain('globalId')
  })
})
