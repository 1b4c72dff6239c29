import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { CONSUMER_FORMATS, CONSUMER_ROWS, type ConsumerResult, STARTS } from './consumer-types.js'
import { PRODUCER_FORMATS, type ProducerResult } from './producer-types.js'
import { FORMATS, ROWS, type RowResult } from './types.js'

// `pnpm bench:e2e --quick` against the integration stage's real Apicurio Registry and Kafka broker: every client,
// registry support and format produces 2 000 messages and reads them all back (the bench checks the counts and the
// last message's seq itself, and fails otherwise), and every consumer of the consumer rounds reads its format's
// topic in a fresh process, cold and after a warm-up, as every producer of the producer rounds writes its messages
// (the bench checks that its topic grew by them). Figures are not looked at: this only proves the bench runs.

const main = fileURLToPath(new URL('../../dist/e2e/main.js', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'bench-e2e-'))

afterAll(() => rmSync(dir, { recursive: true, force: true }))

function run(env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [main, '--quick'],
      { env: { ...process.env, ...env }, timeout: 400_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
        resolve({ code, output: `${stdout}\n${stderr}` })
      },
    )
  })
}

describe('pnpm bench:e2e --quick on the real broker and registry', () => {
  it('produces and consumes 2 000 messages for every client, registry support and format, writes them again in a fresh process per producer and reads them in one per consumer, each read back to its last seq', async () => {
    const json = join(dir, 'e2e.json')
    const { code, output } = await run({
      REGISTRY_URL: inject('registryUrl'),
      KAFKA_BROKERS: inject('kafkaBrokers'),
      E2E_JSON: json,
      E2E_MESSAGES: '2000',
      E2E_WARMUP: '200',
      E2E_ROUNDS: '1',
    })
    expect(code, output).toBe(0)
    const { results, producers, consumers } = JSON.parse(readFileSync(json, 'utf8')) as {
      results: RowResult[]
      producers: ProducerResult[]
      consumers: ConsumerResult[]
    }
    const expected = FORMATS.flatMap((format) => ROWS.map((row) => `${format}/${row.name}`)).sort()
    expect(results.map((r) => `${r.format}/${r.row}`).sort()).toEqual(expected)
    for (const result of results) {
      if ('unsupported' in result) throw new Error(`${result.format}/${result.row}: ${result.unsupported}`)
      expect([result.produce.messages, result.consume.messages, result.raw.messages, result.lastSeq]).toEqual(
        [2000, 2000, 2000, 1999],
      )
      expect(result.consume.cpuMicros).toBeGreaterThan(0)
    }
    const expectedConsumers = CONSUMER_FORMATS.flatMap((format) =>
      CONSUMER_ROWS.flatMap((row) => STARTS.map((start) => `${format}/${row.name}/${start}`)),
    ).sort()
    expect(consumers.map((r) => `${r.format}/${r.row}/${r.start}`).sort()).toEqual(expectedConsumers)
    for (const consumer of consumers) {
      expect([consumer.messages, consumer.lastSeq, consumer.round]).toEqual([2000, 1999, 1])
      expect(consumer.cpuMicros).toBeGreaterThan(0)
    }
    const expectedProducers = PRODUCER_FORMATS.flatMap((format) =>
      ROWS.flatMap((row) => STARTS.map((start) => `${format}/${row.name}/${start}`)),
    ).sort()
    expect(producers.map((r) => `${r.format}/${r.row}/${r.start}`).sort()).toEqual(expectedProducers)
    for (const producer of producers) {
      expect([producer.messages, producer.round]).toEqual([2000, 1])
      expect(producer.cpuMicros).toBeGreaterThan(0)
    }
    expect(output).toContain('Every message produced was consumed back')
    expect(output).toContain("every producer's topic grew by its messages")
  }, 400_000)
})
