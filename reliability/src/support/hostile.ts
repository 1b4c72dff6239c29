import fc from 'fast-check'

// Hostile inputs shared by the `hostile-*` files: names that are Object.prototype members, nesting far beyond any
// stack, huge strings and arrays, cycles, lone surrogates, NaN/±Infinity/−0, integers beyond int64 and values of
// the wrong type. Each arbitrary is a fast-check one, so a run is repeated by its seed.

/** Names that an object-as-table confuses with its prototype's members. */
export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'prototype',
  'isPrototypeOf',
  '__defineGetter__',
] as const

/** Depths a recursive reader meets: shallow, deeper than a careless limit, and far beyond any call stack. */
export const DEPTHS = [10, 1_000, 100_000] as const

export const LONE_SURROGATES = ['\uD800', '\uDFFF', 'a\uD83D', '\uDE00b', '\uD800\uD800', 'x\uDBFFy'] as const

export const HOSTILE_NUMBERS = [
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
  -0,
  2 ** 53 + 2,
  2 ** 64,
  -(2 ** 63),
  1e308,
  Number.MIN_VALUE,
  0.1,
  -1,
  2 ** 31,
] as const

export const HOSTILE_BIGINTS = [
  2n ** 63n,
  2n ** 63n - 1n,
  -(2n ** 63n),
  -(2n ** 63n) - 1n,
  2n ** 64n,
  2n ** 128n,
  -(2n ** 200n),
] as const

/** 64 KiB of text: the largest input whose time is held to the event-loop bound. */
export const KIB64 = 64 * 1024

/**
 * The sizes ({@link sizeOf}, up to 64 KiB) of the values built once and drawn again and again, which no entry point
 * may change: they are measured once, not at every input that holds them.
 */
const measured = new WeakMap<object, number>()

/** A table with `entries` as own enumerable properties, `__proto__` included (never a prototype change). */
export function ownObject(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  }
  return out
}

/** `{ [key]: { [key]: … } }`, `depth` deep, built without recursion. */
export function deepObject(depth: number, key = 'a', leaf: unknown = 1): unknown {
  let node: unknown = leaf
  for (let i = 0; i < depth; i++) node = ownObject([[key, node]])
  return node
}

/** `[[[…]]]`, `depth` deep. */
export function deepArray(depth: number, leaf: unknown = 1): unknown {
  let node: unknown = leaf
  for (let i = 0; i < depth; i++) node = [node]
  return node
}

/** JSON text nested `depth` deep, without building the value. */
export function deepJsonText(depth: number, kind: 'array' | 'object', key = 'a'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
    : `${`{${JSON.stringify(key)}:`.repeat(depth)}1${'}'.repeat(depth)}`
}

/** Objects and arrays that contain themselves. */
export function cycles(): unknown[] {
  const self: Record<string, unknown> = { a: 1 }
  self.self = self
  const list: unknown[] = [1]
  list.push(list)
  const indirect: Record<string, unknown> = { b: { c: {} } }
  ;((indirect.b as Record<string, unknown>).c as Record<string, unknown>).back = indirect
  return [self, list, indirect]
}

export const loneSurrogate = fc.constantFrom(...LONE_SURROGATES)

/** A key: a prototype member's name, a lone surrogate, or any short string. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 2, arbitrary: fc.string({ maxLength: 8 }) },
)

/** A string: empty, prototype names, lone surrogates, unicode, or large (1 KiB … 1 MiB). */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES) },
  { weight: 2, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(1024), 'é'.repeat(KIB64 / 4), 'y'.repeat(1 << 20)) },
)

/** A number or bigint at an edge: NaN, ±Infinity, −0, beyond 2^53, beyond int64. */
export const hostileNumeric: fc.Arbitrary<number | bigint> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBERS),
  fc.constantFrom(...HOSTILE_BIGINTS),
  fc.double(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
)

/** Scalars of every JavaScript type. */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumeric,
  fc.constantFrom(
    undefined,
    null,
    true,
    Symbol('s'),
    () => 1,
    new Date(Number.NaN),
    new Date(8.64e15),
    Buffer.alloc(3),
    new Uint8Array(2),
  ),
)

const structures = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: hostileScalar },
    { weight: 1, arbitrary: tie('object') },
    { weight: 1, arbitrary: tie('array') },
  ),
  object: fc
    .array(fc.tuple(hostileKey, tie('value')), { maxLength: 5 })
    .map((entries) => ownObject(entries as [string, unknown][])),
  array: fc.array(tie('value'), { maxLength: 5 }),
}))

/**
 * For each depth of {@link DEPTHS}: an object nested that deep, one nested under `__proto__` keys, an array. Built
 * once: building 10^5 levels for every input drawn would cost more than most calls under test.
 */
const DEEP_VALUES = new Map(
  DEPTHS.map((depth) => [
    depth,
    fc.constantFrom(
      measuredOnce(deepObject(depth)),
      measuredOnce(deepObject(depth, '__proto__')),
      measuredOnce(deepArray(depth)),
    ),
  ]),
)

/**
 * Nesting beyond the stack, huge arrays, cycles: the values a generator of small trees never reaches. These are the
 * same objects every time they are drawn (an entry point must not change its input).
 */
export const extremeValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...DEPTHS).chain((depth) => DEEP_VALUES.get(depth) as fc.Arbitrary<unknown>),
  fc.constantFrom(
    measuredOnce(new Array(100_000).fill(0)),
    measuredOnce(new Array(KIB64 / 8).fill('x')),
    measuredOnce(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i]))),
  ),
  fc.constantFrom(...cycles()),
)

/** Any value: small trees of hostile scalars under hostile keys, or an extreme value. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: structures.value },
  { weight: 1, arbitrary: extremeValue },
)

/** A record (an own-keyed object) of hostile values. */
export const hostileRecord: fc.Arbitrary<Record<string, unknown>> = fc
  .array(fc.tuple(hostileKey, hostileValue), { maxLength: 6 })
  .map((entries) => ownObject(entries))

/** `value`, its size measured once for {@link sizeOf}. */
export function measuredOnce<T>(value: T): T {
  if (typeof value === 'object' && value !== null) measured.set(value, sizeOf(value))
  return value
}

/**
 * An estimate of a value's size in bytes, stopping once it passes `limit`, cycles and depth counted: the time bound
 * applies to inputs up to 64 KiB, so only whether a value is under it matters.
 */
export function sizeOf(value: unknown, limit = KIB64): number {
  let size = 0
  const seen = new Set<unknown>()
  const stack: unknown[] = [value]
  while (stack.length > 0 && size <= limit) {
    const item = stack.pop()
    size += 8
    if (typeof item === 'string') size += item.length * 2
    else if (item instanceof Uint8Array) size += item.length
    else if (typeof item === 'object' && item !== null) {
      if (seen.has(item)) continue
      seen.add(item)
      const known = measured.get(item)
      // a size measured once: exact up to 64 KiB, beyond it only known to be over (then walked if the limit is higher)
      if (known !== undefined && (known <= KIB64 || limit <= KIB64)) {
        size += known - 8
        continue
      }
      if (item instanceof Map || item instanceof Set || item instanceof Date) continue
      for (const key of Reflect.ownKeys(item)) {
        if (size > limit) break
        size += typeof key === 'string' ? key.length * 2 : 8
        const descriptor = Reflect.getOwnPropertyDescriptor(item, key)
        if (descriptor !== undefined && 'value' in descriptor) stack.push(descriptor.value)
      }
    }
  }
  return size
}

/**
 * `count` values of `arbitrary`, made lazily in batches (a long run holds one batch at a time), each batch from its
 * own seed derived from `seed`, so a run is the same for the same seed.
 */
export function* samples<T>(arbitrary: fc.Arbitrary<T>, count: number, seed: number): Generator<T> {
  const batch = 500
  for (let done = 0; done < count; done += batch) {
    const values = fc.sample(arbitrary, { numRuns: Math.min(batch, count - done), seed: seed + done })
    yield* values
  }
}

/** A short, printable description of an input for a finding (lengths instead of huge contents). */
export function preview(value: unknown, max = 400): string {
  const seen = new Set<unknown>()
  const show = (item: unknown, depth: number): string => {
    if (typeof item === 'string') {
      if (item.length > 200)
        return `${JSON.stringify(item.slice(0, 40))}…(${item.length} chars)`.replace(
          /[\uD800-\uDFFF]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16)}`,
        )
      return JSON.stringify(item).replace(/[\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)
    }
    if (typeof item === 'bigint') return `${item}n`
    if (typeof item === 'number') return Object.is(item, -0) ? '-0' : String(item)
    if (typeof item === 'symbol' || typeof item === 'function') return typeof item
    if (item === null || item === undefined || typeof item === 'boolean') return String(item)
    if (item instanceof Uint8Array)
      return `bytes(${item.length}) ${Buffer.from(item).toString('hex').slice(0, 40)}`
    if (item instanceof Date) return `Date(${item.getTime()})`
    if (seen.has(item)) return '<cycle>'
    seen.add(item)
    if (depth > 4) return '…'
    if (Array.isArray(item)) {
      return item.length > 6
        ? `[${item.length} items]`
        : `[${item.map((inner) => show(inner, depth + 1)).join(',')}]`
    }
    const keys = Reflect.ownKeys(item as object).filter((key) => typeof key === 'string') as string[]
    const parts = keys
      .slice(0, 6)
      .map((key) => `${JSON.stringify(key)}:${show((item as Record<string, unknown>)[key], depth + 1)}`)
    return `{${parts.join(',')}${keys.length > 6 ? `,…${keys.length} keys` : ''}}`
  }
  const text = show(value, 0)
  return text.length > max ? `${text.slice(0, max)}…` : text
}

/**
 * Whether `actual` is exactly `expected`: numbers by `Object.is` (−0 and NaN included; with `signedZero` false −0 and
 * 0 are equal), bigints by value, bytes by content, dates by time, arrays item by item, objects by their own
 * enumerable keys (whatever their prototype).
 */
export function sameValue(actual: unknown, expected: unknown, depth = 0, signedZero = true): boolean {
  if (depth > 10_000) return false
  if (typeof expected !== 'object' || expected === null) {
    return Object.is(actual, expected) || (!signedZero && expected === 0 && actual === 0)
  }
  if (typeof actual !== 'object' || actual === null) return false
  if (expected instanceof Uint8Array) {
    return actual instanceof Uint8Array && Buffer.from(actual).equals(Buffer.from(expected))
  }
  if (expected instanceof Date)
    return actual instanceof Date && Object.is(actual.getTime(), expected.getTime())
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, i) => sameValue(actual[i], item, depth + 1, signedZero))
    )
  }
  const keys = Object.keys(expected)
  const actualKeys = Object.keys(actual)
  if (keys.length !== actualKeys.length) return false
  return keys.every(
    (key) =>
      Object.hasOwn(actual, key) &&
      sameValue(
        (actual as Record<string, unknown>)[key],
        (expected as Record<string, unknown>)[key],
        depth + 1,
        signedZero,
      ),
  )
}

/** Where `actual` first differs from `expected` (see {@link sameValue}), for a finding's message. */
export function difference(
  actual: unknown,
  expected: unknown,
  path = '$',
  signedZero = true,
): string | undefined {
  if (sameValue(actual, expected, 0, signedZero)) return undefined
  const both =
    typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null
  if (both && !(expected instanceof Uint8Array) && !(expected instanceof Date)) {
    if (Array.isArray(expected) && Array.isArray(actual) && actual.length === expected.length) {
      for (let i = 0; i < expected.length; i++) {
        const found = difference(actual[i], expected[i], `${path}[${i}]`, signedZero)
        if (found !== undefined) return found
      }
    } else if (!Array.isArray(expected)) {
      const keys = new Set([...Object.keys(expected), ...Object.keys(actual)])
      for (const key of keys) {
        if (!Object.hasOwn(actual, key)) return `${path}[${JSON.stringify(key)}] is missing`
        if (!Object.hasOwn(expected, key)) return `${path}[${JSON.stringify(key)}] was added`
        const found = difference(
          (actual as Record<string, unknown>)[key],
          (expected as Record<string, unknown>)[key],
          `${path}[${JSON.stringify(key)}]`,
          signedZero,
        )
        if (found !== undefined) return found
      }
    }
  }
  return `${path} is ${preview(actual, 80)} instead of ${preview(expected, 80)}`
}

/** The items of `first`, then those of `rest`. */
export function* chain<T>(first: Iterable<T>, rest: Iterable<T>): Generator<T> {
  yield* first
  yield* rest
}
