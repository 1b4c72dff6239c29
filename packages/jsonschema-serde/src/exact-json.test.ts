import { parseExactJson } from '@x/registry-client/json'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bigintsAsNumbers, stringifyExact } from './exact-json.js'

describe('stringifyExact with the exact reader', () => {
  it('round-trips arbitrary JSON with exact integers (property)', () => {
    const integer = fc
      .bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
      .map((n) =>
        n >= -BigInt(Number.MAX_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n,
      )
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        integer,
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(
          fc.string().filter((key) => key !== '__proto__'),
          tie('value'),
          { maxKeys: 5 },
        ),
      ),
    }))
    fc.assert(
      fc.property(json.value, (value) => {
        const text = stringifyExact(value)!
        expect(parseExactJson(text).value).toEqual(value)
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300) },
    )
  })
})

describe('stringifyExact', () => {
  it('is JSON.stringify for values without bigints', () => {
    const value = { a: [1, 'x', null, true], d: new Date(0), u: undefined }
    expect(stringifyExact(value)).toBe(JSON.stringify(value))
    expect(stringifyExact(undefined)).toBeUndefined()
  })

  it('writes a bigint as its exact digits, at any depth', () => {
    expect(stringifyExact({ id: 9007199254740993n, n: [-9223372036854775808n, 1] })).toBe(
      '{"id":9007199254740993,"n":[-9223372036854775808,1]}',
    )
    expect(stringifyExact(12n)).toBe('12')
  })

  it('leaves strings that look like the internal marker alone', () => {
    expect(stringifyExact({ s: '\u0000bigint-x:1', n: 1n })).toBe('{"s":"\\u0000bigint-x:1","n":1}')
  })
})

describe('bigintsAsNumbers', () => {
  it('copies only the paths that hold a bigint', () => {
    const shared = { k: 1 }
    const value = { a: shared, b: [1, 2n], c: 'x' }
    const copy = bigintsAsNumbers(value) as typeof value
    expect(copy).toEqual({ a: { k: 1 }, b: [1, 2], c: 'x' })
    expect(copy.a).toBe(shared)
    expect(value.b[1]).toBe(2n)
    const plain = { a: [1] }
    expect(bigintsAsNumbers(plain)).toBe(plain)
  })
})
