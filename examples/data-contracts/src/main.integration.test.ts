import { describe, expect, inject, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

/** KafkaJS 2.2.4's negative timer warning on Node 23 and newer (see the kafka example's test); nothing else. */
function withoutKafkajsTimerWarning(stderr: string): string {
  return stderr
    .replace(
      /\(node:\d+\) TimeoutNegativeWarning: -\d+ is a negative number\.\nTimeout duration was set to 1\.\n/g,
      '',
    )
    .replace(/\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)\n/, '')
}

describe('the data-contracts example against a real broker and a real Apicurio Registry', () => {
  it('sends the orders a WRITE rule accepts, nothing of the refused one, reads them migrated, and dead-letters one a READ rule refuses', async () => {
    const run = await runExample('data-contracts', {
      KAFKA_BROKERS: inject('kafkaBrokers'),
      REGISTRY_URL: inject('registryUrl'),
    })
    expect(withoutKafkajsTimerWarning(run.stderr)).toBe('')
    expect(run.code).toBe(0)
    expect(run.stdout.trim().split('\n')).toEqual([
      'sent o-1',
      'refused o-2: Data-contract rule positive failed in WRITE mode (positive: Condition failed: positive)',
      'sent o-3',
      "read as version 2 { id: 'o-1', total: 12.5, currency: 'EUR' }",
      "read as version 2 { id: 'o-3', total: 99.9, currency: 'EUR' }",
      'read 2 orders',
      'passed the READ rules o-3 (total 99.9)',
      'dead-lettered o-1: rule minimum, mode READ, code RULE_VIOLATION',
    ])
  })
})
