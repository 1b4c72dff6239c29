import { describe, expect, it } from 'vitest'
import { readerWriterIncompatibilities } from './reader-writer.js'
import { parseAvro } from './schema.js'

const check = (reader: unknown, writer: unknown) =>
  readerWriterIncompatibilities(parseAvro(JSON.stringify(reader)), parseAvro(JSON.stringify(writer)))

// The cases the differential suite does not hold; the common ones are compared with a real Apicurio's answers there.
describe('readerWriterIncompatibilities', () => {
  it('ends on recursive schemas and still finds a difference inside them', () => {
    const list = (value: string) => ({
      type: 'record',
      name: 'Node',
      fields: [
        { name: 'value', type: value },
        { name: 'next', type: ['null', 'Node'] },
      ],
    })
    expect(check(list('long'), list('int'))).toEqual([])
    expect(check(list('int'), list('long'))).toEqual([
      {
        kind: 'TYPE_MISMATCH',
        description: 'reader type: INT not compatible with writer type: LONG',
        context: '/fields/0/type',
      },
    ])
  })

  it('reads a renamed record through its aliases, and a renamed field through field aliases', () => {
    const writer = { type: 'record', name: 'Old', namespace: 'n', fields: [{ name: 'a', type: 'int' }] }
    const reader = {
      type: 'record',
      name: 'New',
      namespace: 'n',
      aliases: ['Old'],
      fields: [{ name: 'b', type: 'int', aliases: ['a'] }],
    }
    expect(check(reader, writer)).toEqual([])
    expect(check({ ...reader, aliases: [] }, writer)).toEqual([
      { kind: 'NAME_MISMATCH', description: 'expected: n.Old', context: '/name' },
    ])
  })

  it('accepts missing enum symbols when the reader has an enum default, and promotes within unions', () => {
    const writer = { type: 'enum', name: 'E', symbols: ['A', 'B', 'C'] }
    expect(check({ type: 'enum', name: 'E', symbols: ['A', 'B'], default: 'A' }, writer)).toEqual([])
    expect(check(['null', 'double'], ['null', 'int', 'float'])).toEqual([])
    expect(check(['null', 'double'], ['string'])).toEqual([
      {
        kind: 'MISSING_UNION_BRANCH',
        description: 'reader union lacking writer type: STRING',
        context: '/0',
      },
    ])
  })
})
