import { describe, expect, inject, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

/**
 * KafkaJS 2.2.4 (its last release) schedules a timer at `throttledUntil - Date.now()` with `throttledUntil = -1`, a
 * negative delay that Node 23 and newer report as a `TimeoutNegativeWarning` (Node runs it after 1 ms, as before).
 * That warning is KafkaJS's, the same in any KafkaJS program on Node 24; anything else on stderr is ours.
 */
function withoutKafkajsTimerWarning(stderr: string): string {
  return stderr
    .replace(
      /\(node:\d+\) TimeoutNegativeWarning: -\d+ is a negative number\.\nTimeout duration was set to 1\.\n/g,
      '',
    )
    .replace(/\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)\n/, '')
}

describe('the kafka example against a real broker and a real Apicurio Registry', () => {
  it('produces three orders with kafkajs and consumes them back decoded', async () => {
    const run = await runExample('kafka', {
      KAFKA_BROKERS: inject('kafkaBrokers'),
      REGISTRY_URL: inject('registryUrl'),
    })
    expect(withoutKafkajsTimerWarning(run.stderr)).toBe('')
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^produced 3 orders to orders-[0-9a-f-]{36}$/)
    expect(lines.at(-1)).toBe('consumed 3 orders')
    expect(run.stdout).toContain("consumed Order { id: 'o-1', amountCents: 1250, note: null }")
    expect(run.stdout).toContain("consumed Order { id: 'o-2', amountCents: 99, note: 'gift wrap' }")
    expect(run.stdout).toContain("consumed Order { id: 'o-3', amountCents: 1099511627776, note: null }")
  })

  it('refuses to start without KAFKA_BROKERS and says what to set', async () => {
    const run = await runExample('kafka', { KAFKA_BROKERS: '' })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('Set KAFKA_BROKERS=host:port')
  })
})
