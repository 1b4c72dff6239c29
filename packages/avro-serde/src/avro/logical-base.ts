import { type AvscType, builtins, type Resolver, type ResolverOptions, type Tap } from './avsc-internals.js'

/**
 * The base of the built-in logical types: what each takes on write (for messages and for the union representation)
 * and how it resolves against a writer schema.
 */

/** What JavaScript values a type takes on write, for deciding whether a union needs wrapping. */
export type ValueKind =
  | 'null'
  | 'boolean'
  | 'number'
  | 'bigint'
  | 'string'
  | 'bytes'
  | 'array'
  | 'object'
  | 'date'

export interface LogicalSchema {
  type?: unknown
  logicalType?: unknown
  precision?: unknown
  scale?: unknown
  size?: unknown
}

interface LogicalTypeBase extends AvscType {
  readonly underlyingType: AvscType
}

const LogicalType = builtins.LogicalType as unknown as new (schema: unknown, opts: unknown) => LogicalTypeBase

/** Base of the built-in logical types: resolution rules and the descriptions used in error messages. */
export abstract class BuiltinLogicalType extends LogicalType {
  /** The JavaScript values this type takes on write. */
  abstract readonly kinds: readonly ValueKind[]
  /** What this type takes on write, for messages: `timestamp-millis (a Date or ...)`. */
  abstract readonly expected: string
  /** Why `value` cannot be written, or undefined when it can. */
  abstract problem(value: unknown): string | undefined
  abstract _fromValue(value: unknown): unknown
  abstract override _toValue(value: unknown): unknown

  /** True when data written with `writer` (a logical type) reads as this type without conversion. */
  protected sameAs(writer: AvscType): boolean {
    return writer.constructor === this.constructor && writer.typeName === this.typeName
  }

  /**
   * Resolution: a writer of the same logical type, or of a plain type the underlying type can read (with Avro's
   * promotions), is read and converted; a writer of another logical type is refused (reading timestamp-millis as
   * timestamp-micros would silently scale the value by 1000).
   */
  override _update(resolver: Resolver, writer: AvscType, opts: ResolverOptions): void {
    let plain = writer
    if (writer.typeName.startsWith('logical:')) {
      if (!this.sameAs(writer) || writer.underlyingType === undefined) return
      plain = writer.underlyingType
    }
    let under: Resolver
    try {
      under = this.underlyingType.createResolver(plain, opts)
    } catch {
      return
    }
    if (sameWireFormat(this.underlyingType, plain)) {
      resolver._read = (tap: Tap) => this._read(tap)
    } else {
      const read = under._read!
      resolver._read = (tap: Tap) => this._fromValue(read(tap))
    }
  }

  _resolve(): undefined {
    return undefined
  }
}

function baseName(type: AvscType): string {
  return type.typeName === 'abstract:long' ? 'long' : type.typeName
}

function sameWireFormat(reader: AvscType, writer: AvscType): boolean {
  const r = baseName(reader)
  const w = baseName(writer)
  return r === w || ((r === 'string' || r === 'bytes') && (w === 'string' || w === 'bytes'))
}

/** The error a constructor throws for an annotation its underlying type cannot carry. */
export function notFor(schema: LogicalSchema, expected: string): TypeError {
  return new TypeError(`logical type ${String(schema.logicalType)} needs ${expected}`)
}
