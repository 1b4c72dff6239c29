import { describe, expect, it } from 'vitest'
import { toRuleRecord } from './rule-record.js'
import { RulesEngine } from './rules-engine.js'

const engine = new RulesEngine()
const condition = (expr: string) =>
  engine.compile({
    domainRules: [{ name: 'c', kind: 'CONDITION', type: 'CEL', mode: 'WRITE', expr, onFailure: 'ERROR' }],
  })

describe('toRuleRecord', () => {
  it('writes dates as RFC 3339 text, bytes as base64, maps as objects and drops undefined fields', () => {
    const record = toRuleRecord({
      at: new Date(Date.UTC(2024, 4, 1, 10, 0, 0, 5)),
      payload: new Uint8Array([1, 2, 3]),
      labels: new Map([['env', 'prod']]),
      missing: undefined,
      nested: { list: [1, undefined, Number.NaN] },
    })
    expect(record).toEqual({
      at: '2024-05-01T10:00:00.005Z',
      payload: 'AQID',
      labels: { env: 'prod' },
      nested: { list: [1, null, null] },
    })
    expect('missing' in record).toBe(false)
  })

  it('keeps integers beyond 2^53 as bigint and turns safe ones into numbers', () => {
    expect(toRuleRecord({ big: 9007199254740993n, small: 42n })).toEqual({
      big: 9007199254740993n,
      small: 42,
    })
  })

  it('makes an invalid date null, as JSON.stringify writes it', () => {
    const record = toRuleRecord({ at: new Date(Number.NaN), list: [new Date(Number.NaN)], ok: new Date(0) })
    expect(record).toEqual({ at: null, list: [null], ok: '1970-01-01T00:00:00.000Z' })
    expect(record).toEqual(
      JSON.parse(JSON.stringify({ at: new Date(Number.NaN), list: [new Date(Number.NaN)], ok: new Date(0) })),
    )
  })

  it('refuses a value that is not an object with a TypeError coded INVALID_CONFIG', () => {
    for (const [value, kind] of [
      [[1], 'an array'],
      [null, 'null'],
      ['', 'string'],
      [1n << 60n, 'bigint'],
      [undefined, 'undefined'],
    ] as const) {
      let thrown: unknown
      try {
        toRuleRecord(value)
      } catch (error) {
        thrown = error
      }
      expect(thrown).toBeInstanceOf(TypeError)
      expect(thrown).toMatchObject({
        code: 'INVALID_CONFIG',
        message: `A record for rules must be an object, not ${kind}`,
      })
    }
  })

  it('gives CEL a long beyond 2^53 exactly and a date that timestamp() reads', () => {
    const record = toRuleRecord({ big: 9007199254740993n, at: new Date(Date.UTC(2024, 0, 1)) })
    const compiled = condition('big == 9007199254740993 && timestamp(at).getFullYear() == 2024')
    expect(engine.execute(compiled, { mode: 'WRITE', record }).passed).toBe(true)
    expect(engine.execute(condition('big == 9007199254740992'), { mode: 'WRITE', record }).passed).toBe(false)
  })
})

describe('toRuleRecord with the fields the rules read', () => {
  it('converts only the named own enumerable fields, as the whole conversion writes them', () => {
    const record = Object.create({ inherited: 1 }) as Record<string, unknown>
    Object.assign(record, { at: new Date(Date.UTC(2024, 0, 1)), big: 9007199254740993n, missing: undefined })
    Object.defineProperty(record, 'hidden', { value: 2, enumerable: false })
    let calls = 0
    record.other = {
      toJSON() {
        calls++
        return 'x'
      },
    }
    expect(toRuleRecord(record, ['at', 'big', 'missing', 'hidden', 'inherited', 'absent'])).toEqual({
      at: '2024-01-01T00:00:00.000Z',
      big: 9007199254740993n,
    })
    expect(calls).toBe(0)
    expect(toRuleRecord(record)).toEqual({
      at: '2024-01-01T00:00:00.000Z',
      big: 9007199254740993n,
      other: 'x',
    })
    expect(calls).toBe(1)
  })

  it('converts a value with toJSON, or a Map, whole: its fields are known only once converted', () => {
    const message = { toJSON: () => ({ a: 1, b: 2 }) }
    expect(toRuleRecord(message, ['a'])).toEqual({ a: 1, b: 2 })
    expect(toRuleRecord(new Map([['a', 1]]), ['b'])).toEqual({ a: 1 })
  })
})
