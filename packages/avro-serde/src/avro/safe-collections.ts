import { DeserializationError } from '@x/errors'
import {
  type AvscType,
  builtins,
  defineOwn,
  inherit,
  type Resolver,
  type ResolverOptions,
  type Tap,
} from './avsc-internals.js'
import { DANGEROUS_KEY, invalid, isObjectValue } from './js-values.js'
import { checkCount, minEncodedSize } from './limits.js'
import { readString, writeString } from './strings.js'

/**
 * avsc's array and map types, made safe on hostile input and lenient where it loses nothing:
 * - block counts are checked against the bytes left before anything is allocated (avsc trusts the count and calls
 *   `new Array(n)`), also when a resolver skips a writer-only field;
 * - a map key `__proto__` becomes an own data property (avsc assigns it, which swaps the map's prototype);
 * - a map is written from a plain object or from a JavaScript `Map` with string keys (avsc writes a `Map` as `{}`);
 * They are ES5 subclasses: avsc freezes its types at the end of their constructor, so state must be set before it.
 */

interface Reader {
  _read(tap: Tap): unknown
}

function readArray(tap: Tap, items: Reader, min: number): unknown[] {
  let values: unknown[] | undefined
  let i = 0
  for (let n = tap.readLong(); n !== 0; n = tap.readLong()) {
    if (n < 0) {
      n = -n
      tap.skipLong()
    }
    checkCount(tap, n, min, 'array items')
    values ??= new Array(n)
    while (n--) values[i++] = items._read(tap)
  }
  return values ?? []
}

function skipBlocks(tap: Tap, skipItem: (tap: Tap) => void, min: number, what: string): void {
  for (let n = tap.readLong(); n !== 0; n = tap.readLong()) {
    if (n < 0) {
      const length = tap.readLong()
      if (length < 0) throw new DeserializationError(`Avro data has a negative block size ${length}`)
      tap.pos += length
    } else {
      checkCount(tap, n, min, what)
      while (n--) skipItem(tap)
    }
  }
}

function readMap(tap: Tap, values: Reader): Record<string, unknown> {
  const map: Record<string, unknown> = {}
  for (let n = tap.readLong(); n !== 0; n = tap.readLong()) {
    if (n < 0) {
      n = -n
      tap.skipLong()
    }
    // Every entry takes at least one byte: the length of its key.
    checkCount(tap, n, 1, 'map entries')
    while (n--) {
      const key = readString(tap) as string
      const value = values._read(tap)
      if (key === DANGEROUS_KEY) defineOwn(map, key, value)
      else map[key] = value
    }
  }
  return map
}

interface SafeArray extends AvscType {
  _limits: { min: number }
  readonly itemsType: AvscType
}

function itemMin(self: SafeArray): number {
  if (self._limits.min < 0) self._limits.min = minEncodedSize(self.itemsType)
  return self._limits.min
}

function SafeArrayType(this: SafeArray, schema: unknown, opts: unknown): void {
  // Set before avsc's constructor freezes the instance; filled on first use, once every type is complete.
  this._limits = { min: -1 }
  builtins.ArrayType.call(this, schema, opts)
}

inherit(SafeArrayType, builtins.ArrayType, {
  // avsc's writer, but a refused value costs nothing to describe (see safe-primitives.ts).
  _write(this: SafeArray, tap: Tap, value: unknown): void {
    if (!Array.isArray(value)) throw invalid(value, this)
    const items = this.itemsType
    const n = value.length
    if (n) {
      tap.writeLong(n)
      for (let i = 0; i < n; i++) items._write(tap, value[i])
    }
    tap.writeLong(0)
  },
  _read(this: SafeArray, tap: Tap): unknown[] {
    return readArray(tap, this.itemsType, itemMin(this))
  },
  _skip(this: SafeArray, tap: Tap): void {
    const items = this.itemsType
    skipBlocks(tap, (t) => items._skip(t), itemMin(this), 'array items')
  },
  _update(this: SafeArray, resolver: Resolver, writer: AvscType, opts: ResolverOptions): void {
    if (writer.typeName !== 'array' || writer.itemsType === undefined) return
    const items = this.itemsType.createResolver(writer.itemsType, opts) as unknown as Reader
    const min = minEncodedSize(writer.itemsType)
    resolver._read = (tap: Tap) => readArray(tap, items, min)
  },
})

interface SafeMap extends AvscType {
  readonly valuesType: AvscType
}

function SafeMapType(this: SafeMap, schema: unknown, opts: unknown): void {
  builtins.MapType.call(this, schema, opts)
}

const baseMapCheck = builtins.MapType.prototype._check as AvscType['_check']

inherit(SafeMapType, builtins.MapType, {
  _read(this: SafeMap, tap: Tap): Record<string, unknown> {
    return readMap(tap, this.valuesType)
  },
  _skip(this: SafeMap, tap: Tap): void {
    const values = this.valuesType
    skipBlocks(
      tap,
      (t) => {
        t.skipString()
        values._skip(t)
      },
      1,
      'map entries',
    )
  },
  _write(this: SafeMap, tap: Tap, value: unknown): void {
    // A plain object (the common case) is known by its prototype, before the checks the other values need (an
    // array or a typed array given Object.prototype as its prototype is still not one).
    if (
      typeof value !== 'object' ||
      value === null ||
      Object.getPrototypeOf(value) !== Object.prototype ||
      Array.isArray(value) ||
      ArrayBuffer.isView(value)
    ) {
      if (value instanceof Map) {
        writeMapEntries(tap, value, this)
        return
      }
      if (!isObjectValue(value)) throw invalid(value, this)
    }
    const values = this.valuesType
    const map = value as Record<string, unknown>
    const keys = Object.keys(map)
    const n = keys.length
    if (n) {
      tap.writeLong(n)
      for (let i = 0; i < n; i++) {
        const key = keys[i]!
        writeString(tap, key)
        values._write(tap, map[key])
      }
    }
    tap.writeLong(0)
  },
  _check(
    this: SafeMap,
    value: unknown,
    flags?: number,
    hook?: (v: unknown, t: AvscType) => void,
    path?: string[],
  ) {
    if (value instanceof Map) return checkMapEntries(this, value, flags, hook, path)
    if (!isObjectValue(value)) {
      hook?.(value, this)
      return false
    }
    return baseMapCheck.call(this, value, flags, hook, path)
  },
  _copy(this: SafeMap, value: unknown, opts?: unknown): Record<string, unknown> {
    if (!isObjectValue(value)) throw invalid(value, this)
    const copy: Record<string, unknown> = {}
    for (const key of Object.keys(value)) defineOwn(copy, key, this.valuesType._copy(value[key], opts))
    return copy
  },
  _update(this: SafeMap, resolver: Resolver, writer: AvscType, opts: ResolverOptions): void {
    if (writer.typeName !== 'map' || writer.valuesType === undefined) return
    const values = this.valuesType.createResolver(writer.valuesType, opts) as unknown as Reader
    resolver._read = (tap: Tap) => readMap(tap, values)
  },
})

/** Writes a JavaScript `Map` as an Avro map: every key must be a string (nothing is dropped or converted). */
function writeMapEntries(tap: Tap, map: Map<unknown, unknown>, type: SafeMap): void {
  const values = type.valuesType
  if (map.size) {
    for (const key of map.keys()) if (typeof key !== 'string') throw invalid(map, type)
    tap.writeLong(map.size)
    for (const [key, value] of map) {
      writeString(tap, key as string)
      values._write(tap, value)
    }
  }
  tap.writeLong(0)
}

function checkMapEntries(
  type: SafeMap,
  map: Map<unknown, unknown>,
  flags?: number,
  hook?: (v: unknown, t: AvscType) => void,
  path?: string[],
): boolean {
  let valid = true
  for (const [key, value] of map) {
    if (typeof key !== 'string') {
      hook?.(map, type)
      if (!hook) return false
      valid = false
      continue
    }
    path?.push(key)
    const ok = type.valuesType._check(value, flags, hook, path)
    path?.pop()
    if (!ok) {
      if (!hook) return false
      valid = false
    }
  }
  return valid
}

type TypeFactory = new (schema?: unknown, opts?: unknown) => AvscType

/** The safe type for a schema object of type array or map; undefined for others. */
export function createSafeCollection(schema: { type?: unknown }, opts: unknown): AvscType | undefined {
  switch (schema.type) {
    case 'array':
      return new (SafeArrayType as unknown as TypeFactory)(schema, opts)
    case 'map':
      return new (SafeMapType as unknown as TypeFactory)(schema, opts)
    default:
      return undefined
  }
}
