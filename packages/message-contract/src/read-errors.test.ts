import {
  DeserializationError,
  RegistryConnectionError,
  RuleViolationError,
  SchemaNotFoundError,
} from '@x/errors'
import { describe, expect, it } from 'vitest'
import { readErrorKind } from './read-errors.js'

describe('readErrorKind', () => {
  it('counts undecodable messages, unknown ids and records a rule refused (DLQ or ERROR) as poison', () => {
    expect(readErrorKind(new DeserializationError('bad frame'))).toBe('poison')
    expect(readErrorKind(new SchemaNotFoundError('no such id'))).toBe('poison')
    for (const action of ['DLQ', 'ERROR']) {
      const error = new RuleViolationError(undefined, {
        mode: 'READ',
        violations: [{ ruleName: 'positive', message: 'Condition failed: positive', action }],
      })
      expect(readErrorKind(error)).toBe('poison')
    }
  })

  it('counts an unreachable registry, misuse and anything else as an outage', () => {
    expect(readErrorKind(new RegistryConnectionError('down', { url: 'http://127.0.0.1:1' }))).toBe('outage')
    expect(readErrorKind(new TypeError('misuse'))).toBe('outage')
    expect(readErrorKind('text')).toBe('outage')
  })
})
