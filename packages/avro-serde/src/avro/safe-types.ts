import { DeserializationError } from '@x/errors'
import {
  type AvscField,
  type AvscType,
  builtins,
  defineOwn,
  inherit,
  type Resolver,
  type ResolverOptions,
  type Tap,
} from './avsc-internals.js'

/**
 * Subclasses of avsc's array, map, record, bytes and fixed types that make decoding safe on hostile input and
 * writing lenient where it loses nothing:
 * - array and map block counts are bounded by the bytes left before anything is allocated (avsc trusts the count
 *   and calls `new Array(n)`); items that take no bytes at all (`null`, empty records) are capped per datum;
 * - map keys and record fields named `__proto__` become own data properties (avsc assigns them, which swaps the
 *   object's prototype); records without such a field keep avsc's generated code;
 * - bytes and fixed take any `Uint8Array` on write (avsc takes only a `Buffer`), and decode to a `Buffer`.
 */

/** Items that take no bytes on the wire (`null`, empty records) allowed per decoded datum. */
export const MAX_ZERO_BYTE_ITEMS = 1_000_000

const DANGEROUS_KEY = '__proto__'

let budgetTap: WeakRef<Tap> | undefined
let budgetLeft = 0

function tooMany(count: number, what: string, left: number): DeserializationError {
  return new DeserializationError(
    `Avro data claims ${count} ${what} but only ${Math.max(left, 0)} byte${left === 1 ? '' : 's'} remain`,
  )
}

/** Refuses a block count that the remaining bytes cannot hold (`min` bytes per item at least). */
function checkCount(tap: Tap, count: number, min: number, what: string): void {
  const left = tap.buf.length - tap.pos
  if (min > 0) {
    if (count * min > left) throw tooMany(count, what, left)
    return
  }
  // Items of no bytes: a budget per datum (one datum is read through one Tap).
  if (budgetTap?.deref() !== tap) {
    budgetTap = new WeakRef(tap)
    budgetLeft = MAX_ZERO_BYTE_ITEMS
  }
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
      const key = tap.readString() as string
      const value = values._read(tap)
      if (key === DANGEROUS_KEY) defineOwn(map, key, value)
      else map[key] = value
    }
  }
  return map
}

/** A value a map or record writer takes: an object that is not an array, a byte array or a Date. */
export function isObjectValue(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !ArrayBuffer.isView(value) &&
    !(value instanceof Date)
  )
}

function invalid(value: unknown, type: AvscType): TypeError {
  return new TypeError(`invalid ${type.typeName}: ${typeof value}`)
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
    resolver.itemsType = items
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
    if (!isObjectValue(value)) throw invalid(value, this)
    const values = this.valuesType
    const keys = Object.keys(value)
    const n = keys.length
    if (n) {
      tap.writeLong(n)
      for (let i = 0; i < n; i++) {
        const key = keys[i]!
        tap.writeString(key)
        values._write(tap, value[key])
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
    resolver.valuesType = values
    resolver._read = (tap: Tap) => readMap(tap, values)
  },
})

interface SafeRecord extends AvscType {
  readonly fields: readonly AvscField[]
  readonly recordConstructor: new (...args: unknown[]) => object
  _getConstructorName(): string
  _checkFields(value: object): boolean
}

const recordProto = builtins.RecordType.prototype as Record<string, (...args: unknown[]) => unknown>

function hasDangerousField(type: AvscType): boolean {
  return type.fields?.some((field) => field.name === DANGEROUS_KEY) ?? false
}

function fieldValue(value: Record<string, unknown>, name: string): unknown {
  return name === DANGEROUS_KEY ? (Object.hasOwn(value, name) ? value[name] : undefined) : value[name]
}

function SafeRecordType(this: SafeRecord, schema: unknown, opts: unknown): void {
  builtins.RecordType.call(this, schema, opts)
}

inherit(SafeRecordType, builtins.RecordType, {
  // avsc's generated constructor does `this.<field> = v`: for `__proto__` that sets the prototype instead.
  _createConstructor(this: SafeRecord, ...args: unknown[]): unknown {
    if (!hasDangerousField(this)) return recordProto._createConstructor!.apply(this, args)
    const names = this.fields.map((field) => field.name)
    const defaults = this.fields.map((field) => (field.defaultValue() === undefined ? undefined : field))
    const Record = function (this: object, ...values: unknown[]): void {
      for (let i = 0; i < names.length; i++) {
        let value = values[i]
        if (value === undefined) value = defaults[i]?.defaultValue()
        defineOwn(this, names[i]!, value)
      }
    }
    Object.defineProperty(Record, 'name', { value: this._getConstructorName() })
    return Record
  },
  _createWriter(this: SafeRecord, ...args: unknown[]): unknown {
    if (!hasDangerousField(this)) return recordProto._createWriter!.apply(this, args)
    const fields = this.fields
    return (tap: Tap, value: Record<string, unknown>): void => {
      for (const field of fields) {
        let item = fieldValue(value, field.name)
        if (item === undefined) item = field.defaultValue()
        field.type._write(tap, item)
      }
    }
  },
  _createChecker(this: SafeRecord, ...args: unknown[]): unknown {
    if (!hasDangerousField(this)) return recordProto._createChecker!.apply(this, args)
    const fields = this.fields
    return function check(
      this: SafeRecord,
      value: unknown,
      flags?: number,
      hook?: (v: unknown, t: AvscType) => void,
      path?: string[],
    ): boolean {
      if (!isObjectValue(value) || (flags && !this._checkFields(value))) {
        hook?.(value, this)
        return false
      }
      let valid = true
      for (const field of fields) {
        const item = fieldValue(value, field.name)
        if (item === undefined && field.defaultValue() !== undefined) continue
        path?.push(field.name)
        const ok = field.type._check(item, flags, hook, path)
        path?.pop()
        if (!ok) {
          valid = false
          if (!hook) return false
        }
      }
      return valid
    }
  },
  _checkFields(this: SafeRecord, value: object): boolean {
    const names = new Set(this.fields.map((field) => field.name))
    return Object.keys(value).every((key) => names.has(key))
  },
  _update(this: SafeRecord, resolver: Resolver, writer: AvscType, opts: ResolverOptions): void {
    if (hasDangerousField(this) || hasDangerousField(writer)) {
      updateRecordResolver(this, resolver, writer, opts)
    } else {
      recordProto._update!.call(this, resolver, writer, opts)
    }
  },
})

function compatibleName(reader: AvscType, writer: AvscType, strict: boolean): boolean {
  if (!writer.name) return true
  const unqualify = (name: string) => name.slice(name.lastIndexOf('.') + 1)
  const wanted = strict ? writer.name : unqualify(writer.name)
  const names = [reader.name, ...(reader.aliases ?? [])].filter((name): name is string => name !== undefined)
  return names.some((name) => (strict ? name : unqualify(name)) === wanted)
}

/**
 * avsc's record resolution (matching by name and aliases, defaults, skipping writer-only fields) without its
 * plain-object lookups, which break on a field named `__proto__`.
 */
function updateRecordResolver(
  reader: SafeRecord,
  resolver: Resolver,
  writer: AvscType,
  opts: ResolverOptions,
): void {
  if (writer.typeName !== 'record' && writer.typeName !== 'error') return
  if (!compatibleName(reader, writer, !opts.ignoreNamespaces)) {
    throw new TypeError(`no alias found for ${String(writer.name)}`)
  }
  const writerFields = writer.fields ?? []
  const writerIndex = new Map(writerFields.map((field, i) => [field.name, i]))
  const readsByWriterField = writerFields.map(() => [] as { slot: number; resolver: Reader }[])
  reader.fields.forEach((field, slot) => {
    const matches = [...new Set([field.name, ...field.aliases])].filter((name) => writerIndex.has(name))
    if (matches.length > 1) {
      throw new TypeError(
        `ambiguous aliasing for ${String(writer.name)}.${field.name} (${matches.join(', ')})`,
      )
    }
    if (matches.length === 0) {
      if (field.defaultValue() === undefined) {
        throw new TypeError(`no matching field for default-less ${String(writer.name)}.${field.name}`)
      }
      return
    }
    const index = writerIndex.get(matches[0]!)!
    const fieldResolver = field.type.createResolver(writerFields[index]!.type, opts) as unknown as Reader
    readsByWriterField[index]!.push({ slot, resolver: fieldResolver })
  })
  const Record = reader.recordConstructor
  const count = reader.fields.length
  resolver._read = (tap: Tap): object => {
    const values: unknown[] = new Array(count)
    for (let i = 0; i < writerFields.length; i++) {
      const reads = readsByWriterField[i]!
      if (reads.length === 0) {
        writerFields[i]!.type._skip(tap)
        continue
      }
      const start = tap.pos
      for (let j = 0; j < reads.length; j++) {
        if (j > 0) tap.pos = start
        values[reads[j]!.slot] = reads[j]!.resolver._read(tap)
      }
    }
    return new Record(...values)
  }
}

function asBuffer(value: unknown): Buffer | undefined {
  if (Buffer.isBuffer(value)) return value
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength)
  return undefined
}

function SafeBytesType(this: AvscType): void {
  builtins.BytesType.call(this)
}

inherit(SafeBytesType, builtins.BytesType, {
  _write(this: AvscType, tap: Tap, value: unknown): void {
    const buffer = asBuffer(value)
    if (buffer === undefined) throw invalid(value, this)
    tap.writeBytes(buffer)
  },
  _check(this: AvscType, value: unknown, _flags?: number, hook?: (v: unknown, t: AvscType) => void): boolean {
    const valid = value instanceof Uint8Array
    if (!valid) hook?.(value, this)
    return valid
  },
})

function SafeFixedType(this: AvscType, schema: unknown, opts: unknown): void {
  builtins.FixedType.call(this, schema, opts)
}

inherit(SafeFixedType, builtins.FixedType, {
  _write(this: AvscType, tap: Tap, value: unknown): void {
    const buffer = asBuffer(value)
    if (buffer === undefined || buffer.length !== this.size) throw invalid(value, this)
    tap.writeFixed(buffer, this.size)
  },
  _check(this: AvscType, value: unknown, _flags?: number, hook?: (v: unknown, t: AvscType) => void): boolean {
    const valid = value instanceof Uint8Array && value.length === this.size
    if (!valid) hook?.(value, this)
    return valid
  },
})

type TypeFactory = new (schema?: unknown, opts?: unknown) => AvscType

/** The safe type for a schema object of type array, map, record/error, bytes or fixed; undefined for others. */
export function createSafeType(schema: { type?: unknown }, opts: unknown): AvscType | undefined {
  switch (schema.type) {
    case 'array':
      return new (SafeArrayType as unknown as TypeFactory)(schema, opts)
    case 'map':
      return new (SafeMapType as unknown as TypeFactory)(schema, opts)
    case 'record':
    case 'error':
      return new (SafeRecordType as unknown as TypeFactory)(schema, opts)
    case 'bytes':
      return new (SafeBytesType as unknown as TypeFactory)()
    case 'fixed':
      return new (SafeFixedType as unknown as TypeFactory)(schema, opts)
    default:
      return undefined
  }
}
