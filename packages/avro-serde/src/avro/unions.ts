import { type AvscType, builtins, inherit, type Tap } from './avsc-internals.js'
import { invalid } from './js-values.js'
import { BuiltinLogicalType, type ValueKind } from './logical-base.js'
import { isModeLong } from './longs.js'
import type { UnionMode } from './options.js'
import { kindTable } from './union-rule.js'
import { valueKindOf } from './value-kind.js'

/**
 * Union representation. In `'auto'` mode a union is unwrapped (its values are the bare branch values) when every
 * JavaScript value is taken by at most one branch, judged by what each branch takes on write (see `kindsOf`);
 * otherwise, and always in `'wrapped'` mode, a value is `{ [branchName]: value }` (avsc's wrapped unions), and
 * `null` stays `null`. avsc's own 'auto' mode does not know that this library's longs also take a `bigint` or
 * that its logical types take a `Date`, so the decision is made here.
 */

/** The kinds of value a type takes on write; undefined when unknown (a custom logical type or hook type). */
export function kindsOf(type: AvscType): readonly ValueKind[] | undefined {
  if (type instanceof BuiltinLogicalType) return type.kinds
  switch (type.typeName) {
    case 'null':
      return ['null']
    case 'boolean':
      return ['boolean']
    case 'int':
    case 'float':
    case 'double':
    case 'long':
      return ['number']
    case 'abstract:long':
      return isModeLong(type) ? ['number', 'bigint'] : undefined
    case 'string':
    case 'enum':
      return ['string']
    case 'bytes':
    case 'fixed':
      return ['bytes']
    case 'array':
      return ['array']
    case 'map':
    case 'record':
    case 'error':
      return ['object']
    default:
      return undefined
  }
}

/** Branch index by value kind, or undefined when two branches could take the same value (the union is wrapped). */
export function branchesByKind(
  branches: readonly AvscType[],
): Partial<Record<ValueKind, number>> | undefined {
  return kindTable(branches.map(kindsOf))
}

interface AutoUnion extends AvscType {
  _byKind: Partial<Record<ValueKind, number>>
}

function AutoUnionType(
  this: AutoUnion,
  branches: readonly AvscType[],
  opts: unknown,
  table: Partial<Record<ValueKind, number>>,
): void {
  this._byKind = table
  builtins.UnwrappedUnionType.call(this, branches, opts)
}

inherit(AutoUnionType, builtins.UnwrappedUnionType, {
  _getIndex(this: AutoUnion, value: unknown): number | undefined {
    const kind = valueKindOf(value)
    return kind === undefined ? undefined : this._byKind[kind]
  },
  // avsc's writer, but a refused value costs nothing to describe (avsc's JSON.stringify of it can take exponential
  // time; the codec describes it itself).
  _write(this: AutoUnion, tap: Tap, value: unknown): void {
    const kind = valueKindOf(value)
    const index = kind === undefined ? undefined : this._byKind[kind]
    if (index === undefined) throw invalid(value, this)
    tap.writeLong(index)
    if (value !== null) this.types![index]!._write(tap, value)
  },
})

interface WrappedUnion extends AvscType {
  readonly types: readonly AvscType[]
}

/** The branch index of a wrapped-union branch name; own names only (`'toString'` is no branch). */
function branchIndex(self: WrappedUnion, name: string): number | undefined {
  const branches = self.types
  for (let i = 0; i < branches.length; i++) if (branches[i]!.branchName === name) return i
  return undefined
}

function SafeWrappedUnionType(this: WrappedUnion, branches: readonly AvscType[], opts: unknown): void {
  builtins.WrappedUnionType.call(this, branches, opts)
}

/**
 * avsc's wrapped union, with branch names matched against the branches themselves: avsc looks `{ "<name>": v }` up
 * in a plain object, where `toString` or `__proto__` find `Object.prototype` members. A refused value costs nothing
 * to describe.
 */
inherit(SafeWrappedUnionType, builtins.WrappedUnionType, {
  _write(this: WrappedUnion, tap: Tap, value: unknown): void {
    if (value === null) {
      const index = branchIndex(this, 'null')
      if (index === undefined) throw invalid(value, this)
      tap.writeLong(index)
      return
    }
    if (typeof value !== 'object') throw invalid(value, this)
    const keys = Object.keys(value)
    const index = keys.length === 1 ? branchIndex(this, keys[0]!) : undefined
    if (index === undefined) throw invalid(value, this)
    tap.writeLong(index)
    this.types[index]!._write(tap, (value as Record<string, unknown>)[keys[0]!])
  },
  _check(
    this: WrappedUnion,
    value: unknown,
    flags?: number,
    hook?: (v: unknown, t: AvscType) => void,
    path?: string[],
  ): boolean {
    let index: number | undefined
    let name: string | undefined
    if (value === null) {
      index = branchIndex(this, 'null')
    } else if (typeof value === 'object') {
      const keys = Object.keys(value)
      if (keys.length === 1) {
        name = keys[0]!
        index = branchIndex(this, name)
      }
    }
    if (index === undefined) {
      hook?.(value, this)
      return false
    }
    if (value === null) return true
    const branch = this.types[index]!
    const inner = (value as Record<string, unknown>)[name!]
    if (!hook) return branch._check(inner, flags)
    path?.push(name!)
    const valid = branch._check(inner, flags, hook, path)
    path?.pop()
    return valid
  },
})

type UnionFactory = new (branches: readonly AvscType[], opts: unknown, table?: unknown) => AvscType

/** The union type of `branches` (already parsed) in `mode`. */
export function createUnion(branches: readonly AvscType[], opts: unknown, mode: UnionMode): AvscType {
  const table = mode === 'wrapped' ? undefined : branchesByKind(branches)
  if (table === undefined) return new (SafeWrappedUnionType as unknown as UnionFactory)(branches, opts)
  return new (AutoUnionType as unknown as UnionFactory)(branches, opts, table)
}
