import { describe, expect, it } from 'vitest'
import {
  dataIssue,
  dataIssuesError,
  fieldPath,
  firstItems,
  formatPath,
  indexPath,
  keyPath,
  unsafeIntegerError,
} from './index.js'

describe('paths', () => {
  it('joins fields with dots, writes array items as [i] and map keys as ["key"]', () => {
    expect(formatPath(['orders', 0, 'lines', { key: 'sku-1' }, 'qty'])).toBe('orders[0].lines["sku-1"].qty')
    expect(keyPath(indexPath(fieldPath('', 'a'), 2), 'k')).toBe('a[2]["k"]')
  })

  it('quotes a name that is not an identifier, and gives the value itself the empty path', () => {
    expect(fieldPath('user', 'first name')).toBe('user["first name"]')
    expect(fieldPath('', '0')).toBe('["0"]')
    expect(formatPath(['a.b', '$x', '_y'])).toBe('["a.b"].$x._y')
    expect(formatPath([])).toBe('')
  })
})

describe('dataIssue', () => {
  it('says where, what was expected and what came, with an optional detail', () => {
    expect(dataIssue('n', 'int', 'x')).toEqual({ path: 'n', message: 'n: expected int, got string "x"' })
    expect(dataIssue('', 'int', 2 ** 31, 'outside the 32-bit range')).toEqual({
      path: '',
      message: '(value): expected int, got number 2147483648 (outside the 32-bit range)',
    })
  })
})

describe('dataIssuesError', () => {
  it('is a TypeError (INVALID_DATA) naming the first ten failures and holding every path', () => {
    const issues = Array.from({ length: 12 }, (_, i) => dataIssue(`f${i}`, 'string', i))
    const error = dataIssuesError('Value does not match', issues)
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.paths).toEqual(issues.map((issue) => issue.path))
    expect(error.message).toBe(
      `Value does not match: ${issues
        .slice(0, 10)
        .map((issue) => issue.message)
        .join('; ')}; and 2 more`,
    )
  })

  it('keeps the cause it is given', () => {
    const cause = new Error('getter threw')
    expect(dataIssuesError('Bad', [dataIssue('', 'a record', null)], cause).cause).toBe(cause)
  })
})

describe('firstItems', () => {
  it('lists ten items and counts the rest', () => {
    expect(firstItems(['a', 'b'], ', ')).toBe('a, b')
    expect(firstItems('abcdefghijkl'.split(''), ', ')).toBe('a, b, c, d, e, f, g, h, i, j, and 2 more')
  })
})

describe('unsafeIntegerError', () => {
  it('is a RangeError (INVALID_DATA) naming the value and the option that chose number mode', () => {
    const error = unsafeIntegerError('Avro long', 2n ** 60n, 'avro.longs')
    expect(error).toBeInstanceOf(RangeError)
    expect(error.code).toBe('INVALID_DATA')
    expect(error.message).toBe(
      "Avro long 1152921504606846976 is outside the safe integer range of a JavaScript number (avro.longs is 'number'); " +
        "use longs: 'auto' or 'bigint' to read it exactly",
    )
  })
})
