import {
  type AvscType,
  avro,
  builtins,
  compatibleName,
  inherit,
  type Resolver,
  type ResolverOptions,
  type Tap,
} from './avsc-internals.js'
import { invalid } from './js-values.js'

/**
 * avsc's enum type, safe with any symbol: it looks its symbols up in a `Map`, not in avsc's plain object, where
 * `'toString'`, `'constructor'` or `'__proto__'` found `Object.prototype` members and were written as symbol 0
 * (silent corruption), and where an enum with such a symbol could not even be parsed. Its writer's failure costs
 * nothing, like the primitives' (see safe-primitives.ts).
 */

/** avsc's rule for names and enum symbols. */
const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/

interface SafeEnum extends AvscType {
  readonly symbols: readonly string[]
  readonly default: string | undefined
  readonly _index: ReadonlyMap<string, number>
  _createBranchConstructor(): unknown
  _branchConstructor: unknown
}

/**
 * avsc's enum type, rebuilt on avsc's base `Type` (its own constructor keeps symbols in a plain object and rejects
 * `toString` as a "duplicate symbol"). Same schema checks and messages, symbol indices in a `Map`.
 */
function SafeEnumType(
  this: SafeEnum & { symbols: readonly string[]; default: unknown; _index: Map<string, number> },
  schema: { symbols?: unknown; default?: unknown },
  opts: unknown,
): void {
  // avsc's base constructor: name, namespace, aliases, registration under the full name.
  ;(avro.Type as unknown as { call(self: object, schema: unknown, opts: unknown): void }).call(
    this,
    schema,
    opts,
  )
  const symbols = schema.symbols
  if (!Array.isArray(symbols) || symbols.length === 0) {
    throw new Error(`invalid enum symbols: ${JSON.stringify(symbols)}`)
  }
  this.symbols = Object.freeze(symbols.slice())
  const index = new Map<string, number>()
  symbols.forEach((symbol: unknown, i) => {
    if (typeof symbol !== 'string' || !NAME_PATTERN.test(symbol)) {
      throw new Error(`invalid enum ${String(this.name)} symbol: ${JSON.stringify(symbol)}`)
    }
    if (index.has(symbol)) throw new Error(`duplicate enum ${String(this.name)} symbol: ${symbol}`)
    index.set(symbol, i)
  })
  this._index = index
  this.default = schema.default as string | undefined
  if (this.default !== undefined && !(typeof this.default === 'string' && index.has(this.default))) {
    throw new Error(`invalid enum ${String(this.name)} default: ${JSON.stringify(this.default)}`)
  }
  this._branchConstructor = this._createBranchConstructor()
  Object.freeze(this)
}

function indexOf(self: SafeEnum, value: unknown): number | undefined {
  return typeof value === 'string' ? self._index.get(value) : undefined
}

inherit(SafeEnumType, builtins.EnumType, {
  _check(this: SafeEnum, value: unknown, _flags?: number, hook?: (v: unknown, t: AvscType) => void): boolean {
    const valid = indexOf(this, value) !== undefined
    if (!valid) hook?.(value, this)
    return valid
  },
  _write(this: SafeEnum, tap: Tap, value: unknown): void {
    const index = indexOf(this, value)
    if (index === undefined) throw invalid(value, this)
    tap.writeLong(index)
  },
  _copy(this: SafeEnum, value: unknown): unknown {
    if (indexOf(this, value) === undefined) throw invalid(value, this)
    return value
  },
  compare(this: SafeEnum, a: unknown, b: unknown): number {
    const i = indexOf(this, a)
    const j = indexOf(this, b)
    if (i === undefined) throw invalid(a, this)
    if (j === undefined) throw invalid(b, this)
    return i === j ? 0 : i < j ? -1 : 1
  },
  _update(this: SafeEnum, resolver: Resolver, writer: AvscType, opts: ResolverOptions): void {
    if (writer.typeName !== 'enum' || !compatibleName(this, writer, !opts.ignoreNamespaces)) return
    const written = writer.symbols ?? []
    if (!written.every((symbol) => this._index.has(symbol)) && this.default === undefined) return
    // Each writer index reads as the same symbol, or as the reader's default when the reader lacks it.
    const symbols = written.map((symbol) => (this._index.has(symbol) ? symbol : this.default!))
    const read = (tap: Tap): string => {
      const i = tap.readLong()
      const symbol = symbols[i]
      if (symbol === undefined) throw new Error(`invalid ${String(writer.name)} enum index: ${i}`)
      return symbol
    }
    resolver._read = read
  },
})

type TypeFactory = new (schema?: unknown, opts?: unknown) => AvscType

/** The safe type of an enum schema. */
export function createSafeEnum(schema: unknown, opts: unknown): AvscType {
  return new (SafeEnumType as unknown as TypeFactory)(schema, opts)
}
