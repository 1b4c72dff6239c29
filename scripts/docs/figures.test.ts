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

  it('finds none in any README or page of the site: their figures come from generated files', () => {
    const found = documentationFiles(root).flatMap((file) =>
      copiedFigures(readFileSync(join(root, file), 'utf8')).map(
        ({ line, text }) => `${file}:${line}: ${text}`,
      ),
    )
    expect(found).toEqual([])
  })
})
