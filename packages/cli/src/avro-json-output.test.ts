import { describe, expect, it } from 'vitest'
import { avroOutput } from './avro-json-output.js'

describe('avroOutput', () => {
  it('hands every value back as it is when no union of the schema, referenced types included, prints alike', () => {
    const output = avroOutput(
      JSON.stringify({
        type: 'record',
        name: 'R',
        fields: [
          { name: 'a', type: ['null', 'int', 'bytes'] },
          { name: 'b', type: ['int', 'long'] },
          { name: 'c', type: 'Ref' },
        ],
      }),
      [JSON.stringify({ type: 'record', name: 'Ref', fields: [{ name: 'x', type: ['null', 'string'] }] })],
    )
    const value = { a: Buffer.from([1]), b: { long: 2 }, c: { x: 'y' } }
    expect(output(value)).toBe(value)
  })

  it('wraps by branch name the values of a union whose bare values would print alike, in maps, arrays and referenced records', () => {
    const output = avroOutput(
      JSON.stringify({
        type: 'record',
        name: 'R',
        namespace: 'n',
        fields: [
          {
            name: 'byKey',
            type: { type: 'map', values: ['null', 'Tag', { type: 'int', logicalType: 'date' }] },
          },
          { name: 'list', type: { type: 'array', items: 'Ref' } },
        ],
      }),
      [
        JSON.stringify({ type: 'enum', name: 'Tag', namespace: 'n', symbols: ['A'] }),
        JSON.stringify({
          type: 'record',
          name: 'Ref',
          namespace: 'n',
          fields: [{ name: 'x', type: ['null', 'string', { type: 'fixed', name: 'F', size: 1 }] }],
        }),
      ],
    )
    const day = new Date('2024-01-01T00:00:00.000Z')
    expect(
      output({
        byKey: { a: 'A', b: day, c: null },
        list: [{ x: Buffer.from([9]) }, { x: 'z' }, { x: null }],
      }),
    ).toEqual({
      byKey: { a: { 'n.Tag': 'A' }, b: { int: day }, c: null },
      list: [{ x: { 'n.F': Buffer.from([9]) } }, { x: { string: 'z' } }, { x: null }],
    })
  })
})
