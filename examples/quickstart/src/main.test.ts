import { describe, expect, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

describe('the quickstart example (pnpm demo)', () => {
  it('registers the schema, prints the framed bytes and the decoded value', async () => {
    const run = await runExample('quickstart')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    // 00 + globalId 1 (the registry is new) + userId "u-1" + enum index 0 + timestamp-millis 1767225600000 (zigzag).
    expect(run.stdout).toBe(
      [
        'bytes: 000000000106752d310080a0d5edee66',
        'value: UserEvent {',
        "  userId: 'u-1',",
        "  action: 'SIGNED_UP',",
        '  at: 2026-01-01T00:00:00.000Z',
        '}',
        '',
      ].join('\n'),
    )
  })
})
