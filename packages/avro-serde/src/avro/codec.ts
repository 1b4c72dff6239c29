import {
  DeserializationError,
  dataIssuesError,
  firstItems,
  invalidConfigError,
  invalidDataError,
  messageOf,
} from '@x/errors'
import type { AvscType, Resolver } from './avsc-internals.js'
import { resetZeroByteBudget } from './limits.js'
import { isUnsafeLongError } from './longs.js'
import type { NormalizedAvroOptions } from './options.js'
import { missingNamedType, parseSchema } from './schema-parser.js'
import { findUndeclaredFields } from './undeclared-fields.js'
import { findIssues, type Issue } from './validate.js'

/** One parsed Avro schema: encodes values to Avro binary and decodes Avro binary (with schema resolution). */
export interface AvroCodec {
  /** The avsc `Type` (with this library's long, union, logical and safe types). */
  readonly type: unknown
  /** The schema JSON (a primitive schema given as a name, e.g. `"int"`, is `{ type: 'int' }`). */
  readonly schema: object
  /** The full name of a record, enum or fixed schema (`com.example.User`), for the record strategies. */
  readonly fullName: string | undefined
  /** The same as `fullName` (the name the core's codec interface uses). */
  readonly recordName: string | undefined
  /**
   * Writes the Avro binary of `value` into `target` from `offset`. Returns the end offset, or a negative number:
   * the bytes missing when `target` is too small (grow it by at least that much and call again). A value that does
   * not match the schema: `TypeError` (code `INVALID_DATA`) whose `paths` (and message) name every failing path
   * with the type it expected, e.g. `user.age: expected int, got string "x"`. Nothing is validated before writing: the
   * paths are collected only after avsc's writer refused the value.
   */
  encodeInto(value: unknown, target: Uint8Array, offset: number): number
  /**
   * Strict mode: throws a `TypeError` (code `INVALID_DATA`) whose `paths` name every field of `value`, at any depth
   * (nested records, arrays, maps, unions), that the schema does not declare.
   */
  checkStrict(value: unknown): void
  /**
   * Decodes `bytes[offset, end)` (`end` defaults to `bytes.length`), written with the `writer` schema (default: this
   * one), as a value of this codec's schema (the reader schema). The resolver of each writer is built once and
   * cached. Errors: `DeserializationError` (with `cause`) for truncated or malformed data, bytes left after a
   * complete value, and a writer schema that cannot be read as this one; in `longs: 'number'` mode a long beyond
   * the safe integer range throws a `RangeError` (code `INVALID_DATA`) as is (the deserializer makes it the
   * `cause` of its `DeserializationError`).
   */
  decode(bytes: Uint8Array, offset: number, end?: number, writer?: AvroCodec): unknown
}

function label(type: AvscType): string {
  if (type.name !== undefined) return type.name
  // `logical:date` → `date`, `union:wrapped` → `union`, `abstract:long` → `long`.
  const [kind, detail] = type.typeName.split(':')
  if (detail === undefined) return type.typeName
  return kind === 'union' ? 'union' : detail
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

class Codec implements AvroCodec {
  readonly type: AvscType
  readonly schema: object
  readonly fullName: string | undefined
  readonly recordName: string | undefined
  readonly #label: string
  /** Resolvers by writer codec; a failure is kept as its cause (a fresh error is thrown each time). */
  #resolvers: WeakMap<AvroCodec, Resolver | { failure: unknown }> | undefined
  #lastWriter: AvroCodec | undefined
  #lastResolver: Resolver | undefined

  constructor(type: AvscType, schema: object) {
    this.type = type
    this.schema = schema
    const named = type.typeName.startsWith('logical:') ? type.underlyingType : type
    this.fullName = named !== undefined && named.name !== undefined ? named.name : undefined
    this.recordName = this.fullName
    this.#label = label(type)
  }

  encodeInto(value: unknown, target: Uint8Array, offset: number): number {
    try {
      return this.type.encode(value, Buffer.isBuffer(target) ? target : asBuffer(target), offset)
    } catch (error) {
      throw this.#invalid(value, error)
    }
  }

  #invalid(value: unknown, cause: unknown): TypeError {
    let issues: Issue[]
    let truncated = false
    try {
      ;({ issues, truncated } = findIssues(this.type, value))
    } catch (error) {
      // Reading the value threw (a getter, a Proxy trap): that is the reason.
      cause = error
      issues = []
    }
    if (issues.length === 0) {
      issues = [{ path: '', message: `(value): ${messageOf(cause)}` }]
    }
    const stopped = truncated
      ? ` (stopped after ${issues.length} issue${issues.length === 1 ? '' : 's'})`
      : ''
    return dataIssuesError(`Value does not match the Avro schema ${this.#label}${stopped}`, issues, cause)
  }

  checkStrict(value: unknown): void {
    let paths: string[]
    try {
      paths = findUndeclaredFields(this.type, value)
    } catch (cause) {
      // Reading the value threw (a getter, a Proxy trap): a data error, not a foreign exception.
      throw invalidDataError(
        `Value could not be read to check its fields against the Avro schema ${this.#label} (strict mode): ${messageOf(cause)}`,
        [''],
        cause,
      )
    }
    if (paths.length === 0) return
    throw invalidDataError(
      `Value has field${paths.length === 1 ? '' : 's'} not in the Avro schema ${this.#label} (strict mode): ` +
        firstItems(paths, ', '),
      paths,
    )
  }

  // Kept small so that it inlines: everything off the happy path is in the methods below.
  decode(bytes: Uint8Array, offset: number, end?: number, writer?: AvroCodec): unknown {
    let buffer = Buffer.isBuffer(bytes) ? bytes : asBuffer(bytes)
    let stop = buffer.length
    if (end !== undefined && end !== stop) {
      buffer = this.#within(buffer, offset, end)
      stop = end
    } else if (!(offset >= 0 && offset <= stop)) {
      this.#within(buffer, offset, stop)
    }
    const resolver = writer === undefined || writer === this ? undefined : this.#resolverFor(writer)
    resetZeroByteBudget()
    let result: { value: unknown; offset: number }
    try {
      result = this.type.decode(buffer, offset, resolver as never)
    } catch (error) {
      throw this.#failed(error, writer)
    }
    if (result.offset !== stop) throw this.#incomplete(result.offset, offset, stop, writer)
    return result.value
  }

  #within(buffer: Buffer, offset: number, end: number): Buffer {
    if (
      !Number.isInteger(offset) ||
      !Number.isInteger(end) ||
      offset < 0 ||
      end < offset ||
      end > buffer.length
    ) {
      throw invalidConfigError(
        `decode range [${offset}, ${end}) is not within the ${buffer.length} bytes given (0 ≤ offset ≤ end ≤ length)`,
      )
    }
    return buffer.subarray(0, end)
  }

  #failed(error: unknown, writer: AvroCodec | undefined): Error {
    if (isUnsafeLongError(error)) return error
    const message = error instanceof Error ? error.message : String(error)
    return new DeserializationError(`Invalid Avro data for schema ${this.#describe(writer)}: ${message}`, {
      cause: error,
    })
  }

  #incomplete(
    stop: number,
    offset: number,
    end: number,
    writer: AvroCodec | undefined,
  ): DeserializationError {
    const prefix = `Invalid Avro data for schema ${this.#describe(writer)}`
    if (stop < 0)
      return new DeserializationError(`${prefix}: truncated (the ${end - offset} bytes end inside a value)`)
    const trailing = end - stop
    return new DeserializationError(
      `${prefix}: ${trailing} trailing byte${trailing === 1 ? '' : 's'} after a complete value (it ends at offset ${stop} of ${end})`,
    )
  }

  #describe(writer: AvroCodec | undefined): string {
    if (writer === undefined || writer === this) return this.#label
    return `${(writer as Codec).#label} (read as ${this.#label})`
  }

  #resolverFor(writer: AvroCodec): Resolver {
    if (writer === this.#lastWriter) return this.#lastResolver!
    if (!(writer instanceof Codec)) {
      throw invalidConfigError('decode: the writer must be a codec made by createCodec')
    }
    this.#resolvers ??= new WeakMap()
    let entry = this.#resolvers.get(writer)
    if (entry === undefined) {
      try {
        entry = this.type.createResolver(writer.type)
      } catch (error) {
        entry = { failure: error }
      }
      this.#resolvers.set(writer, entry)
    }
    if ('failure' in entry) {
      const cause = entry.failure
      const message = cause instanceof Error ? cause.message : String(cause)
      throw new DeserializationError(
        `Writer schema ${writer.#label} cannot be read as reader schema ${this.#label}: ${message}`,
        { cause },
      )
    }
    this.#lastWriter = writer
    this.#lastResolver = entry
    return entry
  }
}

/**
 * Parses an Avro schema (JSON text or object) into a codec. `references` are the schemas (text or object) of
 * named types defined in other artifacts, in dependency order (a referenced type before the types that use it);
 * they are parsed into the same registry first. An invalid schema throws a `TypeError` (code `INVALID_CONFIG`,
 * message `Invalid Avro schema: ...`, with the avsc error as `cause`); when the failure is a named type that is
 * defined nowhere, `isMissingNamedType(error)` returns its name.
 */
export function createCodec(
  schema: string | object,
  options: NormalizedAvroOptions,
  references?: ReadonlyArray<string | object>,
): AvroCodec {
  const parsed = parseSchema(schema, options, references)
  return new Codec(parsed.type, parsed.json)
}

/**
 * The name of the named type whose absence made `createCodec` fail (e.g. `com.example.Address`), or undefined for
 * any other error: a schema that does not parse on its own for that reason needs its references.
 */
export function isMissingNamedType(error: unknown): string | undefined {
  return missingNamedType(error)
}
