import { describeValue, invalidConfigError } from '@x/errors'
import { BUILTIN_LOGICAL_TYPES } from './logical-types.js'

/** How Avro `long` values are represented in JavaScript. See docs/type-mapping.md. */
export type LongMode = 'auto' | 'number' | 'bigint'

/** How Avro union values are represented in JavaScript. See docs/type-mapping.md. */
export type UnionMode = 'auto' | 'wrapped'

/** A logical type implementation: a subclass of avsc's `LogicalType` (`avro.types.LogicalType`). */
export type LogicalTypeConstructor = new (...args: any[]) => unknown

/** avsc's `typeHook`: called for every schema before avsc parses it; return an avsc type to use it instead. */
export type AvroTypeHook = (schema: unknown, opts: unknown) => unknown

/** Options of the Avro codec (the `avro` option of `AvroSerializer` and `AvroDeserializer`). */
export interface AvroOptions {
  /**
   * How `long` values are decoded. `'auto'`: a `number` while it is a safe integer, a `bigint` beyond (never
   * rounded). `'number'`: always a `number`; a value outside the safe integer range throws a `RangeError` (code
   * `INVALID_DATA`). `'bigint'`: always a `bigint`. On write every mode takes a `bigint` (exact, within the signed
   * 64-bit range) or a safe integer `number`; a `number` outside the safe range is refused with a `TypeError`
   * (code `INVALID_DATA`), as it may already have been rounded.
   * @default 'auto'
   */
  longs?: LongMode
  /**
   * How union values are represented. `'auto'`: the bare value where no two branches could take the same
   * JavaScript value (e.g. `["null", "string"]`), else wrapped as `{ [branchName]: value }` (e.g. `["int", "long"]`
   * or a union of two records). `'wrapped'`: always `{ [branchName]: value }`; `null` stays `null`.
   * @default 'auto'
   */
  unions?: UnionMode
  /**
   * Extra logical types, by `logicalType` name: avsc `LogicalType` subclasses, merged over the built-in ones
   * (so a name such as `'decimal'` replaces the built-in). `null` turns a built-in off: that logical type is then
   * read and written as its underlying type.
   * @default {}
   */
  logicalTypes?: Readonly<Record<string, LogicalTypeConstructor | null>>
  /**
   * avsc's `typeHook`, called before this library's own handling of each schema; a type it returns is used as is.
   * @default undefined
   */
  typeHook?: AvroTypeHook
}

/** `AvroOptions` validated, with every default applied and the logical types merged. Frozen. */
export interface NormalizedAvroOptions {
  readonly longs: LongMode
  readonly unions: UnionMode
  /** Built-in and user logical types by name (built-ins turned off with `null` are absent). */
  readonly logicalTypes: Readonly<Record<string, LogicalTypeConstructor>>
  readonly typeHook: AvroTypeHook | undefined
}

const OPTION_NAMES = ['longs', 'unions', 'logicalTypes', 'typeHook']
const LONG_MODES: readonly string[] = ['auto', 'number', 'bigint']
const UNION_MODES: readonly string[] = ['auto', 'wrapped']

/**
 * Validates `options` and applies the defaults. Throws a `TypeError` (code `INVALID_CONFIG`) for an unknown option
 * or a value of the wrong kind.
 */
export function normalizeAvroOptions(options?: AvroOptions): NormalizedAvroOptions {
  if (options === undefined) return DEFAULT_OPTIONS
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw invalidConfigError(`avro options must be an object, got ${describeValue(options)}`)
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw invalidConfigError(`Unknown avro option '${key}': expected one of ${OPTION_NAMES.join(', ')}`)
    }
  }
  const longs = options.longs ?? 'auto'
  if (!LONG_MODES.includes(longs)) {
    throw invalidConfigError(`avro.longs must be 'auto', 'number' or 'bigint', got ${describeValue(longs)}`)
  }
  const unions = options.unions ?? 'auto'
  if (!UNION_MODES.includes(unions)) {
    throw invalidConfigError(`avro.unions must be 'auto' or 'wrapped', got ${describeValue(unions)}`)
  }
  const typeHook = options.typeHook
  if (typeHook !== undefined && typeof typeHook !== 'function') {
    throw invalidConfigError(`avro.typeHook must be a function, got ${describeValue(typeHook)}`)
  }
  const logicalTypes: Record<string, LogicalTypeConstructor> = { ...BUILTIN_LOGICAL_TYPES }
  if (options.logicalTypes !== undefined) {
    const extra = options.logicalTypes
    if (typeof extra !== 'object' || extra === null || Array.isArray(extra)) {
      throw invalidConfigError(
        `avro.logicalTypes must be an object of constructors, got ${describeValue(extra)}`,
      )
    }
    for (const [name, ctor] of Object.entries(extra)) {
      if (ctor === null) {
        delete logicalTypes[name]
      } else if (typeof ctor === 'function') {
        logicalTypes[name] = ctor
      } else {
        throw invalidConfigError(
          `avro.logicalTypes['${name}'] must be a LogicalType subclass or null, got ${describeValue(ctor)}`,
        )
      }
    }
  }
  return Object.freeze({
    longs: longs as LongMode,
    unions: unions as UnionMode,
    logicalTypes: Object.freeze(logicalTypes),
    typeHook,
  })
}

const DEFAULT_OPTIONS: NormalizedAvroOptions = Object.freeze({
  longs: 'auto',
  unions: 'auto',
  logicalTypes: Object.freeze({ ...BUILTIN_LOGICAL_TYPES }),
  typeHook: undefined,
})
