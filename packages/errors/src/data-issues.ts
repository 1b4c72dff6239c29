import { describeValue } from './describe.js'
import { type DataTypeError, invalidDataError } from './misuse.js'

/**
 * How every format says what is wrong with a value: one path notation, one sentence per failure, one message.
 *
 * Paths: record fields and object properties are joined with dots (`user.address.city`), array items are `[2]`, map
 * keys and property names that are not identifiers are `["key"]` (JSON-quoted): `orders[0].lines["sku-1"].qty`.
 * The value itself is the empty path `''`. A failure reads `user.age: expected int, got string "x"`, with an optional
 * detail in parentheses (`(outside the 32-bit range)`, or the JSON Schema keyword that failed).
 */

/** One step of a path: a field or property name, an array index, or a map key (always quoted). */
export type PathSegment = string | number | { readonly key: string }

/** One failure: where, and the sentence that says what was expected instead of what came. */
export interface DataIssue {
  readonly path: string
  readonly message: string
}

/** Failures written into a message; `paths` always holds all of them. */
export const MAX_ISSUES_IN_MESSAGE = 10

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** `path` extended by the field or property `name`: `a.name`, or `a["not an identifier"]`. */
export function fieldPath(path: string, name: string): string {
  if (!IDENTIFIER.test(name)) return `${path}[${JSON.stringify(name)}]`
  return path === '' ? name : `${path}.${name}`
}

/** `path` extended by the array index `index`: `a[2]`. */
export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`
}

/** `path` extended by the map key `key`, always quoted: `a["key"]`. */
export function keyPath(path: string, key: string): string {
  return `${path}[${JSON.stringify(key)}]`
}

/** The text of a path given as its steps. */
export function formatPath(segments: readonly PathSegment[]): string {
  let out = ''
  for (const segment of segments) {
    if (typeof segment === 'number') out = indexPath(out, segment)
    else if (typeof segment === 'string') out = fieldPath(out, segment)
    else out = keyPath(out, segment.key)
  }
  return out
}

/**
 * One failure at `path`: `path: expected <expected>, got <the value described> (<detail>)`; the value itself is
 * named `(value)`.
 */
export function dataIssue(path: string, expected: string, value: unknown, detail?: string): DataIssue {
  const tail = detail === undefined || detail === '' ? '' : ` (${detail})`
  return {
    path,
    message: `${path === '' ? '(value)' : path}: expected ${expected}, got ${describeValue(value)}${tail}`,
  }
}

/** The first ten `items` joined with `separator`, and how many more there are: `a; b; and 3 more`. */
export function firstItems(items: readonly string[], separator: string): string {
  const shown = items.slice(0, MAX_ISSUES_IN_MESSAGE).join(separator)
  const more = items.length - MAX_ISSUES_IN_MESSAGE
  return more > 0 ? `${shown}${separator}and ${more} more` : shown
}

/**
 * The `TypeError` (code `INVALID_DATA`) for a value with these failures: `prefix: ` and the first ten sentences,
 * `paths` holding every failure's path.
 */
export function dataIssuesError(
  prefix: string,
  issues: readonly DataIssue[],
  cause?: unknown,
): DataTypeError {
  return invalidDataError(
    `${prefix}: ${firstItems(
      issues.map((issue) => issue.message),
      '; ',
    )}`,
    issues.map((issue) => issue.path),
    cause,
  )
}

/** A standard `RangeError` with code `INVALID_DATA`: a read value a `number` cannot hold exactly. */
export interface DataRangeError extends RangeError {
  readonly code: 'INVALID_DATA'
}

/**
 * The `RangeError` (code `INVALID_DATA`) of a 64-bit integer read in `'number'` mode that a `number` cannot hold
 * exactly: `what` names the value (`Avro long`), `option` the setting that chose the mode (`avro.longs`).
 */
export function unsafeIntegerError(what: string, value: bigint, option: string): DataRangeError {
  const error = new RangeError(
    `${what} ${value} is outside the safe integer range of a JavaScript number (${option} is 'number'); ` +
      `use longs: 'auto' or 'bigint' to read it exactly`,
  )
  Object.defineProperty(error, 'code', { value: 'INVALID_DATA', enumerable: true })
  return error as DataRangeError
}
