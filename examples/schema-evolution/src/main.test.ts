import { describe, expect, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

describe('the schema-evolution example', () => {
  it('fills the new field from its default with the latest version, and drops fields a reader lacks', async () => {
    const run = await runExample('schema-evolution')
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(
      [
        "read with the latest version (v2): Customer { id: 'c-1', visits: 3, tier: 'standard' }",
        "read with a reader schema of only id: Customer { id: 'c-1' }",
        '',
      ].join('\n'),
    )
  })
})
