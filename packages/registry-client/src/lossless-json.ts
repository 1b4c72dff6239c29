/**
 * A small JSON parser that keeps integers exact. Node 20's `JSON.parse` gives a reviver no source text, so an
 * identifier such as `9007199254740993` would arrive already rounded to a double. Here an integer literal (no
 * fraction, no exponent) beyond `Number.MAX_SAFE_INTEGER` becomes a `bigint`; every other number is a `number`.
 * Objects are created without a prototype, so a `__proto__` key is an ordinary key.
 */

/** A JSON value as this parser returns it. */
export type LosslessJson =
  | null
  | boolean
  | number
  | bigint
  | string
  | LosslessJson[]
  | { [key: string]: LosslessJson }

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON forbids raw control characters inside strings
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y
const WHITESPACE = /[ \t\n\r]*/y

class Parser {
  readonly #text: string
  #pos = 0
  #depth = 0

  constructor(text: string) {
    this.#text = text
  }

  parseDocument(): LosslessJson {
    const value = this.#value()
    this.#skipWhitespace()
    if (this.#pos !== this.#text.length) this.#fail('unexpected text after the JSON value')
    return value
  }

  #fail(what: string): never {
    throw new SyntaxError(`Invalid JSON at position ${this.#pos}: ${what}`)
  }

  #skipWhitespace(): void {
    WHITESPACE.lastIndex = this.#pos
    WHITESPACE.exec(this.#text)
    this.#pos = WHITESPACE.lastIndex
  }

  #value(): LosslessJson {
    this.#skipWhitespace()
    const char = this.#text[this.#pos]
    switch (char) {
      case '{':
        return this.#object()
      case '[':
        return this.#array()
      case '"':
        return this.#string()
      case 't':
        return this.#literal('true', true)
      case 'f':
        return this.#literal('false', false)
      case 'n':
        return this.#literal('null', null)
      default:
        if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return this.#number()
        return this.#fail(
          char === undefined ? 'unexpected end of input' : `unexpected character ${JSON.stringify(char)}`,
        )
    }
  }

  #literal<T extends LosslessJson>(word: string, value: T): T {
    if (!this.#text.startsWith(word, this.#pos)) this.#fail(`expected ${word}`)
    this.#pos += word.length
    return value
  }

  #number(): number | bigint {
    NUMBER.lastIndex = this.#pos
    const match = NUMBER.exec(this.#text)
    if (match === null) return this.#fail('malformed number')
    this.#pos = NUMBER.lastIndex
    const literal = match[0]
    if (match[1] === undefined && match[2] === undefined) {
      const asNumber = Number(literal)
      return Number.isSafeInteger(asNumber) ? asNumber : BigInt(literal)
    }
    return Number(literal)
  }

  #string(): string {
    STRING.lastIndex = this.#pos
    const match = STRING.exec(this.#text)
    if (match === null) return this.#fail('malformed string')
    this.#pos = STRING.lastIndex
    const literal = match[0]
    return literal.includes('\\') ? (JSON.parse(literal) as string) : literal.slice(1, -1)
  }

  #enter(): void {
    this.#depth += 1
    if (this.#depth > 512) this.#fail('nesting deeper than 512 levels')
    this.#pos += 1
  }

  #object(): { [key: string]: LosslessJson } {
    this.#enter()
    const out: { [key: string]: LosslessJson } = Object.create(null)
    this.#skipWhitespace()
    if (this.#text[this.#pos] === '}') {
      this.#pos += 1
      this.#depth -= 1
      return out
    }
    for (;;) {
      this.#skipWhitespace()
      if (this.#text[this.#pos] !== '"') this.#fail('expected a property name')
      const key = this.#string()
      this.#skipWhitespace()
      if (this.#text[this.#pos] !== ':') this.#fail('expected ":"')
      this.#pos += 1
      out[key] = this.#value()
      this.#skipWhitespace()
      const next = this.#text[this.#pos]
      this.#pos += 1
      if (next === '}') break
      if (next !== ',') this.#fail('expected "," or "}"')
    }
    this.#depth -= 1
    return out
  }

  #array(): LosslessJson[] {
    this.#enter()
    const out: LosslessJson[] = []
    this.#skipWhitespace()
    if (this.#text[this.#pos] === ']') {
      this.#pos += 1
      this.#depth -= 1
      return out
    }
    for (;;) {
      out.push(this.#value())
      this.#skipWhitespace()
      const next = this.#text[this.#pos]
      this.#pos += 1
      if (next === ']') break
      if (next !== ',') this.#fail('expected "," or "]"')
    }
    this.#depth -= 1
    return out
  }
}

/**
 * Parses JSON text, keeping integer literals beyond the safe range as `bigint`.
 *
 * @throws SyntaxError for text that is not JSON.
 */
export function parseLosslessJson(text: string): LosslessJson {
  return new Parser(text).parseDocument()
}

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: LosslessJson | undefined): value is { [key: string]: LosslessJson } {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
