import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  hasLongDigitRun,
  hasLongDigitRunIn,
  isJsonObject,
  JsonNumberText,
  JsonSyntaxError,
  MAX_JSON_NESTING,
  parseExactJson,
  parseJsonTree,
} from './exact-json.js'

describe('parseExactJson', () => {
  it.each([
    ['9007199254740991', 9007199254740991, false],
    ['9007199254740992', 9007199254740992n, true],
    ['9007199254740993', 9007199254740993n, true],
    ['-9007199254740991', -9007199254740991, false],
    ['-9007199254740993', -9007199254740993n, true],
    ['9223372036854775807', 9223372036854775807n, true],
    ['-9223372036854775808', -9223372036854775808n, true],
    ['123456789012345678901234567890', 123456789012345678901234567890n, true],
    ['1234567890123456.5', 1234567890123456.5, false],
    ['1.0E21', 1e21, false],
    // An exponent keeps JSON's double semantics even on a long digit run: the nearest double, as JSON.parse gives.
    ['12345678901234567e2', Number('12345678901234567e2'), false],
    ['2.0', 2, false],
    ['-0.0', -0, false],
  ])('reads %s as %s', (text, value, hasBigInt) => {
    const parsed = parseExactJson(text)
    expect(parsed.value).toEqual(value)
    expect(typeof parsed.value).toBe(typeof value)
    expect(parsed.hasBigInt).toBe(hasBigInt)
  })

  it('keeps a long beyond 2^53 exact inside objects and arrays, everything else as JSON.parse gives it', () => {
    const text =
      '{"id":9007199254740993,"n":[1,-9223372036854775808,"12345678901234567890"],"s":"\\u00e9\\n","o":{"x":null,"t":true,"f":1.5e3}}'
    expect(parseExactJson(text).value).toEqual({
      id: 9007199254740993n,
      n: [1, -9223372036854775808n, '12345678901234567890'],
      s: 'é\n',
      o: { x: null, t: true, f: 1500 },
    })
  })

  it('gives the same value as JSON.parse for text without long digit runs (the fast path)', () => {
    const text = '{"a":[1,2,{"b":"c"}],"d":123456789012345}'
    expect(parseExactJson(text)).toEqual({ value: JSON.parse(text), hasBigInt: false })
  })

  it('keeps __proto__ an own data property, as JSON.parse does, and the last duplicate key', () => {
    const value = parseExactJson('{"__proto__":{"p":1},"k":1,"k":2,"big":12345678901234567890}')
      .value as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.hasOwn(value, '__proto__')).toBe(true)
    expect(value.k).toBe(2)
  })

  it.each([
    ['', /Unexpected end|Expected a JSON value/],
    ['{"a":12345678901234567890', /Expected ',' or '}', got the end of the text at position 25/],
    ['[12345678901234567890]x', /Expected the end of the JSON text, got "x" at position 22/],
    ['[12345678901234567890, 01]', /Expected ',' or ']'/],
    ['[12345678901234567890, -]', /Expected a digit, got "\]" at position 24/],
    ['[12345678901234567890, 1.]', /Expected a digit after the decimal point/],
    ['["12345678901234567890\\x"]', /Invalid string literal/],
    ['{12345678901234567890:1}', /Expected a property name in double quotes/],
    ['[1234567890123456789 tru]', /Expected ',' or ']'/],
  ])('refuses %j with a message saying what was expected and where', (text, message) => {
    expect(() => parseExactJson(text)).toThrow(message)
  })

  it(`refuses nesting deeper than ${MAX_JSON_NESTING} on the exact path instead of overflowing the stack`, () => {
    const deep = `${'['.repeat(MAX_JSON_NESTING + 1)}12345678901234567890${']'.repeat(MAX_JSON_NESTING + 1)}`
    expect(() => parseExactJson(deep)).toThrow(JsonSyntaxError)
    const ok = `${'['.repeat(MAX_JSON_NESTING)}12345678901234567890${']'.repeat(MAX_JSON_NESTING)}`
    expect(() => parseExactJson(ok)).not.toThrow()
    // The fast path is JSON.parse, which does not overflow on deep input either.
    expect(() => parseExactJson('['.repeat(100_000))).toThrow(SyntaxError)
  })

  it('reads a registry answer with identifiers beyond 2^53 exactly, and fractions and exponents as numbers', () => {
    const { value } = parseExactJson(
      '{"a": 9007199254740991, "b": 9007199254740993, "c": -9223372036854775808, "d": 99999999999999999999, "e": [1.5, -2e3, -0.25E-1]}',
    )
    expect(value).toEqual({
      a: 9007199254740991,
      b: 9007199254740993n,
      c: -9223372036854775808n,
      d: 99999999999999999999n,
      e: [1.5, -2000, -0.025],
    })
    expect(isJsonObject(value)).toBe(true)
    expect(isJsonObject([])).toBe(false)
    expect(isJsonObject(null)).toBe(false)
  })

  it('reads strings with escapes, literals and nesting like JSON.parse on the exact path', () => {
    const text = '{"s":"a\\"b\\\\c\\u00e9\\n","t":true,"f":false,"n":null,"arr":[[],{}],"o":{"k":[1,"x"]}}'
    const big = `[${text},12345678901234567890]`
    expect(parseExactJson(big).value).toEqual([JSON.parse(text), 12345678901234567890n])
  })

  it('leaves Object.prototype alone when a __proto__ key holds an object', () => {
    parseExactJson('{"__proto__": {"polluted": true}, "id": 12345678901234567890}')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it('throws only SyntaxErrors for arbitrary text (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.string().map((s) => `[12345678901234567890,${s}`),
        ),
        (text) => {
          try {
            parseExactJson(text)
          } catch (error) {
            expect(error).toBeInstanceOf(SyntaxError)
          }
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 500) },
    )
  })
})

/** 20 000 texts of 1 to 60 pieces, seven in ten an ASCII digit and the rest one of `others`, from a seeded LCG. */
function* digitHeavyTexts(seed: number, others: readonly string[]): Generator<string> {
  let state = seed
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff
    return state
  }
  for (let k = 0; k < 20_000; k++) {
    yield Array.from({ length: 1 + (next() % 60) }, () =>
      next() % 10 < 7 ? String(next() % 10) : others[next() % others.length]!,
    ).join('')
  }
}

describe('hasLongDigitRun', () => {
  it('finds a run of 16 digits wherever it stands, and agrees with /[0-9]{16}/ on random text', () => {
    expect(hasLongDigitRun('{"a":1234567890123456}')).toBe(true)
    expect(hasLongDigitRun('{"a":123456789012345}')).toBe(false)
    expect(hasLongDigitRun('1234567890123456')).toBe(true)
    expect(hasLongDigitRun('')).toBe(false)
    for (const text of digitHeavyTexts(7, ['x'])) {
      expect(hasLongDigitRun(text), text).toBe(/[0-9]{16}/.test(text))
    }
  })
})

describe('hasLongDigitRunIn', () => {
  it('agrees with the scan of the decoded text on random UTF-8, multi-byte characters and bounds included', () => {
    for (const text of digitHeavyTexts(11, ['0', '1', '9', 'x', 'é', '€', '😀', '٣', '０'])) {
      const bytes = Buffer.from(`ab${text}cd`)
      expect(hasLongDigitRunIn(bytes, 2, bytes.length - 2), text).toBe(hasLongDigitRun(text))
    }
  })

  it('looks only inside [start, end): a run cut by either bound is shorter', () => {
    const bytes = Buffer.from('1234567890123456')
    expect(hasLongDigitRunIn(bytes)).toBe(true)
    expect(hasLongDigitRunIn(bytes, 1)).toBe(false)
    expect(hasLongDigitRunIn(bytes, 0, 15)).toBe(false)
    expect(hasLongDigitRunIn(Buffer.from('x12345678901234567'), 1)).toBe(true)
  })

  it('is what parseExactJson is told: false means JSON.parse, which rounds such an integer', () => {
    const text = '{"n":9007199254740993}'
    expect(parseExactJson(text, hasLongDigitRunIn(Buffer.from(text)))).toEqual({
      value: { n: 9007199254740993n },
      hasBigInt: true,
    })
    expect(parseExactJson(text, false)).toEqual({ value: { n: 9007199254740992 }, hasBigInt: false })
  })
})

describe('parseJsonTree', () => {
  it('keeps every number as its text and objects as Maps in source order, __proto__ an ordinary key', () => {
    const tree = parseJsonTree(
      ' {"2":9007199254740993,"1":[1.0E-7,-0,1e2],"__proto__":{"x":null},"s":"\\u0000þ"} ',
    )
    expect(tree).toEqual(
      new Map<string, unknown>([
        ['2', new JsonNumberText('9007199254740993')],
        ['1', [new JsonNumberText('1.0E-7'), new JsonNumberText('-0'), new JsonNumberText('1e2')]],
        ['__proto__', new Map([['x', null]])],
        ['s', '\u0000þ'],
      ]),
    )
    expect([...(tree as Map<string, unknown>).keys()]).toEqual(['2', '1', '__proto__', 's'])
  })

  it('refuses a repeated name, and text JSON.parse refuses, with its position', () => {
    expect(() => parseJsonTree('{"a":1,"a":2}')).toThrow(new JsonSyntaxError('Repeated property name "a"', 7))
    expect(() => parseJsonTree('[1,]')).toThrow('Expected a JSON value, got "]" at position 3')
  })
})
