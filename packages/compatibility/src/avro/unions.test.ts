import { describe, expect, it } from 'vitest'
import { checkCompatibility } from '../check-compatibility.js'
import { readerWriterIncompatibilities } from './reader-writer.js'
import { type AvroType, parseAvro } from './schema.js'

const record = (name: string, extra: Record<string, unknown> = {}) => ({
  type: 'record',
  name,
  namespace: 'n',
  fields: [{ name: 'x', type: 'int' }],
  ...extra,
})
const holding = (union: unknown[]) =>
  JSON.stringify({ type: 'record', name: 'Top', fields: [{ name: 'u', type: union }] })
const records = (count: number) => Array.from({ length: count }, (_, i) => record(`R${i}`))

const backward = (existing: string, proposed: string) =>
  checkCompatibility({ format: 'AVRO', level: 'BACKWARD', existing: [existing], proposed })

describe('Avro unions', () => {
  it('accept an added branch and refuse a removed one', () => {
    const two = holding([record('A'), record('B')])
    const three = holding([record('A'), record('B'), record('C')])
    expect(backward(two, three)).toEqual({ compatible: true, issues: [] })
    expect(backward(three, two)).toEqual({
      compatible: false,
      issues: [
        {
          path: 'fields[0].type[2]',
          message: "No branch of the reader's union can read the record the writer wrote.",
          cause: { description: 'reader union lacking writer type: RECORD', context: '/fields/0/type/2' },
        },
      ],
    })
  })

  it('read a renamed branch through its aliases, and only then', () => {
    const before = holding(['null', record('Old')])
    expect(backward(before, holding(['null', record('New', { aliases: ['Old'] })]))).toEqual({
      compatible: true,
      issues: [],
    })
    expect(backward(before, holding(['null', record('New', { aliases: ['other.Old'] })])).compatible).toBe(
      false,
    )
    expect(backward(before, holding(['null', record('New')]))).toEqual({
      compatible: false,
      issues: [
        {
          path: 'fields[0].type[1]',
          message: "No branch of the reader's union can read the record the writer wrote.",
          cause: { description: 'reader union lacking writer type: RECORD', context: '/fields/0/type/1' },
        },
      ],
    })
  })

  it('promote a written number to a wider reader branch, never to a narrower one', () => {
    expect(backward(holding(['null', 'int', 'float']), holding(['string', 'null', 'double']))).toEqual({
      compatible: true,
      issues: [],
    })
    expect(backward(holding(['null', 'bytes']), holding(['null', 'string']))).toEqual({
      compatible: true,
      issues: [],
    })
    expect(backward(holding(['null', 'long']), holding(['null', 'int']))).toEqual({
      compatible: false,
      issues: [
        {
          path: 'fields[0].type[1]',
          message: "No branch of the reader's union can read the long the writer wrote.",
          cause: { description: 'reader union lacking writer type: LONG', context: '/fields/0/type/1' },
        },
      ],
    })
  })

  it('compare a union of records with itself in a number of steps linear in its branches', () => {
    // Counts how often the comparison looks at a branch of the reader's union: a constant number of times per
    // branch, however many branches there are.
    const looks = (count: number): number => {
      const writer = parseAvro(holding(records(count)))
      const reader = parseAvro(holding(records(count))) as Extract<AvroType, { kind: 'record' }>
      const union = (reader.fields[0] as { type: Extract<AvroType, { kind: 'union' }> }).type
      let seen = 0
      union.types = union.types.map(
        (branch) =>
          new Proxy(branch, {
            get(target, key, receiver) {
              seen++
              return Reflect.get(target, key, receiver)
            },
          }),
      )
      expect(readerWriterIncompatibilities(reader, writer)).toEqual([])
      return seen
    }
    const small = looks(125)
    expect(looks(1000)).toBeLessThanOrEqual(small * 8 * 1.25)
  })

  it('check 2 000 branches at FULL_TRANSITIVE in about the time 125 branches take, times the branches', () => {
    const time = (count: number): number => {
      const schema = holding(records(count))
      const start = performance.now()
      const result = checkCompatibility({
        format: 'AVRO',
        level: 'FULL_TRANSITIVE',
        existing: [schema, schema],
        proposed: schema,
      })
      expect(result).toEqual({ compatible: true, issues: [] })
      return performance.now() - start
    }
    time(125)
    const small = Math.min(time(125), time(125))
    // 16 times the branches: a linear check takes about 16 times as long, a quadratic one about 256 times
    expect(time(2000)).toBeLessThan(Math.max(small, 5) * 64)
  }, 120_000)
})
