import { DeserializationError } from '@x/errors'
import type { AvscType, Tap } from './avsc-internals.js'

/**
 * Bounds for decoding untrusted data: a block count must fit the bytes left (every item takes at least its
 * minimum size), and items that take no bytes at all are capped per decoded value.
 */

/** Items that take no bytes on the wire (`null`, empty records) allowed per decoded datum. */
export const MAX_ZERO_BYTE_ITEMS = 1_000_000

/**
 * What is left of the budget of the datum being decoded. Decoding is synchronous and one datum at a time, so one
 * module-level counter, reset by the codec before each datum, is the whole bookkeeping: it holds no reference to the
 * input (a `WeakRef` per datum did: WeakRef targets stay alive until the current job ends, so a loop of synchronous
 * decodes kept every input buffer).
 */
let budgetLeft = MAX_ZERO_BYTE_ITEMS

/** Starts the budget of a new datum; the codec calls it before each decode. */
export function resetZeroByteBudget(): void {
  budgetLeft = MAX_ZERO_BYTE_ITEMS
}

function tooMany(count: number, what: string, left: number): DeserializationError {
  return new DeserializationError(
    `Avro data claims ${count} ${what} but only ${Math.max(left, 0)} byte${left === 1 ? '' : 's'} remain`,
  )
}

/** Refuses a block count that the remaining bytes cannot hold (`min` bytes per item at least). */
export function checkCount(tap: Tap, count: number, min: number, what: string): void {
  const left = tap.buf.length - tap.pos
  if (min > 0) {
    if (count * min > left) throw tooMany(count, what, left)
    return
  }
  // Items of no bytes: a budget per datum (see resetZeroByteBudget).
  budgetLeft -= count
  if (budgetLeft < 0 || !Number.isSafeInteger(count)) {
    throw new DeserializationError(
      `Avro data claims ${count} ${what} that take no bytes, beyond the limit of ${MAX_ZERO_BYTE_ITEMS} per datum`,
    )
  }
}

const minSizes = new WeakMap<AvscType, number>()

/**
 * The fewest bytes a value of `type` takes. A record met again while it is being measured (a recursive schema)
 * counts 0: an underestimate, which only loosens the bound.
 */
export function minEncodedSize(type: AvscType, visiting: Set<AvscType> = new Set()): number {
  const known = minSizes.get(type)
  if (known !== undefined) return known
  let size: number
  switch (type.typeName) {
    case 'null':
      size = 0
      break
    case 'float':
      size = 4
      break
    case 'double':
      size = 8
      break
    case 'fixed':
      size = type.size ?? 0
      break
    case 'record':
    case 'error': {
      if (visiting.has(type)) return 0
      visiting.add(type)
      size = 0
      for (const field of type.fields ?? []) size += minEncodedSize(field.type, visiting)
      visiting.delete(type)
      break
    }
    case 'union:wrapped':
    case 'union:unwrapped': {
      let min = Number.POSITIVE_INFINITY
      for (const branch of type.types ?? []) min = Math.min(min, minEncodedSize(branch, visiting))
      size = 1 + (Number.isFinite(min) ? min : 0)
      break
    }
    case 'boolean':
    case 'int':
    case 'long':
    case 'abstract:long':
    case 'enum':
    case 'string':
    case 'bytes':
    case 'array':
    case 'map':
      size = 1
      break
    default:
      size = type.underlyingType === undefined ? 0 : minEncodedSize(type.underlyingType, visiting)
  }
  minSizes.set(type, size)
  return size
}
