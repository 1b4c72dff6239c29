import { DeserializationError, describeValue, formatPath, type PathSegment } from '@x/errors'
import { JsonNumberText, type JsonTree, parseJsonTree } from '@x/registry-client/json'
import type { AvscType } from './avsc-internals.js'
import { exactInteger, javaDouble, jsonString } from './json-text.js'

/**
 * Avro's JSON encoding (the specification's "JSON Encoding", as Java's `JsonEncoder`/`JsonDecoder` implement it),
 * by transcoding from and to Avro binary with the same schema: the binary codec keeps every rule about JavaScript
 * values (longs, unions, logical types, validation, schema resolution); this file only maps the two encodings.
 *
 * - null, boolean, string: JSON's; int and long: JSON integers, exact to 64 bits both ways; double: Java's
 *   `Double.toString` (`1.0`, `1.0E10`), NaN and the infinities as the strings Jackson writes; float: as Java writes
 *   it, widened to a double (`0.1f` → `0.10000000149011612`).
 * - bytes and fixed: a string of code points 0–255, one per byte (ISO-8859-1).
 * - enum: the symbol; array: a JSON array; map: a JSON object; record: an object of its fields in schema order.
 * - union: `null` for the null branch, else `{"<branch>": value}` where `<branch>` is the branch's full name
 *   (`string`, `array`, `com.example.User`); a logical type is written as its underlying type.
 */

/** The name Java's JSON encoding gives a union branch: the full name of a named type, else the type's name. */
export function branchLabel(type: AvscType): string {
  const plain = underlying(type)
  switch (plain.typeName) {
    case 'record':
    case 'error':
    case 'enum':
    case 'fixed':
      return plain.name!
    case 'abstract:long':
      return 'long'
    default:
      return plain.typeName
  }
}

function underlying(type: AvscType): AvscType {
  let current = type
  while (current.typeName.startsWith('logical:') && current.underlyingType !== undefined) {
    current = current.underlyingType
  }
  return current
}

// ---------------------------------------------------------------------------------------------------------------
// Binary → JSON (writing). The binary comes from this library's own encoder: well formed by construction.

class BinaryReader {
  readonly buf: Buffer
  pos: number
  constructor(buf: Buffer, start: number) {
    this.buf = buf
    this.pos = start
  }

  /** A zig-zag varint as exact decimal text (a bigint only past 7 bytes, where a double could round). */
  longText(): string {
    const buf = this.buf
    let n = 0
    let shift = 1
    let b: number
    let count = 0
    const start = this.pos
    do {
      b = buf[this.pos++]!
      n += (b & 0x7f) * shift
      shift *= 128
      count++
    } while (b & 0x80 && count < 7)
    if (!(b & 0x80)) return String(n % 2 === 0 ? n / 2 : -(n + 1) / 2)
    this.pos = start
    let big = 0n
    let bigShift = 0n
    do {
      b = buf[this.pos++]!
      big |= BigInt(b & 0x7f) << bigShift
      bigShift += 7n
    } while (b & 0x80)
    return String((big & 1n) === 0n ? big >> 1n : -((big + 1n) >> 1n))
  }

  count(): number {
    return Number(this.longText())
  }

  bytes(length: number): Buffer {
    const out = this.buf.subarray(this.pos, this.pos + length)
    this.pos += length
    return out
  }
}

function writeJson(type: AvscType, r: BinaryReader): string {
  switch (type.typeName) {
    case 'null':
      return 'null'
    case 'boolean':
      return r.buf[r.pos++] === 1 ? 'true' : 'false'
    case 'int':
    case 'long':
    case 'abstract:long':
      return r.longText()
    case 'float': {
      const value = r.buf.readFloatLE(r.pos)
      r.pos += 4
      // Java's JsonEncoder writes a float widened to a double: 0.1f as 0.10000000149011612.
      return javaDouble(value)
    }
    case 'double': {
      const value = r.buf.readDoubleLE(r.pos)
      r.pos += 8
      return javaDouble(value)
    }
    case 'string':
      return jsonString(r.bytes(r.count()).toString('utf8'))
    case 'bytes':
      return jsonString(r.bytes(r.count()).toString('latin1'))
    case 'fixed':
      return jsonString(r.bytes(type.size!).toString('latin1'))
    case 'enum':
      return jsonString(type.symbols![r.count()]!)
    case 'record':
    case 'error': {
      let out = '{'
      for (const field of type.fields!) {
        if (out.length > 1) out += ','
        out += `${jsonString(field.name)}:${writeJson(field.type, r)}`
      }
      return `${out}}`
    }
    case 'array':
    case 'map': {
      const isMap = type.typeName === 'map'
      const items: string[] = []
      for (let n = r.count(); n !== 0; n = r.count()) {
        if (n < 0) {
          n = -n
          r.count() // the block's size in bytes
        }
        for (let i = 0; i < n; i++) {
          const key = isMap ? `${jsonString(r.bytes(r.count()).toString('utf8'))}:` : ''
          items.push(key + writeJson(isMap ? type.valuesType! : type.itemsType!, r))
        }
      }
      return isMap ? `{${items.join(',')}}` : `[${items.join(',')}]`
    }
    case 'union:wrapped':
    case 'union:unwrapped': {
      const branch = type.types![r.count()]!
      if (underlying(branch).typeName === 'null') return 'null'
      return `{${jsonString(branchLabel(branch))}:${writeJson(branch, r)}}`
    }
    default:
      if (type.typeName.startsWith('logical:') && type.underlyingType !== undefined) {
        return writeJson(type.underlyingType, r)
      }
      throw new TypeError(`Avro's JSON encoding has no form for the avsc type '${type.typeName}'`)
  }
}

/** The Avro JSON text of the binary datum `bytes[start, end)` of `type`. */
export function binaryToJson(type: AvscType, bytes: Buffer, start: number): string {
  return writeJson(type, new BinaryReader(bytes, start))
}

// ---------------------------------------------------------------------------------------------------------------
// JSON → binary (reading). The JSON is untrusted: every mismatch is a DeserializationError naming its path.

class BinaryWriter {
  buf = Buffer.allocUnsafe(256)
  pos = 0

  reserve(n: number): void {
    if (this.pos + n <= this.buf.length) return
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n))
    this.buf.copy(next, 0, 0, this.pos)
    this.buf = next
  }

  byte(b: number): void {
    this.reserve(1)
    this.buf[this.pos++] = b
  }

  /** A zig-zag varint of a safe integer. */
  long(n: number): void {
    let z = n >= 0 ? n * 2 : -n * 2 - 1
    this.reserve(10)
    while (z >= 128) {
      this.buf[this.pos++] = (z % 128) | 0x80
      z = Math.floor(z / 128)
    }
    this.buf[this.pos++] = z
  }

  bigLong(n: bigint): void {
    let z = n >= 0n ? n << 1n : (-n << 1n) - 1n
    this.reserve(10)
    while (z >= 128n) {
      this.buf[this.pos++] = Number(z & 0x7fn) | 0x80
      z >>= 7n
    }
    this.buf[this.pos++] = Number(z)
  }

  raw(bytes: Buffer): void {
    this.long(bytes.length)
    this.reserve(bytes.length)
    bytes.copy(this.buf, this.pos)
    this.pos += bytes.length
  }
}

const INT_MIN = -(2n ** 31n)
const INT_MAX = 2n ** 31n - 1n
const LONG_MIN = -(2n ** 63n)
const LONG_MAX = 2n ** 63n - 1n
const NON_FINITE: Readonly<Record<string, number>> = {
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
  '-Infinity': Number.NEGATIVE_INFINITY,
}

function describeJson(value: JsonTree): string {
  if (value instanceof JsonNumberText) return `the number ${value.text}`
  if (value instanceof Map) return 'an object'
  if (Array.isArray(value)) return 'an array'
  return describeValue(value)
}

class JsonReader {
  readonly #path: PathSegment[] = []
  readonly out: BinaryWriter

  constructor(out: BinaryWriter) {
    this.out = out
  }

  fail(expected: string, found: JsonTree | undefined, detail?: string): never {
    const at = formatPath(this.#path) || '(value)'
    const got = found === undefined ? 'nothing' : describeJson(found)
    throw new DeserializationError(`Invalid Avro JSON at ${at}: expected ${expected}, got ${detail ?? got}`)
  }

  within(segment: PathSegment, type: AvscType, value: JsonTree | undefined): void {
    this.#path.push(segment)
    this.read(type, value)
    this.#path.pop()
  }

  latin1(type: AvscType, value: JsonTree | undefined): Buffer {
    if (typeof value !== 'string') this.fail(`${type.typeName} as a string of code points 0–255`, value)
    for (let i = 0; i < value.length; i++) {
      const c = value.charCodeAt(i)
      if (c > 0xff) {
        this.fail(
          `${type.typeName} as a string of code points 0–255`,
          value,
          `code point U+${c.toString(16).toUpperCase().padStart(4, '0')} at index ${i}`,
        )
      }
    }
    return Buffer.from(value, 'latin1')
  }

  read(type: AvscType, value: JsonTree | undefined): void {
    const out = this.out
    switch (type.typeName) {
      case 'null':
        if (value !== null) this.fail('null', value)
        return
      case 'boolean':
        if (typeof value !== 'boolean') this.fail('a boolean', value)
        out.byte(value ? 1 : 0)
        return
      case 'int': {
        const n = value instanceof JsonNumberText ? exactInteger(value.text) : undefined
        if (n === undefined) this.fail('an int', value)
        if (n < INT_MIN || n > INT_MAX)
          this.fail('an int', value, `${(value as JsonNumberText).text}, outside the 32-bit range`)
        out.long(Number(n))
        return
      }
      case 'long':
      case 'abstract:long': {
        const n = value instanceof JsonNumberText ? exactInteger(value.text) : undefined
        if (n === undefined) this.fail('a long', value)
        if (n < LONG_MIN || n > LONG_MAX)
          this.fail('a long', value, `${(value as JsonNumberText).text}, outside the 64-bit range`)
        if (n >= -(2n ** 52n) && n <= 2n ** 52n) out.long(Number(n))
        else out.bigLong(n)
        return
      }
      case 'float':
      case 'double': {
        let n: number
        if (value instanceof JsonNumberText) n = Number(value.text)
        else if (typeof value === 'string' && value in NON_FINITE) n = NON_FINITE[value]!
        else this.fail(`a ${type.typeName} (a number, or "NaN", "Infinity", "-Infinity")`, value)
        const size = type.typeName === 'float' ? 4 : 8
        out.reserve(size)
        if (size === 4) out.buf.writeFloatLE(n, out.pos)
        else out.buf.writeDoubleLE(n, out.pos)
        out.pos += size
        return
      }
      case 'string':
        if (typeof value !== 'string') this.fail('a string', value)
        out.raw(Buffer.from(value, 'utf8'))
        return
      case 'bytes':
        out.raw(this.latin1(type, value))
        return
      case 'fixed': {
        const bytes = this.latin1(type, value)
        if (bytes.length !== type.size) {
          this.fail(`fixed ${type.name} of ${type.size} bytes`, value, `${bytes.length} bytes`)
        }
        out.reserve(bytes.length)
        bytes.copy(out.buf, out.pos)
        out.pos += bytes.length
        return
      }
      case 'enum': {
        const index = typeof value === 'string' ? type.symbols!.indexOf(value) : -1
        if (index < 0) this.fail(`a symbol of enum ${type.name} (${type.symbols!.join(', ')})`, value)
        out.long(index)
        return
      }
      case 'record':
      case 'error': {
        if (!(value instanceof Map)) this.fail(`record ${type.name} as an object`, value)
        for (const field of type.fields!) {
          if (!value.has(field.name)) {
            this.#path.push(field.name)
            this.fail(`field '${field.name}' of record ${type.name}`, undefined, 'no such field')
          }
          this.within(field.name, field.type, value.get(field.name))
        }
        // Fields the schema does not name are skipped, as Java's JsonDecoder skips them.
        return
      }
      case 'array': {
        if (!Array.isArray(value)) this.fail('an array', value)
        if (value.length > 0) {
          out.long(value.length)
          for (let i = 0; i < value.length; i++) this.within(i, type.itemsType!, value[i])
        }
        out.byte(0)
        return
      }
      case 'map': {
        if (!(value instanceof Map)) this.fail('a map as an object', value)
        if (value.size > 0) {
          out.long(value.size)
          for (const [key, item] of value) {
            out.raw(Buffer.from(key, 'utf8'))
            this.within({ key }, type.valuesType!, item)
          }
        }
        out.byte(0)
        return
      }
      case 'union:wrapped':
      case 'union:unwrapped': {
        const branches = type.types!
        const labels = branches.map(branchLabel)
        const expected = `a union of ${labels.join(', ')} (null, or {"<branch>": value})`
        if (value === null) {
          const index = labels.indexOf('null')
          if (index < 0) this.fail(expected, value)
          out.long(index)
          return
        }
        if (!(value instanceof Map) || value.size !== 1) this.fail(expected, value)
        const [label, item] = value.entries().next().value as [string, JsonTree]
        const index = labels.indexOf(label)
        if (index < 0 || label === 'null') {
          this.fail(expected, value, `an object naming the branch ${jsonString(label)}`)
        }
        out.long(index)
        this.within(label, branches[index]!, item)
        return
      }
      default:
        if (type.typeName.startsWith('logical:') && type.underlyingType !== undefined) {
          this.read(type.underlyingType, value)
          return
        }
        throw new TypeError(`Avro's JSON encoding has no form for the avsc type '${type.typeName}'`)
    }
  }
}

/**
 * The Avro binary of the Avro JSON text `text` of `type`. Text that is not JSON, or JSON that does not fit the
 * schema (a wrong union wrapper, a number beyond the long range, bytes with code points above 255, a missing field,
 * a value of the wrong type): `DeserializationError` naming the path. As Java's `JsonDecoder`: fields in any order,
 * fields the schema does not name skipped, an integral number (`1.0`, `1e2`) read as an int or long.
 */
export function jsonToBinary(type: AvscType, text: string): { buf: Buffer; length: number } {
  let parsed: JsonTree
  try {
    parsed = parseJsonTree(text)
  } catch (cause) {
    throw new DeserializationError(
      `Invalid Avro JSON: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    )
  }
  const reader = new JsonReader(new BinaryWriter())
  reader.read(type, parsed)
  return { buf: reader.out.buf, length: reader.out.pos }
}
