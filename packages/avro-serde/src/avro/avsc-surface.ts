import { avro } from './avsc-types.js'
import type { ResolvedAvsc } from './avsc-version.js'

/**
 * Every part of avsc that this layer relies on beyond avsc's documented API, in one list: the private type classes it
 * subclasses and their underscore members, avsc's `Tap`, the unexported `AbstractLongType` (reached through the
 * prototype of a `LongType.__with` instance), and the `typeName` strings the layer switches on. Each entry knows how
 * to tell that avsc still has it in the shape the layer was written for (a function of the same arity, a hook avsc
 * still calls).
 *
 * avsc-internals.ts takes `AbstractLongType` from here, and its `inherit` refuses to override an underscore member
 * not listed here; avsc-surface.test.ts fails, naming the entry, when one no longer holds, and scans the layer's
 * sources for underscore members and `Tap` methods missing from this list. The version check at load time
 * (`checkAvscVersion`) makes sure that the avsc found is the one these entries were checked against.
 */

/** The avsc version this layer was written and checked for: `dependencies.avsc` in package.json pins it exactly. */
export const AVSC_VERSION = '5.7.9'

/** avsc as imported (its CommonJS exports): what the checks below read. */
export interface AvscModule {
  readonly Type: unknown
  readonly types: Record<string, unknown>
}

type Fn = ((...args: unknown[]) => unknown) & { prototype: Record<string, unknown> }

/** One internal of avsc this layer uses. */
export interface AvscInternal {
  /** As avsc names it: `RecordType#_createWriter`, `Tap#writeLong`, `LongType.__with`, … */
  readonly name: string
  /** What this layer does with it. */
  readonly use: string
  /** What is wrong with it in `avsc`, or undefined when it has the shape this layer needs. */
  problem(avsc: AvscModule): string | undefined
}

/** The `typeName` strings the layer switches on, by what avsc gives them to. */
export const TYPE_NAMES = {
  primitives: ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'],
  named: { record: 'record', error: 'error', enum: 'enum', fixed: 'fixed' },
  collections: { array: 'array', map: 'map' },
  unions: { wrapped: 'union:wrapped', unwrapped: 'union:unwrapped' },
  abstractLong: 'abstract:long',
  logicalPrefix: 'logical:',
} as const

/**
 * The underscore fields the layer keeps on its own subclasses' instances (not avsc's), by the avsc class extended:
 * checked not to clash with anything avsc has.
 */
export const OWN_FIELDS: Readonly<Record<string, string>> = {
  _limits: 'ArrayType',
  _index: 'EnumType',
  _byKind: 'UnwrappedUnionType',
  _mode: 'AbstractLongType',
}

// ---------------------------------------------------------------------------------------------------------------
// Access paths (used by avsc-internals.ts as well as by the checks).

function isFn(value: unknown): value is Fn {
  return typeof value === 'function'
}

function classOf(avsc: AvscModule, name: string): Fn | undefined {
  if (name === 'Type') return isFn(avsc.Type) ? avsc.Type : undefined
  if (name === 'AbstractLongType') return abstractLongTypeOf(avsc)
  if (name === 'Tap') return tapClassOf(avsc)
  const found = avsc.types[name]
  return isFn(found) ? found : undefined
}

const STUB_LONG_METHODS = Object.freeze({
  toBuffer: () => undefined,
  fromBuffer: () => undefined,
  fromJSON: () => undefined,
  toJSON: () => undefined,
  isValid: () => true,
  compare: () => 0,
})

/**
 * avsc's `AbstractLongType`, which avsc does not export: the constructor of the prototype of what
 * `LongType.__with(methods, noUnpack)` returns. Undefined when that path no longer leads to it.
 */
export function abstractLongTypeOf(avsc: AvscModule): Fn | undefined {
  const LongType = avsc.types.LongType as { __with?: unknown } | undefined
  if (LongType === undefined || !isFn(LongType.__with)) return undefined
  try {
    const instance = LongType.__with(STUB_LONG_METHODS, true)
    const found = (Object.getPrototypeOf(instance) as { constructor?: unknown } | null)?.constructor
    return isFn(found) && found.prototype.typeName === TYPE_NAMES.abstractLong ? found : undefined
  } catch {
    return undefined
  }
}

/** avsc's `Tap` (not exported either): the class of the cursor `Type#decode` hands to `_read`. */
function tapClassOf(avsc: AvscModule): Fn | undefined {
  const decode = isFn(avsc.Type) ? avsc.Type.prototype.decode : undefined
  if (!isFn(decode)) return undefined
  let tap: unknown
  try {
    const capture = (t: unknown): void => {
      tap = t
    }
    decode.call({ _read: capture }, Buffer.alloc(1), 0)
  } catch {
    return undefined
  }
  const found =
    tap === undefined ? undefined : (Object.getPrototypeOf(tap) as { constructor?: unknown }).constructor
  return isFn(found) ? found : undefined
}

// ---------------------------------------------------------------------------------------------------------------
// Entry builders.

/**
 * `Class#member`: a function on the class's prototype (own or inherited), of `arity` parameters as avsc declares
 * it (its calling convention, which the layer's overrides and calls follow).
 */
function member(className: string, name: string, arity: number, use: string): AvscInternal {
  return {
    name: `${className}#${name}`,
    use,
    problem(avsc) {
      const Class = classOf(avsc, className)
      if (Class === undefined) return `avsc has no ${className}`
      const found = Class.prototype[name]
      if (!isFn(found)) return `${className}.prototype.${name} is ${typeof found}, not a function`
      if (found.length !== arity)
        return `${className}.prototype.${name} takes ${found.length} parameters, not ${arity}`
      return undefined
    },
  }
}

/** `Class.member`: a function on the class itself, of `arity` parameters. */
function staticMember(className: string, name: string, arity: number, use: string): AvscInternal {
  return {
    name: `${className}.${name}`,
    use,
    problem(avsc) {
      const Class = classOf(avsc, className) as (Fn & Record<string, unknown>) | undefined
      if (Class === undefined) return `avsc has no ${className}`
      const found = Class[name]
      if (!isFn(found)) return `${className}.${name} is ${typeof found}, not a function`
      if (found.length !== arity) return `${className}.${name} takes ${found.length} parameters, not ${arity}`
      return undefined
    },
  }
}

/** `Class(...)`: a constructor of `arity` parameters, which the layer calls on its own instances. */
function constructorOf(className: string, arity: number, use: string): AvscInternal {
  return {
    name: className,
    use,
    problem(avsc) {
      const Class = classOf(avsc, className)
      if (Class === undefined) return `avsc has no ${className} constructor (or it is no longer reachable)`
      if (Class.length !== arity) return `${className} takes ${Class.length} parameters, not ${arity}`
      return undefined
    },
  }
}

/** A behaviour of avsc the layer relies on, checked by running it: `run` throws or returns what went wrong. */
function behaviour(name: string, use: string, run: (avsc: AvscModule) => string | undefined): AvscInternal {
  return {
    name,
    use,
    problem(avsc) {
      try {
        return run(avsc)
      } catch (error) {
        return `checking it threw: ${error instanceof Error ? error.message : String(error)}`
      }
    },
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers of the behaviour checks.

type TypeLike = {
  typeName: string
  branchName?: string
  encode(value: unknown, buf: Buffer, pos?: number): number
  decode(buf: Buffer, pos?: number, resolver?: unknown): { value: unknown; offset: number }
  createResolver(writer: unknown): unknown
  isValid(value: unknown): boolean
}

function forSchema(avsc: AvscModule, schema: unknown, opts?: object): TypeLike {
  return (avsc.Type as { forSchema(schema: unknown, opts?: object): TypeLike }).forSchema(schema, opts)
}

function newTap(avsc: AvscModule, bytes: number[]): { pos: number; buf: Buffer } {
  const Tap = tapClassOf(avsc)
  if (Tap === undefined) throw new Error('avsc has no Tap')
  return new (Tap as unknown as new (buf: Buffer, pos: number) => { pos: number; buf: Buffer })(
    Buffer.from(bytes),
    0,
  )
}

/** A subclass of avsc's `className` whose prototype overrides `methods` (as avsc-internals.ts's `inherit` does). */
function subclass(avsc: AvscModule, className: string, methods: Record<string, unknown>): Fn {
  const Base = classOf(avsc, className)
  if (Base === undefined) throw new Error(`avsc has no ${className}`)
  const Sub = function (this: object, ...args: unknown[]) {
    Base.apply(this, args)
  } as unknown as Fn
  Sub.prototype = Object.assign(Object.create(Base.prototype), methods)
  return Sub
}

// ---------------------------------------------------------------------------------------------------------------
// The list.

const TAP_METHODS: ReadonlyArray<readonly [string, number, string]> = [
  ['readLong', 0, 'block counts of arrays and maps, enum indices, decimal lengths'],
  ['readInt', 0, 'the days of a `date`'],
  ['readString', 0, 'map keys'],
  ['skipLong', 0, 'the byte size of a negative-count block'],
  ['skipString', 0, 'map keys of a skipped map'],
  ['writeLong', 1, 'block counts, enum and union indices, small longs, decimal lengths'],
  ['writeString', 1, 'map keys, strings'],
  // The primitives' writers check the value, then write it with these (not with avsc's `_write`, which checks it
  // again: measured 7-14 % slower on the bench record).
  ['writeBoolean', 1, 'booleans'],
  ['writeInt', 1, 'ints'],
  ['writeFloat', 1, 'floats'],
  ['writeDouble', 1, 'doubles'],
  ['writeBytes', 1, 'bytes'],
  ['writeFixed', 2, 'fixed'],
]

/** Every avsc internal the layer uses; avsc-surface.test.ts checks each one against the installed avsc. */
export const AVSC_INTERNALS: readonly AvscInternal[] = [
  // avsc's base Type.
  constructorOf(
    'Type',
    2,
    'the safe enum calls it on its own instance: name, namespace, aliases, registration',
  ),
  member(
    'Type',
    '_createBranchConstructor',
    0,
    'the safe enum builds the branch constructor avsc types keep',
  ),
  member(
    'Type',
    '_check',
    0,
    'called on any type (value, flags, hook, path) by the map checker and validate.ts',
  ),
  behaviour(
    'EnumType#_branchConstructor, an own field of every enum type that _createBranchConstructor made',
    'the safe enum sets the field itself, as avsc’s enum constructor does',
    (avsc) => {
      const type = forSchema(avsc, { type: 'enum', name: 'E', symbols: ['A'] }) as unknown as Record<
        string,
        unknown
      >
      return Object.hasOwn(type, '_branchConstructor')
        ? undefined
        : 'an enum type has no own `_branchConstructor`'
    },
  ),
  behaviour(
    `the layer's own fields (${Object.keys(OWN_FIELDS).join(', ')}) are not avsc's`,
    'state the safe types keep on avsc’s frozen instances must not hide a member avsc has',
    (avsc) => {
      const LongType = avsc.types.LongType as unknown as {
        __with(methods: object, noUnpack: boolean): object
      }
      const instances: Record<string, object> = {
        ArrayType: forSchema(avsc, { type: 'array', items: 'int' }),
        EnumType: forSchema(avsc, { type: 'enum', name: 'E', symbols: ['A'] }),
        UnwrappedUnionType: forSchema(avsc, ['null', 'int'], { wrapUnions: false }),
        AbstractLongType: LongType.__with(STUB_LONG_METHODS, true),
      }
      const clashes = Object.entries(OWN_FIELDS)
        .filter(([field, className]) => field in (instances[className] ?? {}))
        .map(([field, className]) => `${className} has ${field}`)
      return clashes.length === 0 ? undefined : clashes.join(', ')
    },
  ),
  behaviour(
    'Type(schema, opts) registers the named type in opts.registry',
    'the safe enum is found by name (and a duplicate refused) like avsc’s own',
    (avsc) => {
      const registry: Record<string, unknown> = {}
      const self = {}
      ;(avsc.Type as Fn).call(self, { name: 'probe.Named' }, { registry })
      return registry['probe.Named'] === self ? undefined : 'the type was not registered under its full name'
    },
  ),
  behaviour(
    'Type#createResolver calls _update(resolver, writer, opts) and reads resolver._read',
    'every safe type and logical type resolves writer schemas in its `_update`',
    (avsc) => {
      const read = () => 'resolved'
      const Sub = subclass(avsc, 'IntType', {
        _update(resolver: { _read: unknown }) {
          resolver._read = read
        },
      })
      const resolver = forSchema(avsc, 'int').createResolver.call(
        new (Sub as unknown as new () => object)(),
        forSchema(avsc, 'int'),
      )
      return (resolver as { _read?: unknown })._read === read
        ? undefined
        : '`_update` was not called or its `_read` not kept'
    },
  ),
  behaviour(
    'Type#decode passes our Resolver to its _read, and reports data that ends early as offset -1',
    'the codec decodes with resolvers from `createResolver` and reads a short datum as truncated',
    (avsc) => {
      const type = forSchema(avsc, 'long')
      const { offset } = type.decode(Buffer.from([0x80]), 0)
      return offset === -1 ? undefined : `a truncated long decoded to offset ${offset}, not -1`
    },
  ),
  behaviour(
    'Type#encode returns the bytes missing as a negative number when the buffer is too small',
    'the codec grows its scratch buffer by what `encodeInto` says is missing',
    (avsc) => {
      const end = forSchema(avsc, 'string').encode('abcdef', Buffer.alloc(2), 0)
      return end === -5 ? undefined : `encoding 7 bytes into 2 returned ${end}, not -5`
    },
  ),
  behaviour('typeName of every kind of type', 'the switches on `typeName` in the layer', (avsc) => {
    const wrong: string[] = []
    const expect = (what: string, type: TypeLike, typeName: string) => {
      if (type.typeName !== typeName) wrong.push(`${what} is '${type.typeName}', not '${typeName}'`)
    }
    for (const name of TYPE_NAMES.primitives) expect(name, forSchema(avsc, name), name)
    expect('record', forSchema(avsc, { type: 'record', name: 'R', fields: [] }), TYPE_NAMES.named.record)
    expect('error', forSchema(avsc, { type: 'error', name: 'E', fields: [] }), TYPE_NAMES.named.error)
    expect('enum', forSchema(avsc, { type: 'enum', name: 'N', symbols: ['A'] }), TYPE_NAMES.named.enum)
    expect('fixed', forSchema(avsc, { type: 'fixed', name: 'F', size: 1 }), TYPE_NAMES.named.fixed)
    expect('array', forSchema(avsc, { type: 'array', items: 'int' }), TYPE_NAMES.collections.array)
    expect('map', forSchema(avsc, { type: 'map', values: 'int' }), TYPE_NAMES.collections.map)
    expect('wrapped union', forSchema(avsc, ['null', 'int'], { wrapUnions: true }), TYPE_NAMES.unions.wrapped)
    expect(
      'unwrapped union',
      forSchema(avsc, ['null', 'int'], { wrapUnions: false }),
      TYPE_NAMES.unions.unwrapped,
    )
    const Logical = avsc.types.LogicalType as Fn
    class Probe extends (Logical as unknown as new (schema: unknown, opts: unknown) => object) {
      _fromValue(v: unknown) {
        return v
      }
      _toValue(v: unknown) {
        return v
      }
      _resolve() {
        return undefined
      }
    }
    const logical = forSchema(avsc, { type: 'int', logicalType: 'probe' }, { logicalTypes: { probe: Probe } })
    expect('logical type', logical, `${TYPE_NAMES.logicalPrefix}probe`)
    return wrong.length === 0 ? undefined : wrong.join('; ')
  }),

  // The primitives (safe-primitives.ts): own writers in front of avsc's.
  ...['NullType', 'BooleanType', 'IntType', 'FloatType', 'DoubleType', 'StringType'].flatMap((name) => [
    constructorOf(name, 0, 'the safe primitive calls it on its own instance'),
    member(name, '_write', 2, 'overridden: the safe primitive checks the value, then writes it with the Tap'),
  ]),
  member('StringType', '_read', 1, 'overridden: short ASCII strings read without utf8Slice (strings.ts)'),
  member(
    'StringType',
    '_update',
    2,
    'inherited: resolves string and bytes writers with this `_read`, unbound',
  ),

  // The enum (safe-enum.ts): rebuilt on Type, avsc's reader and schema export kept.
  member('EnumType', '_check', 3, 'overridden: symbols looked up in a Map'),
  member('EnumType', '_write', 2, 'overridden: symbols looked up in a Map'),
  member('EnumType', '_copy', 1, 'overridden: symbols looked up in a Map'),
  member('EnumType', '_update', 3, 'overridden: resolution by symbol, with the reader’s default'),
  member('EnumType', '_skip', 1, 'inherited: skips an index'),
  behaviour(
    'EnumType#_read reads the symbol at the index from this.symbols',
    'the safe enum keeps avsc’s reader, which must find its symbols where the safe enum stores them',
    (avsc) => {
      const read = (avsc.types.EnumType as Fn).prototype._read as (this: object, tap: unknown) => unknown
      const symbol = read.call({ symbols: ['A', 'B'] }, newTap(avsc, [0x02]))
      return symbol === 'B' ? undefined : `index 1 of [A, B] read as ${String(symbol)}`
    },
  ),

  // Arrays and maps (safe-collections.ts).
  constructorOf('ArrayType', 2, 'the safe array calls it on its own instance'),
  member('ArrayType', '_write', 2, 'overridden: a refused value costs nothing to describe'),
  member('ArrayType', '_read', 1, 'overridden: block counts bounded by the bytes left'),
  member('ArrayType', '_skip', 1, 'overridden: block counts bounded by the bytes left'),
  member('ArrayType', '_update', 3, 'overridden: the resolver reads with bounded block counts'),
  constructorOf('MapType', 2, 'the safe map calls it on its own instance'),
  member('MapType', '_read', 1, 'overridden: `__proto__` keys kept as own properties'),
  member('MapType', '_skip', 1, 'overridden: block counts bounded by the bytes left'),
  member('MapType', '_write', 2, 'overridden: JavaScript Maps written, a refused value costs nothing'),
  member('MapType', '_check', 4, 'overridden, and called for plain objects (value, flags, hook, path)'),
  member('MapType', '_copy', 2, 'overridden: `__proto__` keys kept as own properties'),
  member('MapType', '_update', 3, 'overridden: the resolver reads with bounded block counts'),
  behaviour(
    'RecordType#_update skips a writer-only field with its type’s _skip',
    'a writer-only array or map field is skipped with the bounded `_skip` of the safe types',
    (avsc) => {
      let skipped = false
      const Spy = subclass(avsc, 'ArrayType', {
        _skip(this: { itemsType: unknown }, tap: unknown) {
          skipped = true
          ;((avsc.types.ArrayType as Fn).prototype._skip as (this: unknown, tap: unknown) => void).call(
            this,
            tap,
          )
        },
      })
      const typeHook = (schema: { type?: unknown }, opts: unknown) =>
        schema.type === 'array'
          ? new (Spy as unknown as new (s: unknown, o: unknown) => unknown)(schema, opts)
          : undefined
      const writer = forSchema(
        avsc,
        {
          type: 'record',
          name: 'R',
          fields: [
            { name: 'a', type: { type: 'array', items: 'int' } },
            { name: 'b', type: 'int' },
          ],
        },
        { typeHook },
      )
      const reader = forSchema(avsc, { type: 'record', name: 'R', fields: [{ name: 'b', type: 'int' }] })
      const { value } = reader.decode(Buffer.from([0x02, 0x02, 0x00, 0x04]), 0, reader.createResolver(writer))
      return skipped && (value as { b?: unknown }).b === 2
        ? undefined
        : 'the writer-only field was not skipped with its `_skip`'
    },
  ),

  // Records (safe-records.ts).
  constructorOf('RecordType', 2, 'the safe record calls it on its own instance'),
  member('RecordType', '_createConstructor', 2, 'overridden for fields named like Object.prototype members'),
  member('RecordType', '_createWriter', 0, 'overridden for fields named like Object.prototype members'),
  member('RecordType', '_createChecker', 0, 'overridden for fields named like Object.prototype members'),
  member('RecordType', '_checkFields', 1, 'overridden: the checker of undeclared fields'),
  member(
    'RecordType',
    '_update',
    3,
    'overridden for fields named like Object.prototype members, else called',
  ),
  member('RecordType', '_getConstructorName', 0, 'names the record constructor the safe record builds'),
  behaviour(
    'RecordType(schema, opts) builds its constructor, writer and checker with _createConstructor, _createWriter, _createChecker',
    'the safe record substitutes its own code through these three',
    (avsc) => {
      const called = new Set<string>()
      const base = (avsc.types.RecordType as Fn).prototype
      const spy = (name: string) =>
        function (this: unknown, ...args: unknown[]) {
          called.add(name)
          return (base[name] as (...a: unknown[]) => unknown).apply(this, args)
        }
      const Sub = subclass(avsc, 'RecordType', {
        _createConstructor: spy('_createConstructor'),
        _createWriter: spy('_createWriter'),
        _createChecker: spy('_createChecker'),
      })
      const type = forSchema(
        avsc,
        { type: 'record', name: 'R', fields: [{ name: 'a', type: 'int' }] },
        {
          typeHook: (schema: { type?: unknown }, opts: unknown) =>
            schema.type === 'record'
              ? new (Sub as unknown as new (s: unknown, o: unknown) => unknown)(schema, opts)
              : undefined,
        },
      )
      type.encode({ a: 1 }, Buffer.alloc(8), 0)
      type.isValid({ a: 1 })
      const missing = ['_createConstructor', '_createWriter', '_createChecker'].filter(
        (name) => !called.has(name),
      )
      return missing.length === 0 ? undefined : `not called: ${missing.join(', ')}`
    },
  ),

  // Bytes and fixed (safe-bytes.ts).
  constructorOf('BytesType', 0, 'the safe bytes type calls it on its own instance'),
  member('BytesType', '_write', 2, 'overridden: any Uint8Array'),
  member('BytesType', '_check', 3, 'overridden: any Uint8Array'),
  constructorOf('FixedType', 2, 'the safe fixed type calls it on its own instance'),
  member('FixedType', '_write', 2, 'overridden: any Uint8Array'),
  member('FixedType', '_check', 3, 'overridden: any Uint8Array'),

  // Unions (unions.ts).
  constructorOf('UnwrappedUnionType', 2, 'called with the parsed branch types as its schema'),
  member(
    'UnwrappedUnionType',
    '_getIndex',
    1,
    'overridden: the branch by the kind of the value (bigint, Date)',
  ),
  member('UnwrappedUnionType', '_write', 2, 'overridden: the branch by kind, a refused value costs nothing'),
  member('UnwrappedUnionType', '_check', 4, 'inherited: asks `_getIndex`'),
  constructorOf('WrappedUnionType', 2, 'called with the parsed branch types as its schema'),
  member('WrappedUnionType', '_write', 2, 'overridden: branch names never looked up in Object.prototype'),
  member('WrappedUnionType', '_check', 4, 'overridden: branch names never looked up in Object.prototype'),
  behaviour(
    'UnwrappedUnionType and WrappedUnionType take already parsed branch types as their schema',
    'createUnion builds the union of branches the hook parsed itself',
    (avsc) => {
      const branches = [forSchema(avsc, 'null'), forSchema(avsc, 'int')]
      for (const name of ['UnwrappedUnionType', 'WrappedUnionType']) {
        const Union = avsc.types[name] as unknown as new (b: unknown, o: unknown) => { types?: unknown[] }
        const union = new Union(branches, {})
        if (union.types?.[1] !== branches[1]) return `${name} did not keep the branch types given`
      }
      return undefined
    },
  ),

  // Longs (longs.ts).
  staticMember('LongType', '__with', 2, 'the path to AbstractLongType (its instance’s prototype)'),
  constructorOf('AbstractLongType', 1, 'the exact long type is its subclass (called with noUnpack = true)'),
  member('AbstractLongType', '_write', 2, 'overridden: exact writes over the signed 64-bit range'),
  member('AbstractLongType', '_copy', 2, 'overridden: the long mode'),
  member(
    'AbstractLongType',
    '_isValid',
    0,
    'overridden (a `LongType.__with` method): safe integers and bigints',
  ),
  member('AbstractLongType', '_fromJSON', 0, 'overridden (a `LongType.__with` method): the long mode'),
  member('AbstractLongType', '_toJSON', 0, 'overridden (a `LongType.__with` method)'),
  member('AbstractLongType', '_update', 2, 'inherited: resolution from int and long writers'),
  member('AbstractLongType', '_skip', 1, 'inherited: skips a varint'),
  behaviour(
    'AbstractLongType#_check asks _isValid, and #_update reads an int writer through _fromJSON',
    'the exact long type’s `_isValid` and `_fromJSON` are what avsc calls for these',
    (avsc) => {
      const LongType = avsc.types.LongType as unknown as {
        __with(methods: object, noUnpack: boolean): TypeLike
      }
      const type = LongType.__with(
        { ...STUB_LONG_METHODS, isValid: (v: unknown) => v === 'ok', fromJSON: (v: unknown) => `json:${v}` },
        true,
      )
      if (!type.isValid('ok') || type.isValid(1)) return '`_check` no longer asks `_isValid`'
      const { value } = type.decode(Buffer.from([0x02]), 0, type.createResolver(forSchema(avsc, 'int')))
      return value === 'json:1' ? undefined : 'an int writer is no longer read through `_fromJSON`'
    },
  ),
  behaviour(
    'AbstractLongType#branchName is long (its _concreteTypeName)',
    'a wrapped union writes and reads a long branch as `{ long: … }`',
    (avsc) => {
      const LongType = avsc.types.LongType as unknown as {
        __with(methods: object, noUnpack: boolean): TypeLike
      }
      const name = LongType.__with(STUB_LONG_METHODS, true).branchName
      return name === 'long' ? undefined : `its branch name is ${String(name)}`
    },
  ),

  // Logical types (logical-base.ts, logical-types.ts, decimal.ts): avsc's documented LogicalType hooks, plus these.
  constructorOf('LogicalType', 2, 'the built-in logical types extend it'),
  member('LogicalType', '_update', 3, 'overridden: resolution of logical types'),
  member('LogicalType', '_read', 1, 'overridden by the fast readers (dates, longs, decimals)'),
  member('LogicalType', '_write', 2, 'overridden by the fast writers; called by the decimal’s slow path'),
  member('LogicalType', '_fromValue', 0, 'implemented (avsc’s documented hook for LogicalType subclasses)'),
  member('LogicalType', '_toValue', 0, 'implemented (avsc’s documented hook for LogicalType subclasses)'),
  member('LogicalType', '_resolve', 0, 'implemented (avsc’s documented hook for LogicalType subclasses)'),
  member(
    'LogicalType',
    '_export',
    0,
    'implemented by the decimal (avsc’s documented hook for LogicalType subclasses)',
  ),
  behaviour(
    'LogicalType#_write writes _toValue(value) with the underlying type, #_read gives _fromValue of it',
    'the built-in logical types rely on both for their slow paths',
    (avsc) => {
      const Logical = avsc.types.LogicalType as unknown as new (schema: unknown, opts: unknown) => object
      class Probe extends Logical {
        _toValue(v: unknown) {
          return (v as number) + 1
        }
        _fromValue(v: unknown) {
          return `read:${v}`
        }
        _resolve() {
          return undefined
        }
      }
      const type = forSchema(avsc, { type: 'int', logicalType: 'probe' }, { logicalTypes: { probe: Probe } })
      const buf = Buffer.alloc(4)
      const end = type.encode(1, buf, 0)
      return end === 1 && buf[0] === 0x04 && type.decode(buf, 0).value === 'read:2'
        ? undefined
        : 'the value did not go through `_toValue` and `_fromValue`'
    },
  ),

  // The Tap.
  constructorOf('Tap', 2, 'behaviour checks build one (buf, pos); the layer receives them from avsc'),
  ...TAP_METHODS.map(([name, arity, use]) => member('Tap', name, arity, use)),
  behaviour(
    'Tap has buf and pos; reading past the end moves pos beyond buf.length without throwing',
    'the fast readers (longs, decimals, bounded counts) read `buf` at `pos` and leave the end check to avsc',
    (avsc) => {
      const tap = newTap(avsc, [])
      if (!Buffer.isBuffer(tap.buf) || tap.pos !== 0) return 'a tap no longer has `buf` (a Buffer) and `pos`'
      ;(tap as unknown as { readLong(): unknown }).readLong()
      return tap.pos > tap.buf.length
        ? undefined
        : 'reading past the end no longer moves `pos` beyond the end'
    },
  ),
]

/** The entries that no longer hold in `avsc`, as `name: problem` lines (empty when every one holds). */
export function findAvscProblems(avsc: AvscModule = avro as unknown as AvscModule): string[] {
  const problems: string[] = []
  for (const internal of AVSC_INTERNALS) {
    const problem = internal.problem(avsc)
    if (problem !== undefined) problems.push(`${internal.name}: ${problem} (used for: ${internal.use})`)
  }
  return problems
}

/**
 * Refuses an avsc other than `AVSC_VERSION`. The layer subclasses avsc's private classes: another version could
 * write wrong bytes rather than fail, so the error comes at load time and names both versions. When the version
 * cannot be read (a bundle without avsc's `package.json`), every entry of the list is checked instead.
 */
export function checkAvscVersion(
  resolved: ResolvedAvsc,
  avsc: AvscModule = avro as unknown as AvscModule,
): void {
  if (resolved.version === AVSC_VERSION) return
  if (resolved.version !== undefined) {
    throw new Error(
      `@x/avro-serde needs avsc ${AVSC_VERSION} but found avsc ${resolved.version}` +
        `${resolved.where === undefined ? '' : ` (${resolved.where})`}: it builds on avsc internals that change ` +
        `between versions. Let @x/avro-serde have its own avsc ${AVSC_VERSION} (remove the override or ` +
        'resolution that forces another avsc onto it), or use the @x/avro-serde release made for that avsc.',
    )
  }
  const problems = findAvscProblems(avsc)
  if (problems.length > 0) {
    throw new Error(
      `@x/avro-serde needs avsc ${AVSC_VERSION}; the avsc found has no readable version and differs from it: ` +
        problems.join('; '),
    )
  }
}
