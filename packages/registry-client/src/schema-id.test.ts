import { describe, expect, it } from 'vitest'
import { idKey, parseIdText, toSchemaId } from './schema-id.js'

function caught(run: () => unknown): Error & { code?: string } {
  try {
    run()
  } catch (error) {
    return error as Error & { code?: string }
  }
  throw new Error('expected a throw')
}

describe('toSchemaId', () => {
  it('keeps a safe integer as a number and turns a safe bigint into a number', () => {
    expect(toSchemaId(42, 'globalId')).toBe(42)
    expect(toSchemaId(42n, 'globalId')).toBe(42)
  })

  it('keeps a bigint beyond 2^53 exact', () => {
    expect(toSchemaId(9007199254740993n, 'globalId')).toBe(9007199254740993n)
    expect(toSchemaId(9223372036854775807n, 'contentId')).toBe(9223372036854775807n)
    expect(toSchemaId(-9223372036854775808n, 'contentId')).toBe(-9223372036854775808n)
  })

  it('refuses a bigint outside signed 64-bit with a RangeError naming the field', () => {
    const error = caught(() => toSchemaId(9223372036854775808n, 'contentId'))
    expect(error).toBeInstanceOf(RangeError)
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toContain('contentId 9223372036854775808 is outside the signed 64-bit range')
  })

  it('refuses an unsafe number (it may have been rounded) with a RangeError', () => {
    const error = caught(() => toSchemaId(2 ** 60, 'globalId'))
    expect(error).toBeInstanceOf(RangeError)
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toContain('pass it as a bigint')
  })

  it.each([[1.5], [Number.NaN], ['5'], [null], [undefined]])('refuses %j with a TypeError', (value) => {
    const error = caught(() => toSchemaId(value, 'globalId'))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toContain('globalId must be an integer')
  })
})

describe('parseIdText', () => {
  it('parses digits exactly, as a number while safe and a bigint beyond', () => {
    expect(parseIdText('47', 'globalId')).toBe(47)
    expect(parseIdText(' 9007199254740993 ', 'globalId')).toBe(9007199254740993n)
    expect(parseIdText('9223372036854775807', 'globalId')).toBe(9223372036854775807n)
  })

  it('returns undefined for text that is not an integer', () => {
    expect(parseIdText('abc', 'globalId')).toBeUndefined()
    expect(parseIdText('1.0', 'globalId')).toBeUndefined()
    expect(parseIdText('', 'globalId')).toBeUndefined()
  })

  it('throws a RangeError naming the field outside signed 64-bit', () => {
    const error = caught(() => parseIdText('9223372036854775808', 'globalId'))
    expect(error).toBeInstanceOf(RangeError)
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toContain('globalId 9223372036854775808')
  })
})

describe('idKey', () => {
  it('is the same for a number and the equal bigint', () => {
    expect(idKey(5)).toBe(idKey(5n))
    expect(idKey(9007199254740993n)).toBe('9007199254740993')
  })
})
