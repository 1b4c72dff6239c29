import { describeValue, idOutOfRangeError, invalidConfigError, invalidDataError } from '@x/errors'
import { truncate } from './describe.js'

/**
 * A registry identifier (`globalId` or `contentId`): a `number` while it is a safe integer, a `bigint` beyond.
 * The registry's ids are Java `long`s, so every value in the signed 64-bit range is possible.
 */
export type SchemaId = number | bigint

/** Which identifier of a registered schema version is meant (defined in `@x/errors`, shared by every package). */
import type { IdType } from '@x/errors'

export type { IdType }

/** Smallest signed 64-bit value, -2^63: the smallest id (a Java `long`) and the bound of every 64-bit check. */
export const INT64_MIN = -(2n ** 63n)
/** Largest signed 64-bit value, 2^63 - 1. */
export const INT64_MAX = 2n ** 63n - 1n

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
const MIN_SAFE = -MAX_SAFE
const DECIMAL = /^-?[0-9]+$/

/** The two identifier types, `globalId` and `contentId`. */
export const ID_TYPES: readonly IdType[] = Object.freeze(['globalId', 'contentId'])

/** True for `'globalId'` and `'contentId'`: the one id-type check every package uses. */
export function isIdType(value: unknown): value is IdType {
  return value === 'globalId' || value === 'contentId'
}

/** @internal True when the id can be written to an 8-byte signed header. */
export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX
}

/** @internal A bigint known to be in range as a `SchemaId`: a number while safe. */
export function narrowId(value: bigint): SchemaId {
  return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value
}

function outOfInt64(field: string, shown: string): RangeError {
  return idOutOfRangeError(
    `${field} ${truncate(shown)} is outside the signed 64-bit range (${INT64_MIN}..${INT64_MAX})`,
  )
}

/**
 * Reads an identifier from decimal text (a registry response header, a JSON number's source text, a header value
 * that arrived as a string) without ever passing through a rounded double.
 *
 * Accepts ASCII digits with an optional leading `-` and nothing else (no `+`, spaces, exponent or fraction).
 *
 * @param text - The digits, e.g. `'42'` or `'9223372036854775807'`.
 * @param field - The name of the identifier, used in messages, e.g. `'globalId'`.
 * @returns A `number` while the value is a safe integer, a `bigint` beyond.
 * @throws `RangeError` (code `ID_OUT_OF_RANGE`, message naming `field`) for a value outside signed 64-bit.
 * @throws `TypeError` (code `INVALID_DATA`, `paths: [field]`) for text that is not a decimal integer.
 * @example
 * ```ts
 * parseIdText('42', 'globalId')                  // 42
 * parseIdText('9007199254740993', 'globalId')    // 9007199254740993n
 * ```
 */
export function parseIdText(text: string, field: string): SchemaId {
  if (typeof text !== 'string' || !DECIMAL.test(text)) {
    throw invalidDataError(`${field} must be a decimal integer, got ${describeValue(text)}`, [field])
  }
  // Up to 15 digits every value is a safe integer, so Number() is exact.
  if (text.length <= 15) return Number(text)
  const value = BigInt(text)
  if (!isInt64(value)) throw outOfInt64(field, text)
  return narrowId(value)
}

/**
 * Normalises an identifier from any of the shapes it arrives in to a {@link SchemaId}: a `number` while safe, a
 * `bigint` beyond, checked against the signed 64-bit range of the registry's ids.
 *
 * A `number` must be a safe integer: a larger double may already have been rounded, so it is refused rather than
 * trusted (pass a `bigint` or the decimal text instead). A string is read with {@link parseIdText}.
 *
 * @param value - The identifier as a `bigint`, a `number` or decimal text.
 * @param field - The name of the identifier, used in messages, e.g. `'globalId'` or `'contentId'`.
 * @throws `RangeError` (code `ID_OUT_OF_RANGE`, message naming `field`) for a value outside signed 64-bit, or a
 *   number that is not a safe integer.
 * @throws `TypeError` (code `INVALID_DATA`) for text that is not a decimal integer, `TypeError` (code
 *   `INVALID_CONFIG`) for a value of another type.
 * @example
 * ```ts
 * toSchemaId(7n, 'contentId')                    // 7
 * toSchemaId(2n ** 60n, 'globalId')              // 1152921504606846976n
 * toSchemaId(2n ** 63n, 'globalId')              // RangeError: globalId 9223372036854775808 is outside …
 * ```
 */
export function toSchemaId(value: bigint | number | string, field: string): SchemaId {
  switch (typeof value) {
    case 'number':
      if (Number.isSafeInteger(value)) return value
      if (Number.isInteger(value) && (value >= 2 ** 63 || value < -(2 ** 63)))
        throw outOfInt64(field, String(value))
      throw idOutOfRangeError(
        `${field} must be a safe integer when given as a number (a larger double may have been rounded; pass a bigint or the decimal text), got ${String(value)}`,
      )
    case 'bigint':
      if (!isInt64(value)) throw outOfInt64(field, value.toString())
      return narrowId(value)
    case 'string':
      return parseIdText(value, field)
    default:
      throw invalidConfigError(
        `${field} must be a number, bigint or decimal string, got ${describeValue(value)}`,
      )
  }
}
