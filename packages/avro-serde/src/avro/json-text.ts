/**
 * JSON text as Avro's Java `JsonEncoder` writes it (through Jackson, compact), and the exact integer of a number's
 * text. Reading is `parseJsonTree` of `@x/registry-client/json` (the one exact-JSON parser, in its tree mode: every
 * number's text kept, so that a long beyond 2^53 is never rounded on the way in).
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

/**
 * The exact integer a JSON number's text denotes (`12`, `1.0`, `1e2`, `-25E-1`… → undefined for the last, which is not
 * an integer), computed on the decimal text, so never rounded.
 */
export function exactInteger(text: string): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)!
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
