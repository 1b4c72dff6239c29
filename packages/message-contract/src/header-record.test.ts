import { describe, expect, it } from 'vitest'
import { headerRecord } from './header-record.js'

const id1 = Buffer.from('0000000000000001', 'hex')
const id2 = Buffer.from('0000000000000002', 'hex')
const name = 'apicurio.value.globalId'

describe('headerRecord', () => {
  it('keeps every value of a header repeated in raw pairs, names read as UTF-8 and null values left out', () => {
    const record = headerRecord([
      [Buffer.from(name), id1],
      [Buffer.from(name), id2],
      [Buffer.from('trace'), Buffer.from('t')],
      [Buffer.from('empty'), null],
    ])
    expect(record).toEqual({ [name]: [id1, id2], trace: Buffer.from('t') })
  })

  it('reads a Map as one value per name: a repeat that reached the Map is gone already', () => {
    const map = new Map<unknown, unknown>([
      [Buffer.from(name), id2],
      ['trace', 't'],
    ])
    expect(headerRecord(map)).toEqual({ [name]: id2, trace: 't' })
  })

  it('returns a record as it is, and one shared frozen record for no headers', () => {
    const record = { [name]: [id1, id2] }
    expect(headerRecord(record)).toBe(record)
    const none = headerRecord(undefined)
    expect(Object.isFrozen(none)).toBe(true)
    expect(headerRecord([])).toBe(none)
    expect(headerRecord(new Map())).toBe(none)
    expect(headerRecord(null)).toBe(none)
  })
})
