import {
  type AvscField,
  type AvscType,
  builtins,
  compatibleName,
  defineOwn,
  inherit,
  type Resolver,
  type ResolverOptions,
  type Tap,
} from './avsc-internals.js'
import { fieldValue, isObjectValue, isPrototypeName } from './js-values.js'

/**
 * avsc's record type, safe with a field named `__proto__`: avsc's generated constructor does `this.<field> = v`
 * (for `__proto__` that sets the prototype instead), its writer reads the inherited accessor, and its resolver
 * builds plain-object lookups keyed by field name. A record with such a field gets closure-based code that keeps it
 * an own data property; every other record keeps avsc's generated code, untouched.
 */

interface Reader {
  _read(tap: Tap): unknown
}

interface SafeRecord extends AvscType {
  readonly fields: readonly AvscField[]
  readonly recordConstructor: new (...args: unknown[]) => object
  _getConstructorName(): string
  _checkFields(value: object): boolean
}

const recordProto = builtins.RecordType.prototype as Record<string, (...args: unknown[]) => unknown>

/**
 * A record with a field named like an `Object.prototype` member (`__proto__`, `constructor`, `toString`, …) gets
 * this module's closure-based code: avsc's generated code reads `v.<field>` (finding `Object.prototype`'s member on a
 * plain object, so the default never applies) and its resolver keys plain objects by field name.
 */
function hasDangerousField(type: AvscType): boolean {
  return type.fields?.some((field) => isPrototypeName(field.name)) ?? false
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

type TypeFactory = new (schema?: unknown, opts?: unknown) => AvscType

/** The safe record type of a record (or error) schema. */
export function createSafeRecord(schema: unknown, opts: unknown): AvscType {
  return new (SafeRecordType as unknown as TypeFactory)(schema, opts)
}
