import { describe, expect, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

describe('the idp-auth example', () => {
  it('gets a token from a real OpenID provider and uses it on every registry call', async () => {
    const run = await runExample('idp-auth')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).not.toContain('change-me-0123456789')
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^auth: IdpAuth\b/)
    expect(lines.slice(1)).toEqual([
      'value: Ping { n: 7 }',
      'registry requests: 1, all with a bearer token: true',
      'without a token: AuthenticationError',
    ])
  })
})
