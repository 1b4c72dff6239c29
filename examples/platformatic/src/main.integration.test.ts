import { describe, expect, inject, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

/**
 * @platformatic/kafka 2.12 warns, once per Producer or Consumer given a `registry`, that its registry API is
 * experimental. That warning is Platformatic's, the same with any registry; anything else on stderr is ours.
 */
function withoutRegistryApiWarning(stderr: string): string {
  return stderr
    .replace(
      /\(node:\d+\) Warning: The registry \(Confluent Schema Registry integration\) API is experimental and does not follow semver\. It may change in minor\/patch releases\.\n/g,
      '',
    )
    .replace(/\(Use `node --trace-warnings \.\.\.` to show where the warning was created\)\n/, '')
}

describe('the platformatic example against a real broker and a real Apicurio Registry', () => {
  it('produces three orders with @platformatic/kafka 2.x and consumes them back decoded, with the schema id of each', async () => {
    const run = await runExample('platformatic', {
      KAFKA_BROKERS: inject('kafkaBrokers'),
      REGISTRY_URL: inject('registryUrl'),
    })
    expect(withoutRegistryApiWarning(run.stderr)).toBe('')
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^produced 3 orders to orders-[0-9a-f-]{36}$/)
    expect(lines.at(-1)).toBe('consumed 3 orders')
    expect(lines.slice(1, 4)).toEqual([
      expect.stringMatching(
        /^consumed Order \{ id: 'o-1', amountCents: 1250, note: null \} \(AVRO, globalId \d+\)$/,
      ),
      expect.stringMatching(
        /^consumed Order \{ id: 'o-2', amountCents: 99, note: 'gift wrap' \} \(AVRO, globalId \d+\)$/,
      ),
      expect.stringMatching(
        /^consumed Order \{ id: 'o-3', amountCents: 1099511627776, note: null \} \(AVRO, globalId \d+\)$/,
      ),
    ])
    expect(new Set(lines.slice(1, 4).map((line) => line.replace(/.*globalId /, ''))).size).toBe(1)
  })

  it('refuses to start without KAFKA_BROKERS and says what to set', async () => {
    const run = await runExample('platformatic', { KAFKA_BROKERS: '' })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('Set KAFKA_BROKERS=host:port')
  })
})
