import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseIdText, toSchemaId } from './schema-id.js'
import { thrown } from './test-support/thrown.js'

const RANGE = '(-9223372036854775808..9223372036854775807)'

describe('parseIdText', () => {
  it.each([
    ['0', 0],
    ['42', 42],
    ['-1', -1],
    ['007', 7],
    ['999999999999999', 999999999999999],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
    ['-9007199254740991', -Number.MAX_SAFE_INTEGER],
    ['9007199254740992', 2n ** 53n],
    ['9007199254740993', 2n ** 53n + 1n],
    ['-9007199254740992', -(2n ** 53n)],
    ['9223372036854775807', 2n ** 63n - 1n],
    ['-9223372036854775808', -(2n ** 63n)],
  ])('reads %s exactly as %s: a number while safe, a bigint beyond', (text, expected) => {
    const value = parseIdText(text, 'globalId')
    expect(typeof value).toBe(typeof expected)
    expect(value).toBe(expected)
  })

  it.each([
    ['9223372036854775808', 'globalId'],
    ['-9223372036854775809', 'contentId'],
    ['18446744073709551616', 'globalId'],
  ])('refuses %s with RangeError ID_OUT_OF_RANGE naming the field %s', (text, field) => {
    const error = thrown(() => parseIdText(text, field))
    expect(error).toBeInstanceOf(RangeError)
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toBe(`${field} ${text} is outside the signed 64-bit range ${RANGE}`)
  })

  it('cuts a huge digit string in the message instead of echoing all of it', () => {
    const error = thrown(() => parseIdText('9'.repeat(5000), 'globalId'))
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toBe(`globalId ${'9'.repeat(40)}… is outside the signed 64-bit range ${RANGE}`)
  })

  it.each(['', '-', '+1', ' 1', '1 ', '1.0', '1e3', '0x10', '１２', 'NaN', '--1', '1_000'])(
    'refuses the text %j with TypeError INVALID_DATA whose paths name the field',
    (text) => {
      const error = thrown(() => parseIdText(text, 'contentId'))
      expect(error).toBeInstanceOf(TypeError)
      expect(error.code).toBe('INVALID_DATA')
      expect(error.paths).toEqual(['contentId'])
      expect(error.message).toBe(`contentId must be a decimal integer, got string ${JSON.stringify(text)}`)
    },
  )

  it('reads any signed 64-bit decimal text back to the same value without rounding', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (id) => {
        expect(BigInt(parseIdText(id.toString(), 'globalId'))).toBe(id)
      }),
    )
  })
})

describe('toSchemaId', () => {
  it('keeps a safe number, narrows a safe bigint to a number, keeps a large bigint and reads text', () => {
    expect(toSchemaId(5, 'globalId')).toBe(5)
    expect(toSchemaId(-5, 'globalId')).toBe(-5)
    expect(toSchemaId(7n, 'contentId')).toBe(7)
    expect(toSchemaId(2n ** 60n, 'globalId')).toBe(2n ** 60n)
    expect(toSchemaId(-(2n ** 63n), 'globalId')).toBe(-(2n ** 63n))
    expect(toSchemaId('12', 'globalId')).toBe(12)
    expect(toSchemaId('9223372036854775807', 'globalId')).toBe(2n ** 63n - 1n)
  })

  it.each([
    [2n ** 63n, 'globalId', '9223372036854775808'],
    [-(2n ** 63n) - 1n, 'contentId', '-9223372036854775809'],
    [2 ** 64, 'contentId', '18446744073709552000'],
    ['9223372036854775808', 'globalId', '9223372036854775808'],
  ])('refuses %s outside signed 64-bit with RangeError ID_OUT_OF_RANGE naming %s', (value, field, shown) => {
    const error = thrown(() => toSchemaId(value, field))
    expect(error).toBeInstanceOf(RangeError)
    expect(error.code).toBe('ID_OUT_OF_RANGE')
    expect(error.message).toBe(`${field} ${shown} is outside the signed 64-bit range ${RANGE}`)
  })

  it.each([2 ** 53, 1.5, Number.NaN])(
    'refuses the number %s, which is not a safe integer, naming the field',
    (n) => {
      const error = thrown(() => toSchemaId(n, 'globalId'))
      expect(error).toBeInstanceOf(RangeError)
      expect(error.code).toBe('ID_OUT_OF_RANGE')
      expect(error.message).toBe(
        `globalId must be a safe integer when given as a number (a larger double may have been rounded; pass a bigint or the decimal text), got ${String(n)}`,
      )
    },
  )

  it('refuses other types with TypeError INVALID_CONFIG', () => {
    const error = thrown(() => toSchemaId(null as never, 'globalId'))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toBe('globalId must be a number, bigint or decimal string, got null')
  })
})
