import { describe, expect, it } from 'vitest'
import { BEGIN, END, ROWS, renderTable, withBlock } from './install-size.mjs'

const measured = (packages: string[], bytes: number) => ({ packages, bytes })

describe('the install-size table', () => {
  const sizes = new Map([
    ['wire-format', measured(['@x/errors@0.2.0', '@x/wire-format@0.1.1'], 124_928)],
    ['registry-client', measured(['@x/registry-client@0.2.0', 'lru-cache@11.5.3'], 3_670_016)],
    [
      'serde-production',
      measured(['@x/serde@0.2.0', 'avsc@5.7.9', 'ajv@8.20.0', 'protobufjs@8.8.1'], 10_485_760),
    ],
    ['serde-testing', measured(['@x/serde@0.2.0', 'avsc@5.7.9', '@x/registry-testing@0.2.0'], 12_058_624)],
    ['cli', measured(['@x/cli@0.3.0', 'kafkajs@2.2.4', 'avsc@5.7.9', '@types/node@20.0.0'], 8_178_892)],
  ])

  it('has a row per measured install: its package count, its size and the format libraries or Kafka client in it', () => {
    expect(ROWS.map((row) => row.id)).toEqual([...sizes.keys()])
    expect(renderTable(sizes)).toBe(
      [
        '| installed | packages in the tree | on disk | format libraries and Kafka client in the tree |',
        '| --- | ---: | ---: | --- |',
        '| `npm install @x/wire-format` | 2 | 122 KiB | none |',
        '| `npm install @x/registry-client` | 2 | 3.5 MiB | none |',
        '| `npm install --omit=dev @x/serde` | 4 | 10.0 MiB | avsc, ajv, protobufjs |',
        '| `npm install @x/serde` + `-D @x/registry-testing` | 3 | 11.5 MiB | avsc |',
        '| `npm install -D @x/cli` | 4 | 7.8 MiB | avsc, kafkajs |',
        '',
      ].join('\n'),
    )
  })

  it('refuses to write a table with a row not measured', () => {
    const partial = new Map(sizes)
    partial.delete('cli')
    expect(() => renderTable(partial)).toThrow('no measurement for cli')
  })

  it('replaces only the marked block of a README, and finds none where there is none', () => {
    const readme = `# x\n\nintro\n\n${BEGIN}\n| old | table |\n${END}\n\nafter\n`
    expect(withBlock(readme, '| new |\n')).toBe(`# x\n\nintro\n\n${BEGIN}\n| new |\n${END}\n\nafter\n`)
    expect(withBlock('# x\n', '| new |\n')).toBeUndefined()
  })
})
