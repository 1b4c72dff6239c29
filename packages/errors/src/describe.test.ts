import { describe, expect, it } from 'vitest'
import { describeKind, describeValue, messageOf } from './index.js'

describe('describeValue', () => {
  it.each([
    [undefined, 'undefined'],
    [null, 'null'],
    ['abc', 'string "abc"'],
    ['x'.repeat(50), `string "${'x'.repeat(40)}…"`],
    [5, 'number 5'],
    [true, 'boolean true'],
    [12n, 'bigint 12n'],
    [2n ** 200n, `bigint ${(2n ** 200n).toString().slice(0, 40)}…n`],
    [Symbol('s'), 'a symbol'],
    [() => 1, 'a function'],
    [[1], 'an array'],
    [{}, 'an object'],
    [Object.create(null), 'an object'],
    [new Map(), 'a Map'],
    [new Uint8Array(1), 'a Uint8Array'],
    [new Error('e'), 'an Error'],
    [new Date(Date.UTC(2026, 0, 2)), 'Date 2026-01-02T00:00:00.000Z'],
    [new Date(Number.NaN), 'an invalid Date'],
  ])('describes %s as %s', (value, text) => {
    expect(describeValue(value)).toBe(text)
  })

  it('never throws, even for a Proxy whose traps throw', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap')
        },
        getPrototypeOf() {
          throw new Error('trap')
        },
      },
    )
    expect(describeValue(hostile)).toBe('a value that cannot be inspected')
  })
})

describe('describeKind', () => {
  it('says what kind of value came without quoting a string, which may be a secret', () => {
    expect(describeKind('s3cret')).toBe('a string')
    expect(describeKind('')).toBe('an empty string')
    expect(describeKind(5)).toBe('number 5')
    expect(describeKind(null)).toBe('null')
    expect(describeKind({ secret: 'x' })).toBe('an object')
  })
})

describe('messageOf', () => {
  it('takes the message of an error, the text of anything else, cut to 300 characters', () => {
    expect(messageOf(new TypeError('bad'))).toBe('bad')
    expect(messageOf('plain')).toBe('plain')
    expect(messageOf(new Error('m'.repeat(400)))).toBe(`${'m'.repeat(300)}…`)
    const unprintable = {
      toString(): string {
        throw new Error('no')
      },
    }
    expect(messageOf(unprintable)).toBe('an error that cannot be printed')
  })
})
