/**
 * JSON text ↔ JavaScript values without rounding 64-bit integers. Java writes a `long` as plain integer text; past
 * 2^53 `JSON.parse` would round it. Here an integer literal outside the safe range becomes a `bigint` (exact), and a
 * `bigint` is written as its exact digits. Everything else keeps `JSON.parse` / `JSON.stringify` semantics and speed:
 * the exact parser runs only when the text holds a run of at least 16 digits, the exact writer only when
 * `JSON.stringify` refused a `bigint`.
 */

/** How deep the exact parser nests arrays and objects before it refuses (JSON.parse itself does not overflow). */
export const MAX_NESTING = 1000

/** A JSON text that cannot be read: what was expected, what came, and where. */
export class JsonSyntaxError extends SyntaxError {
  override name = 'JsonSyntaxError'
  /** The offset in the text (in UTF-16 code units) where reading stopped. */
  readonly position: number

  constructor(message: string, position: number) {
    super(`${message} at position ${position}`)
    this.position = position
  }
}

/**
 * Parses JSON text; integers outside ±(2^53 − 1) become `bigint`s. Text `JSON.parse` refuses is refused here too
 * (with its message, or a `JsonSyntaxError` from the exact parser); `hasBigInt` tells whether any `bigint` came out.
 */
export function parseExact(text: string): { value: unknown; hasBigInt: boolean } {
  if (!hasLongDigitRun(text)) return { value: JSON.parse(text), hasBigInt: false }
  const parser = new ExactParser(text)
  const value = parser.document()
  return { value, hasBigInt: parser.bigints > 0 }
}

/**
 * Whether the text holds a run of 16 or more ASCII digits (only such a run can be an integer beyond 2^53; `JSON.parse`
 * is exact for everything else). Such a run covers one of the positions 15, 31, 47, …, so only those are looked at,
 * and the run around a digit found there is measured: about eight times faster than `/[0-9]{16}/` on typical
 * messages, which matters on every decode.
 */
export function hasLongDigitRun(text: string): boolean {
  const length = text.length
  for (let i = 15; i < length; i += 16) {
    if (!isDigit(text.charCodeAt(i))) continue
    let start = i
    while (start > 0 && isDigit(text.charCodeAt(start - 1))) start--
    let end = i
    while (end + 1 < length && isDigit(text.charCodeAt(end + 1))) end++
    if (end - start + 1 >= 16) return true
    i = end
  }
  return false
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57
}

/** A marker no JSON producer writes: NUL, a per-process random tag, then the digits. */
const MARKER = `\u0000bigint-${Math.random().toString(36).slice(2)}:`
const MARKED = new RegExp(`"\\\\u0000bigint-${MARKER.slice(8, -1)}:(-?[0-9]+)"`, 'g')

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? MARKER + value.toString() : value
}

/**
 * `JSON.stringify(value)`, but a `bigint` anywhere is written as its exact integer digits (JSON.stringify refuses
 * bigints). Returns `undefined` where `JSON.stringify` does (a bare `undefined`, a function, a symbol).
 */
export function stringifyExact(value: unknown): string | undefined {
  try {
    return JSON.stringify(value)
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error
  }
  return JSON.stringify(value, bigintReplacer)?.replace(MARKED, '$1')
}

/** True for a value that holds a `bigint` anywhere (own enumerable properties, arrays), cycles ignored. */
export function containsBigInt(value: unknown, seen: Set<object> = new Set()): boolean {
  if (typeof value === 'bigint') return true
  if (typeof value !== 'object' || value === null || seen.has(value)) return false
  seen.add(value)
  if (Array.isArray(value)) return value.some((item) => containsBigInt(item, seen))
  for (const key of Object.keys(value))
    if (containsBigInt((value as Record<string, unknown>)[key], seen)) return true
  return false
}

/**
 * A copy of `value` with every `bigint` as the nearest `number` (for a JSON Schema validator, which knows only
 * numbers; `type: integer`, `minimum` and the like then see the value's magnitude). Objects and arrays are copied
 * only along the paths that hold a bigint.
 */
export function bigintsAsNumbers(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value)
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item = bigintsAsNumbers(value[i])
      if (item !== value[i]) {
        copy ??= value.slice()
        copy[i] = item
      }
    }
    return copy ?? value
  }
  let copy: Record<string, unknown> | undefined
  const record = value as Record<string, unknown>
  for (const key of Object.keys(record)) {
    const item = bigintsAsNumbers(record[key])
    if (item !== record[key]) {
      copy ??= Object.assign(Object.create(Object.getPrototypeOf(record)), record)
      Object.defineProperty(copy, key, { value: item, enumerable: true, writable: true, configurable: true })
    }
  }
  return copy ?? value
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** A recursive-descent JSON parser with JSON.parse's grammar, exact integers, and a nesting bound. */
class ExactParser {
  readonly #text: string
  #pos = 0
  #depth = 0
  bigints = 0

  constructor(text: string) {
    this.#text = text
  }

  document(): unknown {
    this.#space()
    const value = this.#value()
    this.#space()
    if (this.#pos < this.#text.length) throw this.#unexpected('the end of the JSON text')
    return value
  }

  #space(): void {
    const text = this.#text
    let pos = this.#pos
    for (;;) {
      const c = text.charCodeAt(pos)
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++
      else break
    }
    this.#pos = pos
  }

  #unexpected(expected: string): JsonSyntaxError {
    const at = this.#pos
    const found =
      at >= this.#text.length ? 'the end of the text' : JSON.stringify(this.#text.slice(at, at + 12))
    return new JsonSyntaxError(`Expected ${expected}, got ${found}`, at)
  }

  #value(): unknown {
    const c = this.#text[this.#pos]
    switch (c) {
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
        if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.#number()
        throw this.#unexpected('a JSON value')
    }
  }

  #literal(word: string, value: unknown): unknown {
    if (!this.#text.startsWith(word, this.#pos)) throw this.#unexpected(`'${word}'`)
    this.#pos += word.length
    return value
  }

  #enter(): void {
    if (++this.#depth > MAX_NESTING) {
      throw new JsonSyntaxError(`JSON nested deeper than ${MAX_NESTING} arrays and objects`, this.#pos)
    }
  }

  #object(): Record<string, unknown> {
    this.#enter()
    this.#pos++
    const out: Record<string, unknown> = {}
    this.#space()
    if (this.#text[this.#pos] === '}') {
      this.#pos++
      this.#depth--
      return out
    }
    for (;;) {
      if (this.#text[this.#pos] !== '"') throw this.#unexpected('a property name in double quotes')
      const key = this.#string()
      this.#space()
      if (this.#text[this.#pos] !== ':') throw this.#unexpected("':'")
      this.#pos++
      this.#space()
      const value = this.#value()
      // As JSON.parse does: an own data property even for `__proto__`, the last duplicate wins.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
      this.#space()
      const c = this.#text[this.#pos]
      if (c === ',') {
        this.#pos++
        this.#space()
        continue
      }
      if (c === '}') {
        this.#pos++
        this.#depth--
        return out
      }
      throw this.#unexpected("',' or '}'")
    }
  }

  #array(): unknown[] {
    this.#enter()
    this.#pos++
    const out: unknown[] = []
    this.#space()
    if (this.#text[this.#pos] === ']') {
      this.#pos++
      this.#depth--
      return out
    }
    for (;;) {
      out.push(this.#value())
      this.#space()
      const c = this.#text[this.#pos]
      if (c === ',') {
        this.#pos++
        this.#space()
        continue
      }
      if (c === ']') {
        this.#pos++
        this.#depth--
        return out
      }
      throw this.#unexpected("',' or ']'")
    }
  }

  #string(): string {
    const text = this.#text
    const start = this.#pos
    let end = start + 1
    // Find the closing quote (skipping escapes); JSON.parse then reads the literal exactly as JSON defines it.
    for (;;) {
      const c = text.charCodeAt(end)
      if (Number.isNaN(c)) {
        this.#pos = end
        throw this.#unexpected("the end of the string (a closing '\"')")
      }
      if (c === 0x22) break
      if (c === 0x5c) end++
      end++
    }
    this.#pos = end + 1
    try {
      return JSON.parse(text.slice(start, end + 1)) as string
    } catch (error) {
      throw new JsonSyntaxError(`Invalid string literal (${(error as Error).message})`, start)
    }
  }

  #number(): number | bigint {
    const text = this.#text
    const start = this.#pos
    let pos = start
    if (text[pos] === '-') pos++
    if (text[pos] === '0') pos++
    else if (text[pos] !== undefined && text[pos]! >= '1' && text[pos]! <= '9') {
      while (text[pos] !== undefined && text[pos]! >= '0' && text[pos]! <= '9') pos++
    } else {
      this.#pos = pos
      throw this.#unexpected('a digit')
    }
    let integer = true
    if (text[pos] === '.') {
      integer = false
      pos++
      const digits = pos
      while (text[pos] !== undefined && text[pos]! >= '0' && text[pos]! <= '9') pos++
      if (pos === digits) {
        this.#pos = pos
        throw this.#unexpected('a digit after the decimal point')
      }
    }
    if (text[pos] === 'e' || text[pos] === 'E') {
      integer = false
      pos++
      if (text[pos] === '+' || text[pos] === '-') pos++
      const digits = pos
      while (text[pos] !== undefined && text[pos]! >= '0' && text[pos]! <= '9') pos++
      if (pos === digits) {
        this.#pos = pos
        throw this.#unexpected('a digit in the exponent')
      }
    }
    this.#pos = pos
    const literal = text.slice(start, pos)
    // Integer literals only: a fraction or an exponent keeps JSON's double semantics (as JSON.parse gives).
    if (integer && literal.length > 15) {
      const exact = BigInt(literal)
      if (exact > MAX_SAFE || exact < -MAX_SAFE) {
        this.bigints++
        return exact
      }
    }
    return Number(literal)
  }
}
