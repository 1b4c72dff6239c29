import type * as Avsc from 'avsc'
import { AVSC_INTERNALS, type AvscModule, abstractLongTypeOf, checkAvscVersion } from './avsc-surface.js'
import { avro } from './avsc-types.js'
import { resolvedAvsc } from './avsc-version.js'

/**
 * The parts of avsc that this layer builds on but that avsc's own typings leave out: the `Tap` every reader and
 * writer receives, and the underscore methods each type implements (see avsc's `lib/types.js`). Every one of them is
 * listed, with a check of its shape, in avsc-surface.ts. avsc itself is reached through avsc-types.ts.
 */

// Before anything is built on it: the avsc resolved must be the one the list in avsc-surface.ts was checked against.
checkAvscVersion(resolvedAvsc())

/** avsc's read/write cursor over a `Buffer`. Reads past the end do not throw: `pos` moves beyond `buf.length`. */
export interface Tap {
  buf: Buffer
  pos: number
  readLong(): number
  readInt(): number
  skipLong(): void
  readString(): string | undefined
  skipString(): void
  writeLong(n: number): void
  writeBoolean(b: boolean): void
  writeFloat(n: number): void
  writeDouble(n: number): void
  writeInt(n: number): void
  writeString(s: string): void
  writeBytes(buf: Buffer): void
  writeFixed(buf: Buffer, len?: number): void
}

/** A resolver as avsc builds it (a frozen object whose `_read` reads writer data as the reader type). */
export interface Resolver {
  _read: ((tap: Tap, lazy?: boolean) => unknown) | null
}

/** A record field. */
export interface AvscField {
  readonly name: string
  readonly type: AvscType
  readonly aliases: readonly string[]
  defaultValue(): unknown
}

/** An avsc type with the internals this layer uses. Which optional members exist depends on `typeName`. */
export interface AvscType extends Avsc.Type {
  readonly typeName: string
  readonly name: string | undefined
  readonly aliases: string[] | undefined
  _read(tap: Tap): unknown
  _write(tap: Tap, value: unknown): void
  _skip(tap: Tap): void
  _check(value: unknown, flags?: number, hook?: unknown, path?: string[]): boolean
  _update(resolver: Resolver, writer: AvscType, opts: ResolverOptions): void
  _copy(value: unknown, opts?: unknown): unknown
  createResolver(writer: AvscType, opts?: ResolverOptions): Resolver
  readonly fields?: readonly AvscField[]
  readonly itemsType?: AvscType
  readonly valuesType?: AvscType
  readonly types?: readonly AvscType[]
  readonly symbols?: readonly string[]
  readonly size?: number
  readonly underlyingType?: AvscType
  readonly recordConstructor?: new (...args: unknown[]) => object
  _getIndex?(value: unknown): number | undefined
  _toValue?(value: unknown): unknown
}

/** Options avsc threads through `createResolver` (its registry of record resolvers, for recursive schemas). */
export interface ResolverOptions {
  registry?: Record<string, Resolver>
  ignoreNamespaces?: boolean
}

/** The options object avsc threads through `Type.forSchema` (mutated by avsc: `registry`, `namespace`). */
export interface ParseOptions {
  registry: Record<string, AvscType>
  namespace?: string | undefined
  typeHook: (schema: unknown, opts: ParseOptions) => AvscType | undefined
  omitRecordMethods: boolean
}

/** A constructor of avsc's ES5 type classes (they are plain functions: callable with an explicit `this`). */
export interface AvscConstructor {
  new (...args: unknown[]): AvscType
  call(self: object, ...args: unknown[]): void
  prototype: Record<string, unknown>
}

export const builtins = avro.types as unknown as Record<
  | 'NullType'
  | 'BooleanType'
  | 'IntType'
  | 'FloatType'
  | 'DoubleType'
  | 'StringType'
  | 'EnumType'
  | 'ArrayType'
  | 'MapType'
  | 'RecordType'
  | 'BytesType'
  | 'FixedType'
  | 'LongType'
  | 'LogicalType'
  | 'UnwrappedUnionType'
  | 'WrappedUnionType',
  AvscConstructor
>

/** True for an avsc type (or a type produced by a custom hook that avsc would accept). */
export function isType(value: unknown): value is AvscType {
  return avro.Type.isType(value)
}

/** The type a value of `type` is written as: the underlying type of a logical type, else the type itself. */
export function unwrapLogical(type: AvscType): AvscType {
  let current = type
  while (current.typeName.startsWith('logical:') && current.underlyingType !== undefined) {
    current = current.underlyingType
  }
  return current
}

/** avsc's `AbstractLongType`, not exported by avsc: reached as avsc-surface.ts says (and checks). */
export const AbstractLongType = (() => {
  const found = abstractLongTypeOf(avro as unknown as AvscModule)
  if (found === undefined)
    throw new Error('avsc’s AbstractLongType is no longer reachable through LongType.__with')
  return found as unknown as AvscConstructor
})()

/** The avsc classes `inherit` may extend, by the name avsc-surface.ts lists their members under. */
const CLASS_NAMES = new Map<unknown, string>([
  ...Object.entries(builtins).map(([name, Class]) => [Class, name] as const),
  [AbstractLongType, 'AbstractLongType'],
])

/** The underscore members avsc-surface.ts lists, by class: the only ones `inherit` lets a subclass override. */
const LISTED = new Set(AVSC_INTERNALS.map((internal) => internal.name))

/**
 * Sets up `Sub` as a subclass of one of avsc's ES5 type constructors. Used where the subclass must store state
 * before avsc's constructor runs: avsc freezes its type instances at the end of their constructor, so an ES class
 * (which can only touch `this` after `super()`) could not add anything. Overriding an underscore member that
 * avsc-surface.ts does not list is refused when the module loads: each must be listed, so that its shape is checked.
 */
export function inherit(
  Sub: { prototype: object },
  Base: AvscConstructor,
  methods: Record<string, unknown>,
): void {
  const className = CLASS_NAMES.get(Base) ?? 'an unknown avsc class'
  for (const name of Object.keys(methods)) {
    if (name.startsWith('_') && !LISTED.has(`${className}#${name}`)) {
      throw new Error(`${className}#${name} is overridden but not listed in avsc-surface.ts`)
    }
  }
  Sub.prototype = Object.create(Base.prototype, {
    constructor: { value: Sub, writable: true, configurable: true },
  })
  Object.assign(Sub.prototype, methods)
}

/** Defines `key` as an own enumerable data property, even for keys such as `__proto__`. */
export function defineOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true })
}

/**
 * Whether a reader type can read a writer type of that name: the writer's (full, or with `strict` off unqualified)
 * name equals the reader's name or one of its aliases (avsc's `hasCompatibleName`).
 */
export function compatibleName(reader: AvscType, writer: AvscType, strict: boolean): boolean {
  if (!writer.name) return true
  const unqualify = (name: string) => name.slice(name.lastIndexOf('.') + 1)
  const wanted = strict ? writer.name : unqualify(writer.name)
  const names = [reader.name, ...(reader.aliases ?? [])].filter((name): name is string => name !== undefined)
  return names.some((name) => (strict ? name : unqualify(name)) === wanted)
}

export { avro }
