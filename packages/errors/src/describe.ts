/** Longest quoted text (a string value, an error message) in a description. */
const MAX_QUOTED = 40
const MAX_MESSAGE = 300

/**
 * A short description of a value for an error message, saying what came: its type or class and, for primitives, a
 * truncated value (`string "abc"`, `number 5`, `bigint 12n`, `null`, `an array`, `a Map`, `an object`; a `Date` with
 * its time, `Date 2026-01-01T00:00:00.000Z`). The one description of a value in every `@x/*` message. Bounded in
 * length and time whatever the value, and it never throws (a Proxy whose traps throw is `a value that cannot be
 * inspected`). Never use it for values that may be secrets.
 */
export function describeValue(value: unknown): string {
  try {
    switch (typeof value) {
      case 'undefined':
        return 'undefined'
      case 'string':
        return `string ${JSON.stringify(value.length > MAX_QUOTED ? `${value.slice(0, MAX_QUOTED)}…` : value)}`
      case 'number':
      case 'boolean':
        return `${typeof value} ${String(value)}`
      case 'bigint': {
        const digits = value.toString()
        return `bigint ${digits.length > MAX_QUOTED ? `${digits.slice(0, MAX_QUOTED)}…` : digits}n`
      }
      case 'symbol':
        return 'a symbol'
      case 'function':
        return 'a function'
      default: {
        if (value === null) return 'null'
        if (Array.isArray(value)) return 'an array'
        if (value instanceof Date) {
          return Number.isNaN(value.getTime()) ? 'an invalid Date' : `Date ${value.toISOString()}`
        }
        const name = (value as { constructor?: { name?: unknown } }).constructor?.name
        if (typeof name !== 'string' || name === '' || name === 'Object') return 'an object'
        return `${/^[AEIO]/.test(name) ? 'an' : 'a'} ${name}`
      }
    }
  } catch {
    return 'a value that cannot be inspected'
  }
}

/**
 * What kind of value came, without its content: for options that may hold a secret (a client secret, a token, a
 * password): `a string`, `an empty string`, `number 5`, `null`, `an object`. Bounded, never throws.
 */
export function describeKind(value: unknown): string {
  if (typeof value === 'string') return value === '' ? 'an empty string' : 'a string'
  return describeValue(value)
}

/**
 * The message of a thrown value, for quoting in another error's message: `error.message`, or `String(value)` for a
 * non-error, cut to 300 characters (299 rather than half a character); never throws. The thrown value itself
 * belongs in `cause`.
 */
export function messageOf(error: unknown): string {
  let text: string
  try {
    text = error instanceof Error ? error.message : String(error)
  } catch {
    text = 'an error that cannot be printed'
  }
  if (text.length <= MAX_MESSAGE) return text
  // Not between the two halves of a character outside the Basic Multilingual Plane: UTF-8 cannot write one half.
  const high = text.charCodeAt(MAX_MESSAGE - 1)
  return `${text.slice(0, high >= 0xd800 && high <= 0xdbff ? MAX_MESSAGE - 1 : MAX_MESSAGE)}…`
}
