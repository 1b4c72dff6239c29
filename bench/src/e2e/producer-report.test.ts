import { describe, expect, it } from 'vitest'
import { producerPairFigures, renderProducers } from './producer-report.js'
import type { ProducerResult } from './producer-types.js'
import { renderE2eSection } from './section.js'

function result(
  row: string,
  round: number,
  seconds: number,
  start: 'cold' | 'warm' = 'cold',
): ProducerResult {
  return { row, format: 'avro', start, round, messages: 1000, seconds, cpuMicros: seconds * 500_000 }
}

describe('producer rounds report', () => {
  it('divides ours by theirs within each round, and gives the median of those ratios', () => {
    const results = [
      result('kafkajs+ours', 1, 1),
      result('kafkajs+kafkajs-sr', 1, 2),
      result('kafkajs+ours', 2, 2),
      result('kafkajs+kafkajs-sr', 2, 1),
      result('kafkajs+ours', 3, 1),
      result('kafkajs+kafkajs-sr', 3, 1.25),
      // a round that ran ours alone has no ratio
      result('kafkajs+ours', 4, 1),
      result('kafkajs+kafkajs-sr', 1, 1, 'warm'),
    ]
    expect(producerPairFigures(results, 'kafkajs', 'avro', 'cold')).toEqual({
      oursRate: 1000,
      theirsRate: 800,
      oursCpu: 500,
      theirsCpu: 625,
      ratio: 1.25,
      ratios: [2, 0.5, 1.25],
      interval: undefined,
    })
    expect(producerPairFigures(results, 'kafkajs', 'avro', 'warm')).toBeUndefined()
    expect(producerPairFigures(results, 'platformatic', 'avro', 'cold')).toBeUndefined()
    expect(() => producerPairFigures(results, 'nope', 'avro', 'cold')).toThrow(TypeError)
  })

  it('renders a row per pair and start, and the 95 % interval of the median ratio from 6 rounds on', () => {
    const results: ProducerResult[] = []
    for (const [round, theirs] of [1.25, 2, 0.625, 1.75, 4, 0.5].entries()) {
      results.push(
        result('platformatic+ours', round + 1, 1),
        result('platformatic+confluent', round + 1, theirs),
        result('platformatic+ours', round + 1, 1, 'warm'),
        result('platformatic+confluent', round + 1, 0.5, 'warm'),
      )
    }
    const table = renderProducers(results, 5000)
    expect(table).toContain('#### Avro: producers from a fresh process')
    expect(table).toContain(
      '| @platformatic/kafka + ours (`ApicurioSchemaRegistry`, v3 API) vs @platformatic/kafka + its `ConfluentSchemaRegistry` (ccompat API) | cold | 1,000 | 686 | 500.0 | 750.0 | **1.50×** | 0.50 – 4.00 | 1.25 2.00 0.63 1.75 4.00 0.50 |',
    )
    expect(table).toContain(
      '| after 5,000 | 1,000 | 2,000 | 500.0 | 250.0 | **0.50×** | 0.50 – 0.50 | 0.50 0.50 0.50 0.50 0.50 0.50 |',
    )
    expect(table).not.toContain('KafkaJS')
    expect(table).not.toContain('JSON Schema')
  })

  it('puts the saved producer rounds into the end-to-end section, or says how to run them', () => {
    const run = {
      node: 'v24.21.0',
      when: '2026-12-07 01:00 UTC',
      machine: 'm',
      versions: 'v',
      messages: 1000,
      rounds: 1,
      load: 'load average before 1.00, after 1.00',
      results: [],
    }
    expect(renderE2eSection(run)).toContain(
      'No producer rounds saved yet: `pnpm bench:e2e --part=producers` runs them.',
    )
    const section = renderE2eSection({
      ...run,
      producers: {
        node: 'v24.21.0',
        when: '2026-12-07 01:30 UTC',
        messages: 1000,
        warmup: 5000,
        rounds: 1,
        load: 'load average before 2.00, after 3.00',
        results: [result('kafkajs+ours', 1, 1), result('kafkajs+kafkajs-sr', 1, 2)],
      },
    })
    expect(section).toContain('### Producers from a fresh process')
    expect(section).toContain(
      '- **Run:** 2026-12-07 01:30 UTC, Node v24.21.0, load average before 2.00, after 3.00.',
    )
    expect(section).toContain('| cold | 1,000 | 500 | 500.0 | 1000.0 | **2.00×** | — | 2.00 |')
    expect(section.indexOf('### Producers from a fresh process')).toBeLessThan(
      section.indexOf('### Consumers from a fresh process'),
    )
  })
})
