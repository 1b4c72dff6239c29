import { type AvscType, builtins, inherit, type Tap } from './avsc-internals.js'
import { invalid } from './js-values.js'
import { readString, writeString } from './strings.js'

/**
 * avsc's primitive types (null, boolean, int, float, double, string) with writers whose failure costs nothing: avsc's
 * own writers describe a wrong value with `JSON.stringify`, which takes exponential time for a value that shares
 * sub-objects (`{ a: o, b: o }` nested n times is 2^n nodes to print) and fails on cycles and bigints. These throw a
 * short error instead; the codec then explains the value with its own bounded description (see validate.ts). The
 * happy path is avsc's, check for check. The enum type is in safe-enum.ts, `long` in longs.ts, bytes and fixed in safe-bytes.ts.
 */

function SafeNullType(this: AvscType): void {
  builtins.NullType.call(this)
}
inherit(SafeNullType, builtins.NullType, {
  _write(this: AvscType, _tap: Tap, value: unknown): void {
    if (value !== null) throw invalid(value, this)
  },
})

function SafeBooleanType(this: AvscType): void {
  builtins.BooleanType.call(this)
}
inherit(SafeBooleanType, builtins.BooleanType, {
  _write(this: AvscType, tap: Tap, value: unknown): void {
    if (typeof value !== 'boolean') throw invalid(value, this)
    tap.writeBoolean(value)
  },
})

function SafeIntType(this: AvscType): void {
  builtins.IntType.call(this)
}
inherit(SafeIntType, builtins.IntType, {
  _write(this: AvscType, tap: Tap, value: unknown): void {
    if (value !== ((value as number) | 0)) throw invalid(value, this)
    tap.writeInt(value as number)
  },
})

function SafeFloatType(this: AvscType): void {
  builtins.FloatType.call(this)
}
inherit(SafeFloatType, builtins.FloatType, {
  _write(this: AvscType, tap: Tap, value: unknown): void {
    if (typeof value !== 'number') throw invalid(value, this)
    tap.writeFloat(value)
  },
})

function SafeDoubleType(this: AvscType): void {
  builtins.DoubleType.call(this)
}
inherit(SafeDoubleType, builtins.DoubleType, {
  _write(this: AvscType, tap: Tap, value: unknown): void {
    if (typeof value !== 'number') throw invalid(value, this)
    tap.writeDouble(value)
  },
})

function SafeStringType(this: AvscType): void {
  builtins.StringType.call(this)
}
inherit(SafeStringType, builtins.StringType, {
  // Also what a resolver reads a string (or bytes) with: avsc's `_update` takes this `_read` unbound.
  _read(tap: Tap): string | undefined {
    return readString(tap)
  },
  _write(this: AvscType, tap: Tap, value: unknown): void {
    if (typeof value !== 'string') throw invalid(value, this)
    writeString(tap, value)
  },
})

type TypeFactory = new (schema?: unknown, opts?: unknown) => AvscType

const PRIMITIVES: Readonly<Record<string, TypeFactory>> = Object.assign(Object.create(null), {
  null: SafeNullType,
  boolean: SafeBooleanType,
  int: SafeIntType,
  float: SafeFloatType,
  double: SafeDoubleType,
  string: SafeStringType,
})

/** The safe type of a primitive schema (but `long` and `bytes`: see longs.ts and safe-bytes.ts). */
export function createSafePrimitive(schema: { type?: unknown }): AvscType | undefined {
  if (typeof schema.type !== 'string') return undefined
  const Primitive = PRIMITIVES[schema.type]
  return Primitive === undefined ? undefined : new Primitive()
}
