import { describe, expect, it } from 'vitest'
import { REDACTED, redactSecrets } from './index.js'

describe('redactSecrets', () => {
  it('replaces every occurrence of every secret', () => {
    expect(redactSecrets('Bearer abc.def and again abc.def', ['abc.def'])).toBe(
      `Bearer ${REDACTED} and again ${REDACTED}`,
    )
  })

  it('replaces a user:password pair as one, before the password alone', () => {
    expect(redactSecrets('sent u:pw, then pw', ['pw', 'u:pw'])).toBe(`sent ${REDACTED}, then ${REDACTED}`)
  })

  it('ignores empty and missing secrets and leaves text without secrets as it is', () => {
    expect(redactSecrets('nothing here', ['', undefined, 'zzz'])).toBe('nothing here')
    expect(redactSecrets('text', [])).toBe('text')
  })
})
