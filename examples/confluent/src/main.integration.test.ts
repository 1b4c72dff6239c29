import { dirname } from 'node:path'
import { describe, expect, inject, it } from 'vitest'
import { runExample } from '../../../scripts/test-support/run-example.js'

// The integration stage builds Confluent's client once into a cache (scripts/integration/confluent-client.ts); the
// example finds it there through NODE_PATH, as it would find it in a project's node_modules.
const nodePath = dirname(dirname(inject('confluentClient')))

describe('the confluent example against a real broker and a real Apicurio Registry', () => {
  it("produces three orders with Confluent's KafkaJS API and consumes them back decoded", async () => {
    const run = await runExample('confluent', {
      KAFKA_BROKERS: inject('kafkaBrokers'),
      REGISTRY_URL: inject('registryUrl'),
      NODE_PATH: nodePath,
    })
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^produced 3 orders to orders-[0-9a-f-]{36}$/)
    expect(lines.slice(1)).toEqual([
      "consumed Order { id: 'o-1', amountCents: 1250, note: null }",
      "consumed Order { id: 'o-2', amountCents: 99, note: 'gift wrap' }",
      "consumed Order { id: 'o-3', amountCents: 1099511627776, note: null }",
      'consumed 3 orders',
    ])
  })

  it('refuses to start without KAFKA_BROKERS and says what to set', async () => {
    const run = await runExample('confluent', { KAFKA_BROKERS: '', NODE_PATH: nodePath })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('Set KAFKA_BROKERS=host:port')
  })
})
