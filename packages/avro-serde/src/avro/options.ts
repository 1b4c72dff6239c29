import { describeValue, invalidConfigError } from '@x/errors'
import { builtins } from './avsc-internals.js'
import { AVSC_VERSION } from './avsc-surface.js'
import { BUILTIN_LOGICAL_TYPES } from './logical-types.js'

/** How Avro `long` values are represented in JavaScript. See docs/type-mapping.md. */
export type LongMode = 'auto' | 'number' | 'bigint'

/** How Avro union values are represented in JavaScript. See docs/type-mapping.md. */
export type UnionMode = 'auto' | 'wrapped'

/**
 * How the Avro payload is encoded: Avro binary, or Avro's JSON encoding (`apicurio.registry.avro.encoding`); on
 * deserializers also `'auto'`, binary first and Avro's JSON encoding when the binary read fails.
 */
export type AvroEncoding = 'binary' | 'json' | 'auto'

/**
 * A logical type implementation: a subclass of avsc's `LogicalType` (`avro.types.LogicalType`, with
 * `import avro from 'avsc'`) implementing avsc's `_fromValue`, `_toValue` and `_resolve`. avsc calls it with the
 * schema object and its parse options.
 *
 * Typed as any constructor on purpose, not as avsc's own `types.LogicalType`: with avsc's class in this signature,
 * this package's published types would import avsc's typings, making them part of its API (a change in them a
 * breaking change here) for every user, including the many who never write a logical type. What a type could not
 * say is checked when the options are read instead: the class must extend the `LogicalType` of the very avsc this
 * package loads (5.7.9, which it checks at load time); one extending another copy of avsc (an application's own
 * avsc of another version) is refused with a `TypeError` (code `INVALID_CONFIG`), where it would otherwise parse
 * its underlying type with the wrong copy.
 */
export type LogicalTypeConstructor = new (...args: any[]) => unknown

/**
 * avsc's `typeHook`: called with every schema (an object, an array for a union, or a type name) and avsc's parse
 * options before this library's own handling of it; return an avsc type (made with the avsc this package loads) to
 * use it instead, or `undefined` to leave the schema to this library.
 *
 * Its parameters and result are `unknown` on purpose, not avsc's `Schema`, `ForSchemaOptions` and `Type`: those
 * would bring avsc's typings into this package's published types (see {@link LogicalTypeConstructor}), and a hook
 * has to check what it is given anyway.
 */
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
  /**
   * The payload's encoding, as Apicurio's Java serdes' `apicurio.registry.avro.encoding`: `'binary'` (Avro binary),
   * or `'json'`: Avro's JSON encoding (unions as `{"<branch>": value}`, bytes and fixed as strings of code points
   * 0–255, longs exact to 64 bits, logical types as their underlying type), compact text byte for byte as Java
   * writes it. In `MESSAGE_HEADERS` mode a serializer with `'json'` also writes the header
   * `apicurio.<key|value>.encoding` = `JSON`, as Java does; `deserializeMessage` follows a message's encoding header
   * (`JSON` or `BINARY`) whatever this option says, and uses this option for messages without one.
   *
   * `'auto'` (deserializers only; a serializer refuses it) reads a topic that holds both without the header: the
   * payload is read as Avro binary first, and as Avro's JSON encoding only when that read fails and the payload is
   * UTF-8 JSON text of the schema. Its limits: a JSON payload whose bytes also happen to be a complete binary value
   * of the schema is read as binary (the header, when the producer writes it, decides instead); a payload that is
   * neither costs both reads before its `DeserializationError`, which gives both reasons.
   * @default 'binary'
   */
  encoding?: AvroEncoding
}

/** `AvroOptions` validated, with every default applied and the logical types merged. Frozen. */
export interface NormalizedAvroOptions {
  readonly longs: LongMode
  readonly unions: UnionMode
  /** Built-in and user logical types by name (built-ins turned off with `null` are absent). */
  readonly logicalTypes: Readonly<Record<string, LogicalTypeConstructor>>
  readonly typeHook: AvroTypeHook | undefined
  readonly encoding: AvroEncoding
}

const OPTION_NAMES = ['longs', 'unions', 'logicalTypes', 'typeHook', 'encoding']
const LONG_MODES: readonly string[] = ['auto', 'number', 'bigint']
const UNION_MODES: readonly string[] = ['auto', 'wrapped']
const ENCODINGS: readonly string[] = ['binary', 'json', 'auto']

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
  const encoding = options.encoding ?? 'binary'
  if (!ENCODINGS.includes(encoding)) {
    throw invalidConfigError(
      `avro.encoding must be 'binary', 'json' or 'auto', got ${describeValue(encoding)}`,
    )
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
      } else if (typeof ctor === 'function' && ctor.prototype instanceof builtins.LogicalType) {
        logicalTypes[name] = ctor
      } else if (typeof ctor === 'function') {
        throw invalidConfigError(
          `avro.logicalTypes['${name}'] must extend the LogicalType of avsc ${AVSC_VERSION} that @x/avro-serde ` +
            `loads (import avro from 'avsc'; avro.types.LogicalType), got a function that does not; a class ` +
            `extending another copy of avsc (of another version) cannot be mixed with this one`,
        )
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
    encoding: encoding as AvroEncoding,
  })
}

const DEFAULT_OPTIONS: NormalizedAvroOptions = Object.freeze({
  longs: 'auto',
  unions: 'auto',
  logicalTypes: Object.freeze({ ...BUILTIN_LOGICAL_TYPES }),
  typeHook: undefined,
  encoding: 'binary',
})
