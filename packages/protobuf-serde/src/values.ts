import {
  type DataIssue,
  dataIssue,
  dataIssuesError,
  fieldPath,
  indexPath,
  invalidDataError,
  keyPath,
} from '@x/errors'
import { isWellFormed, loneSurrogateProblem } from '@x/serde-core/internal'
import { INT64_MAX, INT64_MIN } from '@x/wire-format'
import protobuf from 'protobufjs'

/**
 * The JavaScript values of Protobuf messages, and their checks. On write, a plain object (or the engine's message
 * instance) is checked field by field and handed to protobufjs's encoder with only what it cannot take converted (a
 * `bigint` for a 64-bit field, an enum's name, a `Map`); on read, what protobufjs's decoder and `toObject` give is
 * finished: 64-bit integers as `number`s while safe and `bigint`s beyond (never rounded), unknown fields kept when
 * asked.
 */

/** How 64-bit integers are read: `auto` (number while safe, bigint beyond), always `number`, always `bigint`. */
export type LongMode = 'auto' | 'number' | 'bigint'

const Long = protobuf.util.Long as unknown as {
  fromBits(low: number, high: number, unsigned: boolean): protobuf.Long
}

type Scalar = 'int32' | 'uint32' | 'int64' | 'uint64' | 'float' | 'bool' | 'string' | 'bytes'

/** The check a protobuf scalar type needs (the wire encodings of one kind share it). */
const SCALARS: Readonly<Record<string, Scalar>> = {
  int32: 'int32',
  sint32: 'int32',
  sfixed32: 'int32',
  uint32: 'uint32',
  fixed32: 'uint32',
  int64: 'int64',
  sint64: 'int64',
  sfixed64: 'int64',
  uint64: 'uint64',
  fixed64: 'uint64',
  float: 'float',
  double: 'float',
  bool: 'bool',
  string: 'string',
  bytes: 'bytes',
}

export interface FieldPlan {
  readonly name: string
  readonly scalar: Scalar | undefined
  readonly enumType: protobuf.Enum | undefined
  readonly message: MessagePlan | undefined
  readonly repeated: boolean
  readonly map: boolean
  /** For a map: the scalar kind of its keys. */
  readonly keyScalar: Scalar | undefined
  readonly oneof: string | undefined
}

/** What is known once per message type. */
export interface MessagePlan {
  readonly type: protobuf.Type
  readonly fields: readonly FieldPlan[]
  readonly oneofs: readonly (readonly string[])[]
  /** Whether a read value needs finishing (a 64-bit field at any depth). */
  readonly hasLongs: boolean
  /** The fields a read may have to finish (64-bit integers, messages), found on the first read. */
  finishFields?: readonly FieldPlan[]
}

const plans = new WeakMap<protobuf.Type, MessagePlan>()

type MutablePlan = { -readonly [K in keyof MessagePlan]: MessagePlan[K] }

/**
 * The plan of a message type, built once with the plans of every message type it reaches, one after the other
 * (never one inside the other: a chain of message types however long takes no stack). Recursive types end: a plan is
 * registered before its fields. `hasLongs` is decided only when the whole graph is built, since a type of a cycle
 * (`A { B b; int64 v }`, `B { A a }`) reaches its 64-bit fields through a plan still being built.
 */
export function planOf(type: protobuf.Type): MessagePlan {
  const known = plans.get(type)
  if (known !== undefined) return known
  const made: MutablePlan[] = []
  const planFor = (reached: protobuf.Type): MessagePlan => {
    const held = plans.get(reached)
    if (held !== undefined) return held
    const plan: MutablePlan = { type: reached, fields: [], oneofs: [], hasLongs: false }
    plans.set(reached, plan)
    made.push(plan)
    return plan
  }
  const root = planFor(type)
  try {
    // `made` grows while it is walked: each plan's fields add the plans of the message types they reach
    for (let at = 0; at < made.length; at++) fillPlan(made[at] as MutablePlan, planFor)
    decideHasLongs(made)
    return root
  } catch (error) {
    for (const plan of made) plans.delete(plan.type)
    throw error
  }
}

function fillPlan(plan: MutablePlan, planFor: (type: protobuf.Type) => MessagePlan): void {
  const fields: FieldPlan[] = []
  for (const field of plan.type.fieldsArray) {
    field.resolve()
    const resolved = field.resolvedType
    fields.push({
      name: field.name,
      scalar: resolved === null ? SCALARS[field.type] : undefined,
      enumType: resolved instanceof protobuf.Enum ? resolved : undefined,
      message: resolved instanceof protobuf.Type ? planFor(resolved) : undefined,
      repeated: field.repeated,
      map: field instanceof protobuf.MapField,
      keyScalar: field instanceof protobuf.MapField ? SCALARS[field.keyType] : undefined,
      oneof:
        field.partOf === null || field.partOf.oneof.length === 0 || isSyntheticOneof(field)
          ? undefined
          : field.partOf.name,
    })
  }
  plan.fields = fields
  plan.oneofs = plan.type.oneofsArray
    .filter((oneof) => !oneof.fieldsArray.every(isSyntheticOneof))
    .map((oneof) => oneof.oneof)
}

/**
 * Sets `hasLongs` of the plans just built, all of whose fields are known now: a plan with a 64-bit field has longs,
 * and so has every plan with a message field whose plan has (repeated until nothing changes: any depth, any cycle).
 * Plans built earlier are final and are only read.
 */
function decideHasLongs(made: readonly MutablePlan[]): void {
  for (const plan of made)
    plan.hasLongs = plan.fields.some((f) => f.scalar === 'int64' || f.scalar === 'uint64')
  let changed = true
  while (changed) {
    changed = false
    for (const plan of made) {
      if (plan.hasLongs) continue
      if (plan.fields.some((f) => f.message?.hasLongs === true)) {
        plan.hasLongs = true
        changed = true
      }
    }
  }
}

/** proto3 `optional` makes a one-field oneof named `_field`: not a real choice. */
function isSyntheticOneof(field: protobuf.Field): boolean {
  const oneof = field.partOf
  return oneof !== null && oneof.oneof.length === 1 && oneof.name === `_${field.name}`
}

// ---------------------------------------------------------------------------------------------------------------
// Write: check and convert.

const INT32_MIN = -0x80000000
const INT32_MAX = 0x7fffffff
const UINT32_MAX = 0xffffffff
const UINT64_MAX = 2n ** 64n - 1n

/**
 * Checks and converts a value for the encoder. Paths cost a string per field, so a first pass runs without them
 * (`withPaths` false: a failure only sets `failed`); only a value that fails is walked again with paths, for the
 * error message.
 */
class Writer {
  /** Failures, by path (`order.lines[2]`, `counts["a"]`) in the notation every format shares. */
  readonly issues: DataIssue[] = []
  readonly withPaths: boolean
  failed = false
  /** How many messages enclose the one being checked (the top message: none). */
  #depth = 0

  constructor(withPaths: boolean) {
    this.withPaths = withPaths
  }

  fail(path: string, expected: string, value: unknown, detail?: string): undefined {
    this.failed = true
    if (!this.withPaths) return undefined
    if (this.issues.length < 100) this.issues.push(dataIssue(path, expected, value, detail))
    return undefined
  }

  /**
   * The message as the encoder takes it: `value` itself when nothing needs converting, else a shallow copy. A message
   * nested deeper than the recursion limit of protobufjs (100, protoc's and Java's default, which their readers
   * refuse beyond) is refused: so is a cycle, which nests without end.
   */
  message(plan: MessagePlan, value: unknown, path: string): unknown {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || ArrayBuffer.isView(value)) {
      return this.fail(path, `a ${plan.type.fullName.slice(1)} message (an object)`, value)
    }
    if (this.#depth > protobuf.util.recursionLimit) return this.#tooDeep(path, value)
    this.#depth++

    const source = value as Record<string, unknown>
    let out: Record<string, unknown> | undefined
    for (const field of plan.fields) {
      const item = source[field.name]
      if (item === undefined || item === null) continue
      const at = this.withPaths ? fieldPath(path, field.name) : ''
      const converted = field.map
        ? this.mapValue(field, item, at)
        : field.repeated
          ? this.list(field, item, at)
          : this.single(field, item, at)
      if (converted !== item) {
        out ??= { ...source }
        out[field.name] = converted
      }
    }
    for (const members of plan.oneofs) {
      const set = members.filter((name) => source[name] !== undefined && source[name] !== null)
      if (set.length > 1) {
        this.fail(
          path,
          `at most one of ${members.join(', ')} (a oneof)`,
          value,
          `with ${set.join(' and ')} set`,
        )
      }
    }
    if (out !== undefined && Object.hasOwn(source, '$unknowns')) {
      Object.defineProperty(out, '$unknowns', { value: source.$unknowns, enumerable: false, writable: true })
    }
    this.#depth--
    return out ?? value
  }

  #tooDeep(path: string, value: unknown): undefined {
    const limit = protobuf.util.recursionLimit
    return this.fail(
      path,
      `a message within ${limit} nested messages (the depth Protobuf readers read)`,
      value,
      `nested deeper than ${limit} messages, or a cycle`,
    )
  }

  list(field: FieldPlan, value: unknown, path: string): unknown {
    if (!Array.isArray(value)) return this.fail(path, `a list (an array) of ${describeField(field)}`, value)
    let out: unknown[] | undefined
    for (let i = 0; i < value.length; i++) {
      const item = value[i]
      const converted = this.single(field, item, this.withPaths ? indexPath(path, i) : '')
      if (converted !== item) {
        out ??= value.slice()
        out[i] = converted
      }
    }
    return out ?? value
  }

  mapValue(field: FieldPlan, value: unknown, path: string): unknown {
    let entries: [unknown, unknown][]
    let isMap = false
    if (value instanceof Map) {
      entries = [...value.entries()]
      isMap = true
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      entries = Object.entries(value)
    } else {
      return this.fail(path, `a map (an object or a Map) of ${describeField(field)}`, value)
    }
    let out: Record<string, unknown> | undefined = isMap ? Object.create(null) : undefined
    for (const [key, item] of entries) {
      const keyText = this.mapKey(field.keyScalar!, key, path)
      if (keyText === undefined) continue
      const at = this.withPaths ? keyPath(path, keyText) : ''
      const converted =
        item === undefined || item === null
          ? this.fail(at, describeField(field), item)
          : this.single(field, item, at)
      if (converted !== item || out !== undefined) {
        out ??= Object.assign(Object.create(null), value) as Record<string, unknown>
        out[keyText] = converted
      }
    }
    return out ?? value
  }

  /** A map key as the encoder takes it: the object key text, checked against the key type. */
  mapKey(scalar: Scalar, key: unknown, path: string): string | undefined {
    if (scalar === 'string') {
      if (typeof key !== 'string') return this.fail(path, 'string map keys', key)
      return isWellFormed(key)
        ? key
        : this.fail(keyPath(path, key), 'a map key', key, loneSurrogateProblem(key))
    }
    if (scalar === 'bool') {
      if (key === true || key === 'true') return 'true'
      if (key === false || key === 'false') return 'false'
      return this.fail(path, 'boolean map keys', key)
    }
    const text = typeof key === 'bigint' || typeof key === 'number' ? String(key) : key
    if (typeof text !== 'string' || !/^-?[0-9]+$/.test(text))
      return this.fail(path, `${scalar} map keys`, key)
    const n = BigInt(text)
    const ok =
      scalar === 'int32'
        ? n >= BigInt(INT32_MIN) && n <= BigInt(INT32_MAX)
        : scalar === 'uint32'
          ? n >= 0n && n <= BigInt(UINT32_MAX)
          : scalar === 'int64'
            ? n >= INT64_MIN && n <= INT64_MAX
            : n >= 0n && n <= UINT64_MAX
    return ok ? text : this.fail(path, `${scalar} map keys`, key, 'out of range')
  }

  single(field: FieldPlan, value: unknown, path: string): unknown {
    if (field.message !== undefined) return this.message(field.message, value, path)
    if (field.enumType !== undefined) return this.enumValue(field.enumType, value, path)
    return this.scalar(field.scalar!, value, path)
  }

  enumValue(type: protobuf.Enum, value: unknown, path: string): unknown {
    if (typeof value === 'string') {
      const number = Object.hasOwn(type.values, value) ? type.values[value] : undefined
      return number === undefined ? this.fail(path, describeEnum(type), value) : number
    }
    if (typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) {
      // proto3 enums are open: a number the schema does not name is kept, as Java keeps it.
      return value
    }
    return this.fail(path, describeEnum(type), value)
  }

  scalar(scalar: Scalar, value: unknown, path: string): unknown {
    switch (scalar) {
      case 'string':
        // UTF-8 cannot hold a lone surrogate: protobufjs would write bytes its own reader refuses.
        if (typeof value !== 'string') return this.fail(path, 'string', value)
        return isWellFormed(value) ? value : this.fail(path, 'string', value, loneSurrogateProblem(value))
      case 'bool':
        return typeof value === 'boolean' ? value : this.fail(path, 'bool (a boolean)', value)
      case 'float':
        return typeof value === 'number' ? value : this.fail(path, 'a number', value)
      case 'bytes':
        return value instanceof Uint8Array ? value : this.fail(path, 'bytes (a Uint8Array)', value)
      case 'int32':
        return Number.isInteger(value) && (value as number) >= INT32_MIN && (value as number) <= INT32_MAX
          ? value
          : this.fail(path, 'int32 (an integer from -2^31 to 2^31 - 1)', value)
      case 'uint32':
        return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= UINT32_MAX
          ? value
          : this.fail(path, 'uint32 (an integer from 0 to 2^32 - 1)', value)
      default:
        return this.long(scalar === 'uint64', value, path)
    }
  }

  long(unsigned: boolean, value: unknown, path: string): unknown {
    const what = unsigned
      ? 'uint64 (a safe integer number or a bigint from 0 to 2^64 - 1)'
      : 'int64 (a safe integer number or a bigint from -2^63 to 2^63 - 1)'
    if (typeof value === 'number') {
      if (Number.isSafeInteger(value) && (!unsigned || value >= 0)) return value
      return this.fail(
        path,
        what,
        value,
        Number.isInteger(value) ? 'beyond 2^53 a number may already be rounded: use a bigint' : undefined,
      )
    }
    if (typeof value === 'bigint') {
      if (unsigned ? value < 0n || value > UINT64_MAX : value < INT64_MIN || value > INT64_MAX) {
        return this.fail(path, what, value)
      }
      return Long.fromBits(
        Number(BigInt.asIntN(32, value)),
        Number(BigInt.asIntN(32, value >> 32n)),
        unsigned,
      )
    }
    // The engine's own Long (a message instance read with the engine's representation).
    if (
      protobuf.util.isInteger((value as { low?: unknown })?.low) &&
      protobuf.util.isInteger((value as { high?: unknown })?.high)
    ) {
      return value
    }
    return this.fail(path, what, value)
  }
}

function describeField(field: FieldPlan): string {
  if (field.message !== undefined) return `${field.message.type.fullName.slice(1)} messages`
  if (field.enumType !== undefined) return describeEnum(field.enumType)
  return field.scalar ?? 'values'
}

function describeEnum(type: protobuf.Enum): string {
  const names = Object.keys(type.values)
  const shown = names.length > 8 ? [...names.slice(0, 8), '…'] : names
  return `enum ${type.fullName.slice(1)} (one of ${shown.join(', ')}, or its number)`
}

/**
 * `value` as protobufjs's encoder takes it, or a `TypeError` (code `INVALID_DATA`) naming every failing path with
 * what it expected. Nothing is copied when nothing needs converting.
 */
export function toEncodable(plan: MessagePlan, value: unknown): unknown {
  let writer = new Writer(false)
  let converted: unknown
  try {
    converted = writer.message(plan, value, '')
    if (!writer.failed) return converted
    writer = new Writer(true)
    writer.message(plan, value, '')
  } catch (cause) {
    // Reading the value threw (a getter, a Proxy trap).
    throw invalidDataError(
      `The value could not be read as a ${plan.type.fullName.slice(1)} message`,
      [''],
      cause,
    )
  }
  const { issues } = writer
  if (issues.length === 0) return converted
  throw dataIssuesError(`Value does not match the Protobuf message ${plan.type.fullName.slice(1)}`, issues)
}
