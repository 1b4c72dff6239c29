import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { documentationFiles } from './blocks.mjs'
import { copiedFigures } from './figures.mjs'

const root = join(import.meta.dirname, '..', '..')

describe('copiedFigures', () => {
  it('finds timings and ratios written into prose, and leaves settings, fenced output and plain numbers alone', () => {
    const text = [
      'Importing it takes 59 ms on a loaded machine.',
      '| `total > 0.0` | 116 ns | 766 ns |',
      'ours reads at 1.12× its peer',
      'each evaluation may run `timeoutMs` (default 50 ms)',
      'tokens are reused until 30 s are left; 3 retries',
      '```text output',
      'took 12 ms',
      '```',
    ].join('\n')
    expect(copiedFigures(text)).toEqual([
      { line: 1, text: 'Importing it takes 59 ms on a loaded machine.' },
      { line: 2, text: '| `total > 0.0` | 116 ns | 766 ns |' },
      { line: 3, text: 'ours reads at 1.12× its peer' },
    ])
  })

  it('is not fooled by a Greek mu, a ratio with an x, or a setting word elsewhere in the line', () => {
    const text = [
      'A read takes 116 μs once warm.',
      'ours reads 2.5x as fast as its peer',
      'A read takes 116 ns after the first one.',
      'The default is 3 retries; a read takes 116 ns.',
      'a lookup times out after 250 ms; `idSize` 8 (default 4); status 5xx; a magic byte 0x00, `0x` and hex',
    ].join('\n')
    expect(copiedFigures(text).map(({ line }) => line)).toEqual([1, 2, 3, 4])
  })

  it('finds none in any README or page of the site: their figures come from generated files', () => {
    const found = documentationFiles(root).flatMap((file) =>
      copiedFigures(readFileSync(join(root, file), 'utf8')).map(
        ({ line, text }) => `${file}:${line}: ${text}`,
      ),
    )
    expect(found).toEqual([])
  })
})
