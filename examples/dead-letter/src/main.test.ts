import { describe, expect, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

describe('the dead-letter example', () => {
  it('dead-letters the three poison messages as they came, and leaves the one read during an outage for a retry', async () => {
    const run = await runExample('dead-letter')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(
      [
        "offset 0: read Order { id: 'o-1', cents: 1250 }",
        'offset 1: DESERIALIZATION → orders.DLQ (12 bytes kept)',
        'offset 2: SCHEMA_NOT_FOUND → orders.DLQ (6 bytes kept, globalId:12345)',
        'offset 3: DESERIALIZATION → orders.DLQ (8 bytes kept, globalId:1)',
        'offset 4: RegistryConnectionError, not poison: back off and read it again',
        'dead letters: 3, first headers: trace-id, dlq.error.code, dlq.error.message, dlq.original.offset',
        '',
      ].join('\n'),
    )
  })
})
