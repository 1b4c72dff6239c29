import { describe, expect, it } from 'vitest'
import { median } from '../median.js'
import { pairFigures, renderConsumers } from './consumer-report.js'
import type { ConsumerResult } from './consumer-types.js'

function result(
  row: string,
  round: number,
  seconds: number,
  start: 'cold' | 'warm' = 'cold',
): ConsumerResult {
  return {
    row,
    format: 'avro',
    start,
    round,
    messages: 1000,
    seconds,
    cpuMicros: seconds * 500_000,
    firstMs: 10 * round,
    lastSeq: 999,
  }
}

describe('consumer rounds report', () => {
  it('takes medians, the mean of the middle two for an even count', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([])).toBeNaN()
  })

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
    const figures = pairFigures(results, 'kafkajs-each-message', 'avro', 'cold')
    expect(figures).toEqual({
      oursRate: 1000,
      theirsRate: 800,
      oursCpu: 500,
      theirsCpu: 625,
      oursFirstMs: 25,
      theirsFirstMs: 20,
      ratio: 1.25,
      ratios: [2, 0.5, 1.25],
      interval: undefined,
    })
    expect(pairFigures(results, 'kafkajs-each-message', 'avro', 'warm')).toBeUndefined()
    expect(() => pairFigures(results, 'nope', 'avro', 'cold')).toThrow(TypeError)
  })

  it('renders a row per pair and start, with the median ratio and each round', () => {
    const results = [
      result('kafkajs-batch+ours', 1, 1),
      result('kafkajs-batch+kafkajs-sr', 1, 2),
      result('kafkajs-batch+ours', 1, 1, 'warm'),
      result('kafkajs-batch+kafkajs-sr', 1, 0.5, 'warm'),
    ]
    const table = renderConsumers(results, 5000)
    expect(table).toContain('#### Avro: consumers from a fresh process')
    expect(table).toContain(
      '| KafkaJS `eachBatch` + `KafkaJsSerde.eachBatch` vs KafkaJS `eachBatch` + a kafkajs-SR `decode` loop | cold | 1,000 | 500 | 500.0 | 1000.0 | 10 | 10 | **2.00×** | — | 2.00 |',
    )
    expect(table).toContain(
      '| KafkaJS `eachBatch` + `KafkaJsSerde.eachBatch` vs KafkaJS `eachBatch` + a kafkajs-SR `decode` loop | after 5,000 | 1,000 | 2,000 | 500.0 | 250.0 | 10 | 10 | **0.50×** | — | 0.50 |',
    )
    expect(table).not.toContain('JSON Schema')
  })

  it('gives the 95 % interval of the median ratio from 6 rounds on', () => {
    const results: ConsumerResult[] = []
    for (const [round, theirs] of [1.25, 2, 0.625, 1.75, 4, 0.5].entries()) {
      results.push(result('kafkajs+ours', round + 1, 1), result('kafkajs+kafkajs-sr', round + 1, theirs))
    }
    const figures = pairFigures(results, 'kafkajs-each-message', 'avro', 'cold')
    expect(figures?.ratios.map((r) => r.toFixed(3))).toEqual([
      '1.250',
      '2.000',
      '0.625',
      '1.750',
      '4.000',
      '0.500',
    ])
    expect(figures?.interval).toEqual({ low: 0.5, high: 4, coverage: 1 - 2 / 64 })
    expect(renderConsumers(results, 5000)).toContain(
      '| **1.50×** | 0.50 – 4.00 | 1.25 2.00 0.63 1.75 4.00 0.50 |',
    )
  })
})
