import { describe, expect, it } from 'vitest'
import {
  ClientClosedError,
  DeserializationError,
  ERROR_CODES,
  isSerdeError,
  SchemaNotFoundError,
  SERDE_ERROR_BRAND,
  SerdeError,
} from './index.js'

/** What a second installed copy of @x/errors would produce: its own class, the same registered brand. */
class OtherCopySerdeError extends Error {
  override name = 'SchemaNotFoundError'
  readonly code = 'SCHEMA_NOT_FOUND'
  constructor(message: string) {
    super(message)
    Object.defineProperty(this, Symbol.for('@x/errors.SerdeError'), { value: true, enumerable: false })
  }
}

describe('isSerdeError', () => {
  it('is true for errors of this package and false for other values', () => {
    expect(isSerdeError(new ClientClosedError())).toBe(true)
    expect(isSerdeError(new SerdeError('NOT_PREPARED', 'x'))).toBe(true)
    expect(isSerdeError(new Error('x'))).toBe(false)
    expect(isSerdeError(new TypeError('x'))).toBe(false)
    expect(isSerdeError({ code: 'SCHEMA_NOT_FOUND', name: 'SchemaNotFoundError' })).toBe(false)
    expect(isSerdeError(null)).toBe(false)
    expect(isSerdeError(undefined)).toBe(false)
    expect(isSerdeError('SchemaNotFoundError')).toBe(false)
  })

  it('recognises an error of another installed copy, where instanceof fails', () => {
    const foreign = new OtherCopySerdeError('not found')
    expect(foreign).not.toBeInstanceOf(SerdeError)
    expect(isSerdeError(foreign)).toBe(true)
    expect(isSerdeError(foreign, 'SCHEMA_NOT_FOUND')).toBe(true)
    expect(isSerdeError(foreign, 'CLIENT_CLOSED')).toBe(false)
  })

  it('filters by code', () => {
    const error = new SchemaNotFoundError(undefined, { idType: 'globalId', idValue: 1 })
    expect(isSerdeError(error, 'SCHEMA_NOT_FOUND')).toBe(true)
    expect(isSerdeError(error, 'DESERIALIZATION')).toBe(false)
    expect(isSerdeError(new DeserializationError('x'), ERROR_CODES.DESERIALIZATION)).toBe(true)
  })

  it('does not accept a brand that is merely truthy, nor one set on a plain object by accident of spreading', () => {
    expect(isSerdeError({ [SERDE_ERROR_BRAND]: 'yes' })).toBe(false)
    expect(isSerdeError({ ...new ClientClosedError() })).toBe(false)
  })
})

describe('SERDE_ERROR_BRAND', () => {
  it('is the registered symbol @x/errors.SerdeError, not enumerable on errors', () => {
    expect(SERDE_ERROR_BRAND).toBe(Symbol.for('@x/errors.SerdeError'))
    const error = new ClientClosedError()
    expect(Object.getOwnPropertyDescriptor(error, SERDE_ERROR_BRAND)).toEqual({
      value: true,
      enumerable: false,
      writable: false,
      configurable: false,
    })
  })
})

describe('ERROR_CODES', () => {
  it('lists every code once, each mapped to itself, and is frozen', () => {
    expect(Object.isFrozen(ERROR_CODES)).toBe(true)
    expect(Object.keys(ERROR_CODES).sort()).toEqual([
      'AUTHENTICATION',
      'CLIENT_CLOSED',
      'DESERIALIZATION',
      'ID_OUT_OF_RANGE',
      'INVALID_CONFIG',
      'INVALID_DATA',
      'NOT_PREPARED',
      'REGISTRY_CONNECTION',
      'RESOLVER',
      'RULE_VIOLATION',
      'SCHEMA_NOT_FOUND',
      'SCHEMA_REGISTRATION',
      'SERIALIZATION',
    ])
    for (const [key, value] of Object.entries(ERROR_CODES)) expect(value).toBe(key)
  })
})
