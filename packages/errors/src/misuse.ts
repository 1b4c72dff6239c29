import type { MisuseErrorCode } from './codes.js'

/** A standard `TypeError` that also carries a stable `code`. */
export interface CodedTypeError extends TypeError {
  readonly code: MisuseErrorCode
}

/** A `TypeError` for data that does not match its schema, with every failing field path. */
export interface DataTypeError extends CodedTypeError {
  readonly code: 'INVALID_DATA'
  /** Every failing field path, e.g. `['user.age', 'tags[2]']`. */
  readonly paths: readonly string[]
}

/** A standard `RangeError` that also carries a stable `code`. */
export interface CodedRangeError extends RangeError {
  readonly code: 'ID_OUT_OF_RANGE'
}

function withCode<E extends Error>(error: E, code: MisuseErrorCode): E {
  Object.defineProperty(error, 'code', { value: code, enumerable: true })
  return error
}

/** A `TypeError` (code `INVALID_CONFIG`) for a misused option or argument; `cause` for what it was found with. */
export function invalidConfigError(message: string, cause?: unknown): CodedTypeError {
  return withCode(
    new TypeError(message, cause === undefined ? undefined : { cause }),
    'INVALID_CONFIG',
  ) as CodedTypeError
}

/** A `TypeError` (code `INVALID_DATA`) for a value that does not match its schema. */
export function invalidDataError(message: string, paths: readonly string[], cause?: unknown): DataTypeError {
  const error = withCode(new TypeError(message, cause === undefined ? undefined : { cause }), 'INVALID_DATA')
  Object.defineProperty(error, 'paths', { value: Object.freeze([...paths]), enumerable: true })
  return error as DataTypeError
}

/** A `RangeError` (code `ID_OUT_OF_RANGE`) for an identifier outside the range its format allows. */
export function idOutOfRangeError(message: string): CodedRangeError {
  return withCode(new RangeError(message), 'ID_OUT_OF_RANGE') as CodedRangeError
}
