import { DeserializationError } from '@x/errors'
import { describe, expect, it } from 'vitest'
import { deadLetterHeaders } from './dead-letter.js'

const AT = { topic: 'orders', partition: 2, offset: '9007199254740993' }

describe('deadLetterHeaders', () => {
  it('cuts a long error message short, never inside a character written as two UTF-16 units', () => {
    // 299 characters, then one outside the Basic Multilingual Plane: a cut at 300 would keep half of it, which
    // UTF-8 (a header's bytes) can only write as U+FFFD.
    const error = new DeserializationError(`${'é'.repeat(299)}😀 and more`)
    const headers = deadLetterHeaders(error, AT)
    expect(headers['x-serde-error-message']).toBe(`${'é'.repeat(299)}…`)
    expect(headers['x-serde-source']).toBe('orders/2/9007199254740993')
    const long = deadLetterHeaders(new DeserializationError('ü'.repeat(100_000)), AT)
    expect(long['x-serde-error-message']).toBe(`${'ü'.repeat(300)}…`)
  })
})
