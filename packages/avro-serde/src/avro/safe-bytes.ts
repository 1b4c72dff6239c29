import { type AvscType, builtins, inherit, type Tap } from './avsc-internals.js'
import { asBuffer, invalid } from './js-values.js'

/**
 * avsc's bytes and fixed types, lenient where it loses nothing: they take any `Uint8Array` on write (avsc takes only
 * a `Buffer`), and decode to a `Buffer`. A refused value costs nothing to describe (see safe-primitives.ts).
 */

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

/** The safe type for a schema object of type bytes or fixed; undefined for others. */
export function createSafeBytes(schema: { type?: unknown }, opts: unknown): AvscType | undefined {
  if (schema.type === 'bytes') return new (SafeBytesType as unknown as TypeFactory)()
  if (schema.type === 'fixed') return new (SafeFixedType as unknown as TypeFactory)(schema, opts)
  return undefined
}
