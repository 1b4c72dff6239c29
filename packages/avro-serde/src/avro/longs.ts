import { DeserializationError, unsafeIntegerError } from '@x/errors'
import { INT64_MAX, INT64_MIN } from '@x/wire-format'
import { AbstractLongType, type AvscType, inherit, type Tap } from './avsc-internals.js'
import type { LongMode } from './options.js'

/**
 * Avro `long` without rounding. avsc's own long type refuses everything beyond ±(2^53 − 2) and its varint writer
 * corrupts negative numbers below −2^52 (the zigzag value is computed in floating point); these readers and writers
 * are exact over the whole signed 64-bit range, and fast for the common small values.
 */

const MAX_SAFE_BIG = BigInt(Number.MAX_SAFE_INTEGER)
const MIN_SAFE_BIG = -MAX_SAFE_BIG
/** Below this magnitude avsc's `Tap#writeLong` is exact (its zigzag value stays below 2^53). */
const EXACT_WRITE = 2 ** 52
const EXACT_WRITE_BIG = 2n ** 52n

export { INT64_MAX, INT64_MIN }

/**
 * Reads a zigzag varint whose zigzag value is below 2^53 (every long of magnitude below 2^52, and most up to
 * 2^53). Returns NaN, without moving the tap, when the value needs the exact `bigint` path.
 */
function readSmall(tap: Tap): number {
  const buf = tap.buf
  let pos = tap.pos
  let b = buf[pos++]!
  let n = b & 0x7f
  let shift = 7
  while (b & 0x80 && shift < 28) {
    b = buf[pos++]!
    n |= (b & 0x7f) << shift
    shift += 7
  }
  if (!(b & 0x80)) {
    tap.pos = pos
    return (n >>> 1) ^ -(n & 1)
  }
  // Beyond 28 bits: floating point, exact while the sum stays below 2^53 (every partial sum is smaller).
  let f = n
  let scale = 268435456
  let count = 4
  do {
    b = buf[pos++]!
    f += (b & 0x7f) * scale
    scale *= 128
    count++
  } while (b & 0x80 && count < 8)
  if (b & 0x80 || f > Number.MAX_SAFE_INTEGER) return Number.NaN
  tap.pos = pos
  return f % 2 === 1 ? -(f + 1) / 2 : f / 2
}

/**
 * Reads any zigzag varint of up to 10 bytes exactly. The first 4 bytes (28 bits) and the rest (at most 42 bits)
 * are gathered as numbers, both exact in a double, and joined into one `bigint` at the end.
 */
function readExact(tap: Tap): bigint {
  const buf = tap.buf
  let pos = tap.pos
  let b = buf[pos++]!
  let lo = b & 0x7f
  let shift = 7
  while (b & 0x80 && shift < 28) {
    b = buf[pos++]!
    lo |= (b & 0x7f) << shift
    shift += 7
  }
  let hi = 0
  if (b & 0x80) {
    let scale = 1
    let count = 4
    do {
      b = buf[pos++]!
      hi += (b & 0x7f) * scale
      scale *= 128
      count++
    } while (b & 0x80 && count < 10)
    if (b & 0x80) throw new DeserializationError('Invalid Avro long: a varint longer than 10 bytes')
  }
  tap.pos = pos
  const z = BigInt.asUintN(64, (BigInt(hi) << 28n) | BigInt(lo))
  return (z >> 1n) ^ -(z & 1n)
}

/**
 * Reads a long as a `number` while it is a safe integer, as a `bigint` beyond. The hot path of every long field,
 * so the common cases are written out here rather than shared with `readSmall`.
 */
export function readLongAuto(tap: Tap): number | bigint {
  const buf = tap.buf
  let pos = tap.pos
  let b = buf[pos++]!
  if (b < 0x80) {
    tap.pos = pos
    return (b >>> 1) ^ -(b & 1)
  }
  let n = b & 0x7f
  let shift = 7
  do {
    b = buf[pos++]!
    n |= (b & 0x7f) << shift
    shift += 7
  } while (b & 0x80 && shift < 28)
  if (!(b & 0x80)) {
    tap.pos = pos
    return (n >>> 1) ^ -(n & 1)
  }
  let f = n
  let scale = 268435456
  let count = 4
  do {
    b = buf[pos++]!
    f += (b & 0x7f) * scale
    scale *= 128
    count++
  } while (b & 0x80 && count < 8)
  if (!(b & 0x80) && f <= Number.MAX_SAFE_INTEGER) {
    tap.pos = pos
    return f % 2 === 1 ? -(f + 1) / 2 : f / 2
  }
  const v = readExact(tap)
  return v >= MIN_SAFE_BIG && v <= MAX_SAFE_BIG ? Number(v) : v
}

/** Reads a long as a `bigint`. */
export function readLongBigint(tap: Tap): bigint {
  const n = readSmall(tap)
  return Number.isNaN(n) ? readExact(tap) : BigInt(n)
}

/** Reads a long as a `number`; a value outside the safe integer range throws a `RangeError` (code INVALID_DATA). */
export function readLongNumber(tap: Tap): number {
  const n = readSmall(tap)
  if (!Number.isNaN(n)) return n
  const v = readExact(tap)
  if (v >= MIN_SAFE_BIG && v <= MAX_SAFE_BIG) return Number(v)
  throw unsafeLongError(v)
}

/** The `RangeError` of `longs: 'number'` for a long that a `number` cannot hold exactly. */
export function unsafeLongError(value: bigint): RangeError {
  return unsafeIntegerError('Avro long', value, 'avro.longs')
}

/** True for an error thrown by `readLongNumber`. */
export function isUnsafeLongError(error: unknown): error is RangeError {
  return error instanceof RangeError && (error as { code?: unknown }).code === 'INVALID_DATA'
}

/**
 * Writes a long already known to be valid (`isLongValue`). Values of magnitude below 2^52 go through avsc's fast
 * writer; larger ones are written exactly with `bigint` arithmetic.
 */
export function writeLong(tap: Tap, value: number | bigint): void {
  if (typeof value === 'number') {
    if (value > -EXACT_WRITE && value < EXACT_WRITE) tap.writeLong(value)
    else writeExact(tap, BigInt(value))
  } else if (value > -EXACT_WRITE_BIG && value < EXACT_WRITE_BIG) {
    tap.writeLong(Number(value))
  } else {
    writeExact(tap, value)
  }
}

/**
 * Writes any signed 64-bit `value` exactly: the zigzag value is split once into two 32-bit halves, and the varint
 * is emitted from them with number arithmetic.
 */
function writeExact(tap: Tap, value: bigint): void {
  const z = BigInt.asUintN(64, (value << 1n) ^ (value >> 63n))
  let lo = Number(BigInt.asUintN(32, z))
  let hi = Number(z >> 32n)
  const buf = tap.buf
  let pos = tap.pos
  while (hi !== 0 || lo > 0x7f) {
    buf[pos++] = (lo & 0x7f) | 0x80
    lo = ((lo >>> 7) | ((hi & 0x7f) << 25)) >>> 0
    hi >>>= 7
  }
  buf[pos++] = lo
  tap.pos = pos
}

/** True for a value the long writer takes: a safe integer `number` or a `bigint` within the signed 64-bit range. */
export function isLongValue(value: unknown): value is number | bigint {
  if (typeof value === 'number') return Number.isSafeInteger(value)
  return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX
}

/** Why `value` is not a long, in words, or undefined when it is one. */
export function longProblem(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return undefined
    if (Number.isInteger(value)) {
      return 'an unsafe integer number, which may already have been rounded: pass a bigint'
    }
    return 'not an integer'
  }
  if (typeof value === 'bigint') {
    return value >= INT64_MIN && value <= INT64_MAX ? undefined : 'outside the signed 64-bit range'
  }
  return 'not a number or bigint'
}

/** A value of the long writer's error path (avsc's contract: throw on a value that does not match). */
function invalidLong(value: unknown): Error {
  return new TypeError(`invalid long: ${typeof value}`)
}

function toMode(mode: LongMode, value: unknown): number | bigint {
  if (!isLongValue(value)) throw invalidLong(value)
  if (mode === 'bigint') return BigInt(value)
  if (typeof value === 'number') return value
  if (value >= MIN_SAFE_BIG && value <= MAX_SAFE_BIG) return Number(value)
  if (mode === 'number') throw unsafeLongError(value)
  return value
}

const READERS: Record<LongMode, (tap: Tap) => number | bigint> = {
  auto: readLongAuto,
  number: readLongNumber,
  bigint: readLongBigint,
}

interface ModeLong {
  _mode: LongMode
  _read: (tap: Tap) => number | bigint
}

/** The `long` type of one mode: an avsc "abstract long" with exact readers and writers. */
function ModeLongType(this: ModeLong, mode: LongMode): void {
  AbstractLongType.call(this, true)
  this._mode = mode
  this._read = READERS[mode]
  Object.freeze(this)
}

inherit(ModeLongType, AbstractLongType, {
  _write(tap: Tap, value: unknown): void {
    if (
      typeof value === 'number' &&
      value > -EXACT_WRITE &&
      value < EXACT_WRITE &&
      Math.floor(value) === value
    ) {
      tap.writeLong(value)
    } else if (isLongValue(value)) {
      writeLong(tap, value)
    } else {
      throw invalidLong(value)
    }
  },
  _isValid: isLongValue,
  _fromJSON(this: ModeLong, value: unknown): number | bigint {
    return toMode(this._mode, value)
  },
  _toJSON(value: number | bigint): number {
    return Number(value)
  },
  _copy(this: ModeLong, value: unknown, opts?: { coerce?: number }): unknown {
    return opts?.coerce === 3 ? Number(value) : toMode(this._mode, value)
  },
  compare(a: number | bigint, b: number | bigint): number {
    return a < b ? -1 : a > b ? 1 : 0
  },
})

const LONG_TYPES = new Map<LongMode, AvscType>()

/** The shared (stateless, frozen) `long` type of a mode. */
export function longType(mode: LongMode): AvscType {
  let type = LONG_TYPES.get(mode)
  if (type === undefined) {
    type = new (ModeLongType as unknown as new (mode: LongMode) => AvscType)(mode)
    LONG_TYPES.set(mode, type)
  }
  return type
}

/** True for one of this module's long types. */
export function isModeLong(type: unknown): boolean {
  return type instanceof (ModeLongType as unknown as new () => object)
}
