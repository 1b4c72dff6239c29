import { describe, expect, it } from 'vitest'
import { compareDecimal, isMultipleOf } from './decimal.js'

describe('decimal', () => {
  it('compares decimal texts exactly, whatever their scale or exponent', () => {
    expect(compareDecimal('0.1', '0.10')).toBe(0)
    expect(compareDecimal('1e2', '100')).toBe(0)
    expect(compareDecimal('-0.5', '0.25')).toBe(-1)
    expect(compareDecimal('0.30000000000000004', '0.3')).toBe(1)
  })

  it('tells whether a multiple of one step is a multiple of another, as BigDecimal remainders do', () => {
    expect(isMultipleOf('1.5', '0.5')).toBe(true)
    expect(isMultipleOf('0.5', '0.25')).toBe(true)
    expect(isMultipleOf('0.5', '1.5')).toBe(false)
    expect(isMultipleOf('3', '0')).toBe(false)
  })
})
