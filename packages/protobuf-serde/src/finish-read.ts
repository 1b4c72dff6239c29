import { unsafeIntegerError } from '@x/errors'
import type { FieldPlan, LongMode, MessagePlan } from './values.js'

/**
 * What `toObject` gives, finished in place: 64-bit integers (protobufjs `Long`s) into `number`/`bigint` per the
 * `longs` mode, and with `keepUnknown` the message's unknown fields kept. A message type's finishing is compiled
 * once into a function that names its 64-bit fields (`out.ts`), as protobufjs compiles its own decoders: the loop
 * over the fields by name that it replaces cost 150 ns per message on the bench record (node 20), as much as the
 * rest of the serde's work around protobufjs.
 */

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** One 64-bit value as `toObject` leaves it (a `Long`, or a number when protobufjs has no `Long`), finished. */
export function longOut(value: unknown, unsigned: boolean, mode: LongMode): unknown {
  if (typeof value === 'number') return mode === 'bigint' ? BigInt(value) : value
  const long = value as { low: number; high: number }
  if (mode !== 'bigint') {
    // Most 64-bit values are small: their two 32-bit halves give the number exactly, with no bigint made.
    const high = unsigned ? long.high >>> 0 : long.high | 0
    if (high >= -0x200000 && high <= 0x1fffff) {
      const n = high * 0x100000000 + (long.low >>> 0)
      if (Number.isSafeInteger(n)) return n
    }
  }
  const big = unsigned
    ? (BigInt(long.high >>> 0) << 32n) | BigInt(long.low >>> 0)
    : (BigInt(long.high | 0) << 32n) | BigInt(long.low >>> 0)
  if (mode === 'bigint') return big
  if (big >= -MAX_SAFE && big <= MAX_SAFE) return Number(big)
  if (mode === 'number') throw unsafeIntegerError('Protobuf 64-bit integer', big, 'longs')
  return big
}

type Finish = (message: Record<string, unknown>, out: Record<string, unknown>, mode: LongMode) => void

/** The compiled finishing of each message type (for reads that drop unknown fields). */
const compiled = new WeakMap<MessagePlan, Finish>()

/**
 * Finishes, in place, a plain object `toObject` made from `message`: 64-bit integers (Long objects) into
 * `number`/`bigint` per `mode`, and with `keepUnknown` the message's unknown fields (`$unknowns`, raw bytes) kept as
 * a non-enumerable `$unknowns` so that writing the object again writes them back.
 */
export function finishRead(
  plan: MessagePlan,
  message: Record<string, unknown>,
  out: Record<string, unknown>,
  mode: LongMode,
  keepUnknown: boolean,
): void {
  if (keepUnknown) {
    if (Object.hasOwn(message, '$unknowns')) {
      Object.defineProperty(out, '$unknowns', { value: message.$unknowns, enumerable: false, writable: true })
    }
    const fields = finishFieldsOf(plan)
    for (let f = 0; f < fields.length; f++) finishField(fields[f]!, message, out, mode, true)
    return
  }
  if (!plan.hasLongs) return
  let finish = compiled.get(plan)
  if (finish === undefined) {
    finish = compileFinish(plan)
    compiled.set(plan, finish)
  }
  finish(message, out, mode)
}

/** The fields a read may have to finish: 64-bit integers, and messages (which may hold them). */
function finishFieldsOf(plan: MessagePlan): readonly FieldPlan[] {
  let fields = plan.finishFields
  if (fields === undefined) {
    fields = plan.fields.filter(
      (field) => field.scalar === 'int64' || field.scalar === 'uint64' || field.message !== undefined,
    )
    plan.finishFields = fields
  }
  return fields
}

/**
 * A function finishing one message type's plain object when unknown fields are dropped: a 64-bit scalar field is
 * read and written by its name; a repeated or map 64-bit field, and a message field that holds 64-bit values, go
 * through {@link finishField}; a message field without any is left alone. Field names are protobuf identifiers,
 * written into the code as JSON string literals.
 */
function compileFinish(plan: MessagePlan): Finish {
  const fields = finishFieldsOf(plan)
  const lines: string[] = []
  fields.forEach((field, i) => {
    const is64 = field.scalar === 'int64' || field.scalar === 'uint64'
    if (!is64 && !field.message?.hasLongs) return
    if (is64 && !field.map && !field.repeated) {
      const key = JSON.stringify(field.name)
      lines.push(
        `v = out[${key}]; if (v !== undefined && v !== null) out[${key}] = longOut(v, ${field.scalar === 'uint64'}, mode)`,
      )
    } else {
      lines.push(`finishField(fields[${i}], message, out, mode, false)`)
    }
  })
  const source = `return function finish(message, out, mode) {\n  let v\n  ${lines.join('\n  ')}\n}`
  return new Function('longOut', 'finishField', 'fields', source)(longOut, finishField, fields) as Finish
}

/** Finishes one field of `out` (a 64-bit integer, list or map of them, or a message, list or map of messages). */
function finishField(
  field: FieldPlan,
  message: Record<string, unknown>,
  out: Record<string, unknown>,
  mode: LongMode,
  keepUnknown: boolean,
): void {
  const item = out[field.name]
  if (item === undefined || item === null) return
  const unsigned = field.scalar === 'uint64'
  if (field.scalar === 'int64' || unsigned) {
    if (field.map) {
      for (const key of Object.keys(item as object)) {
        ;(item as Record<string, unknown>)[key] = longOut(
          (item as Record<string, unknown>)[key],
          unsigned,
          mode,
        )
      }
    } else if (field.repeated) {
      const list = item as unknown[]
      for (let i = 0; i < list.length; i++) list[i] = longOut(list[i], unsigned, mode)
    } else {
      out[field.name] = longOut(item, unsigned, mode)
    }
    return
  }
  const nested = field.message
  if (nested === undefined || (!nested.hasLongs && !keepUnknown)) return
  const source = message[field.name] as Record<string, unknown>
  if (field.map) {
    for (const key of Object.keys(item as object)) {
      finishRead(
        nested,
        (source as Record<string, Record<string, unknown>>)[key]!,
        (item as Record<string, Record<string, unknown>>)[key]!,
        mode,
        keepUnknown,
      )
    }
  } else if (field.repeated) {
    const list = item as Record<string, unknown>[]
    for (let i = 0; i < list.length; i++)
      finishRead(nested, (source as unknown as Record<string, unknown>[])[i]!, list[i]!, mode, keepUnknown)
  } else {
    finishRead(nested, source, item as Record<string, unknown>, mode, keepUnknown)
  }
}
