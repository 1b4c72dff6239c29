import { Ajv } from 'ajv'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { warmUpValidators } from './index.js'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('warmUpValidators', () => {
  it('compiles one schema with ajv the first time, and nothing on later calls', () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile')
    warmUpValidators()
    expect(compile).toHaveBeenCalledTimes(1)
    expect(compile.mock.results[0]!.type).toBe('return')
    warmUpValidators()
    warmUpValidators()
    expect(compile).toHaveBeenCalledTimes(1)
  })
})
