/**
 * JSON text as Avro's Java `JsonEncoder` writes it (through Jackson, compact) and a JSON parser that keeps every
 * number's text, so that a long beyond 2^53 is never rounded on the way in.
 */

const HEX = '0123456789ABCDEF'

/** Jackson's short escapes; every other code unit below 0x20 is written `\u00XX` (upper-case hex). */
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  8: '\\b',
  9: '\\t',
  10: '\\n',
  12: '\\f',
  13: '\\r',
  34: '\\"',
  92: '\\\\',
}

// Characters that need escaping: controls, the quote and the backslash. Everything else (0x7F, non-ASCII) is raw.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are exactly what is matched
const NEEDS_ESCAPE = /[\u0000-\u001f"\\]/

/** `s` as a JSON string literal, escaped as Jackson escapes it (`\u001F`, not JSON.stringify's `\u001f`). */
export function jsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`
  let out = '"'
  let from = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue
    out += s.slice(from, i)
    out += SHORT_ESCAPES[c] ?? `\\u00${HEX[c >> 4]}${HEX[c & 15]}`
    from = i + 1
  }
  return `${out + s.slice(from)}"`
}

/**
 * The decimal digits and exponent of the shortest decimal that reads back as `x` (a finite, non-zero double), as
 * Java 19+ `Double.toString` chooses it: shortest, but two digits rather than one when a two-digit decimal is
 * closer (Java writes `Double.MIN_VALUE` as `4.9E-324` where JavaScript writes `5e-324`).
 */
function shortestDigits(x: number): { digits: string; exp: number } {
  const fits = (candidate: number): boolean => candidate === x
  let text = ''
  for (let precision = 1; precision <= 17; precision++) {
    text = x.toExponential(precision - 1)
    if (fits(Number(text))) break
  }
  let [mantissa, exponent] = text.split('e') as [string, string]
  if (mantissa.replace(/[-.]/g, '').length === 1) {
    // One digit found: a two-digit decimal that also reads back is at least as close, and Java prefers it.
    const two = x.toExponential(1)
    if (fits(Number(two))) [mantissa, exponent] = two.split('e') as [string, string]
  }
  let digits = mantissa.replace(/[-.]/g, '')
  digits = digits.length > 1 ? digits.replace(/0+$/, '') || '0' : digits
  return { digits, exp: Number(exponent) }
}

/** Java's layout of a decimal: plain between 10^-3 and 10^7, else `d.dddE±n`; always a digit after the point. */
function javaLayout(negative: boolean, digits: string, exp: number): string {
  const sign = negative ? '-' : ''
  if (exp >= -3 && exp < 7) {
    if (exp >= 0) {
      const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0')
      const fraction = digits.slice(exp + 1) || '0'
      return `${sign}${whole}.${fraction}`
    }
    return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`
  }
  return `${sign}${digits[0]}.${digits.slice(1) || '0'}E${exp}`
}

function nonFinite(x: number): string | undefined {
  // Jackson quotes the non-numbers (QUOTE_NON_NUMERIC_NUMBERS, on by default).
  if (Number.isNaN(x)) return '"NaN"'
  if (x === Number.POSITIVE_INFINITY) return '"Infinity"'
  if (x === Number.NEGATIVE_INFINITY) return '"-Infinity"'
  return undefined
}

/** A double as Java's `Double.toString` (JDK 19+) writes it: `1.0`, `-0.125`, `1.0E7`, `4.9E-324`, `"NaN"`. */
export function javaDouble(x: number): string {
  const special = nonFinite(x)
  if (special !== undefined) return special
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0'
  const { digits, exp } = shortestDigits(Math.abs(x))
  return javaLayout(x < 0, digits, exp)
}

/** A JSON number, kept as its text (`"9007199254740993"`, `"-1.5e3"`), so that the schema decides how to read it. */
export class JsonNumber {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }

  /**
   * The exact integer the text denotes (`12`, `1.0`, `1e2`, `-25E-1`… → undefined for the last, which is not an
   * integer), computed on the decimal text, so never rounded.
   */
  exactInteger(): bigint | undefined {
    const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(this.text)!
    const [, sign, whole, fraction = '', exponentText = '0'] = match
    let digits = whole! + fraction
    let exponent = Number(exponentText) - fraction.length
    // Trailing zeros cancel a negative exponent; a huge exponent (beyond any long) is refused by the caller's range.
    while (exponent < 0 && digits.length > 1 && digits.endsWith('0')) {
      digits = digits.slice(0, -1)
      exponent++
    }
    if (exponent < 0 && /[1-9]/.test(digits)) return undefined
    if (exponent < 0) return 0n
    if (exponent > 40) return /[1-9]/.test(digits) ? 10n ** 40n * (sign ? -1n : 1n) : 0n
    const magnitude = BigInt(digits) * 10n ** BigInt(exponent)
    return sign ? -magnitude : magnitude
  }
}

/** A parsed JSON value: objects as `Map`s (key order kept, `__proto__` an ordinary key), numbers as their text. */
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | Map<string, JsonValue>

/** Thrown for text that is not JSON; `offset` is where in the text the parser stopped. */
export class JsonSyntaxError extends Error {
  readonly offset: number
  constructor(message: string, offset: number) {
    super(`${message} at character ${offset}`)
    this.name = 'JsonSyntaxError'
    this.offset = offset
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const WHITESPACE = /[ \t\n\r]*/y

const UNESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
}

/** Nesting beyond this is refused (a hostile payload must not exhaust the stack). */
export const MAX_JSON_DEPTH = 1000

/** Parses one JSON text (RFC 8259, whitespace around it allowed), keeping numbers as text. */
export function parseJson(text: string): JsonValue {
  let pos = 0
  const skip = (): void => {
    WHITESPACE.lastIndex = pos
    WHITESPACE.test(text)
    pos = WHITESPACE.lastIndex
  }
  const fail = (what: string): never => {
    const found = pos < text.length ? `'${text[pos]}'` : 'the end of the text'
    throw new JsonSyntaxError(`expected ${what}, found ${found}`, pos)
  }
  const literal = (word: string, value: JsonValue): JsonValue => {
    if (text.startsWith(word, pos)) {
      pos += word.length
      return value
    }
    return fail('a JSON value')
  }
  const string = (): string => {
    pos++ // the opening quote
    let out = ''
    let from = pos
    for (;;) {
      if (pos >= text.length) fail('the end of a string')
      const c = text.charCodeAt(pos)
      if (c === 0x22) break
      if (c < 0x20) fail('an escaped control character')
      if (c !== 0x5c) {
        pos++
        continue
      }
      out += text.slice(from, pos)
      const escaped = text[pos + 1]
      if (escaped === 'u') {
        const hex = text.slice(pos + 2, pos + 6)
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          pos += 2
          fail('four hex digits')
        }
        out += String.fromCharCode(Number.parseInt(hex, 16))
        pos += 6
      } else if (escaped !== undefined && UNESCAPES[escaped] !== undefined) {
        out += UNESCAPES[escaped]
        pos += 2
      } else {
        pos++
        fail('an escape (\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)')
      }
      from = pos
    }
    out += text.slice(from, pos)
    pos++ // the closing quote
    return out
  }
  const value = (depth: number): JsonValue => {
    if (depth > MAX_JSON_DEPTH) throw new JsonSyntaxError(`nesting deeper than ${MAX_JSON_DEPTH}`, pos)
    skip()
    const c = text[pos]
    let result: JsonValue
    if (c === '{') {
      pos++
      const map = new Map<string, JsonValue>()
      skip()
      if (text[pos] === '}') pos++
      else {
        for (;;) {
          skip()
          if (text[pos] !== '"') fail('a field name')
          const key = string()
          if (map.has(key)) throw new JsonSyntaxError(`duplicate field name ${jsonString(key)}`, pos)
          skip()
          if (text[pos] !== ':') fail("':'")
          pos++
          map.set(key, value(depth + 1))
          skip()
          if (text[pos] === ',') pos++
          else if (text[pos] === '}') {
            pos++
            break
          } else fail("',' or '}'")
        }
      }
      result = map
    } else if (c === '[') {
      pos++
      const items: JsonValue[] = []
      skip()
      if (text[pos] === ']') pos++
      else {
        for (;;) {
          items.push(value(depth + 1))
          skip()
          if (text[pos] === ',') pos++
          else if (text[pos] === ']') {
            pos++
            break
          } else fail("',' or ']'")
        }
      }
      result = items
    } else if (c === '"') {
      result = string()
    } else if (c === 't') {
      result = literal('true', true)
    } else if (c === 'f') {
      result = literal('false', false)
    } else if (c === 'n') {
      result = literal('null', null)
    } else {
      NUMBER.lastIndex = pos
      const match = NUMBER.exec(text)
      if (match === null) return fail('a JSON value')
      pos += match[0].length
      result = new JsonNumber(match[0])
    }
    return result
  }
  const result = value(0)
  skip()
  if (pos !== text.length) fail('the end of the text')
  return result
}
