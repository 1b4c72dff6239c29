import { describe, expect, inject, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

describe('the lambda example against a real Apicurio Registry', () => {
  it('decodes an MSK event in a cold invocation from a schema snapshot, with no registry request', async () => {
    const run = await runExample('lambda', { REGISTRY_URL: inject('registryUrl') })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^snapshot of orders-[0-9a-f-]{36}-value version 1$/)
    expect(run.stdout).toMatch(
      /decoded \{\n? *at: 'orders-[0-9a-f-]{36}\/0\/0',\n? *key: 'o-1',\n? *order: \{ id: 'o-1', amountCents: 1250 \}\n?\s*\}/,
    )
    expect(lines.at(-1)).toBe('total 1349 cents; registry requests in the cold invocation: 0')
  })
})
