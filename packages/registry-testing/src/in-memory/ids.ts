import { invalidConfigError } from '@x/errors'

/** The largest signed 64-bit integer, the range of Apicurio's ids (Java `long`). */
export const MAX_LONG = 2n ** 63n - 1n

/**
 * One of Apicurio's id sequences (globalIds, contentIds). Like a database sequence, a value once drawn is never
 * handed out again, even when the request that drew it fails afterwards.
 */
export class IdSequence {
  #next: bigint
  readonly #field: string

  constructor(field: string, first: bigint) {
    this.#field = field
    this.#next = first
  }

  /** Draws the next id. */
  draw(): bigint {
    if (this.#next > MAX_LONG)
      throw new RangeError(`The ${this.#field} sequence is exhausted (beyond 2^63 - 1).`)
    const id = this.#next
    this.#next += 1n
    return id
  }
}

/**
 * Reads a start option that sets the first id of a sequence: a positive safe integer or bigint up to 2^63 - 1.
 * Anything else is a `TypeError` with code `INVALID_CONFIG`.
 */
export function firstIdOption(option: string, value: number | bigint | undefined): bigint {
  if (value === undefined) return 1n
  if (typeof value === 'number' && !Number.isSafeInteger(value)) {
    throw invalidConfigError(`${option} must be a safe integer or a bigint, got ${String(value)}.`)
  }
  if (typeof value !== 'number' && typeof value !== 'bigint') {
    throw invalidConfigError(`${option} must be a number or a bigint, got ${typeof value}.`)
  }
  const id = BigInt(value)
  if (id < 1n || id > MAX_LONG)
    throw invalidConfigError(`${option} must be between 1 and 2^63 - 1, got ${id}.`)
  return id
}

/**
 * Parses a path id as Java's `Long.parseLong` does (optional sign, decimal digits, within 64 bits). Returns
 * `undefined` where Java would throw `NumberFormatException`.
 */
export function parseLong(text: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(text)) return undefined
  const value = BigInt(text)
  return value > MAX_LONG || value < -MAX_LONG - 1n ? undefined : value
}
