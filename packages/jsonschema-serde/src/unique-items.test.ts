import type { AnySchema } from 'ajv'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ajvAsItComes } from './test-support/ajv-as-it-comes.js'
import { duplicateOf } from './unique-items.js'
import { AJV_OPTIONS, ajvFor } from './validator.js'

/** What validating gives: the verdict and the errors, as plain data. */
function verdict(validate: ((data: unknown) => boolean) & { errors?: unknown }, data: unknown): string {
  try {
    return JSON.stringify({ valid: validate(data), errors: validate.errors ?? null })
  } catch (error) {
    return `threw ${(error as Error).constructor.name}`
  }
}

/** Items drawn from a small set, so that arrays hold equal items: JSON values, and (`exotic`) values JSON cannot hold. */
function items(exotic: boolean): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      {
        weight: 6,
        arbitrary: fc.constantFrom(0, -0, 1, Number.NaN, 'a', 'b', '', true, false, null, undefined, 1n),
      },
      { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
      {
        weight: 2,
        arbitrary: fc
          .dictionary(fc.constantFrom('a', 'b', '__proto__', 'constructor'), tie('value'), { maxKeys: 3 })
          .map((entries) => {
            const own: Record<string, unknown> = {}
            for (const [name, value] of Object.entries(entries))
              Object.defineProperty(own, name, {
                value,
                enumerable: true,
                writable: true,
                configurable: true,
              })
            return own
          }),
      },
      {
        weight: exotic ? 1 : 0,
        arbitrary: fc.constantFrom(new Date(0), new Date(0), /a/g, Object.create(null) as object, {
          valueOf: 1,
        }),
      },
    ),
  })).value
}

const arrays = fc.oneof(
  { weight: 4, arbitrary: fc.array(items(false), { maxLength: 12 }) },
  { weight: 1, arbitrary: fc.array(items(true), { maxLength: 12 }) },
)

const SCHEMAS: AnySchema[] = [
  { uniqueItems: true },
  { items: { type: 'string' }, uniqueItems: true },
  { items: { type: ['string', 'number'] }, uniqueItems: true },
  { items: { type: ['object', 'null'] }, uniqueItems: true },
  { items: { type: 'array' }, uniqueItems: true },
  { type: 'object', properties: { list: { uniqueItems: true } } },
]

describe('uniqueItems', () => {
  it('gives ajv’s verdict and errors, the same pair of items named, for every kind of item', () => {
    const ours = SCHEMAS.map((schema) => ajvFor('draft-07', AJV_OPTIONS).compile(schema))
    const theirs = SCHEMAS.map((schema) => ajvAsItComes().compile(schema))
    fc.assert(
      fc.property(arrays, fc.boolean(), (items, sparse) => {
        if (sparse && items.length > 2) delete items[1]
        for (const [index, validate] of ours.entries()) {
          const data = index === SCHEMAS.length - 1 ? { list: items } : items
          expect(verdict(validate, data)).toBe(verdict(theirs[index]!, data))
        }
      }),
      { numRuns: 1_000 },
    )
  })

  it('names the last item equal to an earlier one and the nearest such earlier item, as ajv’s search does', () => {
    expect(duplicateOf([{ a: 1 }, 'x', { a: 1 }, 'x', 3])).toEqual({ i: 3, j: 1 })
    expect(duplicateOf([[1, { b: 2, a: 1 }], 0, [1, { a: 1, b: 2 }], [1, { a: 1, b: 2 }]])).toEqual({
      i: 3,
      j: 2,
    })
    expect(duplicateOf([Number.NaN, -0, 0])).toEqual({ i: 2, j: 1 })
    expect(duplicateOf([{ a: 1 }, { a: '1' }, [1], ['1']])).toBeUndefined()
    // A value that is not plain JSON is compared pair by pair, as ajv compares it.
    expect(duplicateOf([new Date(5), 1, new Date(5)])).toEqual({ i: 2, j: 0 })
  })

  it('tells thousands of objects apart by their keys, not by comparing every pair', () => {
    const items = Array.from({ length: 20_000 }, (_, index) => ({ id: index, tags: ['a', index % 7] }))
    items.push({ tags: ['a', 3], id: 10 })
    // ajv's search would make about 2 × 10^8 comparisons of these; the keys find the pair in one pass.
    expect(duplicateOf(items)).toEqual({ i: 20_000, j: 10 })
  })
})
