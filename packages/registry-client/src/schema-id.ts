import { idOutOfRangeError, invalidConfigError } from '@x/errors'

/**
 * A registry identifier: a `number` while it is a safe integer, a `bigint` beyond. Kept local until
 * `@x/wire-format` exports the same type.
 */
export type SchemaId = number | bigint

/** Which registry identifier a value is. */
export type IdType = 'globalId' | 'contentId'

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n

/** The identifier as a `number` when it is a safe integer, else as a `bigint` (never a rounded double). */
function normalize(value: bigint): SchemaId {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value
}

function checkRange(value: bigint, field: string, shown: string): SchemaId {
  if (value < INT64_MIN || value > INT64_MAX) {
    throw idOutOfRangeError(
      `${field} ${shown} is outside the signed 64-bit range (${INT64_MIN} to ${INT64_MAX})`,
    )
  }
  return normalize(value)
}

/**
 * Validates an identifier handed in by a caller: an integer `number` (a safe one: an unsafe `number` may already
 * have been rounded) or a `bigint`, within signed 64-bit. Returns it normalized (`number` while safe).
 *
 * @throws TypeError (code `INVALID_CONFIG`) for anything but an integer; RangeError (code `ID_OUT_OF_RANGE`)
 *   outside signed 64-bit or for an unsafe `number`.
 */
export function toSchemaId(value: unknown, field: IdType): SchemaId {
  if (typeof value === 'bigint') return checkRange(value, field, value.toString())
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) {
      throw invalidConfigError(`${field} must be an integer (a number or a bigint), got ${String(value)}`)
    }
    if (!Number.isSafeInteger(value)) {
      throw idOutOfRangeError(
        `${field} ${String(value)} is not a safe integer and may have been rounded: pass it as a bigint`,
      )
    }
    return value
  }
  const shown = typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value
  throw invalidConfigError(`${field} must be an integer (a number or a bigint), got ${shown}`)
}

/**
 * Parses an identifier from the registry's text (a JSON number literal or a response header) without passing it
 * through a double. Returns `undefined` for text that is not an optionally signed run of decimal digits.
 *
 * @throws RangeError (code `ID_OUT_OF_RANGE`) naming `field` when the integer is outside signed 64-bit.
 */
export function parseIdText(text: string, field: IdType): SchemaId | undefined {
  const trimmed = text.trim()
  if (!/^-?\d+$/.test(trimmed)) return undefined
  const shown = trimmed.length > 40 ? `${trimmed.slice(0, 40)}…` : trimmed
  return checkRange(BigInt(trimmed), field, shown)
}

/** A cache key for an identifier: the same for `5` and `5n`. */
export function idKey(id: SchemaId): string {
  return typeof id === 'bigint' ? id.toString() : String(id)
}
